"""The Hugging Face Hub's HTTP API, as the model manager uses it (``requests``, no
huggingface_hub): a revision's file list with sizes and checksums, and each file, resumable.

- ``GET {endpoint}/api/models/{repo}/revision/{rev}?blobs=true`` → ``sha`` (the commit),
  ``gated`` and ``siblings`` (``rfilename``, ``size``, ``blobId``, and ``lfs.sha256`` /
  ``lfs.size`` for files in LFS);
- ``GET {endpoint}/{repo}/resolve/{commit}/{path}`` with ``Range: bytes=N-`` to go on from a
  ``.incomplete`` file (the Hub redirects LFS files to its CDN; the range goes along).

The endpoint is ``HF_ENDPOINT`` (default https://huggingface.co) and the token ``HF_TOKEN``,
sent only as an ``Authorization`` header: it never appears in a message, a log or a record.
A dropped connection is retried from where it broke off; cancel is checked between chunks.
"""
from __future__ import annotations

import hashlib
import os
import time
from pathlib import Path
from typing import Callable
from urllib.parse import quote

from ..errors import InputError, RemoteServiceError
from .cache import INCOMPLETE, check_file
from .registry import ModelEntry

DEFAULT_ENDPOINT = "https://huggingface.co"
CHUNK_BYTES = 1 << 20


class HubUnreachable(RemoteServiceError):
    """The Hub cannot be reached (offline, connection refused, DNS): the message lists what is
    missing and how to get it without a connection; ``reason`` says why, in a few words."""

    def __init__(self, message: str, reason: str | None = None):
        super().__init__(message)
        self.reason = reason


class GatedModel(InputError):
    """The Hub gates this model and refused the request (no token, or no access)."""


def hub_endpoint() -> str:
    return (os.environ.get("HF_ENDPOINT", "").strip() or DEFAULT_ENDPOINT).rstrip("/")


def gated_message(entry: ModelEntry, endpoint: str, have_token: bool) -> str:
    page = f"{endpoint}/{entry.repo_id}"
    if have_token:
        return (f"{entry.name} ({entry.repo_id}) is gated and the Hub refused the token in HF_TOKEN — accept the "
                f"licence on {page} with the account the token belongs to (a read token), then run the download "
                "again")
    return (f"{entry.name} ({entry.repo_id}) is gated: the Hub serves it only to logged-in users who accepted its "
            f"licence, and no token was given — accept the licence on {page}, create a read token in your Hub "
            "settings and put it in the HF_TOKEN environment variable (in QGIS: an authentication config in the "
            "Models algorithm), then run the download again")


