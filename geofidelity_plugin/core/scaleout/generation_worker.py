"""The Ray actor that generates panels (method §4): it holds one :class:`GenerationRunner`, whose
pipeline loads once, on the first panel, with the memory plan chosen for this worker's own GPU.

A unit is one (model, segment, condition) panel. The worker makes it with the runner's own
``generate`` — the same code, seeds and JPEG encoding as a single-process run — into a private
temporary folder with a throw-away store, and returns the JPEG bytes and the records the runner
wrote; the driver writes them into the real folder and store (the one writer).

Constructing the actor does nothing that can fail: the runner is built on the first call, so a
bad model folder or device comes back as a message, and an actor that Ray restarts after a crash
builds it again.
"""
from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path


class GenerationWorker:
    """One per GPU (or CPU slot). ``spec``: a :class:`~..generation.generators.GeneratorSpec` as a
    dict; ``runner_options``: the runner's plan options (plan, vram_budget, fp8_denoiser,
    precision, batch_forward, …)."""

    def __init__(self, spec: dict, device: str | None, runner_options: dict):
        self.spec, self.device, self.runner_options = dict(spec), device, dict(runner_options)
        self.runner = None

    def _runner(self):
        if self.runner is None:
            from ..generation.generators import GeneratorSpec
            from ..generation.runner import GenerationRunner

            self.runner = GenerationRunner.from_spec(GeneratorSpec(**self.spec), self.device, **self.runner_options)
        return self.runner

    def describe(self, samples: int) -> dict:
        """This worker's model info (the resume key of its images), memory plan and node report;
        no weights load."""
        from .cluster import node_report

        runner = self._runner()
        plan = runner.plan_for(int(samples))
        return {"info": runner.model_info(), "plan": plan.to_dict(), "worker": node_report()}

    def run_unit(self, unit: dict) -> dict:
        """Make one panel: ``unit`` holds the prompt row, samples, base_seed and shared_noise.
        Returns ``{"images": [{"record": …, "jpeg": bytes}], "meta": …, "seconds": …, "pid": …}``."""
        from ..store.store import BenchmarkStore

        runner = self._runner()
        row = unit["row"]
        started = time.perf_counter()
        with tempfile.TemporaryDirectory(prefix="geofidelity-ray-unit-") as tmp:
            store = BenchmarkStore(Path(tmp) / "unit.sqlite")
            try:
                runner.generate([row], samples=unit["samples"], base_seed=unit["base_seed"],
                                shared_noise=unit["shared_noise"], out_dir=Path(tmp) / "generations", store=store)
                records = store.generated_panels().get((runner.name, row.condition, row.segment_id), [])
                meta = store.meta(f"generation:{runner.name}")
            finally:
                store.close()
            images = []
            for record in records:
                path = Path(record.pop("abs_path"))
                images.append({"record": record, "jpeg": path.read_bytes()})
        return {"images": images, "meta": meta, "seconds": time.perf_counter() - started, "pid": os.getpid(),
                "measured_peak_bytes": runner.measured_peak()}

    def pid(self) -> int:
        return os.getpid()
