"""One writer per benchmark store (docs/method.md, "Errors and exit codes").

SQLite keeps each transaction whole, but a run is many transactions: two runs that write one
store at once (two ``generate`` runs with different settings, a ``curate`` during an import)
each read the store, decide, and write, and their decisions interleave — one model's panels end
up with images of two settings, or one run's rows silently replace the other's. So every run
that writes a store holds a store-level lock for its whole run: an advisory OS lock on a small
file beside the store (``.<store name>.writer-lock``), which also names the holder (pid, host,
command, start time) for the message the next writer gets. The OS drops the lock when the
holder dies, so a killed run never leaves a stale lock behind.

A second writer waits — saying at once who holds the store — for up to its lock timeout, then
is refused with the holder named. Inside one process the lock is re-entrant (a command that
opens the store twice, or copies it before replacing it, holds it once).

The lock file is made and opened through :mod:`..state_files`: never through a link (a link
planted in a shared folder would have the next writer overwrite its target), never a folder or a
fifo (a writer would run with no lock at all) — those are refused, naming the path. It begins
with :data:`SIGNATURE`; a file of that name without it is never overwritten or deleted.
"""
from __future__ import annotations

import contextlib
import errno
import json
import os
import socket
import sys
import threading
import time
from pathlib import Path

from .. import state_files
from ..errors import InputError
from .sqlite_locks import DEFAULT_LOCK_TIMEOUT_S

#: how often a waiting writer tries the lock again, s
POLL_S = 0.2
#: how long a waiting writer holds back its "waiting for …" warning while the holder has the lock
#: but has not yet written who it is (the moment between taking the lock and naming itself), s
NAMING_GRACE_S = 2.0
#: the holder in words before it has named itself
UNNAMED = "another run (it has not said who it is yet)"
#: how every lock file begins (byte 0 is the one Windows locks, so a space), then the holder record
SIGNATURE = b" geofidelity-writer-lock 1\n"
#: how the lock files of the versions before the signature began (a space, then the holder record)
_OLDER_SIGNATURE = b' {"pid": '

_held: dict[str, list] = {}   # resolved store path → [count, file object]
_guard = threading.Lock()


def lock_file(store_path: str | os.PathLike) -> Path:
    """The lock file of the store at ``store_path``: hidden, beside it."""
    path = Path(store_path).expanduser().resolve()
    return path.with_name(f".{path.name}.writer-lock")


def _this_command() -> str:
    """The command line of this process as a person would type it, secrets scrubbed."""
    from ..secrets import scrub

    argv = list(sys.argv) or ["python"]
    head = "python -m geofidelity_plugin" if argv[0].endswith("__main__.py") else Path(argv[0]).name
    text = " ".join([head, *argv[1:]])
    return scrub(text if len(text) <= 300 else text[:297] + "…")


def _try_lock(fh) -> bool:
    if os.name == "nt":  # pragma: no cover - Windows
        import msvcrt

        try:
            fh.seek(0)
            msvcrt.locking(fh.fileno(), msvcrt.LK_NBLCK, 1)
            return True
        except OSError:
            return False
    import fcntl

    try:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except BlockingIOError:
        return False


def _unlock(fh) -> None:
    if os.name == "nt":  # pragma: no cover - Windows
        import msvcrt

        with contextlib.suppress(OSError):
            fh.seek(0)
            msvcrt.locking(fh.fileno(), msvcrt.LK_UNLCK, 1)
        return
    import fcntl

    fcntl.flock(fh.fileno(), fcntl.LOCK_UN)


def describe_holder(path: Path) -> str:
    """Who holds the lock file ``path``, in words (``pid 123 on host x: `…`, since 22:15:03``)."""
    data = state_files.read_head(path, 4096) or b""
    if data.startswith(SIGNATURE):
        data = data[len(SIGNATURE):]
    try:
        info = json.loads(data[1:].decode("utf-8") or "{}") if data.startswith(b" ") else {}
    except ValueError:
        info = {}
    if not isinstance(info, dict):
        info = {}
    if not info:
        return UNNAMED
    since = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(info.get("since", 0)))
    return (f"pid {info.get('pid', '?')} on host {info.get('host', '?')}: `{info.get('command', '?')}`, "
            f"running since {since}")


def _refusal(path: Path, store: Path, problem: str) -> InputError:
    return InputError(f"the writer lock of the benchmark store {store} cannot be taken: {problem}. Two runs "
                      f"must never write one store at once, so this run does not start — once no GeoFidelity run "
                      f"uses the store, move {path} away (or delete it if you know what it is), then run again")


