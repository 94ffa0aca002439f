"""Generate panels with a diffusers pipeline (method §4 Generators, Seeds).

One image per pipeline call, each from its own ``torch.Generator`` seeded with
:func:`~.seeds.seed_for`, so that any single image can be remade alone and a resumed run gives
the same pixels as an uninterrupted one. Images go to the release layout
``{out_dir}/{name}/{condition}/{segment_id}/{sample:02d}.jpg`` through an atomic write, and
each is recorded in the benchmark store as soon as it exists, so a cancelled or killed run
keeps everything it finished. Only pipelines diffusers itself ships are loaded: no remote
code, no custom pipelines, safetensors weights only.
"""
from __future__ import annotations

import contextlib
import hashlib
import importlib.metadata
import json
import logging
import os
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from .. import atomic
from ..devices import check_device
from ..errors import Cancelled, InputError
from ..events import announce_stage
from ..store.store import BenchmarkStore, GeneratedImage
from ..manifest import build_manifest, file_sha256, write_manifest
from ..models.resolve import local_model
from ..progress import Progress, check_cancel
from .generators import GeneratorSpec, check_name, check_settings
from .panel_records import forget_samples
from .prompts import CONDITIONS
from .seeds import SEED_SCHEME, seed_for, seed_mode

log = logging.getLogger("geofidelity")

JPEG_QUALITY = 95
_TORCH_DTYPES = {"fp32": "float32", "fp16": "float16", "bf16": "bfloat16"}
#: settings that must match for an existing image to count as already made
_RESUME_KEYS = ("model_id", "steps", "guidance", "resolution")


@dataclass
class GenerationResult:
    """What one :meth:`GenerationRunner.generate` call did; ``paths`` are the new images."""

    model: str
    requested: int = 0
    generated: int = 0
    skipped_existing: int = 0
    paths: list[Path] = field(default_factory=list)
    cancelled: bool = False


