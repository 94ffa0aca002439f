"""The Python a new backend environment is made from, found the way each platform installs one.

Never ``sys.executable``: inside QGIS that is QGIS itself. The candidates, in order:

- **Linux**: Debian's ``/usr/bin/python3`` (its packages are the tested geo stack), then
  ``python3.13`` … ``python3.10`` and ``python3`` on ``PATH``.
- **Windows**: the Python QGIS runs on (``sys.base_prefix``; OSGeo4W and the QGIS installers ship
  a full CPython), then python.org's per-user and all-users folders, then ``python`` on ``PATH``
  (not the Microsoft Store alias, which opens the Store instead of running).
- **macOS**: the Python inside QGIS.app, then python.org's framework builds, then Homebrew
  (Apple silicon and Intel prefixes). ``/usr/bin/python3`` is never tried: it is the Command
  Line Tools' Python 3.9 (below the minimum), or a stub that opens an installer dialog.

Each candidate is run once (``-c`` printing its version, with a time limit) and the first at
3.10 or newer wins; what was tried, and why each was passed over, goes into the message when
none fits, with what to install on that platform.
"""
from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Callable

MIN_PYTHON = (3, 10)
NEWEST_MINOR = 13
PROBE_TIMEOUT_S = 20
_VERSION_CODE = "import sys; print('%d.%d' % sys.version_info[:2])"

INSTALL_ADVICE = {
    "linux": "install Python 3.10 or newer with your distribution (Debian/Ubuntu: sudo apt install python3 "
             "python3-venv; Fedora: sudo dnf install python3) and give its path",
    "win32": "install Python 3.12 from python.org (https://www.python.org/downloads/windows/) or with "
             "`winget install Python.Python.3.12`, then give the path of its python.exe",
    "darwin": "install Python 3.12 from python.org (https://www.python.org/downloads/macos/) or with "
              "`brew install python@3.12`, then give the path of its python3",
}


def _platform_key(platform: str) -> str:
    return "win32" if platform.startswith("win") else "darwin" if platform == "darwin" else "linux"


def candidates(platform: str | None = None, environ: dict | None = None, base_prefix: str | None = None,
               which: Callable[[str], str | None] = shutil.which) -> list[str]:
    """Paths to try, best first, without running anything (a path may not exist)."""
    key = _platform_key(platform or sys.platform)
    environ = dict(os.environ if environ is None else environ)
    base_prefix = base_prefix if base_prefix is not None else sys.base_prefix
    minors = range(NEWEST_MINOR, MIN_PYTHON[1] - 1, -1)
    found: list[str] = []
    if key == "linux":
        found.append("/usr/bin/python3")
        found += [which(f"python3.{m}") or "" for m in minors] + [which("python3") or ""]
    elif key == "win32":
        found.append(str(Path(base_prefix) / "python.exe"))
        local = environ.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
        for root in (Path(local) / "Programs" / "Python", Path(environ.get("ProgramFiles") or r"C:\Program Files")):
            found += [str(root / f"Python3{m}" / "python.exe") for m in minors]
        python = which("python") or ""
        if "WindowsApps" not in python:  # the Store's alias: it opens the Store instead of running
            found.append(python)
    else:
        found.append(str(Path(base_prefix) / "bin" / "python3"))
        found += [f"{app}/Contents/MacOS/bin/python3" for app in ("/Applications/QGIS.app", "/Applications/QGIS-LTR.app")]
        found += [f"/Library/Frameworks/Python.framework/Versions/3.{m}/bin/python3" for m in minors]
        found += [f"{brew}/bin/python3.{m}" for brew in ("/opt/homebrew", "/usr/local") for m in minors]
        found += [f"{brew}/bin/python3" for brew in ("/opt/homebrew", "/usr/local")]
        found += [which("python3") or ""]
        found = [f for f in found if f != "/usr/bin/python3"]
    unique: list[str] = []
    for path in found:
        if path and path not in unique:
            unique.append(path)
    return unique


def probe_version(python: str) -> tuple[int, int] | None:
    """(major, minor) of the Python at ``python``; None when it does not run."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONHOME", "PYTHONPATH", "PYTHONSTARTUP")}
    try:
        out = subprocess.run([python, "-c", _VERSION_CODE], capture_output=True, text=True,
                             timeout=PROBE_TIMEOUT_S, env=env, stdin=subprocess.DEVNULL)
        return tuple(int(p) for p in out.stdout.strip().split(".")[:2]) if out.returncode == 0 else None
    except (OSError, ValueError, subprocess.SubprocessError):
        return None


def find_base_python(platform: str | None = None, paths: list[str] | None = None,
                     probe: Callable[[str], tuple[int, int] | None] = probe_version,
                     exists: Callable[[str], bool] = lambda p: Path(p).is_file()) -> tuple[str | None, list[str]]:
    """The first usable candidate, and a line per candidate passed over."""
    passed: list[str] = []
    for path in paths if paths is not None else candidates(platform):
        if not exists(path):
            continue
        version = probe(path)
        if version is None:
            passed.append(f"{path} does not run")
        elif tuple(version) < MIN_PYTHON:
            passed.append(f"{path} is Python {version[0]}.{version[1]}")
        else:
            return path, passed
    return None, passed


def no_python_message(platform: str | None = None, passed: list[str] | None = None) -> str:
    key = _platform_key(platform or sys.platform)
    seen = f" ({'; '.join(passed)})" if passed else ""
    return (f"no Python {MIN_PYTHON[0]}.{MIN_PYTHON[1]} or newer was found on this computer{seen} — "
            f"{INSTALL_ADVICE[key]}")


@functools.lru_cache(maxsize=None)
def default_base_python() -> str | None:
    return find_base_python()[0]
