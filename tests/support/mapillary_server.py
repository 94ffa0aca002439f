"""A fake Mapillary Graph API v4 and image CDN on 127.0.0.1 (method §2), for tests and the
benchmark.

It answers ``GET /images?bbox=…&fields=…&limit=…`` in the real format (GeoJSON points, epoch
milliseconds, only the requested fields), truncating at ``limit`` so that full boxes happen — a
box holds the images whose computed position lies in it, or their GPS position with
``match_on = "gps"`` (Mapillary does not say which it matches); ``GET /<id>?fields=thumb_1024_url``
and ``GET /images?image_ids=a,b,…&fields=id,thumb_1024_url`` (at most ``max_image_ids`` ids) with
newly signed URLs; and ``GET /thumbs/<id>.jpg`` with real JPEG bytes made by Pillow, distinct
enough per image that their perceptual hashes differ. Switches reproduce the failures seen from the real service:
a refused token (OAuthException 190), "Application request limit reached" (429), "Please reduce
the amount of data" (500), slow and truncated answers, truncated JPEGs and expired URLs, and a
broken image CDN (an HTML page instead of every JPEG, every image cut off, every URL refused),
an API that accepts connections and never answers (``hang_api``), and items whose fields have
the wrong type or an impossible value (``item_overrides``). Every request is counted by kind.
"""
from __future__ import annotations

import hashlib
import io
import json
import math
import socket
import threading
import time
from collections import Counter
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

import numpy as np
from PIL import Image

TOKEN = "MLY|4242424242|f4k3T0k3nS3cr3tV4lu3"
FBTRACE = "AbCdEfGhIjK"


def graph_error(message: str, code: int, kind: str = "OAuthException", **extra) -> dict:
    return {"error": {"message": message, "type": kind, "code": code, "fbtrace_id": FBTRACE,
                      **extra}}


TOKEN_ERROR = graph_error("Invalid OAuth access token - Cannot parse access token", 190)
RATE_ERROR = graph_error("Application request limit reached", 4, is_transient=True)
REDUCE_ERROR = graph_error("Please reduce the amount of data you're asking for, then retry your "
                           "request", 1)
UNKNOWN_ERROR = graph_error("An unknown error occurred", 1, is_transient=True)


@dataclass
class FakeImage:
    image_id: str
    lon: float  # computed (SfM) position, sent only when has_computed
    lat: float
    gps_lon: float
    gps_lat: float
    captured_at: int
    compass_angle: float | None
    has_computed: bool = True
    is_pano: bool = False
    camera_type: str = "perspective"
    sequence: str = "seqAAAAAAAAAAAAAAAAAAAAAA"
    width: int = 2048
    height: int = 1536
    creator: dict | None = None  # {"id", "username"}, as the Graph API gives it


def fake_images_along(coords: list[tuple[float, float]], count: int,
                      start_id: int = 4_100_000_000_000,
                      without_computed_every: int = 5) -> list[FakeImage]:
    """``count`` images spaced evenly along a lon/lat polyline (interpolated in degrees); every
    ``without_computed_every``-th one has no computed geometry."""
    legs = [math.dist(a, b) for a, b in zip(coords, coords[1:])]
    images = []
    for i in range(count):
        along, leg_index = sum(legs) * (i + 0.5) / count, 0
        while leg_index < len(legs) - 1 and along > legs[leg_index]:
            along -= legs[leg_index]
            leg_index += 1
        (lon0, lat0), (lon1, lat1) = coords[leg_index], coords[leg_index + 1]
        t = min(along / legs[leg_index], 1.0) if legs[leg_index] else 0.0
        lon, lat = lon0 + t * (lon1 - lon0), lat0 + t * (lat1 - lat0)
        images.append(FakeImage(
            image_id=str(start_id + 7919 * i), lon=lon, lat=lat, gps_lon=lon + 2e-5,
            gps_lat=lat - 1e-5, captured_at=1_560_000_000_000 + 60_000 * i,
            compass_angle=None if i % 7 == 3 else round((37.5 * i) % 360, 2),
            has_computed=not (without_computed_every and i % without_computed_every == 2),
            is_pano=i % 11 == 10, camera_type="spherical" if i % 11 == 10 else "perspective",
            sequence=f"seq{i // 10:021d}", creator={"id": f"10{i % 3:014d}", "username": f"mapper_{i % 3}"}))
    return images


