"""Where a scaled-out run runs: a local Ray started for the run, or an existing Ray cluster.

``--ray`` (CLI) / *Ray cluster* (QGIS) takes ``local`` — start Ray on this machine, with every
GPU and CPU it has — or an address to connect to: ``auto`` (the cluster this machine belongs to,
as inside a Ray Job), ``HOST:6379`` or ``ray://HOST:10001`` (Ray Client). Empty or ``off``: the
single process, as without the option.

A manifest records the address with any credentials taken out, the nodes (host, CPUs, GPUs) and,
per worker, its node, process, GPU and library versions (:func:`node_report`) — never a token.
"""
from __future__ import annotations

import contextlib
import logging
import os
import re
import signal
import socket
import sys
import threading

from ..errors import InputError

log = logging.getLogger("geofidelity")

#: what to install (pyarrow and pandas capped: their newest releases need numpy 2, and the project pins numpy<2)
RAY_REQUIREMENTS = '"ray[data]==2.60.0" "pyarrow<19" "pandas<2.3"'
_OFF = ("", "off", "none", "no", "false", "0")


def install_hint() -> str:
    return (f"install Ray into the backend environment: {sys.executable} -m pip install {RAY_REQUIREMENTS} "
            "(in QGIS: Settings › Options › GeoFidelity › Set up backend… with the full profile); without "
            "--ray every stage runs in one process")


def import_ray():
    """``ray`` with Ray Data, or an :class:`InputError` that says how to install them."""
    try:
        import ray
        import ray.data  # noqa: F401 — pyarrow and pandas come with it and must import with this numpy
    except ImportError as exc:
        raise InputError(f"--ray needs Ray, which this backend environment cannot import ({exc}) — "
                         f"{install_hint()}") from None
    return ray


def parse_ray_option(value) -> str | None:
    """``None`` (one process), ``"local"`` or the address as given (stripped)."""
    text = "" if value is None else str(value).strip()
    return None if text.lower() in _OFF else text


def public_address(address: str) -> str:
    """The address without credentials (``user:secret@`` and any ``?query``): what a manifest and a
    message may show."""
    text = re.sub(r"(?<=://)[^/@]*@", "", str(address))
    text = re.sub(r"^[^/@:]*:[^/@]*@", "", text)  # user:secret@host:port without a scheme
    return text.split("?", 1)[0].split("#", 1)[0]


