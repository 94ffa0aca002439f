"""Qt 6 / QGIS 4 names (issue 24): the QGIS side of the plugin, the provider and their tests name only what
exists from QGIS 3.40 (Qt 5) through QGIS 4 (Qt 6).

Nothing here is a hand-kept list: the sources under ``SCANNED`` are parsed with ``ast``, and
every attribute chain rooted at a name imported from ``qgis.PyQt.*`` / ``PyQt5.*`` (``Qt.ItemDataRole.UserRole``,
``QImage.Format.Format_ARGB32``, the imported classes themselves) must resolve in PyQt6 — checked in a
subprocess of a venv with PyQt6 from the package index (``requirements-qt6.txt``; ``make qt6venv``
makes it, this test makes it when it is missing) — and in this QGIS's own PyQt. Every chain rooted at
a ``Qgs*``/``Qgis`` name imported from ``qgis.core``/``qgis.gui`` must resolve in the QGIS 3.40
bindings in its scoped form: no enum member reached straight from a class (``QgsFileWidget.GetFile``,
``Qgis.Critical``, ``QgsProcessingParameterNumber.Double``), no enum that moved to ``Qgis`` reached
through its old class, no 3.x compatibility alias. Calls such as ``QgsProject.instance()`` are fine.
"""
from __future__ import annotations

import ast
import enum
import json
import subprocess
import textwrap
from pathlib import Path

import pytest

from conftest import REPO

#: the folders whose sources are scanned: the QGIS side, the provider, and the tests that drive them
SCANNED = ("geofidelity_plugin", "processing_algorithms", "tests")

QT6_VENV = REPO / ".cache" / "pyqt6-venv"
QT6_REQUIREMENTS = REPO / "requirements-qt6.txt"
QT_PACKAGES = ("qgis.PyQt", "PyQt5")
QGIS_MODULES = ("qgis.core", "qgis.gui")
#: calls that PyQt6 dropped (an instance's ``dialog.exec_()`` has no imported root to resolve)
PYQT5_ONLY_METHODS = ("exec_", "print_")


def sources(folders=SCANNED) -> list[Path]:
    return sorted(p for folder in folders for p in (REPO / folder).rglob("*.py") if "__pycache__" not in p.parts)


def _qt_module(module: str | None) -> str | None:
    """``qgis.PyQt.QtCore`` / ``PyQt5.QtCore`` → ``QtCore``."""
    for package in QT_PACKAGES:
        if module and module.startswith(package + "."):
            return module[len(package) + 1:]
    return None


