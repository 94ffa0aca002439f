"""The Hugging Face Hub, as the model manager talks to it: through ``huggingface_hub``, so that
the models folder is a standard Hugging Face cache (``blobs/`` + ``snapshots/<commit>/`` links,
what ``hf cache ls`` and ``scan_cache_dir`` read) and Xet-stored files travel through hf-xet.

- the file list with sizes and checksums: ``HfApi.model_info(files_metadata=True)``;
- one file: ``get_hf_file_metadata`` (the ``HEAD`` on ``/{repo}/resolve/{commit}/{path}``:
  ETag, size, redirect, Xet hash), then the bytes with huggingface_hub's own ``xet_get`` or
  ``http_get`` into ``blobs/<etag>.incomplete``. That file keeps its name between runs (the
  library's own ``hf_hub_download`` starts each run afresh), so a cancelled or killed download
  goes on with a ``Range`` request; a dropped connection is resumed inside the same run.

The endpoint is ``HF_ENDPOINT`` (default https://huggingface.co), given to every call, and the
token ``HF_TOKEN``, sent only as a header (dropped on redirects off the Hub): it never appears in
a message, a log or a record. Telemetry is off. ``models download`` is an explicit request to
reach the Hub, so while it runs the library's offline switch is lifted (the command itself
refuses first when ``HF_HUB_OFFLINE`` is set, naming what is missing).
"""
from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path
from typing import Callable
from urllib.parse import urlsplit

from .. import state_files
from ..errors import InputError, RemoteServiceError
from ..network import ENDPOINTS, retry_after_seconds, retry_wait, timeout_message, wait_limits
from .cache import INCOMPLETE, check_file, repo_folder
from .registry import ModelEntry

DEFAULT_ENDPOINT = "https://huggingface.co"
#: bytes read between two cancel checks (and the most a kill can lose of a partial file)
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


def _library():
    try:
        import huggingface_hub
    except ImportError:
        raise InputError("downloading a model needs the huggingface_hub package, which this Python lacks — install "
                         "the backend's model libraries (pip install 'geofidelity[ml]', or the Backend setup in QGIS)"
                         ) from None
    return huggingface_hub


@contextmanager
def _hub_session(chunk_bytes: int, endpoint: str = DEFAULT_ENDPOINT):
    """huggingface_hub's switches for one explicit download: online, no telemetry, small reads,
    the Hub's read limit from core/network.py (its own default is 10 s for a file's bytes and no
    limit for a file list), and a server's ``Retry-After`` capped as everywhere (:func:`_cap_wait`)."""
    from huggingface_hub import constants
    from huggingface_hub.utils import get_session

    read_s = wait_limits("hub")[1]
    saved = (constants.HF_HUB_OFFLINE, constants.HF_HUB_DISABLE_TELEMETRY, constants.DOWNLOAD_CHUNK_SIZE,
             constants.HF_HUB_DOWNLOAD_TIMEOUT)
    constants.HF_HUB_OFFLINE, constants.HF_HUB_DISABLE_TELEMETRY = False, True
    constants.DOWNLOAD_CHUNK_SIZE = int(chunk_bytes)
    constants.HF_HUB_DOWNLOAD_TIMEOUT = read_s
    session = get_session()
    hooks = dict(session.event_hooks)
    hook = _cap_wait(endpoint)
    session.event_hooks = {**hooks, "response": [*hooks.get("response", []), hook]}
    try:
        yield
    finally:
        (constants.HF_HUB_OFFLINE, constants.HF_HUB_DISABLE_TELEMETRY, constants.DOWNLOAD_CHUNK_SIZE,
         constants.HF_HUB_DOWNLOAD_TIMEOUT) = saved
        session.event_hooks = {k: [h for h in v if h is not hook] for k, v in session.event_hooks.items()}


def _cap_wait(endpoint: str):
    """A response hook: huggingface_hub sleeps for whatever a 429/503 answer's ``Retry-After`` (or
    rate-limit reset) says; above the cap the download stops with a message, or (``wait``) the
    header is rewritten to the cap (:func:`..network.retry_wait`)."""
    def hook(response) -> None:
        if response.status_code not in (408, 429, 503):
            return
        headers = response.headers
        demanded = retry_after_seconds(headers.get("Retry-After"))
        try:
            from huggingface_hub.utils import parse_ratelimit_headers

            limit = parse_ratelimit_headers(headers)
        except (ImportError, ValueError):
            limit = None
        if response.status_code == 429 and limit is not None and limit.remaining == 0:
            demanded = float(limit.reset_in_seconds)
        wait = retry_wait(demanded, "hub", endpoint)
        if wait is not None and wait < demanded:
            for name in [k for k in headers if k.lower() in ("ratelimit", "ratelimit-policy")]:
                del headers[name]
            headers["Retry-After"] = str(int(wait))
    return hook


