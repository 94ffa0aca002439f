"""Backend profiles: the pinned requirement sets a backend environment is made from
(``resources/backend/profiles.json``; the *full* profile reads ``requirements.lock``), and the
record a finished setup leaves in the environment. Standard library only: QGIS's own Python
imports it (see :mod:`.backend_setup`).
"""
from __future__ import annotations

import json
import re
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

    path = resource("backend", "profiles.json")
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise SetupError(f"the profile list {path} cannot be read ({exc}) — reinstall the plugin") from None


def profile_names() -> list[str]:
    return list(_profiles_data()["profiles"])


def system_modules() -> dict:
    """Modules the profiles take from the operating system → the Debian package that holds each."""
    return dict(_profiles_data().get("system", {}))


def torch_flavour_labels() -> dict:
    return dict(_profiles_data().get("torch_flavours", {}))


def parse_requirements(text: str) -> list[Requirement]:
    out = []
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        match = re.match(r"^([A-Za-z0-9][A-Za-z0-9._-]*)\s*(.*)$", line)
        if not match:
            continue
        pin = re.fullmatch(r"==\s*([^\s,;]+)", match.group(2).strip())
        out.append(Requirement(match.group(1), line, pin.group(1) if pin else None))
    return out


def load_profile(name: str) -> Profile:
    """A profile with its requirements resolved (the full profile reads requirements.lock and
    takes its top-level names from requirements.txt)."""
    data = _profiles_data()
    spec = data["profiles"].get(name)
    if spec is None:
        raise SetupError(f"unknown backend profile {name!r} — choose one of {', '.join(data['profiles'])}")
    profile = Profile(name, spec.get("label", name), spec.get("description", ""), system=dict(data.get("system", {})))
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


def read_profile_file(path: str | Path) -> dict:
    """A profile record (``<venv>/geofidelity-backend.json``, written at the end of a setup)."""
    record = json.loads(Path(path).read_text(encoding="utf-8"))
    if not isinstance(record, dict) or not isinstance(record.get("requirements"), list):
        raise ValueError("not a GeoFidelity profile record (no requirements list)")
    return record
