"""Stage 3 on Ray: generate the panels of a benchmark store across the GPUs of a machine or a
cluster (method §4), with the images, records and resume behaviour of a single-process run.

The checks, the retained segments and the prompts are the single-process run's
(:func:`~..generation.workflow.generate_store` with a :class:`RayExecutor`); then one :class:`~.generation_worker.GenerationWorker`
per GPU (or CPU slot) loads the generator once, and the panels still to make — one unit per
(model, segment, condition) — go to whichever worker is free. Seeds are per image, so a panel
has the same bytes on whichever worker makes it. The driver alone writes the images, the store
and one generation manifest, which adds a ``cluster`` section: address (no credentials), nodes,
GPUs, each worker's node and library versions, per-unit timing, retries and failed units.
"""
from __future__ import annotations

import json
from pathlib import Path

from ..errors import Cancelled, GeoFidelityError, InputError
from ..events import announce_stage
from ..manifest import build_manifest, write_manifest
from ..progress import NullProgress, Progress, SubProgress
from ..store.store import BenchmarkStore
from ..generation.request import GenerationRequest
from .cluster import RayCluster, check_worker_device, import_ray, public_address
from .generation_plan import PanelWriter, RayGenerationResult, plan_units
from .generation_worker import GenerationWorker
from .units import ActorPool

#: times a panel is tried again after its worker died or failed
DEFAULT_RETRIES = 2


class RayExecutor:
    """:func:`~..generation.workflow.generate_store` on Ray: ``ray`` (``local``, an address, or an
    open :class:`RayCluster`), ``workers`` (default: one per GPU of the cluster, else one per CPU),
    ``max_retries`` per panel. :meth:`run` returns ``(RayGenerationResult, skipped prompts)``;
    panels that failed after every retry are in ``result.failed_units`` and the manifest. The
    device is checked by the workers (the driver may have no GPU)."""

    def __init__(self, ray: str | RayCluster = "local", workers: int | None = None,
                 max_retries: int = DEFAULT_RETRIES):
        self.ray, self.workers, self.max_retries = ray, workers, max_retries

    def run(self, store: BenchmarkStore, request: GenerationRequest, progress: Progress | None = None):
        from ..generation import workflow

        ray, max_retries = self.ray, self.max_retries
        if not isinstance(ray, RayCluster):
            import_ray()  # a missing Ray is said first
        progress = progress or NullProgress()
        check_worker_device(request.device)
        device = (request.device or "").strip().lower() or None
        checked = request.validate("cpu" if device == "cpu" else "cuda")
        spec = checked.spec
        if isinstance(max_retries, bool) or not isinstance(max_retries, int) or max_retries < 0:
            raise InputError(f"retries must be a whole number ≥ 0, not {max_retries!r}")
        prompts, scope = workflow.scored_prompts(store, checked.templates, request.seed, request.conditions,
                                                 request.out_dir, progress, 2)
        root = (Path(request.out_dir) if request.out_dir else store.root / "generations") / spec.name
        job = _Job(store, spec, list(prompts), request.samples, request.seed, request.shared_noise, device,
                   checked.runner_options(), root, request.force, self.workers, max_retries, progress,
                   {"segments": scope}, request.to_dict())
        cluster = ray if isinstance(ray, RayCluster) else RayCluster(ray)
        owned = not isinstance(ray, RayCluster)
        try:
            if owned:
                announce_stage(progress, "starting Ray" if cluster.address == "local" else "connecting to Ray",
                               public_address(cluster.address) if cluster.address != "local" else None)
                cluster.start()
            result = job.run(cluster)
        finally:
            if owned:
                cluster.close()
        store.set_meta(f"generation_spec:{spec.name}", json.loads(json.dumps(spec.to_dict(), default=str)))
        return result, prompts.skipped


