"""Synthetic Mapillary worlds for the fake Graph API (``tests/mapillary_server.py``), placed with
pyproj's geodesic on the WGS84 ellipsoid (independently of the plugin's own local frames).

:func:`dense_street` reproduces what a geographer saw on a real street: a few sequences that
drive the whole segment, a short stretch where dozens of sequences crowd together (a junction
or a square people photograph a lot), and images that the metadata alone rules out — panoramas,
fisheye cameras, night captures, and images taken on a parallel street outside the buffer.
"""
from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass, field

from pyproj import Geod

from mapillary_server import FakeImage

GEOD = Geod(ellps="WGS84")
START = (24.9300, 60.1700)  # Helsinki, a street running due east
DAY = dt.datetime(2021, 6, 15, 10, 0, tzinfo=dt.timezone.utc)  # 13:00 local, sun ~50° high
NIGHT = dt.datetime(2021, 12, 15, 22, 0, tzinfo=dt.timezone.utc)  # sun far below the horizon
REJECTABLE = ("pano", "fisheye", "night", "outside")  # what tiers 1–3 rule out from metadata


def point(along_m: float, north_m: float = 0.0, start=START) -> tuple[float, float]:
    """The point ``along_m`` east of ``start`` on the street and ``north_m`` north of it."""
    lon, lat, _ = GEOD.fwd(*start, 90.0, along_m)
    if north_m:
        lon, lat, _ = GEOD.fwd(lon, lat, 0.0 if north_m > 0 else 180.0, abs(north_m))
    return lon, lat


@dataclass
class World:
    line: list                      # the segment, lon/lat
    length_m: float
    images: list                    # FakeImage
    rejectable: dict = field(default_factory=dict)  # image id → why tiers 1–3 rule it out
    along: dict = field(default_factory=dict)       # image id → metres along the street


def _ms(when: dt.datetime) -> int:
    return int(when.timestamp() * 1000)


def dense_street(length_m: float = 779.0, through: int = 3, through_spacing_m: float = 8.0,
                 cluster_sequences: int = 53, cluster_from_m: float = 420.0, cluster_to_m: float = 490.0,
                 per_cluster_sequence: int = 10, rejectable_every: int = 9, seed: int = 0,
                 start_id: int = 5_100_000_000_000) -> World:
    """A street of ``length_m`` metres: ``through`` sequences along it (one image every
    ``through_spacing_m``), ``cluster_sequences`` sequences of ``per_cluster_sequence`` images
    between ``cluster_from_m`` and ``cluster_to_m``, and every ``rejectable_every``-th image
    one that tiers 1–3 rule out (kinds cycle through :data:`REJECTABLE`; 0: none)."""
    rng = random.Random(seed)
    world = World([START, point(length_m)], length_m, [])
    runs = [(f"through{k}", [through_spacing_m * (j + 0.5) + k for j in range(int(length_m // through_spacing_m))],
             DAY + dt.timedelta(days=40 * k)) for k in range(through)]
    for k in range(cluster_sequences):
        first = rng.uniform(cluster_from_m, cluster_to_m - 20.0)
        runs.append((f"cluster{k:02d}", sorted(first + rng.uniform(0, 20.0) for _ in range(per_cluster_sequence)),
                     DAY + dt.timedelta(days=365 * rng.randrange(0, 3) + rng.randrange(-25, 25),
                                        hours=rng.uniform(-2, 3))))  # summer days of three years
    n = 0
    for name, positions, when in runs:
        sequence = f"{name}{'x' * (22 - len(name))}"
        for j, along in enumerate(positions):
            image_id = str(start_id + 7919 * n)
            kind = (REJECTABLE[(n // rejectable_every) % len(REJECTABLE)]
                    if rejectable_every and n % rejectable_every == 4 else None)
            north = rng.uniform(-8.0, 8.0) if kind != "outside" else rng.choice((-1, 1)) * rng.uniform(40.0, 60.0)
            lon, lat = point(along, north)
            gps_lon, gps_lat = point(along + rng.uniform(-3, 3), north + rng.uniform(-3, 3))
            captured = _ms((NIGHT if kind == "night" else when) + dt.timedelta(seconds=2 * j))
            world.images.append(FakeImage(
                image_id=image_id, lon=lon, lat=lat, gps_lon=gps_lon, gps_lat=gps_lat, captured_at=captured,
                compass_angle=90.0, is_pano=kind == "pano",
                camera_type={"pano": "spherical", "fisheye": "fisheye"}.get(kind, "perspective"),
                sequence=sequence, width=1024, height=768,
                creator={"id": f"{100 + len(name)}{n % 2}", "username": f"{name}_driver"}))
            world.along[image_id] = along
            if kind:
                world.rejectable[image_id] = kind
            n += 1
    return world