class GenerationRunner:
    """A text-to-image generator with fixed sampling settings; the pipeline loads lazily, on the
    first image that is actually needed (a fully resumed run never loads it)."""

    def __init__(self, model_id_or_path: str | os.PathLike, steps: int, guidance: float,
                 resolution: int = 1024, dtype: str = "fp16", device: str | None = None,
                 name: str | None = None, revision: str | None = None):
        self.model_ref = str(model_id_or_path)
        self.steps, self.guidance, self.resolution, self.dtype = check_settings(steps, guidance, resolution, dtype)
        self.folder = _local_folder(self.model_ref)
        self.name = check_name(name or (self.folder.name if self.folder else self.model_ref.split("/")[-1]))
        self.revision = revision
        self.device_request = check_device(device)  # a typo or an unusable GPU: a message before any load
        self._pipe = None
        self._device = None
        self._torch_dtype = None
        self._resolved_revision: str | None = None

    @classmethod
    def from_spec(cls, spec: GeneratorSpec, device: str | None = None) -> "GenerationRunner":
        return cls(spec.model_id, spec.steps, spec.guidance, spec.resolution, spec.dtype,
                   device=device, name=spec.name, revision=spec.revision)

    # -- loading -------------------------------------------------------------------------------
    def load(self, progress: Progress | None = None):
        """Load the pipeline (once) onto the device; CPU always runs in float32. ``progress``
        hears of the load first (a driver shows it: a large model takes minutes)."""
        if self._pipe is not None:
            return self._pipe
        announce_stage(progress, f"loading the generator {self.name}", self.model_ref)
        import diffusers

        device, torch_dtype = self._placement()
        source = str(self.folder) if self.folder is not None else self.model_ref
        kwargs: dict[str, Any] = {"torch_dtype": torch_dtype, "use_safetensors": True,
                                  "trust_remote_code": False}
        if self.folder is None and self.revision:
            kwargs["revision"] = self.revision
        try:
            with _quiet_loading(diffusers):
                pipe = diffusers.DiffusionPipeline.from_pretrained(local_model(source, self.revision),
                                                                   local_files_only=True, **kwargs)
        except (OSError, ValueError) as exc:
            raise InputError(self._unavailable(exc)) from None
        pipe = pipe.to(device)
        pipe.set_progress_bar_config(disable=True)  # no tqdm bars in a QGIS log
        self._pipe = pipe
        self._resolved_revision = None  # a hub model may just have been downloaded: look again
        log.info("generator %s (%s) loaded on %s as %s", self.name, type(pipe).__name__, device,
                 str(torch_dtype).replace("torch.", ""))
        announce_stage(progress, f"generating with {self.name}")
        return pipe

    def _placement(self):
        import torch

        if self._device is None:
            device = torch.device(self.device_request or ("cuda" if torch.cuda.is_available() else "cpu"))
            wanted = getattr(torch, _TORCH_DTYPES[self.dtype])
            if device.type == "cpu" and wanted != torch.float32:
                log.info("generator %s: %s requested, CPU runs in float32", self.name, self.dtype)
                wanted = torch.float32
            self._device, self._torch_dtype = device, wanted
        return self._device, self._torch_dtype

    def _unavailable(self, exc: Exception) -> str:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        if self.folder is not None:
            return (f"generator folder {self.folder} cannot be loaded as a diffusers pipeline with "
                    f"safetensors weights (it needs model_index.json and one folder per component, "
                    f"as written by save_pretrained): {first}")
        offline = any(os.environ.get(v, "") not in ("", "0") for v in ("HF_HUB_OFFLINE", "DIFFUSERS_OFFLINE"))
        return (f"generator '{self.model_ref}' is not available"
                f"{' offline (HF_HUB_OFFLINE is set)' if offline else ''} and not in the local "
                f"Hugging Face cache. On a connected machine run `huggingface-cli download "
                f"{self.model_ref}` (gated models need the licence accepted and a token), then copy "
                f"the cache (HF_HOME) here or give the downloaded folder's path instead of the id. "
                f"({type(exc).__name__}: {first})")

    # -- metadata ------------------------------------------------------------------------------
    def revision_id(self) -> str | None:
        """The hub commit of the cached snapshot, or ``sha256:`` of a local folder's weights."""
        if self._resolved_revision is None:
            self._resolved_revision = _revision(self.model_ref, self.folder, self.revision)
        return self._resolved_revision

    def model_info(self) -> dict[str, Any]:
        """Everything a run records about the generator (method §4); does not load weights."""
        device, torch_dtype = self._placement()
        return {
            "name": self.name, "model_id": self.model_ref,
            "source": "local folder" if self.folder is not None else "hub",
            "revision": self.revision_id(), "pipeline_class": _pipeline_class(self.model_ref, self.folder,
                                                                            self.revision),
            "steps": self.steps, "guidance": self.guidance, "resolution": self.resolution,
            "dtype": self.dtype, "torch_dtype": str(torch_dtype).replace("torch.", ""),
            "device": str(device), "diffusers_version": _version("diffusers"),
            "torch_version": _version("torch"),
        }

    # -- generation ----------------------------------------------------------------------------
    def generate(self, prompt_rows: Iterable, samples: int = 4, base_seed: int = 0,
                 shared_noise: bool = False, out_dir: str | os.PathLike | None = None,
                 store: BenchmarkStore | None = None, progress: Progress | None = None) -> GenerationResult:
        """``samples`` images per prompt row (method §4: a generated panel = 4 images).

        An image whose file exists and whose store record has the same seed, prompt and
        settings is skipped (counted in ``skipped_existing``); without a store nothing is
        trusted and every image is made. A panel is never a mix of two runs: before the first
        image of a panel is made, the panel's records that do not match this run (other
        settings, seeds or prompts, an imported image, or a sample beyond ``samples`` made with
        other settings) are removed, with their files in this generator's own folder. On
        cancel, :class:`Cancelled` is raised with the partial result as ``.result``; finished
        images stay on disk and in the store.
        """
        rows = list(prompt_rows)
        if int(samples) != samples or samples < 1:
            raise InputError(f"samples must be a whole number ≥ 1, not {samples!r}")
        if out_dir is None:
            if store is None:
                raise InputError("give an output folder (or a benchmark store, whose folder is used)")
            out_dir = store.root / "generations"
        root = Path(out_dir) / self.name
        for row in rows:
            _check_row(row)
        announce_stage(progress, f"checking the images {self.name} already made")
        info = self.model_info()
        known = _recorded(store, self.name)
        samples_of: dict[tuple[str, str], list[int]] = {}
        for condition, segment_id, sample in known:
            samples_of.setdefault((condition, segment_id), []).append(sample)
        result = GenerationResult(self.name, requested=len(rows) * samples)
        options = {"samples": samples, "base_seed": base_seed, "seed_mode": seed_mode(shared_noise),
                   "seed_scheme": SEED_SCHEME, "jpeg_quality": JPEG_QUALITY}
        done = replaced = 0
        if progress is not None:
            progress.info(f"{self.name}: {result.requested} images ({len(rows)} prompts × {samples})")
        try:
            for row in rows:
                replaced += self._drop_other_runs(store, known, samples_of.get((row.condition, row.segment_id), ()),
                                                  row, root, base_seed, shared_noise, info)
                for sample in range(samples):
                    check_cancel(progress, f"generation with {self.name}")
                    seed = seed_for(base_seed, self.name, row.segment_id, row.condition, sample, shared_noise)
                    target = root / row.condition / row.segment_id / f"{sample:02d}.jpg"
                    if _already_made(known.get((row.condition, row.segment_id, sample)), target, seed,
                                     row.prompt, info):
                        result.skipped_existing += 1
                    else:
                        self._make(row, sample, seed, target, options, store, progress)
                        result.generated += 1
                        result.paths.append(target)
                    done += 1
                    if progress is not None:
                        progress.set_progress(100.0 * done / result.requested)
        except Cancelled as cancelled:
            result.cancelled = True
            cancelled.result = result
            log.info("generation with %s cancelled: %d made, %d already there, %d left", self.name,
                     result.generated, result.skipped_existing, result.requested - done)
            raise
        finally:
            if result.generated:
                self._record_run(root, store, self.model_info(), options, result)
        log.info("generation with %s: %d made, %d already there%s", self.name, result.generated,
                 result.skipped_existing, f", {replaced} panel(s) of another run (other settings or seeds) "
                 "replaced whole" if replaced else "")
        return result

    def _drop_other_runs(self, store: BenchmarkStore | None, known: dict, recorded: Iterable[int], row, root: Path,
                         base_seed: int, shared_noise: bool, info: dict) -> bool:
        """Forget the records of ``row``'s panel that this run would not have made (see
        :meth:`generate`), so that the panel ends up the work of this run alone."""
        if store is None:
            return False
        stale = {}
        for sample in recorded:
            record = known.get((row.condition, row.segment_id, sample))
            if record is None:
                continue
            seed = seed_for(base_seed, self.name, row.segment_id, row.condition, sample, shared_noise)
            target = root / row.condition / row.segment_id / f"{sample:02d}.jpg"
            if not _already_made(record, target, seed, row.prompt, info):
                stale[sample] = Path(record["abs_path"])
        if not stale:
            return False
        forget_samples(store, (self.name, row.condition, row.segment_id), stale)
        own = root.resolve()
        for sample, path in stale.items():
            known.pop((row.condition, row.segment_id, sample), None)
            if path.resolve().parent.parent.parent == own and path.is_file():  # {root}/{cond}/{seg}/NN.jpg
                path.unlink()
        log.debug("generator %s: panel %s/%s: %d image(s) of another run forgotten", self.name, row.condition,
                  row.segment_id, len(stale))
        return True

    def _make(self, row, sample: int, seed: int, target: Path, options: dict,
              store: BenchmarkStore | None, progress: Progress | None = None) -> None:
        import torch

        pipe = self.load(progress)
        info = self.model_info()
        generator = torch.Generator(device=self._device).manual_seed(seed)
        with torch.inference_mode():
            output = pipe(prompt=row.prompt, num_inference_steps=self.steps, guidance_scale=self.guidance,
                          height=self.resolution, width=self.resolution, generator=generator,
                          num_images_per_prompt=1, output_type="pil")
        image = output.images[0].convert("RGB")
        with atomic.atomic_path(target) as tmp:
            image.save(tmp, format="JPEG", quality=JPEG_QUALITY)
        if store is not None:
            meta = dict(_row_meta(row))
            meta.update({"generation": info, "seed": seed, "sample_index": sample, **options})
            store.put_generated([GeneratedImage(
                model=self.name, condition=row.condition, segment_id=row.segment_id, sample_index=sample,
                image_path=str(target.resolve()), seed=seed, prompt=row.prompt,
                prompt_meta=json.dumps(meta, sort_keys=True, ensure_ascii=False, default=str),
                origin="generated")])

    def _record_run(self, root: Path, store: BenchmarkStore | None, info: dict, options: dict,
                    result: GenerationResult) -> None:
        outputs = {"folder": root, "generated": result.generated, "skipped_existing": result.skipped_existing,
                   "requested": result.requested, "cancelled": result.cancelled}
        write_manifest(root / "generation_manifest.json",
                       build_manifest("generate", options, outputs=outputs, models=[info]))
        if store is not None:
            store.set_meta(f"generation:{self.name}", {"model": info, "options": options})


