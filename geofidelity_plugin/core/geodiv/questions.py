"""GeoDiv question sets as data (docs/method.md, GeoDiv): one JSON file with a list of
questions, each ``id``, ``axis`` (entity / background / affluence / maintenance, or visibility
for the yes/no question asked before an entity question), ``question``, ``options`` and
``visibility`` (the id of that visibility question, or null). Stdlib only.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from ..documents import read_json
from ..errors import InputError
from ..resources import resource

AXES = ("entity", "background", "affluence", "maintenance", "visibility")
#: the axes whose VDI is averaged (method: VDI per axis and overall)
VDI_AXES = ("entity", "background")
#: the SEVI axes: five options, rated 1 (first option) to 5 (last)
SEVI_AXES = ("affluence", "maintenance")
#: answers that say the image shows no such thing; they do not vote (method: visibility gating)
NOT_VISIBLE = "no"


@dataclass(frozen=True)
class Question:
    id: str
    axis: str
    question: str
    options: tuple[str, ...]
    visibility: str | None = None


@dataclass(frozen=True)
class QuestionSet:
    name: str
    questions: tuple[Question, ...]
    digest: str

    def __getitem__(self, qid: str) -> Question:
        for q in self.questions:
            if q.id == qid:
                return q
        raise KeyError(qid)

    def ids(self) -> list[str]:
        return [q.id for q in self.questions]

    def on_axis(self, axis: str) -> list[Question]:
        return [q for q in self.questions if q.axis == axis]


def default_path() -> Path:
    return resource("geodiv", "street_scenes.json")


def _bad(path, why: str) -> InputError:
    return InputError(f"question set {path}: {why} — see resources/geodiv/street_scenes.json for the format "
                      "(docs/method.md, GeoDiv)")


def parse(doc: dict, where="(given)") -> QuestionSet:
    """Validate a question-set document; every problem is a message naming the question."""
    items = doc.get("questions") if isinstance(doc, dict) else None
    if not isinstance(items, list) or not items:
        raise _bad(where, "no 'questions' list")
    out: list[Question] = []
    seen: set[str] = set()
    for i, item in enumerate(items):
        missing = [k for k in ("id", "axis", "question", "options") if k not in item]
        if missing:
            raise _bad(where, f"question #{i + 1} lacks {', '.join(missing)}")
        qid, axis, options = str(item["id"]), str(item["axis"]), [str(o).strip() for o in item["options"]]
        if qid in seen:
            raise _bad(where, f"question id {qid!r} appears twice")
        if axis not in AXES:
            raise _bad(where, f"question {qid!r} has axis {axis!r}; use one of {', '.join(AXES)}")
        if len(options) < 2 or len(set(o.lower() for o in options)) != len(options):
            raise _bad(where, f"question {qid!r} needs two or more distinct options")
        if axis in SEVI_AXES and len(options) != 5:
            raise _bad(where, f"rating question {qid!r} needs five options (1 to 5), has {len(options)}")
        if axis == "visibility" and NOT_VISIBLE not in [o.lower() for o in options]:
            raise _bad(where, f"visibility question {qid!r} needs a {NOT_VISIBLE!r} option")
        seen.add(qid)
        out.append(Question(qid, axis, str(item["question"]), tuple(options), item.get("visibility") or None))
    for q in out:
        if q.visibility is not None and next((v for v in out if v.id == q.visibility and v.axis == "visibility"),
                                             None) is None:
            raise _bad(where, f"question {q.id!r} names visibility question {q.visibility!r}, which is not a "
                              "visibility question of the set")
    canonical = json.dumps([q.__dict__ for q in out], sort_keys=True, ensure_ascii=False)
    return QuestionSet(str(doc.get("name") or Path(str(where)).stem), tuple(out),
                       hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:16])


def load(path=None) -> QuestionSet:
    """The question set in ``path`` (JSON), the street-scene set when None."""
    path = Path(path) if path else default_path()
    doc = read_json(path, "question set", "see resources/geodiv/street_scenes.json for the format (docs/method.md, "
                                          "GeoDiv)", expect=None)
    return parse(doc, path)
