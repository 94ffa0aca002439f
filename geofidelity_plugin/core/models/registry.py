"""The models GeoFidelity uses, with what a user needs before downloading one: its size, its
licence and whether the Hub gates it, and the revision the manager fetches.

Stdlib only (QGIS reads it to offer the names). Sizes are approximate and each says where it
comes from: the Hub's file listing where it was read (the sum of the files the loaders read),
otherwise published parameter counts × bytes per stored parameter. ``models download`` prints
the exact total from the Hub before it starts.

A revision is a commit id where one was read from the Hub's history; "main" elsewhere, and the
commit actually downloaded is then recorded beside the snapshot (and in every run's manifest).
The generators — name, hub id, licence, gate, revision and size — come from the one table of
:mod:`..generation.generators` (``GENERATORS``), so no generator is written twice; the MFP and
GeoDiv models' hub ids from those stages' option tables, the vision models' from
:mod:`..vision.model_refs`.
"""
from __future__ import annotations

import re
from dataclasses import asdict, dataclass

from ..errors import InputError
from ..generation.generators import GB, GENERATORS, published_size as _params
from ..geodiv.options import DEFAULT_VQA_MODEL
from ..map_fidelity.options import PAPER_MODEL
from ..vision.model_ids import CLIP_VIT_B32, CLIP_VIT_L14, DINOV2_SMALL, MASK2FORMER_VISTAS, SIGLIP_SO400M
from ..vision.precision import DEFAULT_FEATURE_MODEL

MB = 1000 ** 2
_HUB_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*/[A-Za-z0-9][A-Za-z0-9._-]*$")
_UNPINNED = "main (not pinned: the commit downloaded is recorded beside the snapshot)"


@dataclass(frozen=True)
class ModelEntry:
    """One model the manager knows. ``kind`` is ``diffusers`` (a pipeline folder with
    ``model_index.json``) or ``transformers`` (``config.json`` at the top)."""

    name: str
    repo_id: str
    role: str
    kind: str
    licence: str
    gated: bool = False
    revision: str = "main"
    approx_bytes: int | None = None
    size_source: str = ""
    registered: bool = True

    @property
    def gate(self) -> str:
        return ("gated: accept the licence on the model page, then give a token (HF_TOKEN)"
                if self.gated else "none")

    @property
    def revision_label(self) -> str:
        return self.revision if is_commit(self.revision) else _UNPINNED

    def to_dict(self) -> dict:
        return {**asdict(self), "gate": self.gate, "revision_label": self.revision_label}


def is_commit(revision: str | None) -> bool:
    return bool(revision) and re.fullmatch(r"[0-9a-f]{40}", revision) is not None


_LISTED = "the Hub's file listing of the repository (files the loader reads)"

def _generator_entries() -> list[ModelEntry]:
    out = []
    for spec in GENERATORS.values():
        size, source = spec.size
        out.append(ModelEntry(spec.name, spec.model_id, f"generator ({spec.label})", "diffusers",
                              spec.licence.split(";")[0].strip(), gated=spec.gated,
                              revision=spec.revision or "main", approx_bytes=size, size_source=source))
    return out