@contextlib.contextmanager
def _quiet_loading(diffusers):
    """No tqdm bars while loading (they flood a QGIS log), and no warning about the
    ``torch_dtype`` keyword, which newer diffusers renamed but older ones still need."""
    try:
        import transformers
    except ImportError:  # a pipeline without text encoders from transformers
        transformers = None
    bars = []
    for lib in (diffusers, transformers):
        logging_utils = getattr(getattr(lib, "utils", None), "logging", None)
        if logging_utils is not None and logging_utils.is_progress_bar_enabled():
            logging_utils.disable_progress_bar()
            bars.append(logging_utils)
    try:
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message=".*torch_dtype.*deprecated", category=FutureWarning)
            yield
    finally:
        for logging_utils in bars:
            logging_utils.enable_progress_bar()


def _check_row(row) -> None:
    for attr in ("segment_id", "condition", "prompt"):
        if not getattr(row, attr, None):
            raise InputError(f"prompt row {row!r} has no {attr}")
    if row.condition not in CONDITIONS:
        raise InputError(f"prompt row for {row.segment_id} has unknown condition {row.condition!r}; "
                         f"use {', '.join(CONDITIONS)}")
    if "/" in row.segment_id or "\\" in row.segment_id or row.segment_id in (".", ".."):
        raise InputError(f"segment_id {row.segment_id!r} cannot be a folder name")


