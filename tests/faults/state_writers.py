"""The state writers of issue 40's path-kind matrix, run one at a time in a child process
(``python -m state_writers WRITER FOLDER``) so that a file size limit or another user applies to
that child only. Reports as the command line does: exit 2 and ``error: …`` for a foreseen
failure, exit 1 and the traceback for a bug, ``ok`` on success.
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

#: each writer → the name it writes in its folder (``geodiv-cache`` runs the real command instead)
WRITERS = {
    "atomic-write": "out.txt",
    "staged-folder": "table.csv",
    "writer-lock": ".store.sqlite.writer-lock",
    "feature-cache": "features.sqlite",
    "geodiv-cache": "cache.sqlite",
    "store-create": "store.sqlite",
}


def _write(writer: str, folder: Path) -> None:
    if writer == "atomic-write":
        from geofidelity_plugin.core.atomic import write_text

        write_text(folder / WRITERS[writer], "new\n")
    elif writer == "staged-folder":
        from geofidelity_plugin.core.atomic import staged_folder

        with staged_folder(folder) as stage:
            stage.path(WRITERS[writer]).write_text("a,b\n1,2\n")
            stage.path("manifest.json").write_text("{}\n")
    elif writer == "writer-lock":
        from geofidelity_plugin.core.store import writer_lock

        writer_lock.release(writer_lock.acquire(folder / "store.sqlite", timeout_s=1))
    elif writer == "feature-cache":
        from geofidelity_plugin.core.vision.feature_cache import CacheKey, FeatureCache

        with FeatureCache(folder / WRITERS[writer], busy_timeout_s=1) as cache:
            cache.put_many({CacheKey("a" * 64, "m", "r", "p"): np.ones(4)})
    elif writer == "store-create":
        from geofidelity_plugin.core.store.store import BenchmarkStore

        with BenchmarkStore(folder / WRITERS[writer], lock_timeout_s=1) as store:
            store.put_segments([{"segment_id": "s", "city": "C", "centroid_lon": 0.0, "centroid_lat": 0.0}])
    else:
        raise SystemExit(f"unknown writer {writer}")


def main(writer: str, folder: str) -> int:
    from geofidelity_plugin.core.errors import user_message

    try:
        _write(writer, Path(folder))
    except Exception as exc:  # noqa: BLE001 - the error policy decides, as in the command line
        message, foreseen = user_message(exc)
        print(f"error: {message}", file=sys.stderr)
        if not foreseen:
            import traceback

            traceback.print_exc()
        return 2 if foreseen else 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
