"""``python -m geofidelity_plugin doctor`` — is this backend environment fit to run GeoFidelity?

Reports the protocol and backend versions, Python, the versions of the heavy libraries, CUDA and
its GPUs (free memory included), MPS, which models are present offline (every model the model
manager knows, ``core/models/registry.py``: the six generators, DINOv2, Mask2Former, SigLIP, CLIP —
in the Hugging Face cache, the models folder and the checkout's ``data/models``), and every problem
with its fix. *Test backend* in
*Settings › Options › GeoFidelity* shows this report.

Healthy means: every requirement of the environment's profile (``<sys.prefix>/geofidelity-backend.json``,
written by *Set up backend…*; without it, the whole ``requirements.lock``) is installed at its
pinned version and its top-level packages import; the system's geo stack imports (pyproj with
its PROJ data); a models folder that was given exists. Missing model weights are notes, not
problems: an environment without weights is healthy; the model manager (`models download`) fetches them.

Everything heavy is imported inside try blocks, so the doctor runs where torch is missing.
"""
from __future__ import annotations

import importlib
import platform
import sys
from importlib import metadata
from pathlib import Path

from geofidelity_plugin.core import events
from geofidelity_plugin.core.errors import InputError
from geofidelity_plugin.backend.commands.doctor_models import locations, models
from geofidelity_plugin.backend_setup.doctor_report import gib, render_text  # noqa: F401 (the text report)

PACKAGES = ("torch", "transformers", "diffusers", "numpy", "osmium", "safetensors")
GIB = 1024 ** 3


def register(sub) -> None:
    p = sub.add_parser(
        "doctor", help="check this backend environment: versions, GPUs, offline models, problems and fixes",
        description="Check the backend environment: protocol and library versions, CUDA/GPUs with free memory, "
                    "MPS, models present offline, and every problem with its fix.",
        epilog="Exit status: 0 when the environment is healthy, 2 when it is not (the report is printed either "
               "way; with --events jsonl the result line carries DOCTOR, the whole report, and HEALTHY, and its "
               "exit_code is 2 when not healthy). --exit-zero exits 0 either way, for drivers that read HEALTHY "
               "(Test backend in QGIS does).")
    p.add_argument("--models-dir", help="models folder to look in (default: the GEOFIDELITY_MODELS_DIR variable)")
    p.add_argument("--profile-file", help="profile record to check against (default: "
                                          "<environment>/geofidelity-backend.json when it exists)")
    p.add_argument("--exit-zero", action="store_true", help="exit 0 even when the environment is not healthy")
    p.set_defaults(func=cmd_doctor)


def cmd_doctor(args) -> int:
    report = diagnose(args.models_dir, args.profile_file)
    print(render_text(report))
    events.value("DOCTOR", report)
    events.value("HEALTHY", report["healthy"])
    for item in report["problems"]:
        events.emit("warning", message=f"{item['problem']} — {item['fix']}")
    for item in report["notes"]:
        events.emit("info", message=f"{item['problem']} — {item['fix']}")
    return 0 if report["healthy"] or args.exit_zero else 2


def diagnose(models_dir: str | None = None, profile_file: str | None = None) -> dict:
    problems: list[dict] = []
    notes: list[dict] = []
    report = {
        "protocol": events.PROTOCOL_VERSION,
        "backend_version": events.backend_version(),
        "python": {"version": platform.python_version(), "executable": sys.executable, "prefix": sys.prefix,
                   "platform": platform.platform()},
        "packages": {name: _version(name) for name in PACKAGES},
    }
    report["profile"], report["requirements"] = check_requirements(profile_file, problems)
    report["system"] = check_system(report["profile"].get("system") or {}, problems)
    report["devices"] = devices(notes)
    report["models"] = models(models_dir, problems, notes)
    report["locations"] = locations(problems)
    report["problems"], report["notes"] = problems, notes
    report["healthy"] = not problems
    return report


def _problem(sink: list, problem: str, fix: str) -> None:
    sink.append({"problem": problem, "fix": fix})


def _version(dist: str) -> str | None:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return None


def _module_of(dist: str) -> str:
    """The importable top-level module of a distribution (ImageHash → imagehash, PyWavelets → pywt)."""
    wanted = dist.lower().replace("-", "_").replace(".", "_")
    try:
        found = metadata.distribution(dist)
    except metadata.PackageNotFoundError:
        return wanted
    names = [n.strip() for n in (found.read_text("top_level.txt") or "").splitlines() if n.strip() and "/" not in n]
    if not names:
        parts = {Path(str(f)).parts[0] for f in (found.files or []) if str(f) and not str(f).startswith("..")}
        names = sorted(p[:-3] if p.endswith(".py") else p for p in parts
                       if not p.endswith((".dist-info", ".pth", ".libs", ".data")) and p != "__pycache__" and "-" not in p)
    for name in names:
        if name.lower() == wanted:
            return name
    return next((n for n in names if not n.startswith("_")), wanted)


