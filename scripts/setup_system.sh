#!/usr/bin/env bash
# Install the Debian packages GeoFidelity needs, only those missing (idempotent).
# QGIS 3.40 LTR comes from Debian's bookworm-backports suite (Debian 12 itself ships 3.22, out of
# support since 2023); the geo stack (pyproj, shapely, fiona, geopandas, scipy, matplotlib) comes
# from Debian: pip wheels that bundle PROJ/GDAL crash QGIS's process at exit.
set -euo pipefail
QGIS_PKGS=(qgis python3-qgis qgis-providers)
QGIS_MIN="3.40"
PKGS=(xvfb xauth python3-geopandas python3-fiona python3-pyproj
      python3-shapely python3-scipy python3-matplotlib python3-venv python3-pip
      python-osmnx-doc opencv-doc unzip chromium fonts-dejavu-core ${GEOFIDELITY_EXTRA_DEBS:-})
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
qgis_ok=1
for p in "${QGIS_PKGS[@]}"; do
  v=$(dpkg-query -W -f='${Status} ${Version}' "$p" 2>/dev/null | sed -n 's/^install ok installed //p' || true)
  if [ -z "$v" ] || dpkg --compare-versions "$v" lt "$QGIS_MIN"; then qgis_ok=0; fi
done
if [ ${#missing[@]} -eq 0 ] && [ "$qgis_ok" -eq 1 ]; then
  echo "system packages: all present (QGIS $(dpkg-query -W -f='${Version}' qgis))"
  exit 0
fi

codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
suite="${codename}-backports"
if [ "$qgis_ok" -eq 0 ]; then
  if [ "$codename" != "bookworm" ]; then
    echo "system packages: this setup knows Debian 12 (bookworm); found '${codename}'." >&2
    echo "  Install QGIS ${QGIS_MIN} or newer from your distribution, then run make again." >&2
    exit 1
  fi
  if ! grep -rqs "bookworm-backports" /etc/apt/sources.list /etc/apt/sources.list.d/; then
    mirror=$(grep -rhs '^URIs:' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -1 | awk '{print $2}')
    mirror=${mirror:-http://deb.debian.org/debian}
    echo "system packages: adding the ${suite} suite (${mirror}) for QGIS ${QGIS_MIN} LTR"
    printf 'Types: deb\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
      "$mirror" "$suite" | $SUDO tee /etc/apt/sources.list.d/geofidelity-backports.sources >/dev/null
  fi
fi
echo "system packages: installing ${missing[*]} ${QGIS_PKGS[*]}"
$SUDO apt-get update -q
if [ ${#missing[@]} -gt 0 ]; then
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
    -o DPkg::Lock::Timeout=300 "${missing[@]}"
fi
if [ "$qgis_ok" -eq 0 ]; then
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
    -o DPkg::Lock::Timeout=300 -t "$suite" "${QGIS_PKGS[@]}"
fi
echo "system packages: QGIS $(dpkg-query -W -f='${Version}' qgis)"
