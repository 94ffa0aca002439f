"""The wheel in the plugin zip's layout: ``resources/``, ``processing_algorithms/``, ``docs/`` and
``metadata.txt`` copied inside ``geofidelity_plugin`` and its ``core/install_layout.py`` saying so —
what ``make plugin`` does for the zip (docs/architecture.md § Rooms). An editable install keeps the
clone's layout. Everything else about the distribution is in pyproject.toml."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
#: what the installed layout holds beside the package's modules (tests never go in)
BESIDE = ("resources", "processing_algorithms", "docs")
FILES = ("metadata.txt", "LICENSE")


def version() -> str:
    found = re.search(r"^version=(\S+)$", (HERE / "metadata.txt").read_text(encoding="utf-8"), re.M)
    if not found:
        raise SystemExit("metadata.txt has no version= line")
    return found.group(1)


class InstalledLayout(build_py):
    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable install runs from the clone, in its own layout
        package = Path(self.build_lib) / "geofidelity_plugin"
        ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
        for name in BESIDE:
            shutil.copytree(HERE / name, package / name, dirs_exist_ok=True, ignore=ignore)
        for name in FILES:
            shutil.copy2(HERE / name, package / name)
        backend = package / "resources" / "backend"
        for name in ("requirements.txt", "requirements.lock"):
            shutil.copy2(HERE / name, backend / name)
        layout = package / "core" / "install_layout.py"
        text = layout.read_text(encoding="utf-8")
        if "\nINSTALLED = False\n" not in text and "\nINSTALLED = True\n" not in text:
            raise SystemExit(f"{layout}: no 'INSTALLED = False' line to turn into True")
        layout.write_text(text.replace("\nINSTALLED = False\n", "\nINSTALLED = True\n"), encoding="utf-8")


# setuptools' build folder away from the clone's build/ (the plugin folder of `make plugin`)
setup(version=version(), cmdclass={"build_py": InstalledLayout},
      options={"build": {"build_base": ".cache/setuptools-build"}})