class _Job:
    """One generator's panels on one cluster."""

    def __init__(self, store, spec, rows, samples, base_seed, shared_noise, device, runner_options, root, force,
                 workers, max_retries, progress, inputs, request: dict | None = None):
        self.store, self.spec, self.rows, self.samples = store, spec, rows, samples
        self.base_seed, self.shared_noise, self.device = base_seed, shared_noise, device
        self.runner_options, self.root, self.force = runner_options, root, force
        self.workers, self.max_retries, self.progress, self.inputs = workers, max_retries, progress, inputs
        self.request = request

    def run(self, cluster: RayCluster) -> RayGenerationResult:
        ray = cluster.ray
        count, resources = cluster.worker_resources(self.device, self.workers, len(self.rows))
        announce_stage(self.progress, f"starting {count} Ray worker(s) for {self.spec.name}")
        actor_class = ray.remote(max_restarts=self.max_retries, max_task_retries=0, **resources)(GenerationWorker)
        actors = [actor_class.remote(self.spec.to_dict(), self.device, self.runner_options) for _ in range(count)]
        try:
            return self._run(cluster, actors)
        finally:
            for actor in actors:
                try:
                    ray.kill(actor, no_restart=True)
                except Exception:  # noqa: BLE001 — already gone
                    pass

    def _run(self, cluster: RayCluster, actors: list) -> RayGenerationResult:
        ray = cluster.ray
        try:
            described = ray.get([actor.describe.remote(self.samples) for actor in actors])
        except ray.exceptions.RayTaskError as exc:
            cause = getattr(exc, "cause", None)
            if isinstance(cause, GeoFidelityError):
                raise cause from None
            raise
        info, plan = described[0]["info"], described[0]["plan"]
        announce_stage(self.progress, f"checking the images {self.spec.name} already made")
        units, kept, replaced = plan_units(self.store, self.rows, self.samples, self.base_seed, self.shared_noise,
                                           self.spec.name, info, self.root, self.force)
        result = RayGenerationResult(self.spec.name, requested=len(self.rows) * self.samples, skipped_existing=kept,
                                     memory_plan=plan, units_total=len(self.rows),
                                     units_kept=len(self.rows) - len(units))
        self.progress.info(f"{self.spec.name} on Ray: {len(self.rows)} panels ({result.requested} images), "
                           f"{result.units_kept} kept from earlier runs, {len(units)} to make on {len(actors)} "
                           f"worker(s); plan {plan['plan']}, {plan['batch']} image(s) per call"
                           + (f"; {replaced} panel(s) of another run replaced" if replaced else ""))
        writer = PanelWriter(self.store, self.root, result)
        pool = ActorPool(actors, lambda actor, payload: actor.run_unit.remote(payload), self.max_retries,
                         SubProgress(self.progress, 2, 100), label="panels", item_name="images")
        report = None
        announce_stage(self.progress, f"generating with {self.spec.name} on Ray")
        try:
            report = pool.run(units, writer.on_done)
        except BaseException as stopped:  # a user error, a cancel, Ctrl-C or SIGTERM: finished panels are recorded
            report = getattr(stopped, "report", None)
            if isinstance(stopped, (Cancelled, KeyboardInterrupt)):
                result.cancelled = True
            if isinstance(stopped, Cancelled):
                stopped.result = result
            raise
        finally:
            if report is not None:
                result.retries, result.failed_units = report.retries, list(report.failed)
            if result.generated:
                self._record(cluster, described, info, writer, result, report)
        if result.failed_units:
            self.progress.warning(f"{len(result.failed_units)} panel(s) failed after {self.max_retries + 1} "
                                  f"attempt(s) each: {', '.join(u['unit'] for u in result.failed_units[:5])} — "
                                  "they are listed in the generation manifest; run again to retry them")
        return result

    def _record(self, cluster, described, info, writer: PanelWriter, result: RayGenerationResult, report) -> None:
        """One manifest for the whole run (the single-process one plus ``cluster``), and the
        store's ``generation:{name}`` record, written by the driver alone."""
        meta = writer.meta or {}
        options = meta.get("options") or {}
        memory = writer.memory_plan()
        outputs = {"folder": self.root, "generated": result.generated, "skipped_existing": result.skipped_existing,
                   "requested": result.requested, "cancelled": result.cancelled,
                   "units": {"total": result.units_total, "kept": result.units_kept, "made": result.units_made,
                             "failed": len(result.failed_units)}}
        section = cluster.describe()
        section["workers"] = [{"worker": i, **{k: v for k, v in d["worker"].items() if k != "libraries"},
                               "device": d["info"].get("device"), "plan": d["plan"].get("plan")}
                              for i, d in enumerate(described)]
        section["libraries_by_node"] = {d["worker"]["node_id"]: d["worker"]["libraries"] for d in described}
        section["gpus_used"] = sum(len(d["worker"].get("gpu_ids") or []) for d in described)
        section.update(report.to_dict() if report is not None else {})
        write_manifest(self.root / "generation_manifest.json",
                       build_manifest("generate", {**options, "request": self.request} if self.request else options,
                                      inputs=self.inputs, outputs=outputs,
                                      models=[meta.get("model") or info], memory_plan=memory, cluster=section))
        self.store.set_meta(f"generation:{self.spec.name}",
                            {"model": meta.get("model") or info, "options": options, "memory_plan": memory})
        from geofidelity_plugin.core.store.image_roots import add_image_root

        add_image_root(self.store, self.root)  # the store's own image folder, wherever it lies (export)
