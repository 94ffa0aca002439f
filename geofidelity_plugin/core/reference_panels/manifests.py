"""The run manifests of stage 2 (fetch, curate, coverage), written beside each run's GeoPackage.
Each records the options of the call — the specification's record of them
(:func:`geofidelity_plugin.spec.options.recorded`) when a command made the call, so an option added
to a command's specification appears here with no other edit — and what the run produced."""
from __future__ import annotations

from pathlib import Path

from ..manifest import build_manifest, write_manifest


def manifest_path(out) -> Path:
    """The run manifest beside the GeoPackage ``out``: ``images.gpkg`` → ``images.manifest.json``."""
    return Path(str(out).rsplit(".", 1)[0] + ".manifest.json")


def write_fetch_manifest(path, store, options: dict, totals: dict, client, out) -> None:
    """The fetch's manifest: its options (search padding, the tiers run before download), the
    totals and the requests sent."""
    requests = {"api": client.api_requests, "image": client.image_requests}
    write_manifest(path, build_manifest("fetch_mapillary", {**options, "base_url": client.base_url},
                                        inputs={"store": str(store.path)},
                                        outputs={"totals": totals, "gpkg": str(out)}, requests=requests))


def write_curation_manifest(path, store, options: dict, result, out, audit_csv=None) -> None:
    """The curation's manifest: options, counts, models and tier states."""
    inputs = {"store": str(store.path), **({"audit_csv": str(audit_csv)} if audit_csv else {})}
    write_manifest(path, build_manifest("curate_panels", options, inputs=inputs,
                                        outputs={"counts": result.counts(), "not_scored": result.not_scored(),
                                                 "segments": result.segments, "gpkg": str(out)},
                                        models=[result.models], notes=result.notes, tier_state=result.tier_state))


def write_coverage_manifest(path, store, options: dict, audit, out, csv_path) -> None:
    """The coverage audit's manifest: both radii, the store, the outputs."""
    notes = list(audit.notes) + ([audit.stand_in] if audit.stand_in else [])
    options = {**options, "date_histogram": "per year; per month when the dates span under 2 years"}
    write_manifest(path, build_manifest("coverage", options, inputs={"store": str(Path(store.path).resolve())},
                                        outputs={"gpkg": str(out), "cities_csv": str(csv_path),
                                                 "segments": len(audit.coverage), "images": len(audit.images)},
                                        notes=notes, stand_in=audit.stand_in))
