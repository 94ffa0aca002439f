"""Generate panels with a diffusers pipeline (method §4 Generators, Seeds).

One pipeline call per panel (or per part of it, when the memory plan splits the batch), with a
list of ``torch.Generator``s, one per image, each seeded with :func:`~.seeds.seed_for`: the seeds
stay per image, so any single image can be remade alone and a resumed run gives the images of an
uninterrupted one. On the CPU the denoiser runs image by image inside the batched call
(:mod:`.batch_forward`), so a panel has the bytes of one call per image; on a GPU the batch is one
forward, equal within a stated tolerance (docs/memory-plans.md). Before anything loads, the memory plan
(:mod:`.memory_plan`) decides how the pipeline sits on the device. Images go to the release layout
``{out_dir}/{name}/{condition}/{segment_id}/{sample:02d}.jpg`` through an atomic write, and
each is recorded in the benchmark store as soon as it exists, so a cancelled or killed run
keeps everything it finished. Only pipelines diffusers itself ships are loaded: no remote
code, no custom pipelines, safetensors weights only.
"""
from __future__ import annotations

import contextlib
import inspect
import json
import logging
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from .. import atomic
from geofidelity_plugin.core.vision.devices import check_device
from ..errors import Cancelled, InputError
from ..events import announce_stage
from ..store.image_roots import add_image_root
from ..store.store import BenchmarkStore, GeneratedImage
from ..manifest import build_manifest, write_manifest
from ..models.resolve import local_model
from ..progress import Progress, check_cancel
from .batch_forward import check_mode, forward_label, per_image_forward, splits
from .component_sizes import generator_sizes
from .generators import GENERATORS, GeneratorSpec, check_name, check_settings, normalise_dtype
from .memory_plan import MemoryPlan, apply_plan, choose_plan, device_budget, free_ram
from .plan_probe import check_mode as check_probe, speed_for_run
from .model_files import config_class, local_folder, quiet_loading, revision_of, unavailable_message, version_of
from .panel_records import already_made, forget_samples, generated_by, refuse_mixing, remove_own_images
from .prompts import check_prompt_row, prompt_meta
from .seeds import SEED_SCHEME, seed_for, seed_mode

log = logging.getLogger("geofidelity")

JPEG_QUALITY = 95
_TORCH_DTYPES = {"fp32": "float32", "fp16": "float16", "bf16": "bfloat16"}
_DTYPE_KEYS = {v: k for k, v in _TORCH_DTYPES.items()}


@dataclass
class GenerationResult:
    """What one :meth:`GenerationRunner.generate` call did; ``paths`` are the new images."""

    model: str
    requested: int = 0
    generated: int = 0
    skipped_existing: int = 0
    paths: list[Path] = field(default_factory=list)
    cancelled: bool = False
    memory_plan: dict | None = None


