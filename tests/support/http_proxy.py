"""A forwarding HTTP proxy on 127.0.0.1 for the network tests: it relays absolute-URI requests
(``GET http://127.0.0.1:PORT/path HTTP/1.1``, what a client sends a proxy for a plain-http URL)
to the server named in them and tunnels ``CONNECT`` for https. It records every request line,
so a test can tell which requests went through it.

Bounded: every socket has a timeout, upstream answers are read whole (test servers send small
bodies), and the server stops on leaving the ``with`` block. With ``credentials`` set
(``"user:password"``) it answers 407 to requests without the matching ``Proxy-Authorization``.
"""
from __future__ import annotations

import base64
import http.client
import select
import socket
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

_HOP_BY_HOP = {"connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "proxy-connection", "te",
               "trailer", "transfer-encoding", "upgrade"}
TIMEOUT_S = 20.0


@dataclass
class Seen:
    """One request the proxy received: its method, target and whether its credentials passed."""

    method: str
    target: str
    authorized: bool
    status: int = 0

    @property
    def line(self) -> str:
        return f"{self.method} {self.target}"


class LoopbackProxy:
    """``with LoopbackProxy() as proxy:`` — ``proxy.url`` to give clients, ``proxy.seen`` afterwards."""

    def __init__(self, credentials: str | None = None):
        self.credentials = credentials
        self.seen: list[Seen] = []
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None

    def __enter__(self) -> "LoopbackProxy":
        handler = type("Handler", (_Handler,), {"proxy": self})
        self._server = _Server(("127.0.0.1", 0), handler)
        threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()

    @property
    def port(self) -> int:
        return self._server.server_address[1]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def url_with(self, credentials: str) -> str:
        return f"http://{credentials}@127.0.0.1:{self.port}"

    def record(self, seen: Seen) -> Seen:
        with self._lock:
            self.seen.append(seen)
        return seen

    def lines(self) -> list[str]:
        with self._lock:
            return [s.line for s in self.seen]

    def wait_for(self, count: int, timeout_s: float = 10.0) -> bool:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if len(self.seen) >= count:
                return True
            time.sleep(0.05)
        return len(self.seen) >= count


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    timeout = TIMEOUT_S
    proxy: LoopbackProxy

    def log_message(self, format, *args):  # noqa: A002 - silence the default stderr log
        pass

    def _authorized(self) -> bool:
        wanted = self.proxy.credentials
        if wanted is None:
            return True
        given = self.headers.get("Proxy-Authorization", "")
        return given == "Basic " + base64.b64encode(wanted.encode()).decode()

    def _refuse(self, seen: Seen) -> None:
        seen.status = 407
        body = b"proxy authentication required"
        self.send_response(407)
        self.send_header("Proxy-Authenticate", 'Basic realm="loopback"')
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _forward(self):
        seen = self.proxy.record(Seen(self.command, self.path, self._authorized()))
        if not seen.authorized:
            return self._refuse(seen)
        target = urlsplit(self.path)
        if target.scheme != "http" or not target.hostname:
            seen.status = 400
            self.send_error(400, "this proxy relays absolute http:// targets only")
            return
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else None
        headers = {k: v for k, v in self.headers.items() if k.lower() not in _HOP_BY_HOP}
        path = target.path or "/"
        if target.query:
            path += "?" + target.query
        upstream = http.client.HTTPConnection(target.hostname, target.port or 80, timeout=TIMEOUT_S)
        try:
            upstream.request(self.command, path, body=body, headers=headers)
            answer = upstream.getresponse()
            data = answer.read()
        except OSError as exc:
            seen.status = 502
            self.send_error(502, f"upstream failed: {exc}")
            return
        finally:
            upstream.close()
        seen.status = answer.status
        self.send_response(answer.status, answer.reason)
        for key, value in answer.getheaders():
            if key.lower() not in _HOP_BY_HOP and key.lower() != "content-length":
                self.send_header(key, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    do_GET = do_POST = do_HEAD = do_PUT = do_DELETE = _forward  # noqa: N815 - http.server naming

    def do_CONNECT(self):  # noqa: N802 - http.server naming
        seen = self.proxy.record(Seen("CONNECT", self.path, self._authorized()))
        if not seen.authorized:
            return self._refuse(seen)
        host, _, port = self.path.rpartition(":")
        try:
            upstream = socket.create_connection((host, int(port)), timeout=TIMEOUT_S)
        except (OSError, ValueError) as exc:
            seen.status = 502
            self.send_error(502, f"cannot reach {self.path}: {exc}")
            return
        seen.status = 200
        self.send_response(200, "Connection established")
        self.end_headers()
        self._tunnel(self.connection, upstream)
        self.close_connection = True

    @staticmethod
    def _tunnel(client: socket.socket, upstream: socket.socket) -> None:
        deadline = time.monotonic() + 4 * TIMEOUT_S
        try:
            while time.monotonic() < deadline:
                ready, _, _ = select.select([client, upstream], [], [], 1.0)
                for sock in ready:
                    chunk = sock.recv(65536)
                    if not chunk:
                        return
                    (upstream if sock is client else client).sendall(chunk)
        except OSError:
            return
        finally:
            upstream.close()


# --- helpers for tests that put the proxy in front of the fake Overpass and Hub -------------------

PROXY_NAMES = ("HTTP_PROXY", "http_proxy", "HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy", "NO_PROXY",
               "no_proxy")


def without_proxy_variables(env: dict) -> dict:
    """``env`` without any proxy variable (the machine's own must not steer a test)."""
    return {k: v for k, v in env.items() if k not in PROXY_NAMES}


def road_answer(pbf) -> dict:
    """A real-format Overpass ``out geom`` answer holding the roads and places of an OSM extract."""
    from geofidelity_plugin.core.selection.osm_file import read_osm_file

    data = read_osm_file(pbf, with_admin_areas=False)
    elements = [{"type": "way", "id": w.way_id, "tags": {"name": w.name, "highway": w.highway},
                 "geometry": [{"lat": lat, "lon": lon} for lon, lat in w.coords]} for w in data.ways]
    elements += [{"type": "node", "id": p.node_id, "lat": p.lat, "lon": p.lon,
                  "tags": {"name": p.name, "place": p.place}} for p in data.places]
    return {"version": 0.6, "osm3s": {"timestamp_osm_base": "2024-05-14T09:21:43Z"}, "elements": elements}


def serve_overpass(httpserver, answer: dict) -> str:
    """The fake Overpass (pytest-httpserver) answering the road query with ``answer`` and the
    map-context query with nothing; returns its interpreter URL."""
    import json

    from overpass_server import EMPTY, PATH, is_context_query, query_of
    from werkzeug import Response

    def handler(request):
        body = EMPTY if is_context_query(query_of(request)) else answer
        return Response(json.dumps(body), content_type="application/json")

    httpserver.clear()
    httpserver.expect_request(PATH, method="POST").respond_with_handler(handler)
    return httpserver.url_for(PATH)
