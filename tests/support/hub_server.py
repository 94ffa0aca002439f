"""A fake Hugging Face Hub on 127.0.0.1 that speaks the Hub's file API in its real format, for
the model manager's tests (``HF_ENDPOINT`` points at it). It serves real model folders:

- ``GET /api/models/{repo}/revision/{rev}`` (``?blobs=true``) → ``sha``, ``gated``, ``siblings``
  with ``rfilename``, ``size``, ``blobId`` and, for LFS files, ``lfs: {sha256, size, pointerSize}``;
  an unknown repo is a 401 ``RepoNotFound``, an unknown revision a 404 ``RevisionNotFound``;
- ``HEAD`` / ``GET /{repo}/resolve/{rev}/{path}`` → the file with ``X-Repo-Commit``, ``ETag``
  (the git blob id), ``Content-Length`` and ``Accept-Ranges``; an LFS file is a 302 to
  ``{cdn}/cdn/{sha256}`` on a second port (another origin, as the Hub's CDN is: huggingface_hub
  takes the metadata from the redirect itself — ``X-Linked-Etag`` (the sha256), ``X-Linked-Size``,
  ``Location`` — and drops the token on the way); ``Range: bytes=N-`` gives a 206 (or a 416 past
  the end); a gated repo without the token is a 401 ``GatedRepo``, a missing file a 404
  ``EntryNotFound`` (with ``X-Repo-Commit``), an unknown repo a 401 ``RepoNotFound``.

Switches reproduce what happens to real downloads: ``pause_at`` (send the first N bytes of a
file, then hold the connection until :meth:`release`), ``drop_at`` (send N bytes, hang up —
once), ``offline`` (every request refused by closing the connection), ``rate_limited`` (a file
answered with 429 and the given ``Retry-After``). Each request is logged
with its method, path, ``Range``, whether it carried an ``Authorization`` header, the port it
reached and its answer.
"""
from __future__ import annotations

import hashlib
import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit

TOKEN = "hf_fAkEtEsTtOkEn0123456789"
LFS_SUFFIXES = (".safetensors", ".bin", ".model", ".msgpack", ".h5", ".onnx")


@dataclass
class RepoFile:
    path: str
    data: bytes
    lfs: bool

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.data).hexdigest()

    @property
    def blob_id(self) -> str:
        if self.lfs:  # git holds the pointer file, not the content
            return hashlib.sha1(f"blob {len(self.pointer)}\0".encode() + self.pointer).hexdigest()
        return hashlib.sha1(f"blob {len(self.data)}\0".encode() + self.data).hexdigest()

    @property
    def pointer(self) -> bytes:
        return (f"version https://git-lfs.github.com/spec/v1\noid sha256:{self.sha256}\n"
                f"size {len(self.data)}\n").encode()

    def sibling(self) -> dict:
        out = {"rfilename": self.path, "blobId": self.blob_id, "size": len(self.data)}
        if self.lfs:
            out["lfs"] = {"sha256": self.sha256, "size": len(self.data), "pointerSize": len(self.pointer)}
        return out


@dataclass
class Repo:
    repo_id: str
    files: dict[str, RepoFile]
    gated: bool = False
    commit: str = ""

    def __post_init__(self):
        listing = "".join(f"{p} {f.blob_id}\n" for p, f in sorted(self.files.items()))
        self.commit = hashlib.sha1(f"{self.repo_id}\n{listing}".encode()).hexdigest()


@dataclass
class Request:
    path: str
    range: str | None
    authorized: bool
    status: int = 0
    method: str = "GET"
    port: int = 0
    authorization: str | None = None


