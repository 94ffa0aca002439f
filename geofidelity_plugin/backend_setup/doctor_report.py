"""The doctor's report as text for people: printed by ``python -m geofidelity_plugin doctor`` in
the backend and by the setup tool after it ran the doctor in a new environment (the report
itself crosses the process boundary as JSON: docs/backend-protocol.md). Standard library only.
"""
from __future__ import annotations

GIB = 1024 ** 3


def gib(n) -> str:
    return "?" if n is None else f"{n / GIB:.1f} GiB"


def render_text(report: dict) -> str:
    py, dev, prof = report["python"], report["devices"], report["profile"]
    lines = ["GeoFidelity backend doctor",
             f"  protocol      {report['protocol']} (GeoFidelity {report['backend_version']})",
             f"  python        {py['version']} — {py['executable']}",
             f"  profile       {prof.get('name') or '?'}"
             + (f" ({prof['file']})" if prof.get("file") else f" — {prof.get('note', '')}"),
             "packages"]
    lines += [f"  {name:<13} {version or 'not installed'}" for name, version in report["packages"].items()]
    lines.append("devices")
    cuda = "available" if dev["cuda_available"] else "not available"
    lines.append(f"  CUDA          {cuda} (torch CUDA {dev['cuda_version'] or 'none: CPU build'})"
                 if not dev["error"] else f"  CUDA          {dev['error']}")
    lines += [f"  GPU {g['index']}         {g['name']}: {gib(g['free_bytes'])} free of {gib(g['total_bytes'])}"
              for g in dev["gpus"]]
    lines.append(f"  MPS           {'available' if dev['mps_available'] else 'not available'}")
    lines.append(f"models (Hugging Face cache {report['models']['hub_cache']}; models folder "
                 f"{report['models']['models_dir'] or 'not set'})")
    for m in report["models"]["known"]:
        mark = "✓" if m["present"] else "·"
        lines.append(f"  {mark} {m['name']:<22} {m['id']}" + (f"  [{m['where']}]" if m["present"] else ""))
    for f in report["models"]["local_folders"]:
        lines.append(f"  ✓ local folder {f['name']} ({f['kind'] or 'model'}) — {f['path']}")
    system = ", ".join(f"{r['module']} {r['version'] or ''}".strip() if not r["error"] else f"{r['module']} ✗"
                       for r in report["system"])
    lines.append(f"system         {system or 'nothing checked'}")
    total = len(report["requirements"])
    lines.append(f"requirements   {total} checked, {sum(1 for r in report['requirements'] if r['ok'])} as pinned")
    for item in report["problems"]:
        lines.append(f"  ✗ {item['problem']} — {item['fix']}")
    for item in report["notes"]:
        lines.append(f"  note: {item['problem']} — {item['fix']}")
    lines.append("healthy: " + ("yes" if report["healthy"] else f"no ({len(report['problems'])} problem(s))"))
    return "\n".join(lines)
