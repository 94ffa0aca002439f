"""Find file reads and writes that go around the product's I/O helpers (issue 40).

Every table the product reads goes through ``core/tables.py``; every file it writes, replaces or
removes goes through ``core/atomic.py`` / ``core/state_files.py``; every path taken from a data
file goes through ``core/confined_paths.py``. This scanner reads the source statically (``ast``)
and lists each call of a raw primitive — ``csv.reader``, ``json.load``, ``open(…, "w")``,
``Path.write_text``, ``os.replace``, ``unlink``, ``shutil.rmtree``, … — outside those helpers, as
``module:function primitive``. A site that is not a bypass (a file the product made a moment
before in a folder it created, a probe, a test fixture) is listed in :data:`REVIEWED` with its
reason; the layout test fails on any other site, and on a reviewed site that has gone.

``python3 scripts/io_bypass.py`` prints the sites.
"""
from __future__ import annotations

import ast
import sys
from pathlib import Path

PACKAGES = ("geofidelity_plugin", "processing_algorithms")

#: the helpers: the only modules allowed to call the primitives freely
HELPERS = {
    "geofidelity_plugin/core/atomic.py",
    "geofidelity_plugin/core/state_files.py",
    "geofidelity_plugin/core/tables.py",
    "geofidelity_plugin/core/confined_paths.py",
    "geofidelity_plugin/core/documents.py",
    "geofidelity_plugin/core/input_text.py",
}

#: how the helpers are called from other modules (``atomic.write_text(…)`` is the helper's write)
HELPER_NAMES = {Path(module).stem for module in HELPERS}

WRITE_MODES = set("wax+")
_OS_CALLS = {"replace", "rename", "unlink", "remove", "rmdir", "removedirs", "renames"}
_SHUTIL_CALLS = {"rmtree", "copy", "copy2", "copyfile", "copytree", "move"}
_PATH_METHODS = {"unlink", "write_text", "write_bytes", "rmdir"}
_READERS = {("csv", "reader"), ("csv", "DictReader"), ("json", "load")}


def _mode(call: ast.Call, position: int) -> str | None:
    node = call.args[position] if len(call.args) > position else None
    for kw in call.keywords:
        if kw.arg == "mode":
            node = kw.value
    if node is None:
        return "r"
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None  # a computed mode: counted as a write


def primitive(call: ast.Call) -> str | None:
    """The raw I/O primitive ``call`` is, or None."""
    func = call.func
    if isinstance(func, ast.Name) and func.id == "open":
        mode = _mode(call, 1)
        return "open-write" if mode is None or WRITE_MODES & set(mode) else None
    if not isinstance(func, ast.Attribute):
        return None
    owner = func.value.id if isinstance(func.value, ast.Name) else None
    if owner == "os" and func.attr in _OS_CALLS:
        return f"os.{func.attr}"
    if owner == "shutil" and func.attr in _SHUTIL_CALLS:
        return f"shutil.{func.attr}"
    if (owner, func.attr) in _READERS:
        return f"{owner}.{func.attr}"
    if (owner, func.attr) == ("json", "loads") and call.args and any(
            isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in ("read_text", "read_bytes")
            for n in ast.walk(call.args[0])):
        return "json.loads-file"  # a document read straight from a file (decoded on the way or not)
    if owner in ("os", "shutil", "csv", "json") or owner in HELPER_NAMES:
        return None
    if func.attr in _PATH_METHODS:
        return f"Path.{func.attr}"
    if func.attr == "open":  # Path.open(mode), or fiona/rasterio/PIL's open(path, mode)
        first = call.args[0] if call.args else None
        literal = isinstance(first, ast.Constant) and isinstance(first.value, str)
        mode = _mode(call, 0 if literal or not call.args else 1)
        return f"{'Path' if literal else (owner or 'obj')}.open-write" if mode is None or WRITE_MODES & set(mode) else None
    return None


#: context managers of the helpers whose ``as`` name is a path the helper owns (a temporary file it
#: publishes atomically, a staging folder): writing to it is the helper's write, not a bypass
OWNED_PATHS = {"atomic_path", "staged_folder", "state_path", "owned_temp_dir"}


def _called_name(node) -> str | None:
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else None


def _names(node) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


class _Finder(ast.NodeVisitor):
    def __init__(self, module: str):
        self.module, self.scope, self.found, self.owned = module, [], [], set()

    def visit_With(self, node):
        for item in node.items:
            if _called_name(item.context_expr) in OWNED_PATHS and isinstance(item.optional_vars, ast.Name):
                self.owned.add(item.optional_vars.id)
        self.generic_visit(node)

    visit_AsyncWith = visit_With

    def _on_owned(self, node: ast.Call) -> bool:
        """The call's target (its first argument, or the object of a method) is a helper's path."""
        target = node.args[0] if node.args else None
        if isinstance(node.func, ast.Attribute) and not (isinstance(node.func.value, ast.Name)
                                                         and node.func.value.id in ("os", "shutil", "fiona")):
            target = node.func.value
        return target is not None and bool(_names(target) & self.owned)

    def _scoped(self, node):
        self.scope.append(node.name)
        outer, self.owned = self.owned, set(self.owned)  # a name owned in one function is not in another
        self.generic_visit(node)
        self.scope.pop()
        self.owned = outer

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = _scoped

    def visit_Call(self, node: ast.Call):
        kind = primitive(node)
        if kind and not self._on_owned(node):
            self.found.append(f"{self.module}:{'.'.join(self.scope) or '<module>'} {kind}")
        self.generic_visit(node)


def scan_file(path: Path, module: str) -> list[str]:
    finder = _Finder(module)
    finder.visit(ast.parse(path.read_text(encoding="utf-8"), str(path)))
    return finder.found


def scan(root: Path) -> list[str]:
    """Every primitive call outside the helpers, sorted (one entry per call)."""
    found = []
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            module = path.relative_to(root).as_posix()
            if module not in HELPERS:
                found.extend(scan_file(path, module))
    return sorted(found)


if __name__ == "__main__":
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[1]
    sites = scan(root)
    print("\n".join(sites))
    print(f"{len(sites)} sites outside the helpers", file=sys.stderr)
