"""Compare two demo runs: every CSV under ``<run>/evaluation/`` cell by cell.

Numbers must agree to ``--tolerance`` (absolute, or relative to the larger magnitude, whichever
is looser; default 1e-12), every other cell exactly; both runs must hold the same CSV files with
the same header and row count. Prints one line per file and a summary; exit 1 on any difference.

    python3 scripts/compare_demo.py BEFORE/demo_output AFTER/demo_output

Used to show that a move of code (issue 23) left the demo's numbers where they were.
"""
from __future__ import annotations

import argparse
import csv
import math
import sys
from pathlib import Path


def _number(text: str) -> float | None:
    try:
        value = float(text)
    except ValueError:
        return None
    return value


def compare_cells(a: str, b: str, tolerance: float) -> str | None:
    """None when the cells agree, else why not."""
    if a == b:
        return None
    x, y = _number(a), _number(b)
    if x is None or y is None:
        return f"text {a!r} ≠ {b!r}"
    if math.isnan(x) and math.isnan(y):
        return None
    if math.isinf(x) or math.isinf(y):
        return None if x == y else f"{a} ≠ {b}"
    if abs(x - y) <= tolerance * max(1.0, abs(x), abs(y)):
        return None
    return f"{a} ≠ {b} (|Δ| = {abs(x - y):.3g})"


def compare_file(before: Path, after: Path, tolerance: float) -> tuple[int, list[str]]:
    """(cells compared, differences)."""
    with before.open(newline="", encoding="utf-8") as fa, after.open(newline="", encoding="utf-8") as fb:
        rows_a, rows_b = list(csv.reader(fa)), list(csv.reader(fb))
    problems: list[str] = []
    if not rows_a or not rows_b or rows_a[0] != rows_b[0]:
        return 0, [f"headers differ: {rows_a[:1]} ≠ {rows_b[:1]}"]
    if len(rows_a) != len(rows_b):
        problems.append(f"{len(rows_a) - 1} rows ≠ {len(rows_b) - 1} rows")
    header, cells = rows_a[0], 0
    for line, (ra, rb) in enumerate(zip(rows_a[1:], rows_b[1:]), start=2):
        if len(ra) != len(rb):
            problems.append(f"line {line}: {len(ra)} cells ≠ {len(rb)}")
            continue
        for column, (a, b) in enumerate(zip(ra, rb)):
            cells += 1
            why = compare_cells(a, b, tolerance)
            if why is not None:
                name = header[column] if column < len(header) else f"#{column}"
                problems.append(f"line {line}, {name}: {why}")
    return cells, problems


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before", type=Path, help="the first demo output folder (holds evaluation/)")
    parser.add_argument("after", type=Path, help="the second demo output folder")
    parser.add_argument("--tolerance", type=float, default=1e-12)
    args = parser.parse_args(argv)
    roots = [folder / "evaluation" for folder in (args.before, args.after)]
    for root in roots:
        if not root.is_dir():
            print(f"{root} is not a folder — give the demo's output folders (make demo writes demo_output/)",
                  file=sys.stderr)
            return 2
    names_a = {p.relative_to(roots[0]) for p in roots[0].rglob("*.csv")}
    names_b = {p.relative_to(roots[1]) for p in roots[1].rglob("*.csv")}
    failed = False
    for name in sorted(names_a ^ names_b):
        print(f"{name}: only in {'the first' if name in names_a else 'the second'} run")
        failed = True
    total = 0
    for name in sorted(names_a & names_b):
        cells, problems = compare_file(roots[0] / name, roots[1] / name, args.tolerance)
        total += cells
        print(f"{name}: {cells} cells, " + ("equal" if not problems else f"{len(problems)} differences"))
        for line in problems[:10]:
            print(f"    {line}")
        failed = failed or bool(problems)
    print(f"{len(names_a & names_b)} CSV files, {total} cells compared (numbers to {args.tolerance:g}, text exactly): "
          + ("DIFFERENT" if failed else "identical"))
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
