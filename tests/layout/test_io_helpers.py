"""No reader or writer goes around the I/O helpers (issue 40; docs/method.md, "Errors and exit codes").

``scripts/io_bypass.py`` lists every raw file primitive (``csv.reader``, ``json.load``,
``open(…, "w")``, ``write_text``, ``os.replace``, ``unlink``, ``shutil.rmtree``, ``copyfile`` …)
called outside ``core/atomic.py``, ``core/state_files.py``, ``core/tables.py`` and
``core/confined_paths.py``. Writes to a path a helper hands out (``with atomic_path(…) as tmp``)
are the helper's own. Every other site is reviewed below with its reason; a new one fails the test
(route it through a helper, or review it here), and so does a reviewed one that has gone.
"""
from __future__ import annotations

import shutil
import sys
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "scripts"))
import io_bypass  # noqa: E402

#: "module:function primitive" -> (calls, why it is not a bypass)
REVIEWED: dict[str, tuple[int, str]] = {
    "geofidelity_plugin/backend_setup/venv_setup.py:BackendSetup._prepare_folder Path.write_text":
        (1, "an empty probe file of a fixed product name in the venv folder setup has just created or emptied"),
    "geofidelity_plugin/backend_setup/venv_setup.py:BackendSetup._prepare_folder Path.unlink":
        (1, "removes that same probe, written a line before"),
    "geofidelity_plugin/backend_setup/venv_setup.py:BackendSetup.run Path.unlink":
        (1, "the profile record of a venv setup made (setup refuses a folder that is not its venv or empty)"),
    "geofidelity_plugin/core/evaluation/outputs.py:_write_gpkg_file fiona.open-write":
        (2, "its path is an atomic_path temporary or a /vsimem MemoryFile name (both callers in this module)"),
    "geofidelity_plugin/core/events.py:claim_standard_streams open-write":
        (1, "opens os.devnull to fill a closed standard descriptor; writes no file"),
    "geofidelity_plugin/core/map_fidelity/outputs.py:_write_gpkg fiona.open-write":
        (1, "called with stage.path(...) of a staged_folder (one caller)"),
    "geofidelity_plugin/core/models/cache.py:remove_model shutil.rmtree":
        (1, "`models remove`, asked for by name: the folder is refused unless it resolves to a direct child of "
            "the models folder (a link out of it is refused)"),
    "geofidelity_plugin/core/reference_panels/coverage/layers.py:write_coverage_outputs memory.open-write":
        (5, "fiona MemoryFile layers in memory; the bytes are published through atomic.write_bytes"),
    "geofidelity_plugin/core/selection/context.py:write_context_layers fiona.open-write":
        (1, "called with the /vsimem name of the segments MemoryFile (selection/writers.py, one caller)"),
    "geofidelity_plugin/core/selection/writers.py:segments_gpkg_bytes fiona.open-write":
        (1, "a /vsimem MemoryFile; the bytes are published through atomic (selection/workflow._publish)"),
    "geofidelity_plugin/core/selection/workflow.py:_publish Path.write_bytes":
        (1, "writes to the temporary path atomic.atomic_path hands out (entered through an ExitStack)"),
    "geofidelity_plugin/core/store/store_swap.py:replacing_store Path.rmdir":
        (1, "removes only empty folders this call created (_missing_ancestors) when the store was not made"),
    "geofidelity_plugin/core/vision/decode_workers.py:_serve open-write":
        (1, "a decoded image's pixels, in the private mkdtemp folder of this run's decode workers"),
    "geofidelity_plugin/core/vision/decode_workers.py:_serve os.replace":
        (1, "publishes that file inside the same private mkdtemp folder"),
    "geofidelity_plugin/core/vision/decode_workers.py:WorkerDecoder._take os.remove":
        (1, "removes a file a decode worker wrote into the private mkdtemp folder, once read"),
    "geofidelity_plugin/core/vision/decode_workers.py:WorkerDecoder.close shutil.rmtree":
        (1, "removes the private mkdtemp folder this decoder created"),
    "geofidelity_plugin/qgis_side/processing_spec.py:segment_ids_argument open-write":
        (1, "a fresh name from QgsProcessingUtils.generateTempFilename in QGIS's own temporary folder"),
}


def _over(found: list[str]) -> list[str]:
    counts = Counter(found)
    return sorted(f"{site} ×{n}" for site, n in counts.items() if n > REVIEWED.get(site, (0, ""))[0])


def test_no_reader_or_writer_bypasses_the_helpers():
    found = io_bypass.scan(REPO)
    assert _over(found) == [], "route these through core/atomic, state_files, tables or confined_paths"
    gone = sorted(site for site in REVIEWED if site not in found)
    assert gone == [], "no longer in the source: take these off REVIEWED"


def test_every_reviewed_site_says_why():
    assert all(n >= 1 and len(why) > 20 for n, why in REVIEWED.values())


def _copy(tmp_path: Path) -> Path:
    for package in io_bypass.PACKAGES:
        shutil.copytree(REPO / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path


PLANTS = {
    "open(user_path, 'w').write('x')": "open-write",
    "os.replace(a, b)": "os.replace",
    "Path(p).unlink()": "Path.unlink",
    "shutil.rmtree(folder)": "shutil.rmtree",
    "list(csv.DictReader(fh))": "csv.DictReader",
    "json.load(fh)": "json.load",
    "Path(p).write_text('x')": "Path.write_text",
    "fiona.open(p, 'w', driver='GPKG')": "fiona.open-write",
}


def test_a_planted_bypass_is_found(tmp_path):
    root = _copy(tmp_path)
    victim = root / "geofidelity_plugin" / "core" / "sizes.py"
    body = "\n".join(f"    {line}" for line in PLANTS)
    victim.write_text(victim.read_text(encoding="utf-8") + f"\n\ndef planted(a, b, p, fh, folder, user_path):\n{body}\n",
                      encoding="utf-8")
    new = sorted(set(io_bypass.scan(root)) - set(io_bypass.scan(REPO)))
    assert new == sorted(f"geofidelity_plugin/core/sizes.py:planted {kind}" for kind in PLANTS.values())
    assert _over(io_bypass.scan(root)) != []


def test_writes_to_a_helpers_path_are_the_helpers():
    import ast

    source = ("def ok(target):\n    with atomic_path(target) as tmp:\n        tmp.write_text('x')\n"
              "def bad(tmp):\n    tmp.write_text('x')\n")
    finder = io_bypass._Finder("m.py")
    finder.visit(ast.parse(source))
    assert finder.found == ["m.py:bad Path.write_text"]
