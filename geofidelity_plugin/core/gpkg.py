"""Small helpers for GeoPackage tables written with fiona (field types from Python values)."""
from __future__ import annotations

import numbers


def field_type(values) -> str:
    """The GeoPackage field type of a column (numpy scalars count as numbers)."""
    present = [v for v in values if v is not None]
    if all(isinstance(v, (bool, numbers.Integral)) for v in present):
        return "int"
    if all(isinstance(v, numbers.Real) for v in present):
        return "float"
    return "str"


def field_value(value):
    """A value fiona can write: bools as 0/1, containers as text."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, (dict, list, tuple)):
        return str(value)
    return value
