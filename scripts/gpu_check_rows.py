"""Which rows `make gpu-check` measures (:mod:`gpu_check`; docs/gpu-check.md): by default every
memory plan of a generator forced and uncapped, then each VRAM cap under the plan the product's
chooser takes for it; or only the rows ``--runs`` names, so that a change that owes a few
measurements can be re-run within a short device budget:

    --runs flux.1-dev@24,flux.1-schnell@none,sdxl-base-1.0:group-offload

``GENERATOR@CAP`` is the chooser's plan under a cap of CAP GiB (``none``: the whole card),
``GENERATOR:PLAN`` a plan forced on the whole card, ``GENERATOR:PLAN@CAP`` a plan forced under a
cap. Stdlib only: the rows are checked before torch is imported.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

#: how to write a row, said in every refusal
FORMS = ("flux.1-dev@24 (the chooser's plan under a 24 GiB cap), flux.1-dev@none (the chooser's plan on the "
         "whole card), flux.1-dev:group-offload (a plan forced on the whole card) or flux.1-dev:group-offload@24")
_CAP = re.compile(r"^(\d+(?:\.\d+)?)\s*(?:gib|gb|g)?$", re.IGNORECASE)


@dataclass(frozen=True)
class RowSpec:
    """One row to measure: ``plan`` forced (None: the product's chooser takes it), under a cap of
    ``budget_gb`` GiB (None: uncapped, the whole card)."""

    generator: str
    plan: str | None = None
    budget_gb: float | None = None

    @property
    def label(self) -> str:
        return (f"{self.generator}{':' + self.plan if self.plan else ''}"
                f"@{'none' if self.budget_gb is None else f'{self.budget_gb:g}'}")


def default_rows(generator: str, plans: tuple, budgets: tuple) -> list[RowSpec]:
    """Every plan forced and uncapped, then each cap under the chooser's plan."""
    return [RowSpec(generator, plan) for plan in plans] + [RowSpec(generator, None, b) for b in budgets]


def _cap(text: str, entry: str) -> float | None:
    if text.strip().lower() == "none":
        return None
    found = _CAP.match(text.strip())
    value = float(found.group(1)) if found else 0.0
    if value <= 0:
        raise ValueError(f"--runs entry {entry!r}: the cap {text!r} is not a size in GiB — write it like "
                         f"flux.1-dev@24 or flux.1-dev@none (uncapped)")
    return int(value) if value.is_integer() else value


def parse_entry(entry: str, generators, plans: tuple) -> RowSpec:
    """One ``--runs`` entry; a refusal names what is wrong and how to write it."""
    text = entry.strip()
    head, at, cap = text.partition("@")
    name, colon, plan = head.partition(":")
    name, plan = name.strip(), plan.strip().lower()
    if name not in generators:
        raise ValueError(f"--runs entry {entry!r}: unknown generator {name!r} — use one of {', '.join(generators)}")
    if colon and plan not in plans:
        raise ValueError(f"--runs entry {entry!r}: unknown plan {plan!r} — use one of {', '.join(plans)}, or leave "
                         "it out for the chooser's plan")
    if not colon and not at:
        raise ValueError(f"--runs entry {entry!r} names no row — write {FORMS}; --generators {name} measures every "
                         "row of it")
    return RowSpec(name, plan if colon else None, _cap(cap, entry) if at else None)


def parse_runs(values, generators, plans: tuple) -> dict[str, list[RowSpec]]:
    """``--runs`` (entries separated by commas or spaces) → the rows of each generator, the
    generators in the order they are first named (the most wanted first: ``--budget-s`` cuts the
    last); a row named twice is measured once."""
    entries = [e for v in ([values] if isinstance(values, str) else values or []) for e in re.split(r"[,\s]+", v)
               if e.strip()]
    if not entries:
        raise ValueError(f"--runs names no row — write {FORMS}, several separated by commas")
    rows: dict[str, list[RowSpec]] = {}
    for entry in entries:
        row = parse_entry(entry, generators, plans)
        if row not in rows.setdefault(row.generator, []):
            rows[row.generator].append(row)
    return rows


def selected_rows(parser, args, plans: tuple, size_of) -> dict[str, list[RowSpec] | None]:
    """The generators to measure and their rows (None: every row), in the order they run: the
    ``--runs`` order, else smallest first (``size_of``: parameters; whole billions, then registry
    order) so that ``--budget-s`` cuts the largest. Bad names end the script with the fix (exit 2)."""
    from geofidelity_plugin.core.generation.generators import GENERATORS

    if args.runs and args.generators:
        parser.error("--runs and --generators both choose what to measure — give one of them")
    if args.runs:
        try:
            return parse_runs(args.runs, GENERATORS, plans)
        except ValueError as exc:
            parser.error(str(exc))
    names = args.generators or list(GENERATORS)
    unknown = [n for n in names if n not in GENERATORS]
    if unknown:
        parser.error(f"unknown generator(s) {', '.join(unknown)}; registered: {', '.join(GENERATORS)}")
    order = list(GENERATORS)
    return {n: None for n in sorted(names, key=lambda n: (round(size_of(n) / 1e9), order.index(n)))}


# -- the rows of one generator, in the order they run -----------------------------------------
def resolve(rows: list[RowSpec], plan_for, total_bytes: int, plans: tuple, refused=Exception) -> tuple[list, list]:
    """``(planned, unfit)``: each row with the product's plan for it (``plan_for(name, budget
    bytes, source, plan)``), grouped by plan in ``plans`` order, uncapped before capped (one
    pipeline serves a group); the rows nothing fits as ``does not fit`` records."""
    planned, unfit = [], []
    for index, row in enumerate(rows):
        budget = total_bytes if row.budget_gb is None else int(row.budget_gb * 1024 ** 3)
        source = "uncapped: the whole card" if row.budget_gb is None else f"gpu-check cap of {row.budget_gb:g} GiB"
        try:
            planned.append((row, plan_for(row.generator, budget, source, row.plan), index))
        except refused as exc:  # the product refuses the run: nothing to measure
            unfit.append({"plan": row.plan or "—", "budget_gb": row.budget_gb, "status": "does not fit",
                          "error": str(exc)[:200]})
    planned.sort(key=lambda item: (plans.index(item[1].plan), item[0].budget_gb is not None, item[2]))
    return [(row, plan) for row, plan, _ in planned], unfit


def skipped(rows: list[RowSpec], why: str = "time budget") -> list[dict]:
    """Records of rows not started (``auto``: the chooser's plan, not taken yet)."""
    return [{"plan": row.plan or "auto", "budget_gb": row.budget_gb, "status": "skipped", "error": why}
            for row in rows]


def record(row: RowSpec, plan, vae: str) -> dict:
    """What a row records before it runs: the plan the product took and its predictions."""
    return {"plan": plan.plan, "budget_gb": row.budget_gb, "chosen_by": "forced" if row.plan else "chooser",
            "vae": vae, "batch": plan.batch, "predicted_peak": plan.predicted_peak_bytes,
            "predicted_s_per_panel": plan.predicted_s_per_panel, "time_basis": plan.time_basis,
            "reason": plan.reason}


# -- the probe --------------------------------------------------------------------------------
def measure_probe() -> dict:
    """The product's GPU probe (core/generation/plan_probe.py), or why it failed."""
    from geofidelity_plugin.core.generation.plan_probe import run_probe

    try:
        return run_probe("cuda")
    except Exception as exc:  # the plan rows still run, predicted from the published peaks
        return {"status": "error", "error": f"{type(exc).__name__}: {str(exc)[:200]}"}
