"""Metric geometry around a city centre (method §1: lengths and distances in metres, never
degrees).

Every city is worked in its own azimuthal-equidistant projection centred on the city centre:
within the 6 km selection radius its scale error is below one part in a million, so lengths
and centroid distances measured there agree with geodesic ones to well under a centimetre per
kilometre (the tests check this against ``pyproj.Geod``).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from pyproj import Geod, Transformer
from shapely.geometry import LineString, MultiLineString
from shapely.ops import transform

WGS84_GEOD = Geod(ellps="WGS84")


@dataclass
class LocalFrame:
    """Forward/inverse transforms between WGS84 lon/lat and metres around one centre."""

    lon0: float
    lat0: float

    def __post_init__(self):
        proj = (f"+proj=aeqd +lat_0={self.lat0:.9f} +lon_0={self.lon0:.9f} "
                "+x_0=0 +y_0=0 +datum=WGS84 +units=m +no_defs")
        self._fwd = Transformer.from_crs("EPSG:4326", proj, always_xy=True)
        self._inv = Transformer.from_crs(proj, "EPSG:4326", always_xy=True)
        self.proj4 = proj

    def to_metric(self, lon, lat):
        return self._fwd.transform(lon, lat)

    def to_lonlat(self, x, y):
        return self._inv.transform(x, y)

    def line_to_metric(self, coords) -> LineString:
        arr = np.asarray(coords, dtype=float)
        x, y = self._fwd.transform(arr[:, 0], arr[:, 1])
        return LineString(np.column_stack([x, y]))

    def geometry_to_lonlat(self, geom):
        return transform(lambda x, y, z=None: self._inv.transform(x, y), geom)


def geodesic_length_m(geom) -> float:
    """Geodesic length on the WGS84 ellipsoid of a lon/lat (Multi)LineString."""
    if isinstance(geom, MultiLineString):
        return sum(geodesic_length_m(part) for part in geom.geoms)
    lons, lats = zip(*[(c[0], c[1]) for c in geom.coords])
    return float(WGS84_GEOD.line_length(lons, lats))


def geodesic_distance_m(lon1, lat1, lon2, lat2) -> float:
    return float(WGS84_GEOD.inv(lon1, lat1, lon2, lat2)[2])