def _open(path: Path, store: Path):
    """The lock file at ``path``, made by this call (with the signature) or the one a run made;
    a link, a folder, a fifo, or a file without the signature is refused."""
    try:
        fd = state_files.open_new(path)
    except FileExistsError:
        try:
            fd = state_files.open_existing(path, "the lock file")
        except state_files.NotARegularFile as exc:
            raise _refusal(path, store, str(exc).split(" — ")[0]) from None
        except FileNotFoundError:
            return None  # the holder removed it just now: try again
        return os.fdopen(fd, "r+b")
    except OSError as exc:
        if exc.errno == errno.ELOOP:  # a link made between the two opens
            raise _refusal(path, store, state_files.kind_message(path, "symbolic link", "the lock file")
                           .split(" — ")[0]) from None
        raise
    fh = os.fdopen(fd, "r+b")
    try:
        fh.write(SIGNATURE)  # the first thing in it: from here on it is known as ours
        fh.flush()
    except BaseException:
        fh.close()
        state_files.discard_temporary(path)  # made by this call a moment ago
        raise
    return fh


def _is_ours(fh) -> bool:
    """The open lock file holds nothing but a lock record (or nothing yet: a run between making
    it and signing it) — never another file that happens to have its name."""
    fh.seek(0)
    head = fh.read(len(SIGNATURE))
    return (SIGNATURE.startswith(head) or head.startswith(_OLDER_SIGNATURE)
            or _OLDER_SIGNATURE.startswith(head))


def _open_locked(path: Path, store: Path, timeout_s: float, warn):
    """The lock file ``path``, open and locked by this process (waiting up to ``timeout_s``)."""
    start, warned = time.monotonic(), False
    while True:
        fh = _open(path, store)
        if fh is None:
            continue
        if _try_lock(fh):
            try:  # the file may have been removed by the holder that just left: lock the one at ``path``
                same = os.path.samestat(os.fstat(fh.fileno()), os.lstat(path))
            except FileNotFoundError:
                same = False
            if same and not _is_ours(fh):
                _unlock(fh)
                fh.close()
                raise _refusal(path, store, f"{path} is not a GeoFidelity lock file (it holds other data, which "
                                            "is left as it is)")
            if same:
                return fh
            _unlock(fh)
            fh.close()
            continue
        holder = describe_holder(path)
        fh.close()
        waited = time.monotonic() - start
        if waited >= timeout_s:
            raise InputError(f"the benchmark store {store} is being written by another run ({holder}) and was not "
                             f"free after {timeout_s:g} s — wait for that run to finish (or stop it), then run this "
                             "command again; two runs never write one store at once")
        if not warned and (holder != UNNAMED or waited >= NAMING_GRACE_S):
            warn(f"the benchmark store {store} is being written by another run ({holder}) — this run waits up "
                 f"to {timeout_s:g} s for it to finish, so that the two never mix their writes")
            warned = True
        poll = POLL_S if warned else 0.02  # until it has said who holds the store, look again soon
        time.sleep(min(poll, max(0.01, timeout_s - waited)))


def acquire(store_path: str | os.PathLike, timeout_s: float = DEFAULT_LOCK_TIMEOUT_S, warn=None,
            command: str | None = None) -> str:
    """Take the writer lock of the store at ``store_path`` (re-entrant in this process); returns
    the key to :func:`release`. Raises :class:`InputError` naming the holder after ``timeout_s``."""
    store = Path(store_path).expanduser().resolve()
    key = str(store)
    with _guard:
        if key in _held:
            _held[key][0] += 1
            return key
    path = lock_file(store)
    path.parent.mkdir(parents=True, exist_ok=True)
    fh = _open_locked(path, store, float(timeout_s), warn or (lambda message: None))
    info = {"pid": os.getpid(), "host": socket.gethostname(), "command": command or _this_command(),
            "since": time.time()}
    fh.seek(0)
    fh.truncate()
    fh.write(SIGNATURE + b" " + json.dumps(info).encode("utf-8"))
    fh.flush()
    with _guard:
        _held[key] = [1, fh]
    return key


def release(key: str) -> None:
    """Give back one hold of :func:`acquire`; the last one removes the lock file and unlocks it."""
    with _guard:
        entry = _held.get(key)
        if entry is None:
            return
        entry[0] -= 1
        if entry[0] > 0:
            return
        del _held[key]
    fh = entry[1]
    with contextlib.suppress(OSError):  # removed while still locked: a waiting writer re-checks the path
        path = lock_file(key)
        if os.path.samestat(os.fstat(fh.fileno()), os.lstat(path)):  # the very file it holds, nothing else
            state_files.remove_owned(path, what="the lock file")
    with contextlib.suppress(OSError):
        _unlock(fh)
    fh.close()


def holds(store_path: str | os.PathLike) -> bool:
    """Whether this process holds the writer lock of the store at ``store_path``."""
    return str(Path(store_path).expanduser().resolve()) in _held


@contextlib.contextmanager
def writing(store_path: str | os.PathLike, timeout_s: float = DEFAULT_LOCK_TIMEOUT_S, warn=None,
            command: str | None = None):
    """The writer lock of the store at ``store_path`` for the ``with`` block."""
    key = acquire(store_path, timeout_s, warn, command)
    try:
        yield
    finally:
        release(key)
