"""Checks of numeric options shared by every entry point: the command line's option types and the
core's option validation refuse the same values with the same words (docs/method.md, "Errors and
exit codes")."""
from __future__ import annotations

import math

from .errors import InputError

#: rule → (what the value must be, the test).
RULES = {
    "positive": ("a positive finite number", lambda v: math.isfinite(v) and v > 0),
    "non-negative": ("a finite number ≥ 0", lambda v: math.isfinite(v) and v >= 0),
    "count": ("a whole number ≥ 1", lambda v: v >= 1),
    "seed": ("a whole number ≥ 0", lambda v: v >= 0),
    "non-negative-count": ("a whole number ≥ 0", lambda v: v >= 0),
}
INTEGRAL = ("count", "seed", "non-negative-count")


def rule_problem(value, rule: str) -> str | None:
    """``None`` when ``value`` obeys ``rule``, else what it must be."""
    what, test = RULES[rule]
    integral = rule in INTEGRAL
    if isinstance(value, bool) or not isinstance(value, (int, float)) or (integral and value != int(value)):
        return what
    return None if test(value) else what


def check_number(label: str, value, rule: str, example: str) -> None:
    """Raise an :class:`InputError` naming ``label`` when ``value`` breaks ``rule``."""
    problem = rule_problem(value, rule)
    if problem:
        raise InputError(f"the {label} must be {problem}, got {value} — e.g. {example}")


def argparse_number(rule: str):
    """An ``argparse`` type for ``rule``: argparse then reports ``argument --x: …`` and exits 2."""
    import argparse

    def convert(text: str):
        try:
            value = int(text) if rule in INTEGRAL else float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be {RULES[rule][0]}, got {text!r}") from None
        problem = rule_problem(value, rule)
        if problem:
            raise argparse.ArgumentTypeError(f"must be {problem}, got {text}")
        return value

    convert.__name__ = rule
    return convert