@dataclass
class FakeHub:
    repos: dict[str, Repo] = field(default_factory=dict)
    pause_at: dict[str, int] = field(default_factory=dict)  # file path → bytes sent before holding
    drop_at: dict[str, int] = field(default_factory=dict)  # file path → bytes sent before hanging up (once)
    offline: bool = False
    rate_limited: dict[str, str] = field(default_factory=dict)  # file path → Retry-After of its 429 answers
    requests: list[Request] = field(default_factory=list)

    def __post_init__(self):
        self._released = threading.Event()
        self._paused = threading.Event()
        self._lock = threading.Lock()
        self._server = None
        self._cdn = None

    # --- content ------------------------------------------------------------------------------
    def add_folder(self, repo_id: str, folder: Path, gated: bool = False,
                   extra: dict[str, bytes] | None = None) -> Repo:
        """Serve every file under ``folder`` (plus ``extra``: path → bytes) as ``repo_id``."""
        files = {}
        for path in sorted(Path(folder).rglob("*")):
            if path.is_file():
                rel = path.relative_to(folder).as_posix()
                files[rel] = RepoFile(rel, path.read_bytes(), rel.endswith(LFS_SUFFIXES))
        for rel, data in (extra or {}).items():
            files[rel] = RepoFile(rel, data, rel.endswith(LFS_SUFFIXES))
        files.setdefault(".gitattributes", RepoFile(".gitattributes", b"*.safetensors filter=lfs diff=lfs\n", False))
        files.setdefault("README.md", RepoFile("README.md", f"# {repo_id}\n".encode(), False))
        repo = Repo(repo_id, files, gated)
        self.repos[repo_id] = repo
        return repo

    # --- lifecycle ----------------------------------------------------------------------------
    def __enter__(self) -> "FakeHub":
        handler = type("Handler", (_Handler,), {"hub": self})
        self._server = _Server(("127.0.0.1", 0), handler)
        self._cdn = _Server(("127.0.0.1", 0), handler)
        for server in (self._server, self._cdn):
            threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
        return self

    def __exit__(self, *exc) -> None:
        self._released.set()
        for server in (self._server, self._cdn):
            server.shutdown()
            server.server_close()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    @property
    def cdn_url(self) -> str:
        """The "CDN": the same server on another port, so another origin for huggingface_hub."""
        return f"http://127.0.0.1:{self._cdn.server_address[1]}"

    @property
    def ports(self) -> set[int]:
        return {self._server.server_address[1], self._cdn.server_address[1]}

    def wait_paused(self, timeout: float = 30) -> bool:
        """Wait until a ``pause_at`` file has sent its first part."""
        return self._paused.wait(timeout)

    def release(self) -> None:
        self._released.set()

    def log(self, path: str, range_: str | None, authorization: str | None, method: str = "GET",
            port: int = 0) -> Request:
        request = Request(path, range_, authorization is not None, method=method, port=port,
                          authorization=authorization)
        with self._lock:
            self.requests.append(request)
        return request

    def file_requests(self, name: str) -> list[Request]:
        """GET requests that carried the bytes of file ``name`` (resolve of a small file, CDN of an
        LFS one); the HEAD requests that only ask for its metadata are left out."""
        paths = set()
        for repo in self.repos.values():
            f = repo.files.get(name)
            if f is not None:
                paths.add(f"/cdn/{f.sha256}" if f.lfs else f"/{repo.repo_id}/resolve/{repo.commit}/{name}")
        return [r for r in self.requests if r.method == "GET" and r.path in paths]  # each request once


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    timeout = 30
    disable_nagle_algorithm = True
    hub: FakeHub

    def log_message(self, format, *args):  # noqa: A002 - silence the default stderr log
        pass

    head = False

    def do_HEAD(self):  # noqa: N802 - http.server naming
        self.head = True
        try:
            self.do_GET()
        finally:
            self.head = False

    def do_GET(self):  # noqa: N802 - http.server naming
        hub = self.hub
        parts = urlsplit(self.path)
        path = unquote(parts.path)
        auth = self.headers.get("Authorization")
        request = hub.log(path, self.headers.get("Range"), auth, "HEAD" if self.head else "GET",
                          self.server.server_address[1])
        if hub.offline:
            self.close_connection = True
            self.connection.close()
            return
        try:
            status = self.route(path, auth)
        except (BrokenPipeError, ConnectionResetError):
            status = -1
        request.status = status

    def route(self, path: str, auth: str | None) -> int:
        hub = self.hub
        if path.startswith("/api/models/"):
            rest = path[len("/api/models/"):]
            repo_id, _, revision = rest.partition("/revision/")
            repo = hub.repos.get(repo_id)
            if repo is None:
                return self.error(401, "RepoNotFound", "Repository not found")
            if revision not in ("main", repo.commit):
                return self.error(404, "RevisionNotFound", f"Invalid rev id: {revision}")
            body = {"_id": repo.commit[:24], "id": repo.repo_id, "modelId": repo.repo_id, "sha": repo.commit,
                    "private": False, "disabled": False, "gated": "manual" if repo.gated else False,
                    "lastModified": "2025-01-01T00:00:00.000Z", "tags": ["transformers"],
                    "siblings": [f.sibling() for _, f in sorted(repo.files.items())]}
            return self.send(200, json.dumps(body).encode(), "application/json")
        if path.startswith("/cdn/"):
            digest = path[len("/cdn/"):]
            for repo in hub.repos.values():
                for f in repo.files.values():
                    if f.lfs and f.sha256 == digest:  # a CDN's own ETag is not the sha256
                        return self.send_file(f, {"ETag": f'"{hashlib.md5(f.data).hexdigest()}"'})
            return self.error(404, "EntryNotFound", "no such object")
        owner, name, rest = (path.lstrip("/").split("/", 2) + ["", ""])[:3]
        repo = hub.repos.get(f"{owner}/{name}")
        if repo is None or not rest.startswith("resolve/"):
            return self.error(401, "RepoNotFound", "Repository not found")
        revision, _, file_path = rest[len("resolve/"):].partition("/")
        if repo.gated and auth != f"Bearer {TOKEN}":
            return self.error(401 if auth is None else 403, "GatedRepo",
                              f"Access to model {repo.repo_id} is restricted. You must have access to it and be "
                              "authenticated to access it. Please log in.")
        if revision not in ("main", repo.commit):
            return self.error(404, "RevisionNotFound", f"Invalid rev id: {revision}")
        f = repo.files.get(file_path)
        if file_path in hub.rate_limited:
            return self.error(429, "RateLimited", "Too many requests", {"Retry-After": hub.rate_limited[file_path]})
        if f is None:
            return self.error(404, "EntryNotFound", f"{file_path} does not exist", {"X-Repo-Commit": repo.commit})
        headers = {"X-Repo-Commit": repo.commit, "ETag": f'"{f.blob_id}"'}
        if f.lfs:  # the git blob holds the pointer; the content is on the CDN
            headers.update({"Location": f"{hub.cdn_url}/cdn/{f.sha256}", "X-Linked-Size": str(len(f.data)),
                            "X-Linked-Etag": f'"{f.sha256}"'})
            return self.send(302, b"", "text/plain", headers)
        return self.send_file(f, headers)

    def send_file(self, f: RepoFile, headers: dict) -> int:
        data, start, status = f.data, 0, 200
        headers = {**headers, "Accept-Ranges": "bytes"}
        wanted = self.headers.get("Range")
        if wanted:
            start = int(wanted.split("=", 1)[1].split("-", 1)[0])
            if start >= len(data):
                return self.send(416, b"", "text/plain", {"Content-Range": f"bytes */{len(data)}"})
            status = 206
            headers = {**headers, "Content-Range": f"bytes {start}-{len(data) - 1}/{len(data)}"}
        body = data[start:]
        hub = self.hub
        if self.head:
            return self.send(status, body, "application/octet-stream", headers)
        pause = hub.pause_at.get(f.path)
        drop = hub.drop_at.pop(f.path, None)
        if pause is not None and start < pause:
            return self.send(status, body, "application/octet-stream", headers, hold_after=pause - start)
        if drop is not None and start < drop:
            return self.send(status, body, "application/octet-stream", headers, cut=drop - start)
        return self.send(status, body, "application/octet-stream", headers)

    def error(self, status: int, code: str, message: str, headers: dict | None = None) -> int:
        return self.send(status, json.dumps({"error": message}).encode(), "application/json",
                         {"X-Error-Code": code, "X-Error-Message": message, **(headers or {})})

    def send(self, status: int, data: bytes, content_type: str, headers: dict | None = None,
             cut: int | None = None, hold_after: int | None = None) -> int:
        """Send ``data``; ``cut``: declare the full length, send ``cut`` bytes, hang up;
        ``hold_after``: send that many bytes, then wait for :meth:`FakeHub.release`."""
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        if cut is not None or hold_after is not None:
            self.send_header("Connection", "close")
        self.end_headers()
        if self.head:  # the headers of the GET, no body
            return status
        if hold_after is not None:
            self.wfile.write(data[:hold_after])
            self.wfile.flush()
            self.hub._paused.set()
            self.hub._released.wait(60)
            self.close_connection = True
            return status
        self.wfile.write(data if cut is None else data[:cut])
        self.wfile.flush()
        if cut is not None:
            self.close_connection = True
        return status
