#!/usr/bin/env bash
# Run the whole suite; "no tests collected" (pytest exit 5) is a failure.
set -uo pipefail
cd "$(dirname "$0")/.."
export QT_QPA_PLATFORM=offscreen HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
# the QGIS every QGIS test runs on, printed at the top of the log
echo "QGIS under test: $(qgis_process.bin --version 2>/dev/null | tr '\n' ' ')"
.venv/bin/python -m pytest tests -ra "$@"
rc=$?
if [ "$rc" -eq 5 ]; then
  echo "no tests were collected — failing" >&2
  exit 1
fi
exit "$rc"
