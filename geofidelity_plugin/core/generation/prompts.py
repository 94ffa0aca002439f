"""Prompts per segment and condition (method §4 Prompts).

Three levels say more and more about the place — L0 the city, L1 the street and neighbourhood,
L2 the centroid as raw text — and three same-city controls keep the L1 sentence but name the
wrong street, the wrong neighbourhood, or both. A control is only informative when its
substitute is a real place of the same city that differs from the truth, so substitutes come
from other retained segments of that city, chosen with a seed per segment; a control that
cannot be built that way is skipped and reported, never faked.
"""
from __future__ import annotations

import difflib
import hashlib
import json
import logging
import random
import re
import string
from dataclasses import asdict, dataclass, field
from typing import Any, Iterable, Mapping

from ..documents import parse_json_text
from ..errors import InputError
from ..progress import Progress

log = logging.getLogger("geofidelity")

from ..conditions import CONDITIONS, CONTROLS, LEVELS  # noqa: F401 (public here too)

STYLE_SUFFIX = "Photorealistic, daytime, clear weather."
DEFAULT_L0 = "A street-level photo taken in {city}, {country}."
DEFAULT_L1 = "A street-level photo taken on {street} in the {neighborhood} district of {city}, {country}."
DEFAULT_L2 = ("A street-level photo taken on {street} in the {neighborhood} district of {city}, {country}"
              " near GPS coordinates ({lat:.4f}, {lon:.4f}).")

#: placeholder → segment field it is filled from
PLACEHOLDERS = {"city": "city", "country": "country", "country_code": "country_code",
                "street": "street_name", "neighborhood": "neighbourhood",
                "lat": "centroid_lat", "lon": "centroid_lon"}

#: which placeholders a level must use, and which it must not (method §4: each level adds
#: information to the one before; the controls substitute street and neighbourhood of L1)
_REQUIRED = {"l0": {"city"}, "l1": {"city", "street", "neighborhood"},
             "l2": {"city", "street", "neighborhood", "lat", "lon"}}
_FORBIDDEN = {"l0": {"street", "neighborhood", "lat", "lon"}, "l1": {"lat", "lon"}, "l2": set()}
_SAMPLE = {"city": "Helsinki", "country": "Finland", "country_code": "FI", "street": "Unioninkatu",
           "neighborhood": "Kluuvi", "lat": 60.1699, "lon": 24.9384}

#: which L1 fields each control replaces
_SUBSTITUTED = {"C_WRONG_STREET": ("street",), "C_SHUFFLED_NEIGHBORHOOD": ("neighborhood",),
                "C_WRONG_STREET_NEIGHBORHOOD": ("street", "neighborhood")}


@dataclass(frozen=True)
class PromptTemplates:
    """The prompt templates of one run (method §4 *(option: user templates)*).

    Every rendered prompt is the template followed by a space and ``suffix``. Placeholders:
    ``{city} {country} {country_code} {street} {neighborhood} {lat} {lon}`` (format specs such
    as ``{lat:.4f}`` allowed); the controls reuse ``l1``.
    """

    l0: str = DEFAULT_L0
    l1: str = DEFAULT_L1
    l2: str = DEFAULT_L2
    suffix: str = STYLE_SUFFIX

    def __post_init__(self):
        for key in ("l0", "l1", "l2"):
            _check_template(key, getattr(self, key))
        if not isinstance(self.suffix, str):
            raise InputError(f"prompt style suffix must be text, not {type(self.suffix).__name__}")

    @classmethod
    def from_mapping(cls, mapping: Mapping[str, str] | None) -> "PromptTemplates":
        """Templates from ``{"L0": …, "L1": …, "L2": …, "suffix": …}``; missing keys keep the
        protocol defaults."""
        if mapping is not None and not isinstance(mapping, Mapping):
            raise InputError(f"prompt templates must be a JSON object with keys L0, L1, L2 and/or suffix, "
                             f"not a {type(mapping).__name__}")
        if not mapping:
            return cls()
        known = {"l0", "l1", "l2", "suffix"}
        unknown = sorted(k for k in mapping if str(k).lower() not in known)
        if unknown:
            raise InputError(f"unknown prompt template key(s) {', '.join(map(repr, unknown))}; "
                             "use L0, L1, L2 and suffix")
        return cls(**{str(k).lower(): v for k, v in mapping.items()})

    @classmethod
    def from_json(cls, text: str | None) -> "PromptTemplates | None":
        """Templates from the JSON text a user typed (``None`` for no text)."""
        if text is None or not str(text).strip():
            return None
        data = parse_json_text(text, "prompt templates", 'give a JSON object such as {"L1": "A photo on {street} '
                               'in the {neighborhood} district of {city}, {country}."}', expect=None)
        return cls.from_mapping(data)

    def template(self, condition: str) -> str:
        """The template a condition renders with: controls share the L1 sentence shape."""
        return {"L0": self.l0, "L2": self.l2}.get(condition, self.l1)

    def render(self, condition: str, values: Mapping[str, Any]) -> str:
        text = self.template(condition).format(**values)
        return f"{text} {self.suffix}" if self.suffix else text

    def to_dict(self) -> dict[str, str]:
        return asdict(self)