def _import_error(module: str) -> str | None:
    try:
        importlib.import_module(module)
    except BaseException as exc:  # noqa: BLE001 — a broken package is a finding, not a crash
        if isinstance(exc, KeyboardInterrupt):
            raise
        return f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}".strip()
    return None


def check_requirements(profile_file: str | None, problems: list) -> tuple[dict, list]:
    """Each requirement: installed version against its pin, and whether the top-level ones import."""
    from geofidelity_plugin.backend_setup import venv_setup as backend_setup

    py = sys.executable
    record_path = Path(profile_file) if profile_file else Path(sys.prefix) / backend_setup.PROFILE_FILE
    record = None
    if profile_file or record_path.is_file():
        try:
            record = backend_setup.read_profile_file(record_path)
        except InputError as exc:  # names the record, what is wrong with it and the fix
            problem, _, fix = str(exc).partition(" — ")
            _problem(problems, problem, fix)
            return {"name": None, "file": str(record_path), "system": backend_setup.system_modules()}, []
    if record is not None:
        name = str(record.get("profile", "custom"))
        reqs = backend_setup.parse_requirements("\n".join(map(str, record["requirements"])))
        top = list(record.get("top_level") or [r.name for r in reqs])
        system = record["system"] if isinstance(record.get("system"), dict) else backend_setup.system_modules()
        profile = {"name": name, "file": str(record_path), "torch_flavour": record.get("torch_flavour"),
                   "created": record.get("created")}
        install_from = record_path.parent / f"geofidelity-requirements-{name}.txt"
    else:
        try:
            full = backend_setup.load_profile("full")
        except backend_setup.SetupError as exc:
            _problem(problems, f"cannot tell which packages this backend needs ({str(exc).split(' — ')[0]})",
                     "run Set up backend… (Settings › Options › GeoFidelity): it records the profile it installs")
            return {"name": None, "file": None, "system": backend_setup.system_modules()}, []
        reqs, top, system = full.requirements, full.top_level, full.system
        profile = {"name": "full", "file": None, "note": "no profile record: the full requirements are expected"}
        install_from = backend_setup._project_file("requirements.lock")
    profile["system"] = system
    top_keys = {backend_setup.normalise(t) for t in top}
    rows, missing, wrong = [], [], []
    for req in reqs:
        if not req.applies():  # a pin for other Pythons or platforms (an environment marker)
            continue
        installed = _version(req.name)
        row = {"name": req.name, "requirement": req.line, "pinned": req.pinned, "installed": installed,
               "top_level": req.key in top_keys, "import_error": None, "ok": False}
        if installed is None:
            missing.append(req)
        elif req.pinned and installed != req.pinned and installed.split("+")[0] != req.pinned:
            wrong.append((req, installed))
        else:
            row["import_error"] = _import_error(_module_of(req.name)) if row["top_level"] else None
            row["ok"] = row["import_error"] is None
            if row["import_error"]:
                _problem(problems, f"{req.name} {installed} is installed but does not import ({row['import_error']})",
                         f"reinstall it: {py} -m pip install --force-reinstall {_quoted(req.line)}")
        rows.append(row)
    label = f"the {profile['name']} profile"
    if missing:
        names = ", ".join(r.name for r in missing)
        _problem(problems, f"{len(missing)} package(s) of {label} are not installed: {names}",
                 _install_fix(py, [r.line for r in missing], install_from))
    if wrong:
        listed = ", ".join(f"{r.name} {v} (pinned {r.pinned})" for r, v in wrong)
        _problem(problems, f"{len(wrong)} package(s) are not at the version {label} pins: {listed}",
                 _install_fix(py, [r.line for r, _ in wrong], install_from))
    return profile, rows


def _quoted(text: str) -> str:
    """A shell word as the platform's shell reads it (cmd.exe and PowerShell take double quotes)."""
    return f'"{text}"' if sys.platform == "win32" else f"'{text}'"


def _install_fix(py: str, lines: list[str], install_from) -> str:
    if len(lines) <= 6 or not install_from or not Path(install_from).is_file():
        return f"install them: {py} -m pip install " + " ".join(_quoted(line) for line in lines)
    return (f"install them: {py} -m pip install -r {install_from} (or run Set up backend… in Settings › Options › "
            "GeoFidelity)")


_PIP_NAMES = {"PIL": "Pillow"}


