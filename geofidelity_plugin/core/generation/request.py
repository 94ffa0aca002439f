"""One generation run as one object (method §4): what to generate, with which generator and how
the device is used — the same request for a single process and for Ray.

A :class:`GenerationRequest` holds the options a user gives (``generate`` on the command line,
``geofidelity:generate_panels`` in QGIS); :meth:`~GenerationRequest.validate` checks all of them
before the store is read or a model loaded, with the messages of the checks it calls, and returns
a :class:`CheckedRequest` (the resolved generator, templates, plan, budget in bytes, precision and
denoiser mode). An *executor* — :class:`~.workflow.LocalExecutor` in this process, :class:`~..scaleout.generation.RayExecutor`
on a cluster — runs a request with ``run(store, request, progress)``; the command chooses the
executor (``--ray``), so that the road from ``--vram-budget`` to the memory plan is one.

Stdlib-only at import time: the checks import what they need when called.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Mapping, Protocol

from ..conditions import CONDITIONS
from .options import DEFAULT_SAMPLES, DEFAULT_SEED

#: the settings of a ``--custom-folder`` generator, as request fields
CUSTOM_FIELDS = ("steps", "guidance", "dtype", "resolution")


@dataclass(frozen=True)
class GenerationRequest:
    """Everything one ``generate`` run is asked to do.

    ``generator``: a registered name or hub id, or the name a ``custom_folder`` model is recorded
    under (with ``steps``, ``guidance``, ``dtype``, ``resolution``; given for a registered generator
    they are refused, not ignored). ``templates``: :class:`~.prompts.PromptTemplates` or a mapping
    ``{"L0": …, "L1": …, "L2": …, "suffix": …}``. ``device``: ``None`` (the GPU when there is one)
    or ``cpu``, ``cuda``, ``cuda:N``, ``mps``. ``out_dir``: the generations folder (``None``:
    ``generations`` beside the store). ``plan``, ``vram_budget`` (``"12GB"`` or bytes),
    ``plan_probe``, ``fp8_denoiser``, ``precision``, ``batch_forward``: docs/memory-plans.md. ``force``: replace
    panels made with other settings. The run manifest records the request as given
    (:meth:`to_dict`)."""

    generator: str
    samples: int = DEFAULT_SAMPLES
    seed: int = DEFAULT_SEED
    shared_noise: bool = False
    conditions: tuple = field(default=CONDITIONS)
    templates: Any = None
    custom_folder: str | None = None
    steps: int | None = None
    guidance: float | None = None
    dtype: str | None = None
    resolution: int | None = None
    device: str | None = None
    out_dir: str | None = None
    plan: str | None = None
    vram_budget: Any = None
    plan_probe: str | None = None
    fp8_denoiser: bool = False
    precision: str | None = None
    batch_forward: str | None = None
    force: bool = False

    def __post_init__(self):
        conditions = self.conditions
        object.__setattr__(self, "conditions", tuple(conditions) if conditions else CONDITIONS)
        for name in ("custom_folder", "out_dir"):
            value = getattr(self, name)
            if isinstance(value, Path):
                object.__setattr__(self, name, str(value))

    @classmethod
    def from_options(cls, values: Mapping[str, Any]) -> "GenerationRequest":
        """A request from ``{field: value}`` (e.g. ``vars(args)`` of ``generate``); other keys are
        left out."""
        names = set(cls.__dataclass_fields__)
        return cls(**{k: v for k, v in values.items() if k in names})

    @property
    def custom(self) -> dict:
        """The custom-folder settings as :func:`~.generators.resolve_generator` reads them."""
        return {"folder": self.custom_folder, **{k: getattr(self, k) for k in CUSTOM_FIELDS}}

    def to_dict(self) -> dict:
        """What the run manifest records (``options.request``): the request as given."""
        import json

        return json.loads(json.dumps(asdict(self), default=str))

    def validate(self, device_type: str = "cuda") -> "CheckedRequest":
        """Every option checked before the store is read or a model loaded (the device itself is
        checked by the executor: here, or on the Ray workers). ``device_type``: ``cpu`` or
        ``cuda``, for the plans that exist there."""
        from ..errors import InputError
        from .batch_forward import check_mode
        from .generators import normalise_dtype, resolve_generator
        from .memory_plan import check_plan, parse_budget
        from .plan_probe import check_mode as check_probe
        from .prompts import PromptTemplates

        batch_forward = check_mode(self.batch_forward)
        plan = check_plan(self.plan, device_type)
        budget = (self.vram_budget if isinstance(self.vram_budget, int) or self.vram_budget is None
                  else parse_budget(self.vram_budget))
        precision = None if self.precision in (None, "", "auto") else normalise_dtype(self.precision)
        custom = self.custom
        spec = resolve_generator(self.generator, custom.get("folder"), custom.get("steps"), custom.get("guidance"),
                                 custom.get("dtype"), custom.get("resolution"))
        templates = self.templates
        if not isinstance(templates, PromptTemplates):
            templates = PromptTemplates.from_mapping(templates)
        samples = self.samples
        if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
            raise InputError(f"samples must be a whole number ≥ 1, not {samples!r}")
        return CheckedRequest(self, spec, templates, plan, budget, precision, batch_forward,
                              check_probe(self.plan_probe))


@dataclass(frozen=True)
class CheckedRequest:
    """A validated :class:`GenerationRequest`: ``spec`` is the resolved
    :class:`~.generators.GeneratorSpec`, ``budget`` bytes or ``None``."""

    request: GenerationRequest
    spec: object
    templates: object  # PromptTemplates
    plan: str | None
    budget: int | None
    precision: str | None
    batch_forward: str
    plan_probe: str = "auto"

    def runner_options(self) -> dict:
        """The memory-plan options of :class:`~.runner.GenerationRunner` (here and on each Ray worker)."""
        return {"plan": self.plan, "vram_budget": self.budget, "fp8_denoiser": bool(self.request.fp8_denoiser),
                "precision": self.precision, "batch_forward": self.batch_forward, "plan_probe": self.plan_probe}


class Executor(Protocol):
    """Runs a request against a store: ``(result, skipped prompts)``."""

    def run(self, store, request: GenerationRequest, progress=None): ...