@dataclass
class PromptRow:
    """One prompt: a (segment, condition) pair, the text, and how it was made."""

    segment_id: str
    condition: str
    prompt: str
    prompt_meta: dict = field(default_factory=dict)

    def meta_json(self) -> str:
        return json.dumps(self.prompt_meta, sort_keys=True, ensure_ascii=False)


@dataclass(frozen=True)
class SkippedPrompt:
    segment_id: str
    condition: str
    reason: str


class PromptSet(list):
    """A list of :class:`PromptRow` that also carries the prompts that could not be built."""

    def __init__(self, rows: Iterable[PromptRow] = (), skipped: Iterable[SkippedPrompt] = ()):
        super().__init__(rows)
        self.skipped: list[SkippedPrompt] = list(skipped)


def build_prompts(segments: list[dict], templates: PromptTemplates | Mapping | None = None,
                  seed: int = 0, conditions: Iterable[str] = CONDITIONS,
                  progress: Progress | None = None) -> PromptSet:
    """Prompts for every segment under every condition (method §4).

    Controls draw their substitutes from the other ``segments`` of the same city and country
    (give the retained ones only, :func:`~.workflow.scored_segments`, so that a substitute is a
    place of the benchmark), excluding values equal to the truth (case-insensitively); the
    choice is seeded per (seed, segment, condition), so it does not depend on the order of
    ``segments``. A prompt that cannot be built is left out and listed in ``.skipped`` (and
    logged).
    """
    if templates is None or isinstance(templates, Mapping):
        templates = PromptTemplates.from_mapping(templates)
    wanted = _check_conditions(conditions)
    values = {}
    for seg in segments:
        sid = str(seg.get("segment_id") or "").strip()
        if not sid:
            raise InputError("a segment has no segment_id; every target needs one (method §1)")
        if sid in values:
            raise InputError(f"segment_id {sid!r} occurs twice; segment ids must be unique")
        values[sid] = _values(seg)
    by_city: dict[tuple, list[str]] = {}
    for sid, vals in values.items():
        by_city.setdefault(_city_key(vals), []).append(sid)

    rows, skipped = [], []
    for sid in sorted(values):
        vals = values[sid]
        for condition in wanted:
            level = "l0" if condition == "L0" else "l2" if condition == "L2" else "l1"
            missing = sorted(PLACEHOLDERS[p] for p in _fields(templates.template(condition))
                             if vals.get(p) is None)
            if missing:
                skipped.append(SkippedPrompt(sid, condition, f"segment has no {', '.join(missing)}"))
                continue
            meta = {"condition": condition, "template": templates.template(condition),
                    "template_level": level.upper(), "style_suffix": templates.suffix,
                    "substitutes": {}}
            filled = dict(vals)
            if condition in _SUBSTITUTED:
                pool = [o for o in by_city[_city_key(vals)] if o != sid]
                choice, reason = _pick_substitute(sid, condition, vals, pool, values, seed)
                if choice is None:
                    skipped.append(SkippedPrompt(sid, condition, reason))
                    continue
                for placeholder in _SUBSTITUTED[condition]:
                    filled[placeholder] = values[choice][placeholder]
                    meta["substitutes"][placeholder] = {
                        "value": values[choice][placeholder], "true_value": vals[placeholder],
                        "source_segment_id": choice}
                meta["control_seed"] = seed
            rows.append(PromptRow(sid, condition, templates.render(condition, filled), meta))
    _report(skipped, progress)
    return PromptSet(rows, skipped)