def _roots(tree: ast.AST) -> tuple[dict, dict]:
    """Imported names anywhere in a file (lazy imports in functions too): ``{name: (QtModule, path)}``
    for Qt, ``{name: module}`` for the QGIS ``Qgs*``/``Qgis`` names."""
    qt, qgis = {}, {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0:
            qt_module = _qt_module(node.module)
            for alias in node.names:
                local = alias.asname or alias.name
                if qt_module is not None:
                    qt[local] = (qt_module, (alias.name,))
                elif node.module in QT_PACKAGES:  # from qgis.PyQt import QtCore
                    qt[local] = (alias.name, ())
                elif node.module in QGIS_MODULES and (alias.name == "Qgis" or alias.name.startswith("Qgs")):
                    qgis[local] = alias.name
        elif isinstance(node, ast.Import):
            for alias in node.names:
                qt_module = _qt_module(alias.name)
                if qt_module is not None and alias.asname:  # import qgis.PyQt.QtCore as QtCore
                    qt[alias.asname] = (qt_module, ())
    return qt, qgis


def _chain(node: ast.AST) -> list[str] | None:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        return [node.id, *reversed(parts)]
    return None


def scan(paths) -> dict:
    """What the files name: ``qt`` {(QtModule, chain): [where]}, ``qgis`` {chain: [where]} and
    ``pyqt5_only`` [(where, call)]."""
    found = {"qt": {}, "qgis": {}, "pyqt5_only": []}
    for path in paths:
        path = Path(path)
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        qt, qgis = _roots(tree)
        where_file = path.relative_to(REPO) if path.is_relative_to(REPO) else path

        def record(kind, key, node):
            found[kind].setdefault(key, []).append(f"{where_file}:{node.lineno}")

        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                for alias in node.names:
                    local = alias.asname or alias.name
                    if local in qt and qt[local][1]:
                        record("qt", qt[local], node)
            if isinstance(node, ast.Attribute) and node.attr in PYQT5_ONLY_METHODS:
                found["pyqt5_only"].append((f"{where_file}:{node.lineno}", node.attr))
            chain = _chain(node) if isinstance(node, ast.Attribute) else None
            if chain is None or getattr(node, "_inner", False):
                continue
            inner = node.value  # the shorter chains inside a longer one are not chains of their own
            while isinstance(inner, ast.Attribute):
                inner._inner = True
                inner = inner.value
            root, rest = chain[0], tuple(chain[1:])
            if root in qt:
                module, path_in = qt[root]
                record("qt", (module, path_in + rest), node)
            elif root in qgis:
                record("qgis", (qgis[root], *rest), node)
    return found


# ---- Qt: every chain resolves in PyQt6 (and in this QGIS's PyQt) ------------------------------

_RESOLVE = textwrap.dedent("""
    import importlib, json, sys
    shim_extras, chains = json.load(sys.stdin)
    missing = []
    for module, chain in chains:
        try:
            obj = importlib.import_module("PyQt6." + module)
        except ImportError as exc:
            missing.append([module, chain, f"no module PyQt6.{module} ({exc})"])
            continue
        extra = shim_extras.get(module, {})
        for i, name in enumerate(chain):
            if i == 0 and name in extra:
                obj = getattr(importlib.import_module("PyQt6." + extra[name]), name)
                continue
            if not hasattr(obj, name):
                missing.append([module, chain, ".".join(chain[:i + 1]) + " does not exist"])
                break
            obj = getattr(obj, name)
    json.dump(missing, sys.stdout)
""")


def qt6_shim_extras() -> dict:
    """What QGIS 4's ``qgis.PyQt.X`` adds to ``PyQt6.X`` by import (QtWidgets' ``QAction``,
    ``QActionGroup``, ``QShortcut`` from QtGui): read from this QGIS's own shim sources, whose Qt 6
    branch is in the same file."""
    import qgis.PyQt

    extras = {}
    for shim in Path(qgis.PyQt.__file__).parent.glob("Qt*.py"):
        for node in ast.walk(ast.parse(shim.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("PyQt6.") \
                    and node.module != f"PyQt6.{shim.stem}":
                for alias in node.names:
                    extras.setdefault(shim.stem, {})[alias.name] = node.module.split(".", 1)[1]
    return extras


def qt6_python() -> Path:
    """The PyQt6 venv's Python, made here when ``make qt6venv`` has not made it."""
    python = QT6_VENV / "bin" / "python"
    probe = [str(python), "-c", "import PyQt6.QtCore"]
    if python.is_file() and subprocess.run(probe, capture_output=True).returncode == 0:
        return python
    steps = [["/usr/bin/python3", "-m", "venv", str(QT6_VENV)],
             [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", "-r", str(QT6_REQUIREMENTS)]]
    for step in steps:
        done = subprocess.run(step, capture_output=True, text=True, timeout=900)
        if done.returncode != 0:
            pytest.fail(f"could not make the PyQt6 venv ({' '.join(step)}): {done.stderr[-2000:]}")
    return python


def qt6_problems(qt_chains: dict) -> list[str]:
    chains = sorted(qt_chains)
    payload = json.dumps([qt6_shim_extras(), [[m, list(c)] for m, c in chains]])
    done = subprocess.run([str(qt6_python()), "-c", _RESOLVE], input=payload, capture_output=True, text=True,
                          timeout=300, env={"QT_QPA_PLATFORM": "offscreen", "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    return [f"{where}: {'.'.join(c)} — Qt 6, PyQt6.{m}: {why}"
            for m, c, why in json.loads(done.stdout) for where in qt_chains[(m, tuple(c))]]


def qt5_problems(qt_chains: dict) -> list[str]:
    import importlib

    problems = []
    for (module, chain), where in sorted(qt_chains.items()):
        obj = importlib.import_module("qgis.PyQt." + module)
        for i, name in enumerate(chain):
            if not hasattr(obj, name):
                problems += [f"{w}: {'.'.join(chain)} — Qt 5, qgis.PyQt.{module}: "
                             f"{'.'.join(chain[:i + 1])} does not exist" for w in where]
                break
            obj = getattr(obj, name)
    return problems


# ---- QGIS: scoped enums, through Qgis, in the 3.40 bindings -----------------------------------

def _is_enum_type(obj) -> bool:
    return isinstance(obj, enum.EnumMeta) or type(obj).__name__ == "enumtype"  # Python enum or sip enum


def _is_enum_member(obj) -> bool:
    return isinstance(obj, enum.Enum) or _is_enum_type(type(obj))


def qgis_problems(qgis_chains: dict) -> list[str]:
    import qgis.core
    import qgis.gui
    from qgis.core import Qgis

    problems = []
    for chain, where in sorted(qgis_chains.items()):
        name = chain[0]
        obj = getattr(qgis.core, name, None)
        obj = getattr(qgis.gui, name, None) if obj is None else obj
        text = ".".join(chain)
        if obj is None:
            problems += [f"{w}: {text} — {name} does not exist in QGIS {Qgis.version()}" for w in where]
            continue
        steps = [(name, obj)]
        for attr in chain[1:]:
            if not hasattr(obj, attr):
                problems += [f"{w}: {text} — {'.'.join(chain[:len(steps) + 1])} does not exist in "
                             f"QGIS {Qgis.version()}" for w in where]
                break
            obj = getattr(obj, attr)
            steps.append((attr, obj))
        else:
            why = _unscoped(steps, Qgis)
            if why:
                problems += [f"{w}: {text} — {why}" for w in where]
    return problems


def _enum_path(enum_type, Qgis) -> str:  # noqa: N803
    if getattr(Qgis, enum_type.__name__, None) is enum_type:
        return f"Qgis.{enum_type.__name__}"
    return enum_type.__qualname__


def _unscoped(steps, Qgis) -> str | None:  # noqa: N803
    """Why a resolved chain is not the scoped, QGIS 4 form of its enum (None when it is)."""
    for i, (attr, obj) in enumerate(steps):
        parent = steps[i - 1][1] if i else None
        if _is_enum_type(obj) and getattr(Qgis, obj.__name__, None) is obj and parent is not Qgis:
            return f"{attr} is the enum Qgis.{obj.__name__} (write Qgis.{obj.__name__})"
        if i and _is_enum_member(obj) and not _is_enum_type(parent):
            scoped = f"{_enum_path(type(obj), Qgis)}.{getattr(obj, 'name', attr)}"
            return f"{attr} is an enum member reached without its enum (write {scoped})"
        if i and isinstance(parent, enum.EnumMeta) and not (isinstance(obj, enum.Enum) and obj.name == attr) \
                and not callable(obj):
            member = next((m for m in parent if m.value == obj), None) if isinstance(obj, int) else None
            hint = f" (write {_enum_path(parent, Qgis)}.{member.name})" if member is not None else ""
            return f"{attr} is a QGIS 3 compatibility alias, not a member of {_enum_path(parent, Qgis)}{hint}"
    return None


def problems_in(paths) -> list[str]:
    """Every problem the check finds in ``paths`` (what the tests below assert is empty)."""
    found = scan(paths)
    return (qt6_problems(found["qt"]) + qt5_problems(found["qt"]) + qgis_problems(found["qgis"])
            + [f"{where}: .{call}() — PyQt6 has no {call}() (write {call[:-1]}())"
               for where, call in found["pyqt5_only"]])


# ---- the checks ---------------------------------------------------------------------------------

def test_the_scan_sees_the_qgis_side():
    found = scan(sources())
    names = {".".join(chain) for _, chain in found["qt"]} | {".".join(chain) for chain in found["qgis"]}
    assert {"QgsProject.instance", "QIcon", "Qgis.ProcessingNumberParameterType.Double"} <= names
    assert len(found["qt"]) > 30 and len(found["qgis"]) > 30


def test_qt_names_resolve_in_pyqt6_and_in_this_qgis():
    found = scan(sources())
    problems = qt6_problems(found["qt"]) + qt5_problems(found["qt"])
    assert not problems, "\n".join(problems)


def test_qgis_enums_are_scoped():
    problems = qgis_problems(scan(sources())["qgis"])
    assert not problems, "\n".join(problems)


def test_no_pyqt5_only_calls():
    calls = scan(sources())["pyqt5_only"]
    assert not calls, calls


PLANTED = '''
from qgis.PyQt.QtCore import Qt
from qgis.PyQt.QtGui import QImage
from qgis.PyQt.QtWidgets import QAction, QDialog
from qgis.core import Qgis, QgsProcessingParameterNumber, QgsProject, QgsWkbTypes, QgsMapLayerType


def planted(item, dialog):
    item.setData(Qt.UserRole, 1)
    number = QgsProcessingParameterNumber("N", "n", QgsProcessingParameterNumber.Double)
    image = QImage(1, 1, QImage.Format_ARGB32)
    level = Qgis.Critical
    kind = QgsWkbTypes.LineGeometry, QgsWkbTypes.GeometryType.Line, Qgis.GeometryType.LineGeometry
    layer = QgsMapLayerType.VectorLayer
    dialog.exec_()
    # scoped and method names: fine
    fine = (Qt.ItemDataRole.UserRole, QImage.Format.Format_ARGB32, Qgis.ProcessingNumberParameterType.Double,
            Qgis.MessageLevel.Critical, Qgis.GeometryType.Line, QgsProject.instance(), QAction, QDialog.exec)
'''


def test_the_check_fails_on_planted_unscoped_names(tmp_path):
    planted = tmp_path / "planted.py"
    planted.write_text(PLANTED)
    problems = problems_in([planted])
    text = "\n".join(problems)
    print(text)
    reported = {p.split(": ", 1)[1].split(" — ")[0] for p in problems}
    assert "Qt.UserRole" in reported and "QImage.Format_ARGB32" in reported
    assert "QgsProcessingParameterNumber.Double" in reported
    assert "QgsProcessingParameterNumber.Double — Double is an enum member reached without its enum " \
           "(write Qgis.ProcessingNumberParameterType.Double)" in text
    assert "Qt.UserRole — Qt 6, PyQt6.QtCore: Qt.UserRole does not exist" in text
    assert "Qgis.Critical — Critical is an enum member reached without its enum (write Qgis.MessageLevel.Critical)" \
        in text
    assert {"QgsWkbTypes.LineGeometry", "QgsWkbTypes.GeometryType.Line", "Qgis.GeometryType.LineGeometry",
            "QgsMapLayerType.VectorLayer"} <= reported
    assert any(".exec_() — PyQt6 has no exec_()" in p for p in problems)
    for fine in ("Qt.ItemDataRole.UserRole", "QImage.Format.Format_ARGB32", "Qgis.ProcessingNumberParameterType.Double",
                 "Qgis.MessageLevel.Critical", "Qgis.GeometryType.Line", "QgsProject.instance", "QAction",
                 "QDialog.exec", "Qt", "QImage", "QDialog"):
        assert fine not in reported, fine
    assert len(problems) == 9, text
