"""Writing a curation's decisions into the store (method §2: kept images become the segments'
reference panels), under the guard of destructive steps (:mod:`...store.destructive`).

- Every decision is recorded on the candidate (status, tier, reason, measures), so a reference
  image that curation takes out of a panel can be put back by curating again with other options.
- Curation removes only reference images it decided on (a fetched candidate with its file). A
  reference image it has no candidate for — an imported release's panel, a stand-in — cannot be
  rebuilt by curation, so curation never deletes it.
- A curation that would take out more than half of the store's reference images, or the whole
  panel of a segment that had one, refuses before writing anything, naming the tiers and the
  counts, unless ``allow_removal`` (``--allow-removal``) is given.
"""
from __future__ import annotations

from collections import Counter

from geofidelity_plugin.core.progress import Progress, check_cancel
from geofidelity_plugin.core.reference_panels.curation.outcomes import TIER_NAMES
from geofidelity_plugin.core.store.destructive import Removal, check_removal

#: the flag that lets a curation remove that much (the option ``ALLOW_REMOVAL`` of spec/curation.py)
ALLOW_FLAG = "--allow-removal ('Allow removing most reference images' in QGIS)"
FIX = ("check the thresholds that reject them (e.g. --solar-min, --luma-min/--luma-max, --buffer, an audit CSV "
       "that rejects every image) and the candidates' positions and files")


def _cause(row) -> str:
    if row is None:
        return "no longer a candidate"
    if row.status == "capped":
        return "over the cap"
    return f"tier {row.tier} ({TIER_NAMES.get(row.tier, '?')})" if row.tier else row.status


def planned_removal(store, result, kept: dict[str, list[dict]]) -> tuple[Removal, dict[str, set[str]]]:
    """What writing ``kept`` would remove, and per segment the image ids curation decided on
    (the only reference images it may remove)."""
    decided: dict[str, set[str]] = {}
    rows = {}
    for row in result.rows:
        decided.setdefault(str(row.segment_id), set()).add(str(row.image_id))
        rows[(str(row.segment_id), str(row.image_id))] = row
    before, removed, causes, examples = {}, {}, Counter(), {}
    for sid, images in store.reference_panels(include_rejected=True).items():
        keep = {r["reference_id"] for r in kept.get(sid, [])}
        before[sid] = len(images)
        gone = [r for r in images if str(r.get("image_id")) in decided.get(sid, ()) and r["reference_id"] not in keep]
        removed[sid] = len(gone)
        for r in gone:
            row = rows.get((sid, str(r.get("image_id"))))
            cause = _cause(row)
            causes[cause] += 1
            examples.setdefault(cause, row.reason if row is not None else "")
    return Removal("reference images", "segment", before, removed, dict(causes), examples), decided


def write_panels(store, result, kept: dict[str, list[dict]], updates: list[dict], segment_ids,
                 allow_removal: bool, progress: Progress) -> None:
    """Check the removal (refusing before any write), then record every decision and make the
    kept images the segments' reference panels."""
    removal, decided = planned_removal(store, result, kept)
    warning = check_removal("curate", removal, ALLOW_FLAG, allow_removal, FIX)
    store.put_candidates(updates)
    for sid in segment_ids:
        check_cancel(progress, "writing reference panels")
        store.replace_segment_references(sid, kept.get(sid, []), decided=decided.get(str(sid), set()))
    if warning:
        progress.warning(warning)