def _progress_class(on_size: Callable[[int], None], cancel: Callable[[], None]):
    """A silent tqdm for huggingface_hub's ``tqdm_class`` hook: each block read reports the size
    of the partial file and gives cancel its chance to stop the transfer."""
    from tqdm import tqdm

    class _Hook(tqdm):
        def __init__(self, *args, **kwargs):
            kwargs.pop("name", None)
            kwargs["disable"] = True
            super().__init__(*args, **kwargs)
            self._bytes = int(kwargs.get("initial") or 0)

        def update(self, n=1):
            self._bytes += int(n or 0)
            on_size(max(0, self._bytes))
            cancel()
            return super().update(n)

    return _Hook


class HubClient:
    """A session with the Hub for the model manager. ``chunk_bytes`` is the read size between
    two cancel checks."""

    def __init__(self, endpoint: str | None = None, token: str | None = None, chunk_bytes: int = CHUNK_BYTES):
        self.endpoint = (endpoint or hub_endpoint()).rstrip("/")
        self._token = token if token is not None else (os.environ.get("HF_TOKEN", "").strip() or None)
        self.chunk_bytes = int(chunk_bytes)

    @property
    def has_token(self) -> bool:
        return bool(self._token)

    def __repr__(self) -> str:  # never the token
        return f"HubClient({self.endpoint!r}, token={'set' if self._token else 'none'})"

    @property
    def _auth(self):
        return self._token or False  # False: never a token saved on this machine by another tool

    def revision_info(self, entry: ModelEntry, revision: str | None = None) -> dict:
        """The revision's commit, gate and file list: ``sha``, ``gated`` and ``siblings``
        (``rfilename``, ``size``, ``blobId``, ``lfs: {sha256, size}``), as the Hub's API writes them."""
        revision = revision or entry.revision
        hf = _library()
        with _hub_session(self.chunk_bytes, self.endpoint), \
                self._translated(entry, f"the file list of revision {revision}"):
            info = hf.HfApi(endpoint=self.endpoint, token=self._auth, library_name="geofidelity").model_info(
                entry.repo_id, revision=revision, files_metadata=True, timeout=_timeout())
        if not isinstance(getattr(info, "sha", None), str) or info.siblings is None:
            raise RemoteServiceError(f"the Hub's answer for {entry.repo_id} has no commit or file list — check "
                                     "HF_ENDPOINT, or try again later")
        siblings = []
        for s in info.siblings:
            row = {"rfilename": s.rfilename, "size": s.size, "blobId": s.blob_id}
            if s.lfs is not None:
                row["lfs"] = {"sha256": s.lfs.sha256, "size": s.lfs.size}
            siblings.append(row)
        return {"sha": info.sha, "gated": info.gated or False, "siblings": siblings}

    def fetch_blob(self, entry: ModelEntry, commit: str, spec: dict, root: Path,
                   on_size: Callable[[int], None] = lambda n: None,
                   cancel: Callable[[], None] = lambda: None) -> tuple[Path, int]:
        """Bring ``spec`` (path, size, sha256 / blob_id) into the cache's ``blobs/<etag>``; returns
        the blob and the bytes that crossed the network. A blob already there is kept when it
        matches; a partial one is continued; the bytes are checked before the blob takes its name.
        ``on_size`` hears the partial file's size; ``cancel`` raises to stop (the part stays)."""
        hf = _library()
        from huggingface_hub.file_download import http_get, is_xet_available, xet_get
        from huggingface_hub.utils import build_hf_headers

        url = hf.hf_hub_url(entry.repo_id, spec["path"], revision=commit, endpoint=self.endpoint)
        with _hub_session(self.chunk_bytes, self.endpoint), self._translated(entry, spec["path"]):
            meta = hf.get_hf_file_metadata(url, token=self._auth, endpoint=self.endpoint, timeout=_timeout())
            if not meta.etag:
                raise RemoteServiceError(f"the Hub at {self.endpoint} sent no ETag for {spec['path']} of "
                                         f"{entry.repo_id} — check HF_ENDPOINT, or try again later")
            blob = repo_folder(root, entry.repo_id) / "blobs" / meta.etag.replace("/", "_")
            size = spec.get("size") if spec.get("size") is not None else meta.size
            if blob.is_file() and check_file(blob, spec) is None:
                on_size(blob.stat().st_size)
                return blob, 0
            state_files.remove_owned(blob, what="the model blob")
            part = blob.with_name(blob.name + INCOMPLETE)
            part.parent.mkdir(parents=True, exist_ok=True)
            state_files.check_target(part, "the partial download")  # never written through a link
            start = part.stat().st_size if part.exists() else 0
            if size is not None and start > int(size):
                start = 0
            on_size(start)
            headers = build_hf_headers(token=self._auth, library_name="geofidelity")
            hook = _progress_class(on_size, cancel)
            if meta.xet_file_data is not None and is_xet_available():
                start = 0  # hf-xet rebuilds the file from its chunks
                xet_get(incomplete_path=part, xet_file_data=meta.xet_file_data, headers=headers,
                        expected_size=size, displayed_filename=spec["path"], tqdm_class=hook)
            else:
                if _origin(meta.location) != _origin(url):
                    headers.pop("authorization", None)  # a CDN's signed address: the token stays on the Hub
                with state_files.open_for_writing(part, "the partial download") as fh:  # never through a link
                    fh.seek(start)
                    fh.truncate()
                    http_get(meta.location, fh, resume_size=start, headers=headers, expected_size=size,
                             displayed_filename=spec["path"], tqdm_class=hook)
        damage = check_file(part, spec)
        if damage:
            state_files.remove_owned(part, what="the partial download")
            raise RemoteServiceError(f"{spec['path']} of {entry.repo_id} arrived damaged ({damage}) — run the "
                                     "download again: the file is fetched anew")
        state_files.replace(part, blob, "the model blob")
        return blob, blob.stat().st_size - start

    @contextmanager
    def _translated(self, entry: ModelEntry, what: str):
        """huggingface_hub's and the network's errors, as messages that say what to do."""
        from huggingface_hub import errors
        import httpx2

        try:
            yield
        except httpx2.TimeoutException as exc:  # connected (or not) and silent for the stated limit
            connect = isinstance(exc, httpx2.ConnectTimeout)
            limit = wait_limits("hub")[0 if connect else 1]
            reason = (f"{'no connection' if connect else 'no answer'} within {limit:g} s; allow it longer with "
                      f"{ENDPOINTS['hub'].setting}")  # what the models command's message quotes
            raise HubUnreachable(timeout_message("hub", self.endpoint, limit, f" while asked for {what} of "
                                                 f"{entry.repo_id}", connect=connect), reason) from None
        except (httpx2.ConnectError, httpx2.RemoteProtocolError, errors.OfflineModeIsEnabled) as exc:
            reason = _reason(exc)
            raise HubUnreachable(f"cannot reach the Hugging Face Hub at {self.endpoint} ({reason}) while asking for "
                                 f"{what} of {entry.repo_id} — check the connection (or HF_ENDPOINT)",
                                 reason) from None
        except errors.GatedRepoError:
            raise GatedModel(gated_message(entry, self.endpoint, self.has_token)) from None
        except errors.RepositoryNotFoundError as exc:
            if entry.gated and _status(exc) in (401, 403):
                raise GatedModel(gated_message(entry, self.endpoint, self.has_token)) from None
            raise InputError(f"{entry.repo_id} is not a model the Hub at {self.endpoint} serves (answer "
                             f"{_status(exc)}) — check the id; a private model needs a token with access in "
                             "HF_TOKEN") from None
        except errors.RevisionNotFoundError as exc:
            raise InputError(f"{what} of {entry.repo_id} does not exist on the Hub (answer {_status(exc)}) — check "
                             "the revision") from None
        except errors.RemoteEntryNotFoundError:
            raise RemoteServiceError(f"{what} of {entry.repo_id} is listed but the Hub does not serve it (404) — "
                                     "run the download again later") from None
        except errors.HfHubHTTPError as exc:
            code = _status(exc)
            if code in (401, 403):
                raise InputError(f"the Hub refused {what} of {entry.repo_id} (answer {code}) — check the token in "
                                 "HF_TOKEN (expired or without read access?)") from None
            raise RemoteServiceError(f"the Hub answered {code} for {what} of {entry.repo_id} — try again later "
                                     "(the download resumes where it stopped)") from None
        except errors.FileMetadataError:
            raise RemoteServiceError(f"the server at {self.endpoint} does not answer as a Hugging Face Hub for "
                                     f"{what} of {entry.repo_id} — check HF_ENDPOINT and any proxy") from None
        except OSError as exc:
            if "Consistency check failed" not in str(exc):
                raise
            raise RemoteServiceError(f"the download of {what} ({entry.repo_id}) broke off before its end — run it "
                                     "again: it goes on from the part already here") from None


