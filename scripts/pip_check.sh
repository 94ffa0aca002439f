#!/usr/bin/env bash
# `make pip-check` (issue 26): the distribution as a researcher installs it, in fresh venvs WITHOUT
# system site packages (no QGIS, no Debian geo stack):
#   Python 3.11: pip install ".[geo,ml,test]" (torch 2.13.0, the CPU wheel on this machine's disk,
#                installed first) → the qgis-free suite (pytest -m "not qgis").
#   Python 3.13 (pyenv, when present): pip install ".[geo,test]" → the selection, galleries,
#                metrics and statistics tests.
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

PY313="$(pyenv root 2>/dev/null)/versions/3.13.0/bin/python3"
if [ -x "$PY313" ]; then
  echo "== Python 3.13, .[geo,test], no system site packages"
  rm -rf "$ROOT/py313" && "$PY313" -m venv "$ROOT/py313"
  "$ROOT/py313/bin/python" "${PIP[@]}" ".[geo,test]"
  "$ROOT/py313/bin/python" -c "$VERSIONS"
  env -u PYTHONPATH "$ROOT/py313/bin/python" -m pytest -q -m "not qgis" -p no:cacheprovider \
    tests/core/selection tests/core/evaluation/test_galleries.py tests/core/evaluation/test_metrics.py \
    tests/core/evaluation/test_statistics.py tests/core/evaluation/test_retrieval.py
else
  echo "== Python 3.13 not found at $PY313: that half was not run"
fi
