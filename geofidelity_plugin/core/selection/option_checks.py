"""Checks of the selection options, shared by ``SelectionOptions.validate`` (QGIS, Python) and
the command line's option types, so that both entry points refuse the same values with the same
words (docs/method.md, "Errors and exit codes")."""
from __future__ import annotations

import json
import math

from ..errors import InputError

#: rule → (what the value must be, the test).
RULES = {
    "positive": ("a positive finite number", lambda v: math.isfinite(v) and v > 0),
    "non-negative": ("a finite number ≥ 0", lambda v: math.isfinite(v) and v >= 0),
    "count": ("a whole number ≥ 1", lambda v: v >= 1),
    "seed": ("a whole number ≥ 0", lambda v: v >= 0),
}

ROAD_CLASSES_EXAMPLE = '{"primary": ["trunk", "primary"], "residential": ["residential", "living_street"]}'


def rule_problem(value, rule: str) -> str | None:
    """``None`` when ``value`` obeys ``rule``, else what it must be."""
    what, test = RULES[rule]
    integral = rule in ("count", "seed")
    if isinstance(value, bool) or not isinstance(value, (int, float)) or (integral and value != int(value)):
        return what
    return None if test(value) else what


def check_number(label: str, value, rule: str, example: str) -> None:
    """Raise an :class:`InputError` naming ``label`` when ``value`` breaks ``rule``."""
    problem = rule_problem(value, rule)
    if problem:
        raise InputError(f"the {label} must be {problem}, got {value} — e.g. {example}")


def parse_road_classes(text: str) -> dict[str, tuple[str, ...]]:
    """``{"class": ["highway value", ...], ...}`` from JSON text; an :class:`InputError` says what
    is wrong and shows an example."""
    fix = ("give a JSON object mapping each class to a list of OSM highway values, "
           f"e.g. {ROAD_CLASSES_EXAMPLE}")
    try:
        value = json.loads(text)
    except ValueError as exc:
        raise InputError(f"road classes {text!r} are not JSON ({exc.msg}) — {fix}") from None
    if not isinstance(value, dict):
        raise InputError(f"road classes {text!r} are not a JSON object — {fix}")
    classes: dict[str, tuple[str, ...]] = {}
    for name, highways in value.items():
        if not isinstance(highways, list) or not all(isinstance(h, str) and h.strip() for h in highways):
            raise InputError(f"road class {name!r} must be a list of highway names (strings), got "
                             f"{json.dumps(highways)} — {fix}")
        classes[name.strip()] = tuple(h.strip() for h in highways)
    check_road_classes(classes)
    return classes


def check_road_classes(classes) -> None:
    fix = f"e.g. {ROAD_CLASSES_EXAMPLE}"
    if not classes:
        raise InputError(f"road classes must name at least one class — {fix}")
    for name, highways in classes.items():
        if not str(name).strip():
            raise InputError(f"a road class has an empty name — {fix}")
        if isinstance(highways, str) or not highways:
            raise InputError(f"road class {name!r} must list at least one highway value — {fix}")


def argparse_number(rule: str):
    """An ``argparse`` type for ``rule``: argparse then reports ``argument --x: …`` and exits 2."""
    import argparse

    def convert(text: str):
        try:
            value = int(text) if rule in ("count", "seed") else float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be {RULES[rule][0]}, got {text!r}") from None
        problem = rule_problem(value, rule)
        if problem:
            raise argparse.ArgumentTypeError(f"must be {problem}, got {text}")
        return value

    convert.__name__ = rule
    return convert


def argparse_road_classes(text: str) -> dict[str, tuple[str, ...]]:
    import argparse

    try:
        return parse_road_classes(text)
    except InputError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