class RayCluster:
    """A connection to Ray for one run (a context manager). ``address``: ``local`` starts Ray
    here (shut down at the end); anything else connects (disconnected at the end). When this
    process is already connected (a notebook, a test), that connection is used and left open."""

    def __init__(self, address: str = "local", num_cpus: int | None = None, num_gpus: int | None = None):
        self.address = parse_ray_option(address) or "local"
        self.num_cpus, self.num_gpus = num_cpus, num_gpus
        self.mode: str | None = None
        self.ray = None

    def __enter__(self) -> "RayCluster":
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def start(self) -> "RayCluster":
        ray = self.ray = import_ray()
        if ray.is_initialized():
            self.mode = "existing"
            _quiet_ray_data()
            return self
        _loopback_direct()
        with _keeping_sigterm():
            if self.address == "local":
                ray.init(address="local", num_cpus=self.num_cpus, num_gpus=self.num_gpus, include_dashboard=False,
                         log_to_driver=False, logging_level=logging.ERROR)
                self.mode = "local"
            else:
                check_reachable(self.address)  # an address nobody answers at: a message now, not minutes of retries
                try:
                    ray.init(address=self.address, log_to_driver=False, logging_level=logging.ERROR)
                except Exception as exc:  # noqa: BLE001 — Ray raises ConnectionError, RuntimeError, its own errors
                    raise InputError(_connect_failure(self.address, exc)) from None
                self.mode = "connected"
        _quiet_ray_data()
        return self

    def close(self) -> None:
        if self.ray is not None and self.mode in ("local", "connected") and self.ray.is_initialized():
            self.ray.shutdown()
        self.mode = None if self.mode != "existing" else self.mode

    # -- what the cluster has ----------------------------------------------------------------
    def resources(self) -> dict:
        return dict(self.ray.cluster_resources())

    def gpus(self) -> int:
        return int(self.resources().get("GPU", 0))

    def cpus(self) -> int:
        return int(self.resources().get("CPU", 0))

    def describe(self) -> dict:
        """The cluster section of a manifest (no credentials)."""
        nodes = []
        for node in self.ray.nodes():
            if not node.get("Alive", True):
                continue
            resources = node.get("Resources") or {}
            nodes.append({"node_id": node.get("NodeID"), "host": node.get("NodeManagerHostname"),
                          "cpus": resources.get("CPU", 0), "gpus": resources.get("GPU", 0)})
        address = "local (started by this run)" if self.mode == "local" else public_address(self.address)
        if self.mode == "existing":
            address = "this process's existing Ray connection"
        try:
            gcs = self.ray.get_runtime_context().gcs_address
        except AttributeError:
            gcs = None
        return {"engine": "ray", "ray_version": self.ray.__version__, "address": address,
                "gcs_address": public_address(gcs) if gcs else None, "mode": self.mode,
                "nodes": nodes, "cpus": self.cpus(), "gpus": self.gpus(),
                "driver": {"host": socket.gethostname(), "pid": os.getpid()}}

    def worker_resources(self, device: str | None, workers: int | None, units: int) -> tuple[int, dict]:
        """How many workers and what each asks Ray for: one GPU each when the run uses GPUs (the
        device is ``cuda`` or empty on a cluster with GPUs), else one CPU each; never more
        workers than units of work."""
        check_worker_device(device)
        gpus = self.gpus()
        on_gpu = device not in ("cpu", "mps") and (gpus > 0 or (device or "").startswith("cuda"))
        if on_gpu and gpus == 0:
            raise InputError(f"--device {device}: the Ray cluster has no GPU ({self.resources().get('CPU', 0):g} "
                             "CPUs) — use --device cpu, or connect to a cluster with GPUs")
        available = gpus if on_gpu else max(1, self.cpus())
        if workers is not None and (isinstance(workers, bool) or int(workers) != workers or workers < 1):
            raise InputError(f"Ray workers must be a whole number ≥ 1, not {workers!r}")
        count = max(1, min(int(workers) if workers else available, max(1, units)))
        return count, ({"num_gpus": 1, "num_cpus": 1} if on_gpu else {"num_cpus": 1})


def check_worker_device(device: str | None) -> None:
    """On Ray each worker holds one whole GPU, which it sees as ``cuda``: a GPU number means
    nothing there. The device itself is checked by each worker (the driver may have no GPU)."""
    if device and re.fullmatch(r"cuda:\d+", str(device).strip()):
        raise InputError(f"--device {device}: with --ray each worker holds one GPU of its own — give --device "
                         "cuda (or leave it empty), and Ray places one worker per GPU")
    if device and str(device).strip() not in ("cpu", "cuda", "mps"):
        raise InputError(f"unknown device {device!r} — with --ray use cpu or cuda, or leave it empty to use the "
                         "cluster's GPUs when it has some")


def node_report() -> dict:
    """Run inside a worker: where it is and what it runs with (for the manifest)."""
    import ray

    from ..manifest import library_versions

    context = ray.get_runtime_context()
    report = {"node_id": context.get_node_id(), "host": socket.gethostname(), "pid": os.getpid(),
              "gpu_ids": [str(g) for g in ray.get_gpu_ids()], "libraries": library_versions()}
    try:
        import torch

        report["torch_threads"] = torch.get_num_threads()
        if report["gpu_ids"] and torch.cuda.is_available():
            report["gpu_name"] = torch.cuda.get_device_name(0)
    except ImportError:
        pass
    report["libraries"]["ray"] = ray.__version__
    return report


@contextlib.contextmanager
def _keeping_sigterm():
    """``ray.init`` installs a native SIGTERM handler that ends the process on the spot; put the
    process's own back, so that a cancel (SIGTERM from QGIS, ``kill``) still stops the run cleanly:
    workers killed, the manifest written, exit 130."""
    main = threading.current_thread() is threading.main_thread()
    handler = signal.getsignal(signal.SIGTERM) if main else None
    try:
        yield
    finally:
        if main and handler is not None:
            signal.signal(signal.SIGTERM, handler)


def _loopback_direct() -> None:
    """Ray's processes talk gRPC over loopback, and gRPC honours the proxy variables: with a proxy
    set (QGIS's, say), loopback goes direct."""
    from ..network import NO_PROXY_VARIABLES, PROXY_VARIABLES

    if not any(os.environ.get(name) for name in PROXY_VARIABLES):
        return
    have = [h for name in NO_PROXY_VARIABLES for h in os.environ.get(name, "").split(",") if h.strip()]
    merged = ",".join(dict.fromkeys([*(h.strip() for h in have), "127.0.0.1", "localhost", "::1"]))
    for name in NO_PROXY_VARIABLES:
        os.environ[name] = merged