def _timeout():
    """The Hub's connect and read limits (core/network.py) as huggingface_hub's client takes them."""
    import httpx2

    connect, read = wait_limits("hub")
    return httpx2.Timeout(read, connect=connect)


def link_into_snapshot(blob: Path, pointer: Path) -> None:
    """``snapshots/<commit>/<path>`` → ``../../blobs/<etag>``, as huggingface_hub lays them out;
    where links cannot be made (Windows without developer mode) the blob moves into the snapshot,
    which is what huggingface_hub does there too."""
    pointer.parent.mkdir(parents=True, exist_ok=True)
    state_files.remove_owned(pointer, what="the model file", links=True)
    try:
        os.symlink(os.path.relpath(blob, pointer.parent), pointer)
    except OSError:
        state_files.replace(blob, pointer, "the model file")


def _origin(url: str) -> tuple:
    parts = urlsplit(str(url))
    return parts.scheme, (parts.hostname or "").lower(), parts.port


def _status(exc) -> int | str:
    response = getattr(exc, "response", None)
    return getattr(response, "status_code", "?")


def _reason(exc: Exception) -> str:
    text = str(exc)
    for sign, reason in (("Connection refused", "connection refused"), ("Name or service not known", "name not known"),
                         ("nodename nor servname", "name not known"), ("getaddrinfo failed", "name not known"),
                         ("timed out", "timed out"), ("offline mode", "HF_HUB_OFFLINE is set"),
                         ("disconnected", "the connection was closed")):
        if sign in text:
            return reason
    return type(exc).__name__
