"""Backend profiles: the pinned requirement sets a backend environment is made from
(``resources/backend/profiles.json``; the *full* profile reads ``requirements.lock``), and the
record a finished setup leaves in the environment. Standard library only: QGIS's own Python
imports it (see :mod:`.venv_setup`).

A profile is the same on every platform; two things vary: where the geo stack comes from
(``system``: Debian's packages through system site packages; ``pip``: pinned wheels, the only way
on Windows and macOS) and which package index gives torch for the chosen accelerator
(``platforms`` in the JSON). Pins whose version has no wheel for every Python from 3.10 to 3.13
(numpy 1.26 stops at 3.12) become lines with environment markers, which pip evaluates; the doctor
evaluates them with :func:`marker_applies`.
"""
from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from pathlib import Path


class SetupError(Exception):
    """A setup step failed; the message reads "<problem> — <fix>"."""


class SetupCancelled(SetupError):
    """The user cancelled; the environment has no profile file, so nothing trusts it."""


# --- profiles -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Requirement:
    name: str
    line: str
    pinned: str | None = None
    marker: str | None = None

    def applies(self, python: tuple[int, int] | None = None, platform: str | None = None) -> bool:
        return marker_applies(self.marker, python, platform)

    @property
    def key(self) -> str:
        return normalise(self.name)


@dataclass
class Profile:
    name: str
    label: str = ""
    description: str = ""
    requirements: list[Requirement] = field(default_factory=list)
    top_level: list[str] = field(default_factory=list)
    system: dict = field(default_factory=dict)
    geo_stack: str = "system"

    def has(self, name: str) -> bool:
        return any(r.key == normalise(name) for r in self.requirements)


