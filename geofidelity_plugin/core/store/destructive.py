"""The guard of every step that removes rows a store holds (docs/method.md, "Errors and exit codes").

A step whose options or inputs are wrong can remove nearly everything in one run — a curation
whose every candidate fails a tier empties every reference panel, and each later evaluation
fails. So before such a step writes, it states what it would remove; when that is more than
:data:`MAX_REMOVED_SHARE` of what the store holds, or every row of a group that had some (the
whole reference panel of a segment), the step refuses — naming the causes (the tiers) and the
counts — unless the user passed the step's explicit flag, in which case it goes ahead and says
what it removed.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from ..errors import InputError

#: a step may remove at most this share of what a store holds without its explicit flag
MAX_REMOVED_SHARE = 0.5


@dataclass
class Removal:
    """What a step would remove: per group (e.g. segment) the rows held before and removed, and
    the causes (e.g. ``"tier 1 (buffer)"``) with their counts and one example reason each."""

    what: str                                   # "reference images"
    group: str                                  # "segment"
    before: Mapping[str, int]
    removed: Mapping[str, int]
    causes: Mapping[str, int] = field(default_factory=dict)
    examples: Mapping[str, str] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return sum(self.before.values())

    @property
    def total_removed(self) -> int:
        return sum(self.removed.values())

    def emptied(self) -> list[str]:
        """Groups that held rows and would hold none."""
        return sorted(g for g, n in self.before.items() if n and self.removed.get(g, 0) >= n)

    def too_much(self, share: float = MAX_REMOVED_SHARE) -> bool:
        return bool(self.total_removed) and (self.total_removed > share * self.total or bool(self.emptied()))

    def describe(self) -> str:
        emptied, groups = self.emptied(), sum(1 for n in self.before.values() if n)
        text = (f"{self.total_removed} of the store's {self.total} {self.what} "
                f"({100.0 * self.total_removed / max(1, self.total):.0f} %)")
        if emptied:
            shown = ", ".join(emptied[:5]) + (f" and {len(emptied) - 5} more" if len(emptied) > 5 else "")
            text += f", leaving {len(emptied)} of {groups} {self.group}(s) with none ({shown})"
        causes = sorted(self.causes.items(), key=lambda kv: (-kv[1], kv[0]))
        if causes:
            text += "; by cause: " + ", ".join(
                f"{cause}: {n}" + (f" (e.g. {self.examples[cause]!r})" if self.examples.get(cause) else "")
                for cause, n in causes[:6])
        return text


def check_removal(step: str, removal: Removal, flag: str, allowed: bool, fix: str,
                  share: float = MAX_REMOVED_SHARE) -> str | None:
    """Refuse (an :class:`InputError`, before anything is written) a ``step`` that would remove
    more than ``share`` of the store's rows, or every row of a group, unless ``allowed`` (the
    user gave ``flag``). Returns the warning to show when it is allowed and removes that much,
    else ``None``. ``fix``: what to check first (the options that cause it)."""
    if not removal.too_much(share):
        return None
    if allowed:
        return f"{step} removed {removal.describe()} ({flag} was given)"
    raise InputError(f"{step} would remove {removal.describe()} — nothing was removed; {fix}, or, if that is "
                     f"what you want, run it again with {flag}")
