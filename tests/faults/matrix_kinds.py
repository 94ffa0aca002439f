"""The input kinds of the fault matrix (issue 40): a valid base file of each and what its columns
are, shared by the in-process matrix and its CLI sample."""
from __future__ import annotations

from pathlib import Path

from matrix_inputs import TableKind, oracle_rows

CITY = TableKind("city table", ["name", "country", "country_code", "lon", "lat"],
                 [["Helsinki", "Finland", "FI", "24.94", "60.17"], ["London", "United Kingdom", "GB", "-0.12", "51.5"],
                  ["Paris", "France", "FR", "2.35", "48.86"]],
                 key=("name",), enums={"country_code": "XX"}, numbers=("lon", "lat"), text="country", legacy=True)
AUDIT = TableKind("audit CSV", ["image_id", "decision", "segment_id"],
                  [["img1", "accept", "seg-a"], ["img2", "reject", ""], ["img3", "", "seg-b"]],
                  key=("image_id", "segment_id"), repeats_ok=True, enums={"decision": "maybe"},
                  others={"decision": ("accept", "reject")}, text="segment_id", pads=("segment_id",))
#: a prompts.csv sidecar of images made for blocks of the test release (release_fixture)
SIDECAR = TableKind("prompts.csv", ["segment_id", "condition", "sample_index", "prompt", "seed"],
                    [["b001", "L1", "0", "A street in Helsinki", "1"], ["b001", "L1", "1", "A street", "2"],
                     ["b002", "L0", "0", "Another street", "missing"]],
                    key=("segment_id", "condition", "sample_index"), enums={"condition": "L7"},
                    numbers=("sample_index", "seed"), text="prompt")
GROUPS = TableKind("GeoDiv table", ["model", "city", "vdi_entity", "vdi_overall", "vendi", "images"],
                   [["real", "Helsinki", "0.5", "0.4", "3.1", "12"], ["m1", "Helsinki", "0.3", "0.2", "2.0", "12"]],
                   numbers=("vdi_entity", "vdi_overall", "vendi", "images"), text="city", rows_required=False,
                   empty_ok=True)


def answers_kind(model: str | None = None) -> TableKind:
    """Answers of two images to the first questions of the default set (a ``model`` column when given)."""
    from geofidelity_plugin.core.geodiv import questions as qs

    head = [model] if model else []
    rows = [head + [f"img{i}", q.id, q.options[(i + k) % len(q.options)]]
            for i in range(2) for k, q in enumerate(qs.load().questions[:4])]
    return TableKind("answers file", ["model"] * bool(model) + ["image_id", "question_id", "answer"], rows,
                     key=("image_id", "question_id"),
                     enums={"question_id": "no_such_question", "answer": "purple elephant"}, text="image_id")


def table_rows(path: Path) -> tuple[list[str], list[list[str]]]:
    """Header and rows of a CSV the product wrote (the base of a kind)."""
    rows = oracle_rows(path.read_bytes())
    header = list(rows[0])
    return header, [[r[h] for h in header] for r in rows]


def release_kind(release: Path, name: str) -> TableKind:
    header, rows = table_rows(release / "metadata" / name)
    if name == "reference_images.csv":
        return TableKind(name, header, rows, key=("reference_id",), numbers=("lat", "lon", "captured_at_utc_ms"),
                         enums={"block_id": "b999"}, text="city")
    return TableKind(name, header, rows, key=("model", "level", "block_id", "sample_index"),
                     enums={"level": "L7"}, numbers=("sample_index", "seed"), text="prompt", rows_required=False)


def import_release_into(root: Path, folder: Path) -> dict:
    """``import_release`` of ``root`` into a new store in ``folder`` (the real import, in-process)."""
    from geofidelity_plugin.core.evaluation.release.release_folder import import_release
    from geofidelity_plugin.core.store.store import BenchmarkStore

    with BenchmarkStore(folder / "store.sqlite") as store:
        return import_release(root, store)


def make_evaluation(root: Path) -> Path:
    """A small real evaluation folder, written by the evaluate stage's own output code."""
    from eval_fixtures import TableEmbedder, make_store
    from geofidelity_plugin.core.evaluation.evaluate import EvaluationOptions, evaluate_store, evaluation_manifest
    from geofidelity_plugin.core.evaluation.outputs import write_outputs

    store, vectors = make_store(root, per_city=1, refs=4, models=("m1",))
    options = EvaluationOptions(n_bootstrap=10)
    result = evaluate_store(store, TableEmbedder(vectors), options)
    manifest = evaluation_manifest(result, options, store, [{"id": "table-embedder", "label": "Table"}], ["t"])
    write_outputs(root / "evaluation", result, store.segments(), manifest, "m1", "L1")
    store.close()
    return root / "evaluation"
