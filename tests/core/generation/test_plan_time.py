"""The plan time model against the recorded H200 runs of `make gpu-check` (docs/gpu-check/*.json):
the chooser takes the fastest measured plan that fits (or one within 1.15× of it), the predictions
are within 25 % of the measured times (median), and the data file is what those runs give."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from geofidelity_plugin.core.generation.component_sizes import published_sizes
from geofidelity_plugin.core.generation.generators import GENERATORS
from geofidelity_plugin.core.generation.memory_plan import GIB, choose_plan
from geofidelity_plugin.core.generation.plan_calibration import (derive, errors, measured_choices, measured_plans,
                                                                 measured_runs, median_abs_error, recorded_probe)
from geofidelity_plugin.core.generation.plan_time import calibration, group_factor

REPO = Path(__file__).resolve().parents[3]
RESULTS = sorted((REPO / "docs" / "gpu-check").glob("*-h200-run*.json"))
BUDGETS = (8, 12, 16, 24, 48, 80)
RUNS = measured_runs(RESULTS)
MEASURED_GENERATORS = sorted({r.generator for r in RUNS})


def test_the_recorded_runs_cover_five_generators_and_the_offload_plans():
    assert len(RESULTS) >= 2 and len(MEASURED_GENERATORS) >= 5, MEASURED_GENERATORS
    assert {r.plan for r in RUNS} >= {"gpu", "model-offload", "group-offload", "sequential"}


@pytest.mark.parametrize("budget", BUDGETS)
@pytest.mark.parametrize("name", MEASURED_GENERATORS)
def test_the_chosen_plan_is_the_fastest_measured_fit_or_within_15_percent(name, budget):
    fits = measured_choices(RUNS, name, budget)
    if not fits:
        pytest.skip(f"no recorded run of {name} fits {budget} GiB")
    spec = GENERATORS[name]
    plan = choose_plan(published_sizes(name), spec.dtype, 1024, 4, "cuda", budget * GIB, f"{budget} GB",
                       steps=spec.steps, device_name="NVIDIA H200", plans=measured_plans(RUNS, name))
    best = min(fits.values())
    mine = fits.get((plan.plan, plan.batch))
    assert mine is not None, (f"{name} at {budget} GiB: chose {plan.plan} · {plan.batch}, which no recorded run "
                              f"shows fitting; measured fits: {fits}")
    assert mine <= 1.15 * best, (f"{name} at {budget} GiB: {plan.plan} · {plan.batch} measured {mine:.1f} s, "
                                 f"the fastest fit {min(fits, key=fits.get)} {best:.1f} s")


def test_the_flux_dev_case_of_the_issue_takes_group_offload_at_24_gib():
    """A 24 GB card got FLUX.1-dev under model offload at one image per call (114.6 s per panel
    measured); group offload with the full panel fits and measured ≈ 22 s."""
    spec = GENERATORS["flux.1-dev"]
    plan = choose_plan(published_sizes("flux.1-dev"), spec.dtype, 1024, 4, "cuda", 24 * GIB, "24 GB",
                       steps=spec.steps, device_name="NVIDIA H200")
    assert plan.plan == "group-offload" and plan.batch == 4, plan.reason
    assert "model-offload" in plan.reason and plan.predicted_s_per_panel < 40


def test_sdxl_at_8_gib_takes_model_offload_not_its_slow_group_offload():
    """SDXL's UNet under group offload measured 26.1 s per panel uncapped and 15.6 s at 8 GiB (many
    small blocks, the hooks' overhead) against 8.3 s under model offload at 8 GiB."""
    spec = GENERATORS["sdxl-base-1.0"]
    plan = choose_plan(published_sizes("sdxl-base-1.0"), spec.dtype, 1024, 4, "cuda", 8 * GIB, "8 GB",
                       steps=spec.steps, device_name="NVIDIA H200")
    assert plan.plan == "model-offload" and plan.batch == 4, plan.reason
    assert "group-offload" in plan.reason


def test_a_generator_with_group_offload_runs_has_its_own_group_factor_the_others_the_median():
    cal = calibration()
    for name in MEASURED_GENERATORS:
        runs = [r for r in RUNS if r.generator == name and r.plan == "group-offload"]
        own = cal["generators"][name].get("group_factor")
        assert (own is not None) == bool(runs), name
        if own is not None:
            assert group_factor(name, cal) == own
    assert cal["generators"]["sdxl-base-1.0"]["group_factor"] > 3 * cal["group_factor"]
    assert group_factor("a-custom-folder", cal) == cal["group_factor"]
    # leaving a generator out takes its own factor away: its runs are predicted from the others'
    assert "group_factor" not in derive(RUNS, "", leave_out="sdxl-base-1.0")["generators"]["sdxl-base-1.0"]


def test_predictions_are_within_25_percent_of_the_measured_times():
    rows = errors(RUNS, calibration())
    assert len(rows) == len(RUNS) >= 30
    assert median_abs_error(rows) <= 0.25, median_abs_error(rows)
    offload = [r for r in rows if r["plan"] != "gpu"]
    assert median_abs_error(offload) <= 0.25, median_abs_error(offload)


def test_the_data_file_is_what_the_recorded_runs_give():
    data = json.loads((REPO / "resources" / "generation" / "plan_times.json").read_text(encoding="utf-8"))
    again = json.loads(json.dumps(derive(RUNS, data["measured"], probe=recorded_probe(RESULTS))))
    assert data == again
    done = subprocess.run([sys.executable, str(REPO / "scripts" / "plan_calibration.py"), "--check"], cwd=REPO,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