def _row_meta(row) -> dict:
    meta = getattr(row, "prompt_meta", None) or {}
    return json.loads(meta) if isinstance(meta, str) else dict(meta)


def _recorded(store: BenchmarkStore | None, model: str) -> dict[tuple[str, str, int], dict]:
    if store is None:
        return {}
    return {(cond, sid, int(img["sample_index"])): img
            for (name, cond, sid), imgs in store.generated_panels().items() if name == model for img in imgs}


def _already_made(record: dict | None, target: Path, seed: int, prompt: str, info: dict) -> bool:
    if record is None or not target.is_file() or record.get("seed") != seed or record.get("prompt") != prompt:
        return False
    if Path(record["abs_path"]).resolve() != target.resolve():
        return False
    try:
        made_with = json.loads(record.get("prompt_meta") or "{}").get("generation", {})
    except json.JSONDecodeError:
        return False
    return all(made_with.get(k) == info[k] for k in _RESUME_KEYS)


def _local_folder(ref: str) -> Path | None:
    """The folder ``ref`` names, or None for a hub id; a path-like ref that does not exist is an
    error, not a hub lookup."""
    path = Path(ref).expanduser()
    if path.exists():
        if not path.is_dir():
            raise InputError(f"generator {ref}: expected a diffusers folder (model_index.json and "
                             "component folders), got a file")
        return path.resolve()
    if ref.startswith(("/", ".", "~")) or ref.count("/") != 1 or (os.sep != "/" and os.sep in ref):
        raise InputError(f"generator folder {ref} not found (a hub id has the form owner/name)")
    return None


def _hub_file(repo_id: str, filename: str, revision: str | None) -> Path | None:
    try:
        from huggingface_hub import try_to_load_from_cache
    except ImportError:
        return None
    found = try_to_load_from_cache(repo_id, filename, revision=revision)
    return Path(found) if isinstance(found, str) else None


def _revision(ref: str, folder: Path | None, revision: str | None) -> str | None:
    if folder is None:
        cached = _hub_file(ref, "model_index.json", revision)
        return cached.parent.name if cached is not None else revision
    if folder.parent.name == "snapshots":  # a folder inside the Hugging Face cache
        return folder.name
    weights = sorted(folder.rglob("*.safetensors"))
    if not weights:
        return None
    if len(weights) == 1:
        return "sha256:" + file_sha256(weights[0])
    listing = "".join(f"{w.relative_to(folder).as_posix()} {file_sha256(w)}\n" for w in weights)
    return "sha256:" + hashlib.sha256(listing.encode("utf-8")).hexdigest()


def _pipeline_class(ref: str, folder: Path | None, revision: str | None) -> str | None:
    index = folder / "model_index.json" if folder is not None else _hub_file(ref, "model_index.json", revision)
    try:
        return json.loads(index.read_text(encoding="utf-8")).get("_class_name") if index else None
    except (OSError, ValueError):
        return None


def _version(package: str) -> str | None:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return None
