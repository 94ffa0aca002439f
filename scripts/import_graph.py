"""The source's import graph, read statically (the files are parsed, never imported).

Prints the import cycles between modules, the number of import floors (the longest chain of
imports between the project's own modules) and every breach of the room rules
written in docs/architecture.md. Exit status 1 when there is a cycle or a breach.

    python3 scripts/import_graph.py            # summary
    python3 scripts/import_graph.py --floors   # and the modules on each floor

The test ``tests/layout/test_import_rules.py`` runs the same checks.
"""
from __future__ import annotations

import argparse
import ast
import sys
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PACKAGES = ("geofidelity_plugin", "processing_algorithms")
HEAVY = ("torch", "transformers", "diffusers", "ray", "numpy", "PIL", "scipy", "accelerate",
         "safetensors", "cv2", "pandas", "shapely", "pyproj", "osmium", "matplotlib", "huggingface_hub")
#: (room, the module prefixes it holds, what it must never reach, whether only the stdlib may be imported)
ROOMS = {
    "qgis": ("geofidelity_plugin.qgis_side",),
    "provider": ("processing_algorithms",),
    "setup": ("geofidelity_plugin.backend_setup",),
    "spec": ("geofidelity_plugin.spec",),
    "core": ("geofidelity_plugin.core",),
    "backend": ("geofidelity_plugin.backend",),
}


@dataclass
class Module:
    name: str
    path: Path
    is_package: bool
    top: set[str] = field(default_factory=set)  # project modules imported at module level
    lazy: set[str] = field(default_factory=set)  # project modules imported inside functions
    external_top: set[str] = field(default_factory=set)  # top-level names of other distributions
    external_lazy: set[str] = field(default_factory=set)


def module_name(path: Path, root: Path) -> tuple[str, bool]:
    parts = list(path.relative_to(root).with_suffix("").parts)
    is_package = parts[-1] == "__init__"
    if is_package:
        parts = parts[:-1]
    return ".".join(parts), is_package


def _placement(node: ast.AST, parents: dict) -> str:
    """``top`` (runs on import), ``lazy`` (inside a function) or ``typing`` (under
    ``if TYPE_CHECKING:``, never runs: left out of the graph)."""
    placement = "top"
    while node in parents:
        node = parents[node]
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            return "typing"
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            placement = "lazy"
    return placement


def _is_type_checking(test: ast.AST) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _resolve(module: Module, level: int, name: str | None) -> str:
    if level == 0:
        return name or ""
    base = module.name.split(".")
    if not module.is_package:
        base = base[:-1]
    if level > 1:
        base = base[: len(base) - (level - 1)]
    return ".".join(base + ([name] if name else []))


def build(root: Path = REPO, packages=PACKAGES) -> dict[str, Module]:
    modules: dict[str, Module] = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            if "__pycache__" in path.parts:
                continue
            name, is_package = module_name(path, root)
            modules[name] = Module(name, path, is_package)
    for module in modules.values():
        tree = ast.parse(module.path.read_text(encoding="utf-8"), str(module.path))
        parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
        for node in ast.walk(tree):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = _resolve(module, node.level, node.module)
                targets = [f"{base}.{alias.name}" for alias in node.names] + [base]
            else:
                continue
            placement = _placement(node, parents)
            if placement == "typing":
                continue
            lazy = placement == "lazy"
            for target in targets:
                own = _own_module(target, modules)
                if own is not None:
                    if own != module.name:
                        (module.lazy if lazy else module.top).add(own)
                elif target.split(".")[0] not in PACKAGES:
                    (module.external_lazy if lazy else module.external_top).add(target.split(".")[0])
        module.lazy -= module.top
        module.external_lazy -= module.external_top
    return modules


def _own_module(target: str, modules: dict[str, Module]) -> str | None:
    """The longest project module that ``target`` names (``pkg.mod.Name`` → ``pkg.mod``)."""
    parts = target.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in modules:
            return candidate
        parts = parts[:-1]
    return None


def cycles(modules: dict[str, Module]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan), each sorted. Every
    import statement counts, at the top of a file or inside a function (only those under
    ``if TYPE_CHECKING:`` do not): a cycle through a lazy import is still a cycle between
    modules. Parents of a package are not counted as imports of it."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = [0]
    sys.setrecursionlimit(10000)

    def visit(name: str) -> None:
        index[name] = low[name] = counter[0]
        counter[0] += 1
        stack.append(name)
        on_stack.add(name)
        for target in sorted(modules[name].top | modules[name].lazy):
            if target not in index:
                visit(target)
                low[name] = min(low[name], low[target])
            elif target in on_stack:
                low[name] = min(low[name], index[target])
        if low[name] == index[name]:
            component = []
            while True:
                item = stack.pop()
                on_stack.discard(item)
                component.append(item)
                if item == name:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for name in sorted(modules):
        if name not in index:
            visit(name)
    return found