_OTHERS = (
    ModelEntry("dinov2-base", DEFAULT_FEATURE_MODEL, "feature model (DINOv2-B/14, the protocol's)", "transformers",
               "Apache-2.0", revision="369b1309d0ea32e09fdc25ee029917e2e5a2db8f",
               approx_bytes=346 * MB, size_source=_LISTED + ": model.safetensors 346 MB"),
    ModelEntry("dinov2-small", DINOV2_SMALL, "feature model (DINOv2-S/14)", "transformers",
               "Apache-2.0", revision="ed25f3a31f01632728cabb09d1542f84ab7b0056",
               approx_bytes=int(88.2 * MB), size_source=_LISTED + ": model.safetensors 88.2 MB"),
    ModelEntry("mask2former-vistas", MASK2FORMER_VISTAS,
               "segmentation (Mask2Former Swin-L, Mapillary Vistas): GADS and curation", "transformers",
               "other (see the model card)", approx_bytes=866 * MB,
               size_source=_LISTED + ": model.safetensors 866 MB"),
    ModelEntry("siglip-so400m", SIGLIP_SO400M, "urban-scene filter (SigLIP): curation",
               "transformers", "Apache-2.0", revision="9fdffc58afc957d1a03a25b10dba0329ab15c2a3",
               approx_bytes=int(3.51 * GB), size_source=_LISTED + ": model.safetensors 3.51 GB"),
    ModelEntry("clip-vit-base-patch32", CLIP_VIT_B32,
               "image–text similarity (CLIP ViT-B/32): the CLIP check (method §7)", "transformers",
               "not stated on the model card", approx_bytes=int(605 * MB),
               size_source=_LISTED + ": model.safetensors 605 MB"),
    ModelEntry("dino-vitb8", PAPER_MODEL, "MFP feature model (DINO ViT-B/8, the paper's; method §10)",
               "transformers", "Apache-2.0", approx_bytes=int(343 * MB),
               size_source=_LISTED + ": pytorch_model.bin 343 MB"),
    ModelEntry("clip-vit-large", CLIP_VIT_L14, "image–text similarity (CLIP ViT-L/14)",
               "transformers", "not stated on the model card", approx_bytes=int(1.71 * GB),
               size_source=_LISTED + ": model.safetensors 1.71 GB"),
    ModelEntry("qwen2.5-vl-7b-instruct", DEFAULT_VQA_MODEL,
               "VQA model (Qwen2.5-VL-7B-Instruct): GeoDiv VDI and SEVI (method, GeoDiv)", "transformers",
               "Apache-2.0", approx_bytes=_params(("Qwen2.5-VL-7B", 8.29, 2))[0],
               size_source=_params(("Qwen2.5-VL-7B", 8.29, 2))[1]),
)

MODELS: dict[str, ModelEntry] = {e.name: e for e in (*_generator_entries(), *_OTHERS)}


def find_model(ref: str) -> ModelEntry | None:
    """The registered model named ``ref`` (its name or its hub id), else None."""
    if ref in MODELS:
        return MODELS[ref]
    return next((e for e in MODELS.values() if e.repo_id == ref), None)


def model_entry(ref: str) -> ModelEntry:
    """A registered model, or an entry for any other hub id (``owner/name``, revision main)."""
    ref = str(ref).strip()
    entry = find_model(ref)
    if entry is not None:
        return entry
    if _HUB_ID.match(ref):
        return ModelEntry(ref.split("/")[-1], ref, "not registered", "unknown", "see the model card",
                          size_source="unknown (not registered)", registered=False)
    raise InputError(f"unknown model {ref!r} — give a registered name ({', '.join(MODELS)}) or a hub id "
                     "(owner/name); `python -m geofidelity_plugin models list` shows them")


def download_ref(model) -> str:
    """What ``models download`` accepts for ``model`` (an entry, a name or a hub id): a registered
    model's name; any other hub model's hub id — its last part alone is no name the manager knows."""
    entry = model if isinstance(model, ModelEntry) else find_model(str(model).strip())
    if entry is None:
        return str(model).strip()
    return entry.name if entry.registered else entry.repo_id


def download_command(*models, extra: str = "", models_dir=None) -> str:
    """The one spelling of "download this model" in every message: a command that runs as written.
    ``models_dir``: the models folder the failing command used, when it is not the one a plain
    ``models download`` fills (:func:`.cache.other_models_dir`); it is named with ``--models-dir``
    so that the download lands where that command looks."""
    import shlex

    refs = list(dict.fromkeys(download_ref(m) for m in models))
    where = ["--models-dir", shlex.quote(str(models_dir))] if models_dir is not None else []
    return " ".join(["python -m geofidelity_plugin models download", *refs, *where, *([extra] if extra else [])])


def select(names) -> list[ModelEntry]:
    """Entries for ``names`` (names or hub ids, separated by spaces or commas); every registered
    model when none is given."""
    refs = [n for item in (names or []) for n in re.split(r"[\s,]+", str(item)) if n]
    if not refs:
        return list(MODELS.values())
    out: list[ModelEntry] = []
    for ref in refs:
        entry = model_entry(ref)
        if entry not in out:
            out.append(entry)
    return out
