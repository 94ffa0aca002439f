#!/usr/bin/env bash
# Install the Debian packages GeoFidelity needs, only those missing (idempotent).
# QGIS 3.22 and the geo stack (pyproj, shapely, fiona, geopandas, scipy, matplotlib) come from
# Debian: pip wheels that bundle PROJ/GDAL crash QGIS's process at exit.
set -euo pipefail
PKGS=(qgis python3-qgis qgis-providers xvfb xauth python3-geopandas python3-fiona python3-pyproj
      python3-shapely python3-scipy python3-matplotlib python3-venv python3-pip
      python-osmnx-doc opencv-doc unzip chromium fonts-dejavu-core ${GEOFIDELITY_EXTRA_DEBS:-})
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "system packages: all present"
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "system packages: installing ${missing[*]}"
$SUDO apt-get update -q
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
  -o DPkg::Lock::Timeout=300 "${missing[@]}"