def floors(modules: dict[str, Module]) -> dict[str, int]:
    """Floor of each module: 1 for a module that imports none of the project's modules, else one more than the highest floor it imports (cycles are cut where first met)."""
    floor: dict[str, int] = {}
    active: set[str] = set()

    def of(name: str) -> int:
        if name in floor:
            return floor[name]
        if name in active:
            return 0
        active.add(name)
        value = 1 + max((of(t) for t in modules[name].top | modules[name].lazy), default=0)
        active.discard(name)
        floor[name] = value
        return value

    for name in modules:
        of(name)
    return floor


#: the package's own entry files: ``__init__`` holds QGIS's classFactory, ``__main__`` is
#: ``python -m geofidelity_plugin`` and ``api`` the notebook API (both the backend)
ENTRY_ROOMS = {"geofidelity_plugin": "qgis", "geofidelity_plugin.__main__": "backend",
               "geofidelity_plugin.api": "backend"}


def room_of(name: str) -> str | None:
    if name in ENTRY_ROOMS:
        return ENTRY_ROOMS[name]
    for room, prefixes in ROOMS.items():
        if any(name == p or name.startswith(p + ".") for p in prefixes):
            return room
    return None


def reach(modules: dict[str, Module], start: str) -> tuple[dict[str, str], dict[str, str]]:
    """Every project module and external top-level package that ``start`` can import, at module
    level or inside functions; each mapped to the module that imports it (for the message)."""
    seen: dict[str, str] = {start: ""}
    external: dict[str, str] = {}
    todo = [start]
    while todo:
        name = todo.pop()
        module = modules[name]
        for target in sorted(module.top | module.lazy):
            if target not in seen:
                seen[target] = name
                todo.append(target)
        for ext in sorted(module.external_top | module.external_lazy):
            external.setdefault(ext, name)
    return seen, external


STDLIB = set(getattr(sys, "stdlib_module_names", ())) | {"__future__"}
QGIS_NAMES = {"qgis", "processing", "PyQt5", "PyQt6", "sip"}


def breaches(modules: dict[str, Module]) -> list[str]:
    """The room rules (docs/architecture.md § Rooms)."""
    found: list[str] = []
    for name in sorted(modules):
        room = room_of(name)
        if room is None:
            found.append(f"{name}: in no room — put it in one of {', '.join(ROOMS)}")
            continue
        seen, external = reach(modules, name)
        if room in ("qgis", "provider"):
            for ext, via in external.items():
                if ext in HEAVY:
                    found.append(f"{name} reaches {ext} (imported by {via}) — the QGIS side stays light")
            for target, via in seen.items():
                if room_of(target) in ("backend",) and target != name:
                    found.append(f"{name} reaches the backend module {target} (via {via})")
        if room == "provider":
            for target in modules[name].top | modules[name].lazy:
                if room_of(target) not in ("provider", "qgis", "spec"):
                    found.append(f"{name} imports {target} — the provider imports only the QGIS room "
                                 "and the specification")
        if room == "core":
            for ext, via in external.items():
                if ext in QGIS_NAMES:
                    found.append(f"{name} reaches {ext} (imported by {via}) — core/ never imports qgis")
            for target, via in seen.items():
                if room_of(target) in ("qgis", "provider", "backend"):
                    found.append(f"{name} reaches {target} (via {via}) — core/ imports only core/ and spec/")
        if room in ("setup", "spec"):
            for ext, via in external.items():
                if ext not in STDLIB:
                    found.append(f"{name} reaches {ext} (imported by {via}) — the {room} room is stdlib only")
            for target, via in seen.items():
                if room_of(target) in ("qgis", "provider", "backend"):
                    found.append(f"{name} reaches {target} (via {via}) — the {room} room stays out of the "
                                 "QGIS and backend rooms")
    return found


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--floors", action="store_true", help="list the modules on each floor")
    args = parser.parse_args(argv)
    modules = build()
    found_cycles = cycles(modules)
    floor = floors(modules)
    found_breaches = breaches(modules)
    print(f"{len(modules)} modules, {sum(len(m.top) for m in modules.values())} module-level imports, "
          f"{sum(len(m.lazy) for m in modules.values())} inside functions")
    print(f"import cycles between modules: {len(found_cycles)}")
    for cycle in found_cycles:
        print("  cycle: " + " ↔ ".join(cycle))
    print(f"import floors: {max(floor.values())}")
    if args.floors:
        for level in range(1, max(floor.values()) + 1):
            print(f"  floor {level}: " + ", ".join(sorted(n for n, f in floor.items() if f == level)))
    print(f"room rule breaches: {len(found_breaches)}")
    for line in found_breaches:
        print("  " + line)
    return 1 if found_cycles or found_breaches else 0


if __name__ == "__main__":
    raise SystemExit(main())
