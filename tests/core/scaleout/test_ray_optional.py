"""Ray is optional (README "Scale out on Ray"): without it every command works and ``--ray`` says
how to install it; addresses never carry credentials into a manifest or a message. No Ray starts
here."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from geofidelity_plugin.core.errors import InputError
from geofidelity_plugin.core.scaleout.cluster import (RAY_REQUIREMENTS, RayCluster, check_worker_device,
                                                      parse_ray_option, public_address)

REPO = Path(__file__).resolve().parents[3]
INSTALL = 'pip install "ray[data]==2.60.0" "pyarrow<19" "pandas<2.3"'

_WITHOUT_RAY = """
import sys
sys.modules["ray"] = None  # as if Ray were not installed: `import ray` raises ImportError
from geofidelity_plugin.backend.cli import main
code = main(sys.argv[1:])
assert "ray" not in sys.modules or sys.modules["ray"] is None
sys.exit(code)
"""


def _cli_without_ray(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", _WITHOUT_RAY, *args], cwd=REPO, capture_output=True, text=True,
                          timeout=300)


def test_the_ray_option_says_how_to_install_ray(tmp_path):
    from geofidelity_plugin.core.store.store import BenchmarkStore

    BenchmarkStore(tmp_path / "b.sqlite").close()
    for command in (["generate", "--store", str(tmp_path / "b.sqlite"), "--generator", "sdxl-base-1.0", "--ray"],
                    ["evaluate", "--store", str(tmp_path / "b.sqlite"), "--out", str(tmp_path / "out"),
                     "--ray", "local"]):
        run = _cli_without_ray(*command)
        assert run.returncode == 2, run.stderr
        assert INSTALL in run.stderr and "Set up backend" in run.stderr and "one process" in run.stderr
        assert "Traceback" not in run.stderr


def test_everything_else_works_without_ray(tmp_path):
    """The command line, its help, and a run without --ray never import Ray."""
    run = _cli_without_ray("generate", "--help")
    assert run.returncode == 0 and "--ray [ADDRESS]" in run.stdout and "--ray-workers" in run.stdout
    run = _cli_without_ray("evaluate", "--help")
    assert run.returncode == 0 and "--ray [ADDRESS]" in run.stdout
    run = subprocess.run([sys.executable, "-c", "import sys, geofidelity_plugin.backend.cli as c; c.build_parser(); "
                          "import geofidelity_plugin.core.scaleout.generation, geofidelity_plugin.core.scaleout."
                          "embeddings; print('ray' in sys.modules)"], cwd=REPO, capture_output=True, text=True,
                         timeout=300)
    assert run.stdout.strip() == "False", run.stderr


def test_a_missing_ray_is_an_input_error_in_the_core(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(InputError, match="ray") as err:
        RayCluster("local").start()
    assert RAY_REQUIREMENTS in str(err.value) and sys.executable in str(err.value)


def test_ray_option_values():
    assert [parse_ray_option(v) for v in (None, "", " off ", "None", "local", " 10.0.0.5:6379 ")] == [
        None, None, None, None, "local", "10.0.0.5:6379"]


def test_addresses_lose_their_credentials():
    assert public_address("ray://alice:s3cret@head.example.org:10001") == "ray://head.example.org:10001"
    assert public_address("alice:s3cret@10.0.0.5:6379") == "10.0.0.5:6379"
    assert public_address("ray://head:10001?token=abc#x") == "ray://head:10001"
    assert public_address("10.0.0.5:6379") == "10.0.0.5:6379" and public_address("auto") == "auto"


def test_worker_devices_are_checked_before_ray_starts():
    check_worker_device(None)
    check_worker_device("cuda")
    check_worker_device("cpu")
    with pytest.raises(InputError, match="one GPU of its own — give --device cuda"):
        check_worker_device("cuda:1")
    with pytest.raises(InputError, match="unknown device 'gpu'"):
        check_worker_device("gpu")


def test_progress_lines_give_units_throughput_and_eta():
    from geofidelity_plugin.core.scaleout.units import status_line

    assert status_line(3, 10, "panels", 12, 40, "images", 6.0, 2) == (
        "Ray: 3/10 panels on 2 worker(s), 2.00 images/s, ETA 14 s")
    assert status_line(1, 400, "panels", 4, 1600, "images", 20.0, 8).endswith("0.20 images/s, ETA 2 h 13 min")
    assert status_line(0, 5, "batches", 0, 80, "images", 0.0, 1).endswith("ETA —")