class GenerationRunner:
    """A text-to-image generator with fixed sampling settings; the pipeline loads lazily, on the
    first image that is actually needed (a fully resumed run never loads it)."""

    def __init__(self, model_id_or_path: str | os.PathLike, steps: int, guidance: float,
                 resolution: int = 1024, dtype: str = "fp16", device: str | None = None,
                 name: str | None = None, revision: str | None = None, plan: str | None = None,
                 vram_budget: int | None = None, fp8_denoiser: bool = False, precision: str | None = None,
                 images_per_call: int | None = None, batch_forward: str | None = None, plan_probe: str | None = None):
        """``dtype``: the model's own (the protocol's table, or what a custom folder states);
        ``precision`` overrides it on every device, whereas without it the CPU runs in float32.
        ``plan`` (one of :data:`~.memory_plan.PLANS`, None: chosen), ``vram_budget`` (bytes, None:
        the device's free memory) and ``fp8_denoiser`` go to :func:`~.memory_plan.choose_plan`;
        ``images_per_call`` caps the batch it may choose (1: one pipeline call per image).
        ``batch_forward`` (:data:`~.batch_forward.MODES`): ``auto`` evaluates the denoiser image by
        image on the CPU (bytes equal to one call per image) and as one batch elsewhere.
        ``plan_probe`` (``auto``, ``off``, ``rerun``): the GPU probe that scales the plan times
        (:mod:`.plan_probe`)."""
        self.model_ref = str(model_id_or_path)
        self.steps, self.guidance, self.resolution, self.dtype = check_settings(steps, guidance, resolution, dtype)
        self.precision = normalise_dtype(precision) if precision not in (None, "", "auto") else None
        self.folder = local_folder(self.model_ref)
        self.name = check_name(name or (self.folder.name if self.folder else self.model_ref.split("/")[-1]))
        self.revision = revision
        self.device_request = check_device(device)  # a typo or an unusable GPU: a message before any load
        self.plan_request, self.vram_budget, self.fp8_denoiser = plan, vram_budget, bool(fp8_denoiser)
        if images_per_call is not None and (isinstance(images_per_call, bool) or int(images_per_call) != images_per_call
                                            or images_per_call < 1):
            raise InputError(f"images per call must be a whole number ≥ 1, not {images_per_call!r}")
        self.images_per_call = images_per_call
        self.batch_forward = check_mode(batch_forward)
        self.plan_probe, self._probe, self._speed = check_probe(plan_probe), None, None
        self._pipe = None
        self._device = None
        self._torch_dtype = None
        self._plan: MemoryPlan | None = None
        self._resolved_revision: str | None = None

    @classmethod
    def from_spec(cls, spec: GeneratorSpec, device: str | None = None, **plan_options) -> "GenerationRunner":
        return cls(spec.model_id, spec.steps, spec.guidance, spec.resolution, spec.dtype,
                   device=device, name=spec.name, revision=spec.revision, **plan_options)

    # -- loading -------------------------------------------------------------------------------
    def load(self, progress: Progress | None = None):
        """Load the pipeline (once) and place it as the memory plan says (the CPU runs in float32
        unless a precision is given). ``progress`` hears of the load first (a driver shows it: a
        large model takes minutes)."""
        if self._pipe is not None:
            return self._pipe
        announce_stage(progress, f"loading the generator {self.name}", self.model_ref)
        import diffusers
        import torch

        device, torch_dtype = self._placement()
        source = str(self.folder) if self.folder is not None else self.model_ref
        kwargs: dict[str, Any] = {"torch_dtype": torch_dtype, "use_safetensors": True,
                                  "trust_remote_code": False}
        if self.folder is None and self.revision:
            kwargs["revision"] = self.revision
        try:
            with quiet_loading(diffusers):
                pipe = diffusers.DiffusionPipeline.from_pretrained(local_model(source, self.revision),
                                                                   local_files_only=True, **kwargs)
        except (OSError, ValueError) as exc:
            raise InputError(unavailable_message(self.model_ref, self.folder, exc)) from None
        plan = self.plan_for(self._plan.requested_batch if self._plan else 1)
        if device.type == "cuda":
            torch.cuda.reset_peak_memory_stats(device)
        apply_plan(pipe, plan, device)
        pipe.set_progress_bar_config(disable=True)  # no tqdm bars in a QGIS log
        self._pipe = pipe
        self._resolved_revision = None  # a hub model may just have been downloaded: look again
        log.info("generator %s (%s) loaded on %s as %s, plan %s (%s)", self.name, type(pipe).__name__, device,
                 str(torch_dtype).replace("torch.", ""), plan.plan, plan.reason)
        announce_stage(progress, f"generating with {self.name}")
        return pipe

    def _placement(self):
        import torch

        if self._device is None:
            device = torch.device(self.device_request or ("cuda" if torch.cuda.is_available() else "cpu"))
            wanted = getattr(torch, _TORCH_DTYPES[self.precision or self.dtype])
            if device.type == "cpu" and wanted != torch.float32 and self.precision is None:
                log.info("generator %s: %s is its dtype, the CPU runs in float32 (--precision to insist)",
                         self.name, self.dtype)
                wanted = torch.float32
            self._device, self._torch_dtype = device, wanted
        return self._device, self._torch_dtype

    def plan_for(self, samples: int) -> MemoryPlan:
        """The memory plan for panels of ``samples`` images (chosen once; see :mod:`.memory_plan`).
        Once the pipeline is placed, a later choice keeps its plan and only sizes the batch."""
        samples = min(samples, self.images_per_call or samples)
        if self._plan is not None and self._plan.requested_batch == samples:
            return self._plan
        device, torch_dtype = self._placement()
        registered = next((n for n, s in GENERATORS.items() if s.model_id == self.model_ref), self.name)
        folder = self._files()
        if folder is None and registered not in GENERATORS:
            raise InputError(unavailable_message(self.model_ref, self.folder,
                                                 FileNotFoundError("model_index.json is not in the local cache")))
        sizes = generator_sizes(registered, folder)
        budget, source = device_budget(device, self.vram_budget) if device.type != "cpu" else (None, "")
        forced = self._plan.plan if self._pipe is not None and self._plan is not None else self.plan_request
        dtype = _DTYPE_KEYS[str(torch_dtype).replace("torch.", "")]
        if budget is not None and self._speed is None:  # probed (or read from the cache) once per runner
            self._speed, self._probe = speed_for_run(device, dtype, self.plan_probe)
        self._plan = choose_plan(sizes, dtype, self.resolution, samples, device.type, budget, source, free_ram(),
                                 forced, self.fp8_denoiser, steps=self.steps, speed=self._speed)
        log.info("generator %s: memory plan %s, %d image(s) per call, predicted peak %.1f GiB — %s", self.name,
                 self._plan.plan, self._plan.batch, self._plan.predicted_peak_bytes / 1024 ** 3, self._plan.reason)
        return self._plan

    def measured_peak(self) -> int | None:
        """The device's peak allocated bytes since the pipeline was placed (CUDA only)."""
        if self._pipe is None or self._device is None or self._device.type != "cuda":
            return None
        import torch

        return int(torch.cuda.max_memory_allocated(self._device))

    # -- metadata ------------------------------------------------------------------------------
    def _files(self) -> Path | None:
        """The folder holding the weights: the local folder, or a hub id's snapshot when present."""
        if self.folder is not None:
            return self.folder
        try:
            return Path(local_model(self.model_ref, self.revision))
        except InputError:
            return None

    def revision_id(self) -> str | None:
        """The hub commit of the cached snapshot, or ``sha256:`` of a local folder's weights."""
        if self._resolved_revision is None:
            self._resolved_revision = revision_of(self.model_ref, self._files(), self.revision)
        return self._resolved_revision

    def model_info(self) -> dict[str, Any]:
        """Everything a run records about the generator (method §4); does not load weights. The
        fields of :data:`~.panel_records.RUN_KEY` are an image's resume key."""
        device, torch_dtype = self._placement()
        plan = self._plan
        return {
            "name": self.name, "model_id": self.model_ref,
            "source": "local folder" if self.folder is not None else "hub",
            "revision": self.revision_id(), "pipeline_class": config_class(self.model_ref, self._files(),
                                                                           self.revision, "model_index.json"),
            "scheduler": config_class(self.model_ref, self._files(), self.revision, "scheduler/scheduler_config.json"),
            "steps": self.steps, "guidance": self.guidance, "resolution": self.resolution,
            "dtype": self.dtype, "precision": self.precision or "model's own",
            "torch_dtype": str(torch_dtype).replace("torch.", ""), "device": str(device), "device_type": device.type,
            "plan": plan.plan if plan else None, "numerics": plan.numerics if plan else None,
            "diffusers_version": version_of("diffusers"), "torch_version": version_of("torch"),
        }

    # -- generation ----------------------------------------------------------------------------
    def generate(self, prompt_rows: Iterable, samples: int = 4, base_seed: int = 0,
                 shared_noise: bool = False, out_dir: str | os.PathLike | None = None,
                 store: BenchmarkStore | None = None, progress: Progress | None = None,
                 force: bool = False, manifest_inputs: dict | None = None,
                 request: dict | None = None) -> GenerationResult:
        """``samples`` images per prompt row (method §4: a generated panel = 4 images), one
        pipeline call per panel or per part of it (the plan's ``batch``).

        An image whose file exists and whose store record has this run's resume key (settings,
        seed, prompt: :func:`~.panel_records.image_key`) is skipped (``skipped_existing``);
        without a store nothing is trusted and every image is made. A panel is never a mix of two
        runs: when the store (or, without one, the folder's manifest) holds images of these
        panels made with another key, nothing is made and an :class:`InputError` names the
        differing fields; with ``force`` those panels are replaced whole (records and files in
        this generator's own folder). On cancel, :class:`Cancelled` is raised with the partial
        result as ``.result``; finished images stay on disk and in the store.
        ``manifest_inputs`` go into the run's manifest (e.g. which segments were left out, and why),
        ``request`` (a :meth:`~.request.GenerationRequest.to_dict`) into its options as ``request``.
        """
        rows = list(prompt_rows)
        if isinstance(samples, bool) or int(samples) != samples or samples < 1:
            raise InputError(f"samples must be a whole number ≥ 1, not {samples!r}")
        if out_dir is None:
            if store is None:
                raise InputError("give an output folder (or a benchmark store, whose folder is used)")
            out_dir = store.root / "generations"
        root = Path(out_dir) / self.name
        for row in rows:
            check_prompt_row(row)
        announce_stage(progress, f"checking the images {self.name} already made")
        plan = self.plan_for(int(samples))
        info = self.model_info()
        known = generated_by(store, self.name)
        samples_of: dict[tuple[str, str], list[int]] = {}
        for condition, segment_id, sample in known:
            samples_of.setdefault((condition, segment_id), []).append(sample)
        seed_of = lambda row, k: seed_for(base_seed, self.name, row.segment_id, row.condition, k, shared_noise)  # noqa: E731
        if not force:
            refuse_mixing(self.name, rows, samples_of, known, root, store, info, seed_of)
        result = GenerationResult(self.name, requested=len(rows) * samples, memory_plan=plan.to_dict())
        options = {"samples": samples, "base_seed": base_seed, "seed_mode": seed_mode(shared_noise),
                   "seed_scheme": SEED_SCHEME, "jpeg_quality": JPEG_QUALITY, "images_per_call": plan.batch,
                   "batch_forward": forward_label(self.batch_forward, self._placement()[0].type, plan.batch)}
        done = replaced = 0
        if progress is not None:
            progress.info(f"{self.name}: {result.requested} images ({len(rows)} prompts × {samples}), plan "
                          f"{plan.plan}, {plan.batch} per call")
        try:
            for row in rows:
                replaced += self._drop_other_runs(store, known, samples_of.get((row.condition, row.segment_id), ()),
                                                  row, root, info, seed_of)
                todo = []
                for sample in range(samples):
                    target = root / row.condition / row.segment_id / f"{sample:02d}.jpg"
                    record = known.get((row.condition, row.segment_id, sample))
                    if already_made(record, target, seed_of(row, sample), row.prompt, info):
                        result.skipped_existing += 1
                        done += 1
                    else:
                        todo.append((sample, seed_of(row, sample), target))
                for start in range(0, len(todo), plan.batch):
                    check_cancel(progress, f"generation with {self.name}")
                    chunk = todo[start:start + plan.batch]
                    self._make(row, chunk, options, store, progress)
                    result.generated += len(chunk)
                    result.paths.extend(target for _, _, target in chunk)
                    done += len(chunk)
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
                self._record_run(root, store, self.model_info(), options, result, manifest_inputs, request)
        log.info("generation with %s: %d made, %d already there%s", self.name, result.generated,
                 result.skipped_existing, f", {replaced} panel(s) of another run (other settings or seeds) "
                 "replaced whole" if replaced else "")
        return result

    def _drop_other_runs(self, store: BenchmarkStore | None, known: dict, recorded: Iterable[int], row, root: Path,
                         info: dict, seed_of) -> bool:
        """Forget the records of ``row``'s panel that this run would not have made (see
        :meth:`generate`), so that the panel ends up the work of this run alone."""
        if store is None:
            return False
        stale = {}
        for sample in recorded:
            record = known.get((row.condition, row.segment_id, sample))
            if record is None:
                continue
            target = root / row.condition / row.segment_id / f"{sample:02d}.jpg"
            if not already_made(record, target, seed_of(row, sample), row.prompt, info):
                stale[sample] = Path(record["abs_path"])
        if not stale:
            return False
        forget_samples(store, (self.name, row.condition, row.segment_id), stale)
        for sample in stale:
            known.pop((row.condition, row.segment_id, sample), None)
        remove_own_images(stale.values(), root)
        log.debug("generator %s: panel %s/%s: %d image(s) of another run forgotten", self.name, row.condition,
                  row.segment_id, len(stale))
        return True

    def _make(self, row, chunk: list[tuple[int, int, Path]], options: dict, store: BenchmarkStore | None,
              progress: Progress | None = None) -> None:
        """One pipeline call for ``chunk`` — ``(sample, seed, target)`` of one panel — with one
        generator per image, so each image's noise is its own seed's (and, where
        :func:`~.batch_forward.splits`, the denoiser evaluated image by image)."""
        import torch

        pipe = self.load(progress)
        info = self.model_info()
        generators = [torch.Generator(device=self._device).manual_seed(seed) for _, seed, _ in chunk]
        extra = _cancel_callback(pipe, progress, f"generation with {self.name}")
        takes = inspect.signature(pipe.__call__).parameters
        if "use_resolution_binning" in takes:
            extra["use_resolution_binning"] = False  # the asked size, never a bin's (PixArt-Σ, HunyuanDiT)
        if "clean_caption" in takes:  # PixArt-Σ: the prompt as written, whether or not bs4/ftfy are installed
            extra["clean_caption"] = options["clean_caption"] = False
        split = splits(self.batch_forward, self._device.type) and len(chunk) > 1
        with torch.inference_mode(), per_image_forward(pipe, len(chunk)) if split else contextlib.nullcontext():
            output = pipe(prompt=row.prompt, num_inference_steps=self.steps, guidance_scale=self.guidance,
                          height=self.resolution, width=self.resolution, generator=generators,
                          num_images_per_prompt=len(chunk), output_type="pil", **extra)
        records = []
        for image, (sample, seed, target) in zip(output.images, chunk):
            with atomic.atomic_path(target) as tmp:
                image.convert("RGB").save(tmp, format="JPEG", quality=JPEG_QUALITY)
            meta = dict(prompt_meta(row))
            meta.update({"generation": info, "seed": seed, "sample_index": sample, **options})
            records.append(GeneratedImage(
                model=self.name, condition=row.condition, segment_id=row.segment_id, sample_index=sample,
                image_path=str(target.resolve()), seed=seed, prompt=row.prompt,
                prompt_meta=json.dumps(meta, sort_keys=True, ensure_ascii=False, default=str), origin="generated"))
        if store is not None:
            store.put_generated(records)

    def _record_run(self, root: Path, store: BenchmarkStore | None, info: dict, options: dict,
                    result: GenerationResult, inputs: dict | None = None, request: dict | None = None) -> None:
        outputs = {"folder": root, "generated": result.generated, "skipped_existing": result.skipped_existing,
                   "requested": result.requested, "cancelled": result.cancelled}
        memory = ({**self._plan.to_dict(), "measured_peak_bytes": self.measured_peak(), "plan_probe": self.plan_probe,
                   "probe": self._probe} if self._plan else None)
        write_manifest(root / "generation_manifest.json",
                       build_manifest("generate", {**options, "request": request} if request else options,
                                      inputs=inputs, outputs=outputs, models=[info], memory_plan=memory))
        if store is not None:
            store.set_meta(f"generation:{self.name}", {"model": info, "options": options, "memory_plan": memory})
            add_image_root(store, root)  # an output folder outside the store's is still the store's (export)


def _cancel_callback(pipe, progress: Progress | None, where: str) -> dict:
    """A step callback that stops a long pipeline call when the user cancels (pipelines that
    take ``callback_on_step_end``; the others are checked between calls)."""
    if progress is None or "callback_on_step_end" not in inspect.signature(pipe.__call__).parameters:
        return {}

    def on_step_end(_pipe, _step, _timestep, tensors):
        check_cancel(progress, where)
        return tensors

    return {"callback_on_step_end": on_step_end}


def make_runner(spec, device: str | None = None):
    """A :class:`GenerationRunner` for ``spec`` (torch and diffusers load only when it
    first generates)."""
    return GenerationRunner(spec.model_id, spec.steps, spec.guidance, spec.resolution, spec.dtype,
                            device=device, name=spec.name, revision=spec.revision)
