"""From answers to GeoDiv numbers (docs/method.md, GeoDiv): answer tables — from the local VQA
model or imported from a CSV of a hosted model's answers — are gated by visibility, counted
per group and question, and turned into VDI per question, per axis and overall, and SEVI.

An answer row is a dict with ``image_id``, ``question_id``, ``answer`` and any grouping
columns (``model``, ``city``, ``condition`` …). Both paths go through :func:`score_answers`,
so the same answers give the same numbers whichever way they came. Stdlib + numpy.
"""
from __future__ import annotations

import csv
import math
from collections import defaultdict
from dataclasses import replace
from pathlib import Path

from ..enumerations import Enumeration
from ..errors import InputError
from ..tables import TableSchema, read_table
from .diversity import sevi, vdi
from .questions import NOT_VISIBLE, SEVI_AXES, VDI_AXES, Question, QuestionSet

REQUIRED = ("image_id", "question_id", "answer")
#: an answer that abstains: it does not vote (the image is counted as not showing the thing)
ABSTAIN = ("cannot tell", "can't tell", "unknown", "")


def option_index(question: Question, answer: str) -> int | None:
    """The index of ``answer`` among the question's options (case and spaces ignored; a number
    1…K picks the K-th option, as hosted models often answer ratings), None for an abstention."""
    text = str(answer).strip().lower()
    if text in ABSTAIN:
        return None
    lowered = [o.lower() for o in question.options]
    if text in lowered:
        return lowered.index(text)
    head = text.split()[0].rstrip(".):-") if text.split() else ""
    if head.isdigit() and 1 <= int(head) <= len(lowered):
        return int(head) - 1
    raise InputError(f"answer {answer!r} to question {question.id!r} is none of its options "
                     f"({'; '.join(question.options)}) — answer with one option (or its number 1–{len(lowered)}), "
                     "or 'cannot tell'")


def _key(row: dict, group_by) -> tuple:
    return tuple(str(row.get(col, "")) for col in group_by)


def tally(rows, qset: QuestionSet, group_by=()) -> dict:
    """Counts per (group, question id): ``{"counts": [...], "gated": n, "abstained": n}``.

    An image whose answer to the question's visibility question is "no" does not vote on it
    (seed 003, Table 3); abstentions do not vote either."""
    group_by = tuple(group_by)
    by_image: dict[tuple, dict[str, str]] = defaultdict(dict)
    known = set(qset.ids())
    for row in rows:
        if row["question_id"] not in known:
            raise InputError(f"question {row['question_id']!r} is not in the question set {qset.name} — use the "
                             "question set the answers were made with (--questions)")
        by_image[(_key(row, group_by), str(row["image_id"]))][row["question_id"]] = row["answer"]
    out: dict[tuple, dict] = {}
    for (group, _image), answers in by_image.items():
        for qid, answer in answers.items():
            q = qset[qid]
            cell = out.setdefault((group, qid), {"counts": [0] * len(q.options), "gated": 0, "abstained": 0})
            if q.visibility and str(answers.get(q.visibility, "")).strip().lower() == NOT_VISIBLE:
                cell["gated"] += 1
                continue
            index = option_index(q, answer)
            if index is None:
                cell["abstained"] += 1
            else:
                cell["counts"][index] += 1
    return out


def _mean(values) -> float:
    kept = [v for v in values if not math.isnan(v)]
    return sum(kept) / len(kept) if kept else float("nan")