def normalise(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def package_root() -> Path:
    """The folder that holds the ``geofidelity_plugin`` package (the backend's PYTHONPATH)."""
    from geofidelity_plugin.core.resources import PACKAGE_PARENT

    return PACKAGE_PARENT


def _project_file(name: str) -> Path | None:
    """``requirements.lock`` / ``requirements.txt``: the repository's own, or the copy the plugin
    build puts in ``resources/backend/``."""
    from geofidelity_plugin.core.resources import PLUGIN_ROOT, resource

    for candidate in (PLUGIN_ROOT / name, resource("backend", name)):
        if candidate.is_file():
            return candidate
    return None


def _profiles_data() -> dict:
    from geofidelity_plugin.core.resources import resource

    from geofidelity_plugin.core.documents import read_json  # stdlib only, like this module
    from geofidelity_plugin.core.errors import InputError

    try:
        return read_json(resource("backend", "profiles.json"), "the profile list", "reinstall the plugin")
    except InputError as exc:
        raise SetupError(str(exc)) from None


def profile_names() -> list[str]:
    return list(_profiles_data()["profiles"])


GEO_STACKS = ("system", "pip")


def system_modules() -> dict:
    """Modules the profiles take from the operating system → the Debian package that holds each."""
    return dict(_profiles_data()["geo_stack"]["system"])


def geo_wheels() -> list[Requirement]:
    """The geo stack as pinned pip wheels, for an environment without system site packages."""
    return parse_requirements("\n".join(_profiles_data()["geo_stack"]["pip"]))


def platform_key(platform: str | None = None) -> str:
    platform = platform or sys.platform
    return "win32" if platform.startswith("win") else "darwin" if platform == "darwin" else "linux"


def platform_spec(platform: str | None = None) -> dict:
    return dict(_profiles_data()["platforms"][platform_key(platform)])


def torch_flavours(platform: str | None = None) -> dict:
    """The torch builds this platform offers: key → {label, extra_index?, index_only?}."""
    return dict(platform_spec(platform)["torch"])


def torch_flavour_labels(platform: str | None = None) -> dict:
    return {key: spec["label"] for key, spec in torch_flavours(platform).items()}


def debian_system_python(python: str | None, platform: str | None = None) -> bool:
    """Debian's own /usr/bin/python3: the one Python whose system packages the project is tested
    with (ENVIRONMENT: QGIS's GDAL/PROJ shared with Debian's pyproj, shapely and fiona)."""
    return (platform_key(platform) == "linux" and python == "/usr/bin/python3"
            and Path("/etc/debian_version").is_file())


def default_geo_stack(python: str | None, platform: str | None = None) -> str:
    return "system" if debian_system_python(python, platform) else "pip"


def parse_requirements(text: str) -> list[Requirement]:
    out = []
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        spec, _, marker = line.partition(";")
        match = re.match(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(\[[^\]]*\])?\s*(.*)$", spec.strip())
        if not match:
            continue
        pin = re.fullmatch(r"==\s*([^\s,;]+)", match.group(3).strip())
        out.append(Requirement(match.group(1), line, pin.group(1) if pin else None, marker.strip() or None))
    return out


_MARKER = re.compile(r"""\s*(python_version|sys_platform|platform_system)\s*(<=|>=|==|!=|<|>)\s*["']([^"']*)["']\s*""")
_PLATFORM_SYSTEM = {"linux": "Linux", "win32": "Windows", "darwin": "Darwin"}


def marker_applies(marker: str | None, python: tuple[int, int] | None = None, platform: str | None = None) -> bool:
    """Whether an environment marker holds for ``python`` (major, minor) and ``platform``
    (``sys.platform``). Clauses on python_version, sys_platform and platform_system joined by
    ``and`` / ``or`` (``and`` binds tighter, as in PEP 508); the profiles use no others."""
    if not marker:
        return True
    python = tuple(python or sys.version_info[:2])
    platform = platform or sys.platform
    ops = {"<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
           "==": lambda a, b: a == b, "!=": lambda a, b: a != b}

    def clause(text: str) -> bool:
        match = _MARKER.fullmatch(text)
        if not match:
            raise SetupError(f"the environment marker {text.strip()!r} is not one the profiles use — write markers on "
                             "python_version, sys_platform or platform_system only")
        name, op, value = match.groups()
        if name == "python_version":
            return ops[op](python, tuple(int(p) for p in value.split(".")[:2]))
        have = platform if name == "sys_platform" else _PLATFORM_SYSTEM[platform_key(platform)]
        return ops[op](have, value)

    return any(all(clause(c) for c in re.split(r"\band\b", alt)) for alt in re.split(r"\bor\b", marker))


def _per_python(requirements: list[Requirement]) -> list[Requirement]:
    """Each pin listed under ``per_python`` becomes its lines with environment markers."""
    table = {normalise(k): v for k, v in _profiles_data().get("per_python", {}).items()}
    out = []
    for req in requirements:
        out += parse_requirements("\n".join(table[req.key])) if req.key in table and req.marker is None else [req]
    return out


def load_profile(name: str, geo_stack: str = "system") -> Profile:
    """A profile with its requirements resolved (the full profile reads requirements.lock and
    takes its top-level names from requirements.txt). ``geo_stack="pip"`` adds the geo stack's
    pinned wheels and expects nothing from the operating system."""
    data = _profiles_data()
    spec = data["profiles"].get(name)
    if spec is None:
        raise SetupError(f"unknown backend profile {name!r} — choose one of {', '.join(data['profiles'])}")
    if geo_stack not in GEO_STACKS:
        raise SetupError(f"unknown geo stack {geo_stack!r} — choose one of {', '.join(GEO_STACKS)}")
    profile = _load_pins(name, spec)
    profile.requirements = _per_python(profile.requirements)
    if geo_stack == "pip":
        wheels = geo_wheels()
        keys = {r.key for r in wheels}
        profile.requirements = [r for r in profile.requirements if r.key not in keys] + wheels
        profile.system = {}
    profile.geo_stack = geo_stack
    return profile


def _load_pins(name: str, spec: dict) -> Profile:
    profile = Profile(name, spec.get("label", name), spec.get("description", ""), system=system_modules())
    if "requirements" in spec:
        profile.requirements = parse_requirements("\n".join(spec["requirements"]))
        profile.top_level = list(spec.get("top_level") or [r.name for r in profile.requirements])
        return profile
    lock = _project_file(spec["requirements_file"])
    top = _project_file(spec.get("top_level_file", "requirements.txt"))
    if lock is None or top is None:
        raise SetupError(f"the {name} profile needs {spec['requirements_file']} and "
                         f"{spec.get('top_level_file', 'requirements.txt')}, which are not part of this "
                         "installation — reinstall the plugin from a current zip, or run from a clone")
    profile.requirements = parse_requirements(lock.read_text(encoding="utf-8"))
    pinned = {r.key for r in profile.requirements}
    for req in parse_requirements(top.read_text(encoding="utf-8")):
        profile.top_level.append(req.name)
        if req.key not in pinned:  # taken from the system (e.g. requests on Debian): any version
            profile.requirements.append(Requirement(req.name, req.name))
    return profile


#: what to do about a profile record that cannot be read
RECORD_FIX = "run Set up backend… again (Settings › Options › GeoFidelity), or give an existing record"


def read_profile_file(path: str | Path) -> dict:
    """A profile record (``<venv>/geofidelity-backend.json``, written at the end of a setup); one
    that cannot be read, or that is not a record, is an :class:`~geofidelity_plugin.core.errors.InputError`."""
    from geofidelity_plugin.core.documents import read_json
    from geofidelity_plugin.core.errors import InputError

    record = read_json(path, "the profile record", RECORD_FIX)
    if not isinstance(record.get("requirements"), list):
        raise InputError(f"the profile record {path} is not a GeoFidelity profile record (it has no requirements "
                         f"list) — {RECORD_FIX}")
    return record
