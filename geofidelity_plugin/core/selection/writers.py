"""Write the selected segments: a GeoPackage line layer (atomic), and a short HTML summary."""
from __future__ import annotations

import html
from collections import Counter
from pathlib import Path

from .. import atomic
from ..errors import InputError
from .segments import Segment

LAYER_NAME = "segments"

SCHEMA = {
    "geometry": "LineString",
    "properties": {
        "segment_id": "str:64", "city": "str:80", "country": "str:80", "country_code": "str:2",
        "street_name": "str:120", "neighbourhood": "str:120", "neighbourhood_source": "str:16",
        "road_class": "str:32", "highway": "str:32", "length_m": "float",
        "merged_length_m": "float", "centroid_lon": "float", "centroid_lat": "float",
        "driving_side": "str:5", "osm_way_ids": "str:2000", "distance_to_centre_m": "float",
        "selection_rank": "int", "addressable": "int",
    },
}


def check_unique_ids(segments: list[Segment]) -> None:
    """Every later stage keys its rows by ``segment_id``: a layer with one id twice would merge two
    roads' images and scores, so it is never written (the one writer of segments layers checks)."""
    counts = Counter(s.segment_id for s in segments)
    repeated = sorted(sid for sid, n in counts.items() if n > 1)
    if repeated:
        cities = sorted({s.city for s in segments if s.segment_id in repeated})
        raise InputError(f"{len(repeated)} segment_id(s) would be written more than once ({', '.join(repeated[:3])}"
                         f"{' …' if len(repeated) > 3 else ''}; cities {', '.join(cities)}) — nothing written; keep "
                         "one row per city in the city table (names that differ only in case or accents give the "
                         "same ids)")


def segments_gpkg_bytes(segments: list[Segment], context=None) -> bytes:
    """The GeoPackage (a ``segments`` layer in EPSG:4326, plus the non-empty ``context_*`` layers
    of ``context``, a :class:`~.context.ContextLayers`) built in memory: a disk that fills up then
    fails a plain file write, which names the output, instead of a half-written SQLite file
    inside GDAL."""
    import fiona
    from fiona.crs import CRS
    from fiona.io import MemoryFile
    from shapely.geometry import mapping

    from .context import write_context_layers

    check_unique_ids(segments)
    with MemoryFile(ext=".gpkg") as memory:
        # opened by its /vsimem path: MemoryFile.open() holds one layer only
        with fiona.open(memory.name, "w", driver="GPKG", layer=LAYER_NAME, schema=SCHEMA,
                        crs=CRS.from_epsg(4326)) as dst:
            for s in segments:
                props = s.attributes()
                props["addressable"] = int(props["addressable"])
                dst.write({"geometry": mapping(s.geometry), "properties": props})
        if context is not None:
            write_context_layers(memory.name, context)
        return memory.read()


def write_segments_gpkg(segments: list[Segment], path: str | Path) -> Path:
    """Write (or replace, atomically) ``path`` with one ``segments`` layer in EPSG:4326."""
    atomic.write_bytes(path, segments_gpkg_bytes(segments))
    return Path(path)


def read_segments_gpkg(path: str | Path) -> list[dict]:
    """Read the attribute rows (and WKT geometry) of a segments GeoPackage."""
    import fiona
    from shapely.geometry import shape

    rows = []
    with fiona.open(path, layer=LAYER_NAME) as src:
        for feat in src:
            row = dict(feat["properties"])
            row["geometry"] = shape(feat["geometry"])
            rows.append(row)
    return rows


def write_summary_html(segments: list[Segment], path: str | Path, manifest: dict) -> Path:
    """Write (or replace, atomically) the HTML summary at ``path``."""
    atomic.write_text(path, summary_html(segments, manifest))
    return Path(path)



def _count(n: int, one: str, many: str | None = None) -> str:
    """``1 city``, ``3 cities``."""
    return f"{n} {one if n == 1 else (many or one + 's')}"


def _metres(value) -> str:
    """A distance as people write it: ``6000 m``, ``2.5 km`` from 2 500 m on, ``12.5 m``; "—" when unset."""
    if value is None:
        return "—"
    value = float(value)
    if value >= 2500:
        return f"{value / 1000:g} km"
    return f"{value:.0f} m" if value == round(value) else f"{value:g} m"

def summary_html(segments: list[Segment], manifest: dict) -> str:
    """A one-page summary: segments per class and city, lengths, addressability."""
    by_class = Counter(s.road_class for s in segments)
    by_city = Counter(s.city for s in segments)
    unique = sum(s.addressable for s in segments)
    esc = html.escape
    rows = "".join(
        f"<tr><td>{esc(s.segment_id)}</td><td>{esc(s.city)}</td><td>{esc(s.street_name)}</td>"
        f"<td>{esc(s.neighbourhood or '—')}</td><td>{esc(s.road_class)}</td>"
        f"<td class=n>{s.length_m:.0f}</td><td class=n>{s.merged_length_m:.0f}</td>"
        f"<td>{s.driving_side}</td><td>{'yes' if s.addressable else 'no'}</td></tr>"
        for s in segments)
    classes = "".join(f"<tr><td>{esc(k)}</td><td class=n>{v}</td></tr>" for k, v in sorted(by_class.items()))
    cities = "".join(f"<tr><td>{esc(k)}</td><td class=n>{v}</td></tr>" for k, v in sorted(by_city.items()))
    lengths = [s.length_m for s in segments]
    opts = manifest.get("options", {})
    source = str(manifest.get("inputs", {}).get("road_source", ""))
    text = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>GeoFidelity — selected segments</title>
<style>body{{font-family:sans-serif;margin:2em;max-width:70em}}table{{border-collapse:collapse;margin:1em 0}}
td,th{{border:1px solid #bbb;padding:.25em .6em}}th{{background:#eee}}.n{{text-align:right}}</style></head>
<body><h1>Selected road segments</h1>
<p>{_count(len(segments), "segment")} in {_count(len(by_city), "city", "cities")} from {esc(source)}.
Radius {_metres(opts.get('radius_m'))}, minimum length {_metres(opts.get('min_length_m'))}, clipped to
{_metres(opts.get('clip_length_m'))}, spacing ≥ {_metres(opts.get('min_spacing_m'))}, seed {opts.get('seed')}.</p>
<p>Lengths: min {min(lengths, default=0):.0f} m, median {sorted(lengths)[len(lengths) // 2] if lengths else 0:.0f} m,
max {max(lengths, default=0):.0f} m.</p>
<p><b>Addressability:</b> {unique} of {len(segments)} segments have a unique (city, neighbourhood, street).</p>
<h2>Per road class</h2><table><tr><th>class</th><th>segments</th></tr>{classes}</table>
<h2>Per city</h2><table><tr><th>city</th><th>segments</th></tr>{cities}</table>
<h2>Segments</h2><table><tr><th>segment_id</th><th>city</th><th>street</th><th>neighbourhood</th>
<th>class</th><th>length m</th><th>merged m</th><th>driving</th><th>addressable</th></tr>{rows}</table>
<p>Road data © OpenStreetMap contributors (ODbL).</p></body></html>
"""
    return text