def _pick_substitute(sid: str, condition: str, vals: dict, pool: list[str], values: dict,
                     seed: int) -> tuple[str | None, str]:
    """``(segment_id, "")`` of the segment whose street/neighbourhood replaces the truth, or
    ``(None, reason)`` when the city offers none."""
    if not pool:
        return None, "no other segment in this city"
    replaced = _SUBSTITUTED[condition]
    usable = sorted(o for o in pool
                    if all(values[o].get(p) is not None and _norm(values[o][p]) != _norm(vals[p])
                           for p in replaced))
    if not usable:
        what = " and ".join({"street": "street name", "neighborhood": "neighbourhood"}[p] for p in replaced)
        return None, f"no other segment of the city has a different {what}"
    return random.Random(_derived_seed(seed, sid, condition)).choice(usable), ""


def _report(skipped: list[SkippedPrompt], progress: Progress | None) -> None:
    if not skipped:
        return
    shown = "; ".join(f"{s.segment_id} {s.condition}: {s.reason}" for s in skipped[:10])
    more = f" (and {len(skipped) - 10} more)" if len(skipped) > 10 else ""
    message = f"{len(skipped)} prompt(s) skipped — {shown}{more}"
    log.warning(message)
    if progress is not None:
        progress.warning(message)


def _values(seg: dict) -> dict[str, Any]:
    """Template values of one segment; blank text and missing numbers become None."""
    out: dict[str, Any] = {}
    for placeholder, key in PLACEHOLDERS.items():
        value = seg.get(key)
        if placeholder in ("lat", "lon"):
            try:
                out[placeholder] = None if value is None or value == "" else float(value)
            except (TypeError, ValueError):
                raise InputError(f"segment {seg.get('segment_id')!r}: {key} is not a number: {value!r}") from None
        else:
            text = str(value).strip() if value is not None else ""
            out[placeholder] = text or None
    return out


def _city_key(vals: dict) -> tuple[str, str]:
    return _norm(vals.get("city")), _norm(vals.get("country"))


def _norm(text: Any) -> str:
    return " ".join(str(text or "").split()).casefold()


def _derived_seed(seed: int, segment_id: str, condition: str) -> int:
    key = json.dumps(["geofidelity-control", int(seed), segment_id, condition], separators=(",", ":"))
    return int.from_bytes(hashlib.sha256(key.encode("utf-8")).digest()[:8], "big")


def _check_conditions(conditions: Iterable[str]) -> list[str]:
    wanted = list(dict.fromkeys(conditions))
    unknown = [c for c in wanted if c not in CONDITIONS]
    if unknown:
        raise InputError(f"unknown prompt condition(s) {', '.join(unknown)}; use {', '.join(CONDITIONS)}")
    return wanted


def _fields(template: str) -> list[str]:
    return [name for _, name, _, _ in string.Formatter().parse(template) if name is not None]


#: a template is one sentence; a format spec pads or rounds a value a little (``{lat:.4f}``) —
#: ``{city:>999999999}`` would make a gigabyte prompt, so widths and precisions are bounded
MAX_TEMPLATE_CHARS = 1000
MAX_SPEC_WIDTH = 40
MAX_SPEC_PRECISION = 10
_SPEC = re.compile(r"^(?:.?[<>=^])?[-+ ]?z?#?0?(?P<width>\d*)[,_]?(?:\.(?P<precision>\d+))?[bcdeEfFgGnosxX%]?$")


