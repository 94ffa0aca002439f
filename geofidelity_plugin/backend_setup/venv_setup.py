"""Set up a GeoFidelity backend environment: a venv with one profile's pinned requirements.

*Set up backend…* in *Settings › Options › GeoFidelity* runs this inside QGIS's own Python, so it
imports the standard library only and never installs anything into the interpreter it runs in:
every step is a child process (``<python> -m venv``, ``<venv python> -m pip install``, the
doctor), each in its own process group so that Cancel stops it with all its children
(:mod:`.step_runner`).

Profiles (``resources/backend/profiles.json``, :mod:`.profiles`): *light* pins what the stages
without a neural network need (selection, Mapillary, coverage, galleries, release, report);
*full* is the project's ``requirements.lock``. The geo stack (pyproj, shapely, fiona, rasterio,
scipy, matplotlib, Pillow, requests) comes from one of two places:

- ``system`` — Debian's packages, through a venv made ``--system-site-packages`` from
  ``/usr/bin/python3`` (the default there): the versions the project is tested with, sharing
  QGIS's own GDAL/PROJ; ``<venv>/share/proj`` is linked to the system's PROJ data;
- ``pip`` — pinned wheels in a venv of its own (the default everywhere else: Windows, macOS,
  other Linux distributions, another base Python).

The torch build follows the platform (``platforms`` in the JSON): on Linux the CPU build from
download.pytorch.org or PyPI's CUDA build; on Windows PyPI's CPU build or the CUDA build from
download.pytorch.org; on macOS PyPI's build, which drives Apple GPUs (MPS).

Command line: ``python3 -m geofidelity_plugin.backend_setup --venv DIR [--python P]
[--profile light|full] [--torch FLAVOUR] [--geo-stack system|pip]``.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
from datetime import datetime, timezone
from pathlib import Path

PROFILE_FILE = "geofidelity-backend.json"
#: pip's own wait per network read and its retries, stated rather than left to pip's defaults
PIP_NETWORK = ["--timeout", "60", "--retries", "3"]
_PIP_SOURCES = ("PIP_FIND_LINKS", "PIP_EXTRA_INDEX_URL", "PIP_INDEX_URL", "PIP_NO_INDEX", "PIP_CONSTRAINT")


from geofidelity_plugin.core import atomic
from geofidelity_plugin.backend_setup.base_python import (MIN_PYTHON, default_base_python, find_base_python,
                                                          no_python_message)
from geofidelity_plugin.backend_setup.pip_output import PipProgress, pip_failure  # noqa: F401 (public here too)
from geofidelity_plugin.backend_setup.profiles import (GEO_STACKS, Profile, Requirement, SetupCancelled, SetupError, _project_file, debian_system_python, default_geo_stack, load_profile, normalise, package_root, parse_requirements, platform_key, profile_names, read_profile_file, system_modules, torch_flavour_labels, torch_flavours)
from geofidelity_plugin.backend_setup.step_runner import (STEP_LIMIT_S, STEP_LIMIT_VARIABLE,  # noqa: F401
                                                          TERMINATE_GRACE_S, StepRunner)

#: every torch flavour some platform offers (each platform's own: torch_flavours(platform))
TORCH_FLAVOURS = ("configured", "cpu", "cuda", "mps")

#: the profile names are re-exported: the settings page, the doctor and the tests read them from here
__all__ = ["BackendSetup", "PipProgress", "Profile", "Requirement", "SetupCancelled", "SetupError", "_project_file",
           "child_environment", "default_base_python", "default_geo_stack", "default_venv_dir", "find_base_python",
           "load_profile", "main", "normalise", "package_root", "parse_requirements", "pip_failure",
           "profile_names", "read_profile_file", "system_modules", "torch_flavour_labels", "torch_flavours",
           "venv_python", "GEO_STACKS", "PROFILE_FILE", "TORCH_FLAVOURS"]


# --- places ---------------------------------------------------------------------------------

def default_venv_dir() -> Path:
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local") / "GeoFidelity"
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support" / "GeoFidelity"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "geofidelity"
    return base / "backend"


def venv_python(venv: str | Path) -> Path:
    venv = Path(venv)
    return venv / "Scripts" / "python.exe" if sys.platform == "win32" else venv / "bin" / "python"


def child_environment(extra: dict | None = None, base: dict | None = None) -> dict:
    """A clean environment for child Pythons: none of QGIS's own Python settings."""
    base = os.environ if base is None else base
    env = {k: v for k, v in base.items() if k not in ("PYTHONHOME", "PYTHONPATH", "PYTHONSTARTUP")}
    env.update(PYTHONIOENCODING="utf-8", PYTHONUNBUFFERED="1")
    env.update(extra or {})
    return env


