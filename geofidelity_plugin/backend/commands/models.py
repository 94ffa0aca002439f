"""``python -m geofidelity_plugin models list|download|verify|remove`` — the model manager.

``list`` never touches the network. ``download`` fetches through huggingface_hub into a standard
Hugging Face cache (``hf cache ls`` lists it) with byte progress, resumes a download that was
cancelled or killed, and checks every file's sha256; offline it names what is missing and how to
get it. ``verify`` re-checks sizes and checksums; ``remove``
deletes a model's folder. With ``--events jsonl`` the result carries MODELS (the table) and
MODELS_DIR, and each present snapshot is an output ``SNAPSHOT_<name>``.
"""
from __future__ import annotations

import csv
from pathlib import Path

from geofidelity_plugin.core import events
from geofidelity_plugin.backend.commands.progress import progress_for
from geofidelity_plugin.spec import models as spec
from geofidelity_plugin.spec.models import ACTIONS
from geofidelity_plugin.spec.options import add_arguments
TABLE_COLUMNS = ("name", "repo_id", "role", "status", "revision", "commit", "approx_size", "size_source", "licence",
                 "gate", "where", "path", "note")


def register(sub) -> None:
    p = sub.add_parser(
        spec.MODELS.command, help=spec.MODELS.help,
        description="The models GeoFidelity uses (the six generators, DINOv2, the Vistas Mask2Former, SigLIP, "
                    "CLIP) in the models folder, a Hugging Face cache: --models-dir, else GEOFIDELITY_MODELS_DIR, "
                    "else HF_HUB_CACHE, else the default cache. Downloads use HF_ENDPOINT and the token in "
                    "HF_TOKEN (gated models); nothing else in GeoFidelity downloads a model.")
    actions = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    helps = {"list": "show every model (or those named): size, licence gate, revision, whether it is here",
             "download": "download the models named (resumes an earlier, interrupted download)",
             "verify": "check sizes and checksums of the models named (default: every one present)",
             "remove": "delete the models named from the models folder (every revision)"}
    for action in ACTIONS:
        a = actions.add_parser(action, help=helps[action], description=helps[action])
        a.add_argument("names", nargs="+" if action in spec.NAMED_ACTIONS else "*", metavar="NAME",
                       help="a registered name (see `models list`) or a hub id owner/name")
        add_arguments(a, spec.MODELS)
        a.set_defaults(func=cmd_models)


def cmd_models(args) -> int:
    from geofidelity_plugin.core.models.cache import (check_models_folder, folder_repo_ids, models_root,
                                                      other_models_dir, search_roots)
    from geofidelity_plugin.core.models.download import describe
    from geofidelity_plugin.core.models.registry import model_entry, select

    entries = select(args.names)
    root = check_models_folder(models_root(args.models_dir), writable=args.action in ("download", "remove"))
    if not args.names:  # every model: the registered ones, then any other in the models folder
        known = {e.repo_id for e in entries}
        entries += [model_entry(r) for r in folder_repo_ids(root) if r not in known]
    notes: dict[str, str] = {}
    if args.action == "download":
        notes = _download(entries, args.models_dir)
    elif args.action == "verify":
        notes = _verify(entries, args.models_dir, named=bool(args.names))
        entries = [e for e in entries if e.name in notes]  # the models verified
    elif args.action == "remove":
        notes = _remove(entries, root)
    roots = search_roots(args.models_dir)
    rows = [describe(e, roots) for e in entries]
    for row in rows:
        if notes.get(row["name"]):
            row["note"] = "; ".join(filter(None, [notes[row["name"]], row["note"]]))
    print(render(rows, root))
    events.value(spec.MODELS_TABLE.key, rows)
    events.value(spec.MODELS_DIR_RESULT.key, str(root))
    for row in rows:
        if row["status"] == "present" and row["path"]:
            events.output(f"{spec.SNAPSHOT_PREFIX}{row['name']}", row["path"])
    if args.table:
        write_table(rows, Path(args.table))
        events.output(spec.TABLE.key, args.table)
    if args.action == "verify":
        _raise_for_bad(notes, entries, other_models_dir(models_root(args.models_dir)))
    return 0