def _check_specs(label: str, template: str) -> None:
    """Each format spec is a plain one (no nested ``{…}``) within the bounds above."""
    for _, name, spec, conversion in string.Formatter().parse(template):
        if name is None:
            continue
        field = "{" + name + (f"!{conversion}" if conversion else "") + (f":{spec}" if spec else "") + "}"
        match = _SPEC.match(spec or "")
        if not match:
            raise InputError(f"prompt template {label}: the format spec of {field} is not a plain one — use e.g. "
                             "{lat:.4f}, or no spec")
        width, precision = int(match["width"] or 0), int(match["precision"] or 0)
        if width > MAX_SPEC_WIDTH or precision > MAX_SPEC_PRECISION:
            asked = f"a width of {width}" if width > MAX_SPEC_WIDTH else f"{precision} decimals"
            raise InputError(f"prompt template {label}: {field} asks for {asked} — keep widths up to "
                             f"{MAX_SPEC_WIDTH} and decimals up to {MAX_SPEC_PRECISION}, e.g. {{lat:.4f}}")


def _check_template(key: str, template: Any) -> None:
    """Unknown placeholders, broken braces, bad format specs and a level that says too much or
    too little are input errors that name the problem."""
    label = key.upper()
    if not isinstance(template, str) or not template.strip():
        raise InputError(f"prompt template {label} must be non-empty text")
    if len(template) > MAX_TEMPLATE_CHARS:
        raise InputError(f"prompt template {label} is {len(template)} characters long — a prompt template is one "
                         f"sentence; keep it under {MAX_TEMPLATE_CHARS} characters")
    try:
        names = _fields(template)
    except ValueError as exc:
        raise InputError(f"prompt template {label} has unbalanced braces ({exc}): {template!r}") from None
    unknown = sorted({n for n in names if n not in PLACEHOLDERS})
    if unknown:
        hints = []
        for name in unknown:
            close = difflib.get_close_matches(name, list(PLACEHOLDERS), n=1)
            hints.append("{" + name + "}" + (f" (did you mean {{{close[0]}}}?)" if close else ""))
        raise InputError(f"prompt template {label} uses unknown placeholder(s) {', '.join(hints)}; "
                         f"known: {', '.join('{' + p + '}' for p in PLACEHOLDERS)}")
    used = set(names)
    lacking = sorted(_REQUIRED[key] - used)
    if lacking:
        raise InputError(f"prompt template {label} must use {', '.join('{' + p + '}' for p in lacking)} "
                         "(method §4: L0 names the city, L1 adds street and neighbourhood, "
                         "L2 adds the centroid)")
    extra = sorted(_FORBIDDEN[key] & used)
    if extra:
        raise InputError(f"prompt template {label} must not use {', '.join('{' + p + '}' for p in extra)} "
                         "(method §4: that information belongs to a higher level)")
    _check_specs(label, template)
    try:
        template.format(**_SAMPLE)
    except (ValueError, TypeError, KeyError, IndexError, AttributeError) as exc:
        raise InputError(f"prompt template {label} cannot be filled in ({exc}): {template!r}") from None


def check_prompt_row(row) -> None:
    """A prompt row names its segment (usable as a folder name), a known condition and a prompt."""
    for attr in ("segment_id", "condition", "prompt"):
        if not getattr(row, attr, None):
            raise InputError(f"prompt row {row!r} has no {attr}")
    if row.condition not in CONDITIONS:
        raise InputError(f"prompt row for {row.segment_id} has unknown condition {row.condition!r}; "
                         f"use {', '.join(CONDITIONS)}")
    if "/" in row.segment_id or "\\" in row.segment_id or row.segment_id in (".", ".."):
        raise InputError(f"segment_id {row.segment_id!r} cannot be a folder name")


def prompt_meta(row) -> dict:
    """The row's prompt metadata (JSON text or a mapping) as a dict."""
    meta = getattr(row, "prompt_meta", None) or {}
    return json.loads(meta) if isinstance(meta, str) else dict(meta)