def _quiet_ray_data() -> None:
    """No Ray Data progress bars or execution-plan lines in a CLI or QGIS log: progress goes
    through the run's own progress object."""
    try:
        from ray.data import DataContext
    except ImportError:
        return
    context = DataContext.get_current()
    context.enable_progress_bars = False
    for name in ("ray.data", "ray.data._internal"):
        logging.getLogger(name).setLevel(logging.ERROR)


#: seconds to wait for a TCP connection to a cluster's address before ray.init is tried at all
#: (Ray itself retries an address nobody answers at for minutes, printing a line per try)
CONNECT_TIMEOUT_S = 10.0
CONNECT_TIMEOUT_VARIABLE = "GEOFIDELITY_RAY_CONNECT_TIMEOUT_S"


def _secrets(address: str) -> list[str]:
    """The credentials an address carries (``user:secret@``), longest first."""
    match = re.search(r"(?:^|://)([^/@]*)@", str(address))
    if not match:
        return []
    userinfo = match.group(1)
    return sorted({userinfo, *userinfo.split(":", 1)[1:]} - {""}, key=len, reverse=True)


def without_secrets(text: str, address: str) -> str:
    """``text`` (a quoted Ray exception, say) with the address's credentials taken out."""
    text = str(text).replace(str(address), public_address(address))
    for secret in _secrets(address):
        text = text.replace(secret, "***")
    return text


def host_and_port(address: str) -> tuple[str, int] | None:
    """(host, port) of ``HOST:PORT``, ``ray://HOST:PORT`` or ``scheme://user:pw@HOST:PORT``; None
    for ``auto`` or an address without a port (Ray finds those itself)."""
    text = re.sub(r"^[A-Za-z][A-Za-z0-9+.-]*://", "", public_address(address)).split("/", 1)[0]
    match = re.fullmatch(r"\[?([^\[\]]+?)\]?:(\d{1,5})", text)
    return (match.group(1), int(match.group(2))) if match else None


def check_reachable(address: str, timeout_s: float | None = None) -> None:
    """Refuse, within ``timeout_s``, a cluster address where nothing accepts a connection."""
    target = host_and_port(address)
    if target is None:
        return
    if timeout_s is None:
        try:
            timeout_s = float(os.environ.get(CONNECT_TIMEOUT_VARIABLE, "") or CONNECT_TIMEOUT_S)
        except ValueError:
            raise InputError(f"{CONNECT_TIMEOUT_VARIABLE}={os.environ.get(CONNECT_TIMEOUT_VARIABLE)!r} is not a number "
                             "of seconds — give one, e.g. 10, or unset it") from None
    host, port = target
    try:
        with socket.create_connection((host, port), timeout=timeout_s):
            return
    except socket.timeout:
        why = f"no answer within {timeout_s:g} s"
    except OSError as exc:
        why = exc.strerror or type(exc).__name__
    raise InputError(f"cannot reach the Ray cluster at {public_address(address)} (a connection to {host}:{port}: {why}) "
                     "— check the address (HOST:6379, or ray://HOST:10001 for Ray Client), that the cluster is running "
                     f"and that this machine may connect to it; or use --ray local ({CONNECT_TIMEOUT_VARIABLE} sets the "
                     "wait)")


def _connect_failure(address: str, exc: Exception) -> str:
    first = without_secrets((str(exc).strip().splitlines() or [type(exc).__name__])[0][:300], address)
    text = f"cannot connect to the Ray cluster at {public_address(address)} ({type(exc).__name__}: {first})"
    if "auth" in str(exc).lower() or "token" in str(exc).lower():
        return (f"{text} — the cluster asks for its authentication token: set RAY_AUTH_MODE=token and give the "
                "token in RAY_AUTH_TOKEN or the file ~/.ray/auth_token of this machine")
    return (f"{text} — check the address (HOST:6379, ray://HOST:10001 for Ray Client, or auto inside a Ray Job), "
            "that the cluster is running and reachable from here, and that it runs Ray 2.60 and the same Python "
            "as this backend; or use --ray local")