def jpeg_bytes(seed: str, size: tuple[int, int] = (64, 48)) -> bytes:
    """A JPEG that passes curation's quality tier with its defaults: 8 × 6 blocks of random
    colours (so perceptual hashes of two seeds differ by about half their bits) plus a fine
    texture (so the Laplacian variance stays above 80 at 1024 px)."""
    rng = np.random.default_rng(int.from_bytes(hashlib.sha256(seed.encode()).digest()[:8], "big"))
    width, height = size
    coarse = Image.fromarray(rng.integers(40, 216, (6, 8, 3), dtype=np.uint8)).resize(size, Image.NEAREST)
    fine = rng.integers(-24, 25, (max(1, height // 4), max(1, width // 4)), dtype=np.int16).astype(np.int8)
    fine = np.asarray(Image.fromarray(fine.view(np.uint8)).resize(size, Image.NEAREST)).view(np.int8)
    pixels = np.clip(np.asarray(coarse, dtype=np.int16) + fine[..., None], 0, 255).astype(np.uint8)
    out = io.BytesIO()
    Image.fromarray(pixels).save(out, "JPEG", quality=85)
    return out.getvalue()


class _Jpegs(dict):
    """Image id → JPEG bytes, made on first use, so that a large fake world starts at once."""

    def __init__(self, ids, size: tuple[int, int]):
        super().__init__()
        self._ids, self._size, self._lock = set(ids), size, threading.Lock()

    def __missing__(self, image_id: str) -> bytes:
        if image_id not in self._ids:
            raise KeyError(image_id)
        data = jpeg_bytes(image_id, self._size)
        with self._lock:
            return self.setdefault(image_id, data)

    def __contains__(self, image_id) -> bool:
        return dict.__contains__(self, image_id) or image_id in self._ids


class FakeMapillary:
    """The server; use as a context manager. Switches are plain attributes set by a test."""

    def __init__(self, images: list[FakeImage], token: str = TOKEN, latency_s: float = 0.0,
                 image_size: tuple[int, int] = (64, 48)):
        self.images = {img.image_id: img for img in images}
        self.token, self.latency_s = token, latency_s
        self.jpegs = _Jpegs(self.images, image_size)
        # switches
        self.reject_token = False
        self.token_status = 400
        self.rate_limit_next = 0          # this many API answers are 429 "request limit"
        self.retry_after: str | None = None
        self.server_errors_next = 0       # this many API answers are HTTP 500
        self.server_error = UNKNOWN_ERROR
        self.too_much_above: int | None = None  # boxes holding more → 500 "reduce the data"
        self.slow_next, self.slow_s = 0, 1.0  # this many API answers come after slow_s
        self.truncate_json_next = 0       # this many API answers are cut in half
        self.truncate_jpeg_first: str | None = None  # "short_body" | "honest_length"
        self.expire_first = False         # the first URL of every image gets 403
        self.expire_always = False
        self.stale_oe = False             # search URLs carry an ``oe`` in the past
        # every image answer fails: "html" (a proxy's 200 page), "truncated" (cut connection),
        # "forbidden" (403 even for renewed URLs); ``cdn_fault_ids`` limits it to those images
        self.cdn_fault: str | None = None
        self.cdn_fault_ids: set[str] | None = None
        self.cdn_base_url: str | None = None  # thumbnail URLs point here (e.g. a closed port)
        # API requests are counted, then held without an answer until the server stops
        self.hang_api = False
        # image id → fields sent in place of the real ones in search answers (any JSON value,
        # float("inf") included: it is sent as Infinity, which a JSON reader takes as 1e400)
        self.item_overrides: dict[str, dict] = {}
        self.match_on = "computed"        # "gps": a bbox search matches the GPS position
        self.max_image_ids = 100          # /images?image_ids= with more ids → HTTP 400
        self.batch_unsupported = False    # /images?image_ids= → HTTP 400 (an older API)
        self.batch_omit: set[str] = set()  # ids a batch answer silently leaves out
        self.released = threading.Event()
        # records
        self.counts: Counter = Counter()
        self.image_counts: Counter = Counter()
        self.auth_headers: list[str | None] = []
        self.cdn_auth_headers: list[str] = []
        self.search_params: list[dict] = []
        self.batch_sizes: list[int] = []  # ids asked for by each /images?image_ids= request
        self.oversized_boxes: list[tuple] = []
        self._generation: Counter = Counter()
        self._truncated: set[str] = set()
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None

    # --- lifecycle ---------------------------------------------------------------------------

    def __enter__(self) -> "FakeMapillary":
        handler = type("Handler", (_Handler,), {"fake": self})
        self._server = _Server(("127.0.0.1", 0), handler)
        threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05},
                         daemon=True).start()
        return self

    def __exit__(self, *exc) -> None:
        self.released.set()  # held (hung) requests end
        self._server.shutdown()
        self._server.server_close()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def reset(self) -> None:
        """Forget every request and every renewed URL, as for a new run against a fresh server."""
        with self._lock:
            for record in (self.counts, self.image_counts, self._generation):
                record.clear()
            for record in (self.auth_headers, self.cdn_auth_headers, self.search_params, self.oversized_boxes,
                           self.batch_sizes):
                record.clear()
            self._truncated.clear()

    def take(self, switch: str) -> bool:
        """Consume one unit of a countdown switch."""
        with self._lock:
            left = getattr(self, switch)
            if left > 0:
                setattr(self, switch, left - 1)
                return True
            return False

    def count(self, kind: str, image_id: str | None = None) -> None:
        with self._lock:
            self.counts[kind] += 1
            if image_id is not None:
                self.image_counts[image_id] += 1

    def thumb_url(self, image_id: str) -> str:
        generation = self._generation[image_id]
        expiry = int(time.time()) + (-3600 if self.stale_oe and generation == 0 else 3600)
        return (f"{self.cdn_base_url or self.base_url}/thumbs/{image_id}.jpg?stp=s1024x768&_nc_cat=1&ccb=1-7&"
                f"oh=00_{hashlib.md5(image_id.encode()).hexdigest()[:20]}&oe={expiry:X}"
                f"&gen={generation}")

    # --- answers -----------------------------------------------------------------------------

    def api_answer(self, path: str, query: dict, auth: str | None) -> tuple[int, dict, dict]:
        """(status, JSON body, extra headers) for an API request."""
        self.auth_headers.append(auth)
        if self.reject_token or auth != f"OAuth {self.token}":
            return self.token_status, TOKEN_ERROR, {}
        if self.take("rate_limit_next"):
            return 429, RATE_ERROR, ({"Retry-After": self.retry_after} if self.retry_after else {})
        if self.take("server_errors_next"):
            return 500, self.server_error, ({"Retry-After": self.retry_after} if self.retry_after else {})
        if path == "/images" and "image_ids" in query:
            return self.renew_batch(query)
        if path == "/images":
            return self.search(query)
        image_id = path.strip("/")
        if image_id in self.images and query.get("fields") == ["thumb_1024_url"]:
            self.count("entity", image_id)
            with self._lock:
                self._generation[image_id] += 1
            return 200, {"thumb_1024_url": self.thumb_url(image_id), "id": image_id}, {}
        return 400, graph_error(f"Unsupported get request. Object with ID '{image_id}' does not "
                                "exist", 100, "GraphMethodException"), {}

    def renew_batch(self, query: dict) -> tuple[int, dict, dict]:
        """``/images?image_ids=a,b,…&fields=id,thumb_1024_url``: newly signed URLs."""
        self.count("batch")
        ids = [i for i in query["image_ids"][0].split(",") if i]
        self.batch_sizes.append(len(ids))
        if self.batch_unsupported:
            return 400, graph_error("Unsupported get request. Please read the Graph API documentation", 100,
                                    "GraphMethodException"), {}
        if len(ids) > self.max_image_ids:
            return 400, graph_error(f"image_ids takes at most {self.max_image_ids} ids", 100,
                                    "MLYApiException"), {}
        data = []
        for image_id in ids:
            if image_id in self.images and image_id not in self.batch_omit:
                self.count("batch_id")
                with self._lock:
                    self._generation[image_id] += 1
                data.append({"id": image_id, "thumb_1024_url": self.thumb_url(image_id)})
        return 200, {"data": data}, {}

    def search(self, query: dict) -> tuple[int, dict, dict]:
        self.count("search")
        self.search_params.append(query)
        box = tuple(float(v) for v in query["bbox"][0].split(","))
        if (box[2] - box[0]) * (box[3] - box[1]) >= 0.01:
            self.oversized_boxes.append(box)
            return 400, graph_error("bbox area must be under 0.01 square degrees", 100,
                                    "MLYApiException"), {}
        gps = self.match_on == "gps"
        inside = [img for img in self.images.values()
                  if box[0] <= (img.gps_lon if gps else img.lon) <= box[2]
                  and box[1] <= (img.gps_lat if gps else img.lat) <= box[3]]
        if self.too_much_above is not None and len(inside) > self.too_much_above:
            return 500, REDUCE_ERROR, {}
        inside.sort(key=lambda img: hashlib.sha1(img.image_id.encode()).hexdigest())
        limit = int(query.get("limit", ["2000"])[0])
        fields = set(query.get("fields", ["id"])[0].split(",")) | {"id"}
        return 200, {"data": [self.item(img, fields) for img in inside[:limit]]}, {}

    def item(self, img: FakeImage, fields: set[str]) -> dict:
        full = {"id": img.image_id, "captured_at": img.captured_at,
                "compass_angle": img.compass_angle,
                "geometry": {"type": "Point", "coordinates": [img.gps_lon, img.gps_lat]},
                "is_pano": img.is_pano, "camera_type": img.camera_type, "sequence": img.sequence,
                "width": img.width, "height": img.height,
                "thumb_1024_url": self.thumb_url(img.image_id)}
        if img.has_computed:
            full["computed_geometry"] = {"type": "Point", "coordinates": [img.lon, img.lat]}
        if img.compass_angle is None:
            del full["compass_angle"]
        if img.creator is not None:
            full["creator"] = dict(img.creator)
        full.update(self.item_overrides.get(img.image_id, {}))
        return {k: v for k, v in full.items() if k in fields}


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128
    allow_reuse_address = True


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    timeout = 15
    wbufsize = 1 << 16  # headers and body leave in one write (no Nagle / delayed-ACK stall)
    disable_nagle_algorithm = True
    fake: FakeMapillary

    def log_message(self, format, *args):  # noqa: A002 - silence the default stderr log
        pass

    def do_GET(self):  # noqa: N802 - http.server naming
        fake = self.fake
        try:
            if fake.latency_s:
                time.sleep(fake.latency_s)
            parts = urlsplit(self.path)
            if parts.path.startswith("/thumbs/"):
                self.image(parts.path[len("/thumbs/"):-len(".jpg")], parse_qs(parts.query))
                return
            fake.count("api")
            if fake.hang_api:  # connected, never answered: the client's read timeout decides
                fake.released.wait(300)
                self.close_connection = True
                return
            status, body, headers = fake.api_answer(parts.path, parse_qs(parts.query),
                                                    self.headers.get("Authorization"))
            data = json.dumps(body).encode()
            if fake.take("slow_next"):
                time.sleep(fake.slow_s)
            if status == 200 and fake.take("truncate_json_next"):
                self.send(200, data, "application/json", cut=len(data) // 2)
                return
            self.send(status, data, "application/json", headers)
        except (BrokenPipeError, ConnectionResetError, socket.timeout):
            self.close_connection = True

    def image(self, image_id: str, query: dict) -> None:
        fake = self.fake
        fake.count("image", image_id)
        if self.headers.get("Authorization"):
            fake.cdn_auth_headers.append(self.headers["Authorization"])
        if image_id not in fake.jpegs:
            self.send(404, b"Not Found", "text/plain")
            return
        if fake.expire_always or (fake.expire_first and query.get("gen") == ["0"]):
            fake.count("image_expired")
            self.send(403, b"URL signature expired", "text/plain")
            return
        data = fake.jpegs[image_id]
        if fake.cdn_fault and (fake.cdn_fault_ids is None or image_id in fake.cdn_fault_ids):
            fake.count(f"image_{fake.cdn_fault}")
            if fake.cdn_fault == "html":
                self.send(200, b"<!doctype html><html><body>Blocked by your network's web filter"
                          b"</body></html>", "text/html; charset=utf-8")
            elif fake.cdn_fault == "forbidden":
                self.send(403, b"URL signature expired", "text/plain")
            else:
                self.send(200, data, "image/jpeg", cut=len(data) // 2)
            return
        mode = fake.truncate_jpeg_first
        with fake._lock:
            first = mode is not None and image_id not in fake._truncated
            if first:
                fake._truncated.add(image_id)
        if first:
            fake.count("image_truncated")
            cut = len(data) * 2 // 3
            if mode == "short_body":
                self.send(200, data, "image/jpeg", cut=cut)
            else:
                self.send(200, data[:cut], "image/jpeg")
            return
        fake.count("image_ok")
        self.send(200, data, "image/jpeg")

    def send(self, status: int, data: bytes, content_type: str, headers: dict | None = None,
             cut: int | None = None) -> None:
        """Send ``data``; with ``cut``, declare the full length, send ``cut`` bytes, hang up."""
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        if cut is not None:
            self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(data if cut is None else data[:cut])
        self.wfile.flush()
        if cut is not None:
            self.close_connection = True
