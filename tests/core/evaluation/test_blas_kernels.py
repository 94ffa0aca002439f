"""The statistics and metric tests pass whichever OpenBLAS kernel numpy picks.

numpy's OpenBLAS chooses a kernel for the CPU at start-up (``OPENBLAS_CORETYPE`` forces one),
and kernels reduce sums in different orders: a test that compared floats from differently
shaped computations bit for bit passed on one machine and failed on another. Here the same
tests run once per kernel this CPU can execute (docs/method.md, "Reproducibility").
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO

#: OpenBLAS kernel → CPU flags it needs (a kernel the CPU lacks would die with SIGILL).
KERNELS = {
    "Prescott": (),
    "Nehalem": ("sse4_2",),
    "SandyBridge": ("avx",),
    "Haswell": ("avx2", "fma"),
    "Zen": ("avx2", "fma"),
    "SkylakeX": ("avx512f", "avx512bw", "avx512dq", "avx512vl"),
    "Cooperlake": ("avx512f", "avx512bw", "avx512dq", "avx512vl", "avx512_bf16"),
}


def _cpu_flags() -> set[str]:
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return set()
    for line in text.splitlines():
        if line.startswith("flags"):
            return set(line.split(":", 1)[1].split())
    return set()


def _openblas_with_coretype() -> bool:
    import numpy

    config = str(getattr(numpy, "show_config", lambda **k: None)(mode="dicts") or "")
    return "openblas" in config.lower()


def _kernel_can_be_forced() -> bool:
    """Whether this numpy's OpenBLAS takes OPENBLAS_CORETYPE and says so (Debian's does; the
    scipy-openblas inside numpy 2's pip wheels names no core)."""
    probe = "import numpy; a = numpy.ones((64, 64)); a @ a"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120,
                         env=dict(os.environ, OPENBLAS_CORETYPE="Haswell", OPENBLAS_VERBOSE="2"))
    return "core:" in (out.stdout + out.stderr).lower()


FLAGS = _cpu_flags()
RUNNABLE = [k for k, needs in KERNELS.items() if all(f in FLAGS for f in needs)]


@pytest.mark.skipif(not _openblas_with_coretype(), reason="numpy is not linked against OpenBLAS here")
@pytest.mark.skipif(_openblas_with_coretype() and not _kernel_can_be_forced(),
                    reason="this numpy's OpenBLAS does not take OPENBLAS_CORETYPE (numpy 2's pip wheels)")
@pytest.mark.parametrize("kernel", RUNNABLE)
def test_statistics_and_metrics_under_kernel(kernel):
    env = dict(os.environ, OPENBLAS_CORETYPE=kernel, OPENBLAS_VERBOSE="2")
    out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-s", "-p", "no:cacheprovider", "-p", "no:randomly",
                          "tests/core/evaluation/test_statistics.py", "tests/core/evaluation/test_metrics.py", "tests/core/evaluation/test_retrieval.py"],
                         cwd=REPO, env=env, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-2000:]
    # OpenBLAS names the kernel it really used: the forced one, not a fallback
    said = (out.stdout + out.stderr).lower()
    if f"core: {kernel}".lower() not in said and _probe_core(kernel) != kernel.lower():
        pytest.skip(f"this OpenBLAS has no {kernel} kernel built in (it runs {_probe_core(kernel)}): the numbers "
                    "above passed under that one")
    assert f"core: {kernel}".lower() in said, (out.stdout + out.stderr)[:500]


def _probe_core(kernel: str) -> str:
    """The core this numpy's OpenBLAS names when ``kernel`` is forced, outside pytest."""
    probe = "import numpy; a = numpy.ones((64, 64)); a @ a"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120,
                         env=dict(os.environ, OPENBLAS_CORETYPE=kernel, OPENBLAS_VERBOSE="2"))
    said = [line.split(":", 1)[1].strip().lower() for line in (out.stdout + out.stderr).splitlines()
            if line.lower().startswith("core:")]
    return said[0] if said else ""
    assert " passed" in out.stdout


def test_at_least_two_kernels_checked():
    assert len(RUNNABLE) >= 2 or not FLAGS, RUNNABLE