def check_system(system: dict, problems: list) -> list:
    """The geo stack and friends from the operating system (not pinned by a profile)."""
    rows, broken = [], []
    for module, apt in system.items():
        error = _import_error(module)
        version = str(getattr(sys.modules.get(module), "__version__", "") or "") or None if error is None else None
        if error is None and module == "pyproj":
            error = _proj_data_error()
            if error:
                fix = (f"link the system's PROJ data into this environment: ln -s /usr/share/proj "
                       f"{Path(sys.prefix) / 'share' / 'proj'} (Set up backend… does it), or set PROJ_DATA"
                       if _debian() else "reinstall pyproj from its wheel, which brings its own data: "
                       f"{sys.executable} -m pip install --force-reinstall pyproj, or set PROJ_DATA")
                _problem(problems, f"pyproj finds no PROJ data ({error})", fix)
        elif error:
            broken.append((module, apt, error))
        rows.append({"module": module, "package": apt, "version": version, "error": error})
    if broken:
        said = ", ".join(m if e.startswith("ModuleNotFoundError") else f"{m} ({e})" for m, _, e in broken)
        _problem(problems, f"{len(broken)} module(s) from the operating system do not import: {said}",
                 system_fix([a for _, a, _ in broken], [_PIP_NAMES.get(m, m) for m, _, _ in broken]))
    return rows


def _debian() -> bool:
    return sys.platform.startswith("linux") and Path("/etc/debian_version").is_file()


def system_fix(debian_packages: list[str], pip_names: list[str]) -> str:
    """How to get missing geo-stack modules on this platform: apt only on Debian and its
    derivatives; elsewhere pip wheels into this environment, or a new backend with them."""
    pip = f"{sys.executable} -m pip install {' '.join(pip_names)}"
    if _debian():
        return (f"install them: sudo apt install {' '.join(debian_packages)} and use an environment with system site "
                f"packages (Set up backend… makes one from /usr/bin/python3), or pip install them into this one: {pip}")
    return (f"install them into this environment: {pip}; or run Set up backend… (Settings › Options › GeoFidelity), "
            "which installs the geo stack as pinned wheels on this platform")


def _proj_data_error() -> str | None:
    try:
        import pyproj

        pyproj.datadir.get_data_dir()
    except Exception as exc:  # noqa: BLE001
        return f"PROJ data: {str(exc).splitlines()[0]}"
    return None


def devices(notes: list) -> dict:
    info = {"torch": _version("torch"), "cuda_available": False, "cuda_version": None, "gpus": [],
            "mps_available": False, "error": None}
    if info["torch"] is None:
        info["error"] = "torch not installed"
        return info
    try:
        import torch
    except BaseException as exc:  # noqa: BLE001
        if isinstance(exc, KeyboardInterrupt):
            raise
        info["error"] = f"torch does not import ({type(exc).__name__}: {exc})"
        return info
    return torch_devices(torch, info, notes)


def torch_devices(torch, info: dict, notes: list) -> dict:
    """CUDA, its GPUs with total and free memory, and MPS, as ``torch`` sees them."""
    info["cuda_version"] = getattr(torch.version, "cuda", None)
    try:
        info["cuda_available"] = bool(torch.cuda.is_available())
        for index in range(torch.cuda.device_count() if info["cuda_available"] else 0):
            props = torch.cuda.get_device_properties(index)
            gpu = {"index": index, "name": torch.cuda.get_device_name(index), "total_bytes": int(props.total_memory),
                   "free_bytes": None, "capability": f"{props.major}.{props.minor}"}
            try:
                free, total = torch.cuda.mem_get_info(index)
                gpu.update(free_bytes=int(free), total_bytes=int(total))
            except Exception as exc:  # noqa: BLE001 — a busy or locked GPU still has a name
                gpu["error"] = str(exc).splitlines()[0]
            info["gpus"].append(gpu)
    except Exception as exc:  # noqa: BLE001
        info["error"] = f"CUDA could not be queried ({type(exc).__name__}: {exc})"
    mps = getattr(getattr(torch, "backends", None), "mps", None)
    try:
        info["mps_available"] = bool(mps is not None and mps.is_available())
    except Exception:  # noqa: BLE001
        info["mps_available"] = False
    if info["cuda_version"] and not info["cuda_available"]:
        _problem(notes, f"torch is a CUDA {info['cuda_version']} build but sees no GPU",
                 "check the NVIDIA driver (nvidia-smi) and CUDA_VISIBLE_DEVICES; the backend runs on the CPU meanwhile")
    elif not info["gpus"] and not info["mps_available"]:
        _problem(notes, "no GPU: the backend runs on the CPU",
                 "fine for selection, curation and evaluation of small sets; generation with the registered models "
                 "needs a CUDA GPU (Set up backend… with torch: CUDA on a GPU machine)")
    return info
