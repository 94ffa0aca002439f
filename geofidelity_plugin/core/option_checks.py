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


def check_number(label: str, value, rule: str | None = None, example: str | None = None, *,
                 minimum: float | None = None, maximum: float | None = None, integer: bool = False):
    """``value`` when it obeys ``rule`` (a key of :data:`RULES`) and lies within ``minimum`` …
    ``maximum`` (both inclusive), whole when ``integer``; else an :class:`InputError` naming
    ``label`` (e.g. ``"road buffer (--buffer)"``) with the ``example``. The one check of a number
    for every stage: the command line, QGIS and a notebook get the same words."""
    problem = rule_problem(value, rule) if rule else None
    if problem is None and (minimum is not None or maximum is not None or integer):
        whole = integer or (rule in INTEGRAL)
        bounds = ([f"at least {minimum:g}"] if minimum is not None else []) + (
            [f"at most {maximum:g}"] if maximum is not None else [])
        what = f"a {'whole' if whole else 'finite'} number{' ' if bounds else ''}{' and '.join(bounds)}"
        number = None if isinstance(value, bool) or not isinstance(value, (int, float)) else float(value)
        if (number is None or not math.isfinite(number) or (minimum is not None and number < minimum)
                or (maximum is not None and number > maximum) or (whole and number != int(number))):
            problem = what
    if problem:
        raise InputError(f"the {label} must be {problem}, got {value}" + (f" — e.g. {example}" if example else ""))
    return int(value) if (integer or rule in INTEGRAL) else value


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