class HubClient:
    """A session on the Hub's file API. ``sleep`` and ``backoff_s`` pace the retries after a
    dropped connection; ``chunk_bytes`` is the read size between two cancel checks."""

    def __init__(self, endpoint: str | None = None, token: str | None = None, timeout=(10.0, 60.0),
                 retries: int = 4, backoff_s: float = 1.0, chunk_bytes: int = CHUNK_BYTES,
                 sleep: Callable[[float], None] = time.sleep):
        import requests

        self._requests = requests
        self.endpoint = (endpoint or hub_endpoint()).rstrip("/")
        self._token = token if token is not None else (os.environ.get("HF_TOKEN", "").strip() or None)
        self.timeout, self.retries, self.backoff_s = timeout, int(retries), float(backoff_s)
        self.chunk_bytes, self.sleep = int(chunk_bytes), sleep
        self.session = requests.Session()
        self.session.headers["User-Agent"] = "geofidelity-model-manager"
        if self._token:
            self.session.headers["Authorization"] = f"Bearer {self._token}"

    @property
    def has_token(self) -> bool:
        return bool(self._token)

    def __repr__(self) -> str:  # never the token
        return f"HubClient({self.endpoint!r}, token={'set' if self._token else 'none'})"

    # -- requests ------------------------------------------------------------------------------
    def _get(self, url: str, entry: ModelEntry, what: str, **kwargs):
        try:
            return self.session.get(url, timeout=self.timeout, **kwargs)
        except (self._requests.ConnectionError, self._requests.Timeout) as exc:
            reason = _reason(exc)
            raise HubUnreachable(f"cannot reach the Hugging Face Hub at {self.endpoint} ({reason}) while asking for "
                                 f"{what} of {entry.repo_id} — check the connection (or HF_ENDPOINT)",
                                 reason) from None

    def revision_info(self, entry: ModelEntry, revision: str | None = None) -> dict:
        """The revision's commit, gate and file list (with sizes and checksums)."""
        revision = revision or entry.revision
        url = f"{self.endpoint}/api/models/{entry.repo_id}/revision/{quote(revision, safe='')}"
        response = self._get(url, entry, f"the file list of revision {revision}", params={"blobs": "true"})
        self._check(response, entry, f"revision {revision}")
        try:
            info = response.json()
        except ValueError:
            raise RemoteServiceError(f"the Hub at {self.endpoint} answered the file list of {entry.repo_id} with "
                                     "something that is not JSON — check HF_ENDPOINT, or try again later") from None
        if not isinstance(info, dict) or not isinstance(info.get("sha"), str) or "siblings" not in info:
            raise RemoteServiceError(f"the Hub's answer for {entry.repo_id} has no commit or file list — check "
                                     "HF_ENDPOINT, or try again later")
        return info

    def file_url(self, entry: ModelEntry, commit: str, path: str) -> str:
        return f"{self.endpoint}/{entry.repo_id}/resolve/{commit}/{quote(path)}"

    def get_bytes(self, entry: ModelEntry, commit: str, path: str) -> bytes:
        """A small file, whole (e.g. ``model_index.json``, read to choose the files)."""
        response = self._get(self.file_url(entry, commit, path), entry, path)
        self._check(response, entry, path)
        return response.content

    def _check(self, response, entry: ModelEntry, what: str) -> None:
        code = response.status_code
        if code < 400:
            return
        error = response.headers.get("X-Error-Code", "")
        if code in (401, 403) and (error == "GatedRepo" or entry.gated):
            raise GatedModel(gated_message(entry, self.endpoint, self.has_token))
        if error == "RepoNotFound" or (code == 401 and not error):
            raise InputError(f"{entry.repo_id} is not a model the Hub at {self.endpoint} serves (answer {code}) — "
                             "check the id; a private model needs a token with access in HF_TOKEN")
        if error == "RevisionNotFound":
            raise InputError(f"{what} of {entry.repo_id} does not exist on the Hub (answer {code}) — check the "
                             "revision")
        if code in (401, 403):
            raise InputError(f"the Hub refused {what} of {entry.repo_id} (answer {code}) — check the token in "
                             "HF_TOKEN (expired or without read access?)")
        if code == 404:
            raise RemoteServiceError(f"{what} of {entry.repo_id} is listed but the Hub does not serve it (404) — "
                                     "run the download again later")
        raise RemoteServiceError(f"the Hub answered {code} for {what} of {entry.repo_id} — try again later "
                                 "(the download resumes where it stopped)")

    # -- one file, resumable -----------------------------------------------------------------
    def fetch(self, entry: ModelEntry, commit: str, spec: dict, target: Path,
              on_size: Callable[[int], None] = lambda n: None, cancel: Callable[[], None] = lambda: None) -> None:
        """Download ``spec`` (path, size, sha256 / blob_id) to ``target`` through
        ``target.incomplete``: an existing partial file is continued with a ``Range`` request, a
        dropped connection is retried from where it stopped, and the file is checked before it
        takes its name. ``on_size`` hears the partial file's size; ``cancel`` raises to stop."""
        part = target.with_name(target.name + INCOMPLETE)
        part.parent.mkdir(parents=True, exist_ok=True)
        size = spec.get("size")
        digest, hashed = None, -1
        failures = 0
        while True:
            start = part.stat().st_size if part.exists() else 0
            if size is not None and start > int(size):
                part.unlink()
                start = 0
            if hashed != start:  # a partial file from an earlier run: hash what is there
                digest = _hash_prefix(part, start)
                hashed = start
            on_size(start)
            if size is not None and start == int(size):
                break
            try:
                hashed, digest = self._stream(entry, commit, spec, part, start, digest, on_size, cancel)
                if size is None or hashed >= int(size):
                    break
                problem: Exception = ConnectionError(f"the connection closed after {hashed} of {size} bytes")
            except (HubUnreachable, self._requests.ConnectionError, self._requests.Timeout,
                    self._requests.exceptions.ChunkedEncodingError) as exc:
                problem, hashed = exc, -1  # what reached the disk is re-read
            failures += 1
            if failures > self.retries:
                if isinstance(problem, HubUnreachable):
                    raise problem
                raise RemoteServiceError(
                    f"the download of {spec['path']} ({entry.repo_id}) broke off {failures} times "
                    f"({_reason(problem)}) — run it again: it goes on from the {_gb(part)} already here") from None
            self.sleep(self.backoff_s * 2 ** (failures - 1))
        damage = _check_part(part, spec, digest)
        if damage:
            part.unlink()
            raise RemoteServiceError(f"{spec['path']} of {entry.repo_id} arrived damaged ({damage}) — run the "
                                     "download again: the file is fetched anew")
        os.replace(part, target)

    def _stream(self, entry, commit, spec, part: Path, start: int, digest, on_size, cancel):
        headers = {"Range": f"bytes={start}-"} if start else {}
        response = self._get(self.file_url(entry, commit, spec["path"]), entry, spec["path"], headers=headers,
                             stream=True)
        with response:
            if start and response.status_code == 416:
                return start, digest  # nothing left to send: the size check decides
            if start and response.status_code == 200:  # the range was ignored: start again
                start = 0
                digest = hashlib.sha256()
            elif response.status_code not in (200, 206):
                self._check(response, entry, spec["path"])
            written = start
            with open(part, "r+b" if start else "wb") as fh:
                fh.seek(start)
                fh.truncate()
                for chunk in response.iter_content(self.chunk_bytes):
                    cancel()
                    fh.write(chunk)
                    digest.update(chunk)
                    written += len(chunk)
                    on_size(written)
        return written, digest


def _hash_prefix(path: Path, length: int):
    digest = hashlib.sha256()
    if length:
        with open(path, "rb") as fh:
            remaining = length
            while remaining:
                block = fh.read(min(1 << 20, remaining))
                if not block:
                    break
                digest.update(block)
                remaining -= len(block)
    return digest


def _check_part(part: Path, spec: dict, digest) -> str | None:
    if spec.get("sha256"):
        size = spec.get("size")
        if size is not None and part.stat().st_size != int(size):
            return f"{part.stat().st_size} bytes, the Hub lists {size}"
        actual = digest.hexdigest()
        return None if actual == spec["sha256"] else f"sha256 {actual[:12]}…, the Hub lists {spec['sha256'][:12]}…"
    return check_file(part, spec)


def _gb(path: Path) -> str:
    try:
        return f"{path.stat().st_size / 1e9:.2f} GB"
    except OSError:
        return "part"


def _reason(exc: Exception) -> str:
    text = str(exc)
    for sign, reason in (("Connection refused", "connection refused"), ("Name or service not known", "name not known"),
                         ("nodename nor servname", "name not known"), ("getaddrinfo failed", "name not known"),
                         ("timed out", "timed out"), ("Read timed out", "timed out")):
        if sign in text:
            return reason
    return type(exc).__name__
