"""Stopping the request threads of a Mapillary fetch at once.

A search or download thread may sit in a socket read for the whole read timeout (30 s by
default) when the server accepts the connection and never answers. When the run ends — a
request failed for good, the user pressed Ctrl-C or Cancel — waiting for those threads makes the
user wait, and not waiting lets them print warnings after the error line and keeps the process
alive until their timeouts expire. So the client's HTTP connections are tracked
(:class:`AbortableAdapter`), and :func:`stop_pool` cancels the queued work, shuts the open
sockets down (a blocked read returns at once) and joins the threads for a short while.
"""
from __future__ import annotations

import concurrent.futures as cf
import socket
import threading
import weakref

from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool

#: How long stopped threads are waited for once their connections are cut (a thread still in a
#: connect() gives up within the connect timeout; it prints nothing once stopped).
JOIN_S = 3.0


class _Sockets:
    """The sockets of the connections one adapter opened, weakly held."""

    def __init__(self):
        self._lock = threading.Lock()
        self._open: weakref.WeakSet = weakref.WeakSet()

    def add(self, sock) -> None:
        if sock is not None:
            with self._lock:
                self._open.add(sock)

    def cut(self) -> int:
        """Shut every open socket down (both directions); how many were cut."""
        with self._lock:
            sockets = list(self._open)
        cut = 0
        for sock in sockets:
            try:  # the plain socket call, also for a TLS socket (its own shutdown unwraps it)
                socket.socket.shutdown(sock, socket.SHUT_RDWR)
                cut += 1
            except (OSError, ValueError, TypeError):
                pass  # already closed
        return cut


def _tracked(base, sockets: _Sockets):
    class Tracked(base):
        def connect(self):
            super().connect()
            sockets.add(getattr(self, "sock", None))

    Tracked.__name__ = f"Tracked{base.__name__}"
    return Tracked


class AbortableAdapter(HTTPAdapter):
    """An ``HTTPAdapter`` whose open connections :meth:`abort` can cut from another thread."""

    def __init__(self, *args, **kwargs):
        self.sockets = _Sockets()
        super().__init__(*args, **kwargs)

    def init_poolmanager(self, *args, **kwargs):
        super().init_poolmanager(*args, **kwargs)
        plain = type("TrackedHTTPPool", (HTTPConnectionPool,),
                     {"ConnectionCls": _tracked(HTTPConnection, self.sockets)})
        tls = type("TrackedHTTPSPool", (HTTPSConnectionPool,),
                   {"ConnectionCls": _tracked(HTTPSConnection, self.sockets)})
        self.poolmanager.pool_classes_by_scheme = {"http": plain, "https": tls}

    def abort(self) -> int:
        return self.sockets.cut()


def stop_pool(pool: cf.ThreadPoolExecutor, futures, abort=None, grace_s: float = 0.0,
              join_s: float = JOIN_S) -> None:
    """Stop a pool whose ``stop`` event the caller has set: cancel the queued ``futures``, give
    the running ones ``grace_s`` to finish on their own, cut their connections (``abort``), then
    join them for at most ``join_s``."""
    futures = list(futures)
    for future in futures:
        future.cancel()
    if grace_s > 0:
        cf.wait(futures, timeout=grace_s)
    if abort is not None:
        abort()
    _, running = cf.wait(futures, timeout=join_s)
    pool.shutdown(wait=not running, cancel_futures=True)  # idle threads end at once: join them
