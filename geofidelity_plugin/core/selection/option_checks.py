"""Checks of the selection options, shared by ``SelectionOptions.validate`` (QGIS, Python) and
the command line's option types, so that both entry points refuse the same values with the same
words (docs/method.md, "Errors and exit codes")."""
from __future__ import annotations

import json

from ..documents import parse_json_text
from ..errors import InputError
from ..option_checks import RULES, argparse_number, check_number, rule_problem  # noqa: F401 (shared)

ROAD_CLASSES_EXAMPLE = '{"primary": ["trunk", "primary"], "residential": ["residential", "living_street"]}'


def parse_road_classes(text: str) -> dict[str, tuple[str, ...]]:
    """``{"class": ["highway value", ...], ...}`` from JSON text; an :class:`InputError` says what
    is wrong and shows an example."""
    fix = ("give a JSON object mapping each class to a list of OSM highway values, "
           f"e.g. {ROAD_CLASSES_EXAMPLE}")
    value = parse_json_text(text, f"road classes {text!r}", fix)
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


def argparse_road_classes(text: str) -> dict[str, tuple[str, ...]]:
    import argparse

    try:
        return parse_road_classes(text)
    except InputError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