def _download(entries, models_dir) -> dict[str, str]:
    from geofidelity_plugin.core.errors import InputError
    from geofidelity_plugin.core.models.cache import models_root, offline, search_roots
    from geofidelity_plugin.core.models.download import (download_model, ensure_offline_ok, human_bytes, missing_message, present_and_pinned)
    from geofidelity_plugin.core.models.hub import HubClient, HubUnreachable
    from geofidelity_plugin.core.progress import SubProgress

    roots = search_roots(models_dir)
    root = models_root(models_dir)
    ensure_offline_ok(entries, models_dir)  # offline: refuse, naming every model that is missing
    notes, todo = {}, []
    for entry in entries:
        if present_and_pinned(entry, roots) is not None:
            notes[entry.name] = "already present"
        elif offline():  # present (ensure_offline_ok passed), but main cannot be compared with the Hub
            notes[entry.name] = "already present (offline: not compared with the Hub's latest commit)"
        else:
            todo.append(entry)
    if not todo:
        return notes
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        from geofidelity_plugin.core.errors import describe_os_error

        raise InputError(f"the models folder {root} cannot be created: {describe_os_error(exc, root)} — give "
                         "another folder with --models-dir (in QGIS: Models folder)") from None
    client = HubClient()
    progress = progress_for("models download")
    try:
        for number, entry in enumerate(todo):
            step = SubProgress(progress, 100.0 * number / len(todo), 100.0 * (number + 1) / len(todo))
            events.announce_stage(progress, f"downloading {entry.name}", entry.repo_id)
            try:
                result = download_model(entry, root, client, step)
            except HubUnreachable as exc:  # name every model still missing, not only this one
                raise HubUnreachable(missing_message(todo[number:], models_dir, exc.reason), exc.reason) from None
            notes[entry.name] = (f"downloaded {human_bytes(result.fetched_bytes)} of {human_bytes(result.total_bytes)} "
                                 f"({result.files} files, commit {result.commit[:7]}), checksums verified")
            progress.info(f"{entry.name}: {notes[entry.name]}")
    finally:
        progress.close()
    return notes


def _verify(entries, models_dir, named: bool) -> dict[str, str]:
    from geofidelity_plugin.core.models.cache import local_state, offline, search_roots
    from geofidelity_plugin.core.models.download import verify_model
    from geofidelity_plugin.core.models.hub import HubClient

    roots = search_roots(models_dir)
    if not named:  # every model that is here
        entries = [e for e in entries if local_state(e, roots).status in ("present", "corrupt")]
    client = None if offline() else HubClient()
    progress = progress_for("models verify")
    notes = {}
    try:
        for entry in entries:
            events.announce_stage(progress, f"verifying {entry.name}", entry.repo_id)
            result = verify_model(entry, roots, client, progress)
            if result.bad:
                notes[entry.name] = "BAD: " + "; ".join(f"{p}: {why}" for p, why in result.bad.items())
            else:
                notes[entry.name] = f"verified {result.checked} files" + (f" ({result.note})" if result.note else "")
    finally:
        progress.close()
    return notes


def _raise_for_bad(notes: dict[str, str], entries, models_dir=None) -> None:
    from geofidelity_plugin.core.errors import InputError
    from geofidelity_plugin.core.models.registry import download_command

    bad = {name: note for name, note in notes.items() if note.startswith("BAD: ")}
    by_name = {e.name: e for e in entries}  # a hub id's entry: its download command names the hub id
    if bad:
        listed = " | ".join(f"{name}: {note[5:]}" for name, note in bad.items())
        command = download_command(*(by_name.get(name, name) for name in bad), models_dir=models_dir)
        raise InputError(f"files fail their checksum — {listed} — run `{command}`: it fetches those files again")


def _remove(entries, root: Path) -> dict[str, str]:
    from geofidelity_plugin.core.models.cache import remove_model

    notes = {}
    for entry in entries:
        removed = remove_model(entry, root)
        notes[entry.name] = f"removed {removed}" if removed else f"was not in {root}"
    return notes


def render(rows: list[dict], root: Path) -> str:
    lines = [f"models folder: {root}",
             f"{'NAME':<22} {'STATUS':<14} {'SIZE':>9}  {'GATED':<5} {'REVISION':<9} {'LICENCE':<34} REPO"]
    for r in rows:
        pinned = "main" if r["revision"].startswith("main") else r["revision"][:7]
        revision = r["commit"][:7] if r["commit"] else pinned
        gated = "yes" if r["gate"] != "none" else "no"
        size = ("≈" + r["approx_size"]) if r["approx_size"] != "?" else "?"
        lines.append(f"{r['name']:<22} {r['status']:<14} {size:>9}  {gated:<5} {revision:<9} {r['licence'][:34]:<34} "
                     f"{r['repo_id']}")
        for key in ("path", "note"):
            if r[key]:
                lines.append(f"{'':<22} {key}: {r[key]}")
    lines.append("sizes are approximate (see size_source in --table or --events jsonl); gated models need the licence "
                 "accepted on the model page and a token in HF_TOKEN")
    return "\n".join(lines)


def write_table(rows: list[dict], path: Path) -> None:
    from geofidelity_plugin.core import atomic

    with atomic.atomic_path(path, suffix=".csv") as tmp:
        with open(tmp, "w", newline="", encoding="utf-8") as fh:
            writer = csv.DictWriter(fh, fieldnames=TABLE_COLUMNS, extrasaction="ignore")
            writer.writeheader()
            writer.writerows(rows)