def score_answers(rows, qset: QuestionSet, group_by=(), count_zero_options: bool = True) -> dict:
    """``{"questions": [...], "groups": [...]}``: one row per group and question (votes, VDI or
    SEVI) and one per group (VDI per axis and overall, SEVI per rating axis, images)."""
    rows = list(rows)
    group_by = tuple(group_by)
    for col in group_by:
        if rows and col not in rows[0]:
            raise InputError(f"grouping column {col!r} is not in the answers (columns: {', '.join(rows[0])}) — "
                             "give --group-by columns the answers have")
    cells = tally(rows, qset, group_by)
    images: dict[tuple, set] = defaultdict(set)
    for row in rows:
        images[_key(row, group_by)].add(str(row["image_id"]))
    questions_out, groups_out = [], []
    for group in sorted(images):
        labels = dict(zip(group_by, group))
        per_axis: dict[str, list[float]] = defaultdict(list)
        summary = {**labels, "images": len(images[group])}
        for q in qset.questions:
            if q.axis == "visibility" or (group, q.id) not in cells:
                continue
            cell = cells[(group, q.id)]
            votes = sum(cell["counts"])
            row = {**labels, "question_id": q.id, "axis": q.axis, "k": len(q.options), "votes": votes,
                   "gated": cell["gated"], "abstained": cell["abstained"],
                   "counts": "|".join(str(c) for c in cell["counts"])}
            if q.axis in SEVI_AXES:
                mean, div = sevi(cell["counts"]) if votes else (float("nan"), float("nan"))
                row.update(mean_rating=mean, diversity=div)
                summary[f"{q.axis}_mean"], summary[f"{q.axis}_diversity"] = mean, div
            else:
                value = vdi(cell["counts"], count_zero_options) if votes else float("nan")
                row["diversity"] = value
                per_axis[q.axis].append(value)
            questions_out.append(row)
        axis_means = {axis: _mean(per_axis.get(axis, [])) for axis in VDI_AXES}
        for axis, value in axis_means.items():
            summary[f"vdi_{axis}"] = value
        summary["vdi_overall"] = _mean(list(axis_means.values()))
        groups_out.append(summary)
    return {"questions": questions_out, "groups": groups_out}


#: an answers CSV (docs/method.md, GeoDiv): one answer per image, question and group — a second
#: answer to the same question would silently replace the first in the counts, so it is refused
ANSWERS = TableSchema("answers file", REQUIRED, filled=("image_id", "question_id"),
                      fix="an answers CSV has the columns image_id, question_id, answer (and the --group-by "
                          "columns), one row per image and question; correct the file")


def read_answers_csv(path, group_by=(), qset: QuestionSet | None = None) -> list[dict]:
    """Rows of an answers CSV (``image_id, question_id, answer`` plus grouping columns), read by
    the one table reader; an image answering one question twice within a group is refused. With
    ``qset`` — the one table of questions and their options — every question id and answer is
    checked too, and a bad one is named by file, line and column before anything is counted."""
    group_by = tuple(group_by)
    schema = replace(ANSWERS.needing(*group_by), key=(*group_by, "image_id", "question_id"))
    if qset is not None:
        known = Enumeration(f"question of the set {qset.name}", tuple(qset.ids()),
                            listing=f"a question of the set {qset.name} (use the question set the answers were "
                                    "made with: --questions)")
        schema = replace(schema, enums={"question_id": known})
    table = read_table(path, schema)
    if qset is not None:
        for row in table.rows:
            try:
                option_index(qset[row["question_id"]], row["answer"])
            except InputError as exc:
                raise InputError(f"answers file {table.path} line {row.line}, column answer: {exc}") from None
    return [dict(row) for row in table.rows]


def write_table(rows: list[dict], path) -> Path:
    """A list of dicts as CSV (columns in first-seen order), written atomically."""
    from ..atomic import atomic_path

    path = Path(path)
    columns: list[str] = []
    for row in rows:
        columns += [c for c in row if c not in columns]
    with atomic_path(path) as tmp:
        with open(tmp, "w", newline="", encoding="utf-8") as handle:
            writer = csv.DictWriter(handle, fieldnames=columns)
            writer.writeheader()
            for row in rows:
                writer.writerow({k: (f"{v:.6g}" if isinstance(v, float) else v) for k, v in row.items()})
    return path