# --- the setup ------------------------------------------------------------------------------

class BackendSetup(StepRunner):
    """Create or reuse a venv, install a profile, record it, run the doctor.

    ``on_line(text)`` receives every log line, ``on_progress(fraction, stage)`` the progress;
    both are called from the thread that runs :meth:`run`. :meth:`cancel` may be called from any
    thread: it stops the running child's whole process group."""

    def __init__(self, venv, python: str | None = None, profile: str | Profile = "light",
                 torch: str = "configured", system_site_packages: bool | None = None,
                 models_dir: str | None = None, on_line=None, on_progress=None, geo_stack: str | None = None,
                 platform: str | None = None, environment: dict | None = None, secrets: tuple = ()):
        self.platform = platform or sys.platform
        offered = torch_flavours(self.platform)
        if torch not in offered:
            raise SetupError(f"unknown torch flavour {torch!r} for {platform_key(self.platform)} — choose one of "
                             f"{', '.join(offered)}")
        self.venv = Path(venv).expanduser().absolute()
        self.python = python or default_base_python()
        self.torch = torch
        if geo_stack is None:  # the check box "use the system's packages" says it, or the platform does
            geo_stack = default_geo_stack(self.python, self.platform) if system_site_packages is None \
                else "system" if system_site_packages else "pip"
        if geo_stack not in GEO_STACKS:
            raise SetupError(f"unknown geo stack {geo_stack!r} — choose one of {', '.join(GEO_STACKS)}")
        self._profile_choice = profile
        self._set_geo_stack(geo_stack)
        self.models_dir = models_dir
        # the environment the steps start from (QGIS passes its proxy settings in it) and what in it
        # must never reach the log (a proxy password)
        self.environment = dict(os.environ if environment is None else environment)
        self.secrets = tuple(secrets)
        self.on_line = on_line or (lambda text: None)
        self.on_progress = on_progress or (lambda fraction, stage: None)
        self.cancelled = threading.Event()
        self._proc: subprocess.Popen | None = None
        self._lock = threading.Lock()

    def _set_geo_stack(self, geo_stack: str) -> None:
        """The geo stack decides the venv kind and the pins: ``system`` is a venv with system site
        packages and Debian's geo stack; ``pip`` a venv of its own with the pinned wheels."""
        self.geo_stack = geo_stack
        self.system_site_packages = geo_stack == "system"
        choice = self._profile_choice
        self.profile = choice if isinstance(choice, Profile) else load_profile(choice, geo_stack)

    # public

    def run(self) -> dict:
        """Everything, in order; returns the doctor's report of the new environment."""
        self._progress(0.0, "checking")
        reuse = self._prepare_folder()
        if not reuse:
            self._create_venv()
        self._link_proj()
        (self.venv / PROFILE_FILE).unlink(missing_ok=True)  # the environment changes: no stale record
        self._install()
        if self.cancelled.is_set():
            raise self._cancelled()
        self._write_profile_file()
        self._progress(0.96, "running the doctor")
        report = self._doctor()
        self._progress(1.0, "done")
        if not report.get("healthy"):
            first = (report.get("problems") or [{}])[0]
            raise SetupError(f"the environment at {self.venv} was set up, but the doctor finds a problem: "
                             f"{first.get('problem', 'unknown')} — {first.get('fix', 'see the report')}")
        return report

    # steps

    def _prepare_folder(self) -> bool:
        """True when the folder already holds a venv to reuse."""
        for running in {Path(sys.prefix).resolve(), Path(sys.base_prefix).resolve()}:
            if self.venv.resolve() == running:
                raise SetupError(f"{self.venv} is the Python environment this program runs in — choose another "
                                 "folder: Set up backend never changes the Python it runs in")
        if (self.venv / "pyvenv.cfg").is_file() and venv_python(self.venv).exists():
            config = (self.venv / "pyvenv.cfg").read_text(encoding="utf-8", errors="replace")
            with_system = bool(re.search(r"include-system-site-packages\s*=\s*true", config, re.I))
            self._set_geo_stack("system" if with_system else "pip")  # what the folder holds decides
            self._log(f"reusing the environment at {self.venv}")
            return True
        if self.venv.exists() and (not self.venv.is_dir() or any(self.venv.iterdir())):
            raise SetupError(f"{self.venv} exists and is not a Python environment — choose a new or empty folder, "
                             "or an existing venv to reuse")
        self._check_base_python()
        try:
            self.venv.mkdir(parents=True, exist_ok=True)
            probe = self.venv / ".geofidelity-write-probe"
            probe.write_text("", encoding="utf-8")
            probe.unlink()
        except OSError as exc:
            raise SetupError(f"cannot create the environment in {self.venv} ({exc.strerror or exc}) — choose a "
                             "folder you can write to") from None
        return False

    def _check_base_python(self) -> None:
        if not self.python:
            found, passed = find_base_python(self.platform)
            raise SetupError(no_python_message(self.platform, passed))
        if not Path(self.python).is_file():
            raise SetupError(f"the base Python {self.python} was not found — give the path of a Python "
                             f"{'.'.join(map(str, MIN_PYTHON))} or newer, or leave the field empty to let GeoFidelity "
                             "look for one")
        try:
            out = subprocess.run([self.python, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
                                 capture_output=True, text=True, timeout=60, env=child_environment())
            version = tuple(int(p) for p in out.stdout.strip().split("."))
        except (OSError, ValueError, subprocess.SubprocessError) as exc:
            raise SetupError(f"the base Python {self.python} does not run ({exc}) — give the path of a working "
                             "Python 3.10 or newer") from None
        if version < MIN_PYTHON:
            raise SetupError(f"the base Python {self.python} is Python {'.'.join(map(str, version))}; GeoFidelity "
                             f"needs {'.'.join(map(str, MIN_PYTHON))} or newer — choose a newer Python, or "
                             f"{no_python_message(self.platform).split(' — ', 1)[1]}")

    def _create_venv(self) -> None:
        self._progress(0.01, "creating the environment")
        argv = [self.python, "-m", "venv", *(["--system-site-packages"] if self.system_site_packages else []),
                str(self.venv)]
        code, tail = self._run(argv, child_environment(base=self.environment), step="creating the environment")
        if code != 0:
            said = " | ".join(line.strip() for line in tail if line.strip())[-400:]
            venv_fix = ("install the venv module (sudo apt install python3-venv)"
                        if debian_system_python(self.python, self.platform) else "install a Python with its venv module")
            fix = (f"{venv_fix} or choose another Python" if "ensurepip" in said or "venv" in said
                   else "choose another Python or folder")
            raise SetupError(f"{self.python} could not create the environment at {self.venv} ({said}) — {fix}")

    def _link_proj(self) -> None:
        """Debian's pyproj looks for PROJ data under ``sys.prefix/share/proj``."""
        system = Path("/usr/share/proj")
        target = self.venv / "share" / "proj"
        if self.system_site_packages and system.is_dir() and not target.exists() and sys.platform != "win32":
            try:
                target.parent.mkdir(parents=True, exist_ok=True)
                target.symlink_to(system)
            except OSError as exc:
                self._log(f"warning: could not link {target} to {system} ({exc}); pyproj may not find its data")

    def pip_command(self, requirements_file: Path) -> tuple[list[str], dict]:
        """pip's command line and environment for this profile and torch flavour."""
        argv = [str(venv_python(self.venv)), "-m", "pip", "install", "--progress-bar", "off",
                "--disable-pip-version-check", "--no-input", *PIP_NETWORK, "-r", str(requirements_file)]
        env = child_environment({"PYTHONNOUSERSITE": "1"}, self.environment)  # everything pip adds lands in the venv
        build = torch_flavours(self.platform)[self.torch] if self.profile.has("torch") else {}
        if build.get("extra_index"):  # its local-version builds (2.x.y+cpu, +cu128) win over PyPI's
            argv += ["--extra-index-url", build["extra_index"]]
        if build.get("index_only"):  # the package indexes, not a configured local CPU wheel
            env = {k: v for k, v in env.items() if k not in _PIP_SOURCES}
            env["PIP_CONFIG_FILE"] = os.devnull
        return argv, env

    def requirement_lines(self) -> list[str]:
        """The profile's pins, plus what this torch build alone installs (``extra_requirements``:
        the CUDA builds' torchvision, for JPEG decoding on the GPU)."""
        build = torch_flavours(self.platform)[self.torch] if self.profile.has("torch") else {}
        return [r.line for r in self.profile.requirements] + list(build.get("extra_requirements", []))

    def _install(self) -> None:
        pins = self.venv / f"geofidelity-requirements-{self.profile.name}.txt"
        atomic.write_text(pins, "\n".join(self.requirement_lines()) + "\n")
        argv, env = self.pip_command(pins)
        self._progress(0.05, "resolving and downloading")
        self._log(f"installing the {self.profile.name} profile ({len(self.profile.requirements)} requirements, "
                  f"torch: {self.torch if self.profile.has('torch') else 'not in this profile'})")
        code, tail = self._run(argv, env, PipProgress(len(self.profile.requirements)), step="installing")
        if code != 0:
            raise SetupError(pip_failure(code, tail, self.profile.name))

    def _write_profile_file(self) -> None:
        from geofidelity_plugin.core.events import backend_version

        record = {"profile": self.profile.name, "requirements": [r.line for r in self.profile.requirements],
                  "top_level": self.profile.top_level, "system": self.profile.system,
                  "torch_flavour": self.torch if self.profile.has("torch") else None,
                  "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                  "base_python": self.python, "system_site_packages": self.system_site_packages,
                  "geo_stack": self.geo_stack, "platform": platform_key(self.platform),
                  "geofidelity_version": backend_version()}
        atomic.write_text(self.venv / PROFILE_FILE, json.dumps(record, indent=2) + "\n")

    def _doctor(self) -> dict:
        argv = [str(venv_python(self.venv)), "-m", "geofidelity_plugin", "--events", "jsonl", "doctor", "--exit-zero"]
        if self.models_dir:
            argv += ["--models-dir", self.models_dir]
        lines: list[str] = []
        code, tail = self._run(argv, child_environment({"PYTHONPATH": str(package_root())}, self.environment), sink=lines,
                               step="running the doctor")
        final = None
        for line in lines:
            try:
                event = json.loads(line)
            except ValueError:
                continue
            if isinstance(event, dict) and event.get("event") in ("result", "error"):
                final = event
        if final is not None and final["event"] == "result" and "DOCTOR" in (final.get("values") or {}):
            return final["values"]["DOCTOR"]
        said = (final or {}).get("message") or " | ".join(t.strip() for t in tail if t.strip())[-400:]
        raise SetupError(f"the doctor did not run in the new environment ({said or f'exit {code}'}) — run "
                         f"`{venv_python(self.venv)} -m geofidelity_plugin doctor` to see why")


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python3 -m geofidelity_plugin.backend_setup",
                                     description="Create (or reuse) a GeoFidelity backend environment and install "
                                                 "a profile's pinned requirements; then run the doctor. Exit 0 when "
                                                 "the new backend is healthy, 2 otherwise, 130 when interrupted.")
    parser.add_argument("--venv", required=True, help="environment folder (new, empty, or an existing venv to reuse)")
    parser.add_argument("--python", help=f"base Python for a new venv (default: {default_base_python()})")
    parser.add_argument("--profile", default="light", choices=profile_names())
    flavours = torch_flavour_labels()
    parser.add_argument("--torch", default="configured", choices=list(flavours),
                        help="; ".join(f"{key}: {label}" for key, label in flavours.items()) + " (default %(default)s)")
    parser.add_argument("--geo-stack", choices=GEO_STACKS,
                        help="system: Debian's geo stack through a venv with system site packages; pip: pinned "
                             "wheels in a venv of its own (default: system with Debian's /usr/bin/python3, else pip)")
    parser.add_argument("--no-system-site-packages", action="store_true",
                        help="the same as --geo-stack pip")
    parser.add_argument("--models-dir", help="models folder the doctor looks in")
    args = parser.parse_args(argv)
    shown = {}

    def progress(fraction: float, stage: str) -> None:
        if shown.get("last") != (int(100 * fraction), stage):
            shown["last"] = (int(100 * fraction), stage)
            print(f"[{100 * fraction:3.0f} %] {stage}", flush=True)

    setup = None

    def terminated(signum, frame):  # SIGTERM: stop pip's group too, and say so (not a silent 143)
        raise KeyboardInterrupt

    if threading.current_thread() is threading.main_thread():
        import signal

        signal.signal(signal.SIGTERM, terminated)
    try:
        setup = BackendSetup(args.venv, args.python, args.profile, args.torch,
                             False if args.no_system_site_packages else None, args.models_dir,
                             on_line=lambda text: print(text, flush=True), on_progress=progress,
                             geo_stack=args.geo_stack)
        report = setup.run()
    except KeyboardInterrupt:
        if setup is not None:
            setup.cancel()
        print("error: interrupted — the environment is incomplete and has no profile record; run the setup again "
              "(it reuses the folder)", file=sys.stderr)
        return 130
    except SetupError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 130 if isinstance(exc, SetupCancelled) else 2
    from geofidelity_plugin.backend_setup.doctor_report import render_text

    print(render_text(report))
    print(f"backend ready: {venv_python(setup.venv)} (profile {report.get('profile', {}).get('name')}, healthy) — "
          "give it as the backend Python in Settings › Options › GeoFidelity")
    return 0


if __name__ == "__main__":
    sys.exit(main())
