"""pip's output, read by the setup tool: its lines as progress (resolving and downloading, then
installing) and its failure as a message that names the problem and the fix. Standard library only."""
from __future__ import annotations

import re


class PipProgress:
    """Turns pip's lines into (fraction, stage): resolving and downloading fill 5–70 %, the
    install 70–95 %; ``total`` is the number of requirements in the file."""

    def __init__(self, total: int):
        self.total = max(1, total)
        self.seen = 0
        self.fraction = 0.05

    def feed(self, line: str) -> tuple[float, str] | None:
        text = line.strip()
        if text.startswith(("Collecting ", "Requirement already satisfied", "Processing ")):
            self.seen += 1
            return self._at(0.05 + 0.65 * min(1.0, self.seen / self.total), "resolving and downloading")
        if text.startswith(("Downloading ", "Using cached ")):
            return self._at(self.fraction, "resolving and downloading")
        if text.startswith("Installing collected packages"):
            return self._at(0.7, "installing")
        if text.startswith("Successfully installed"):
            return self._at(0.95, "installed")
        return None

    def _at(self, fraction: float, stage: str) -> tuple[float, str]:
        self.fraction = max(self.fraction, round(fraction, 4))  # never backwards
        return self.fraction, stage


def pip_failure(code: int, tail: list[str], profile: str) -> str:
    """pip's failure as "<problem> — <fix>", with pip's own last error lines."""
    errors = [line.strip() for line in tail if line.strip().startswith("ERROR")] or \
             [line.strip() for line in tail if line.strip()][-3:]
    said = " | ".join(e[:300] for e in errors[-3:]) or f"exit {code}"
    joined = "\n".join(tail)
    missing = re.search(r"No matching distribution found for (\S+)", joined)
    if missing:
        fix = (f"{missing.group(1)} is not available for this Python and platform from the package index pip "
               "uses: check the name and version, your network or proxy (pip config list), or choose another "
               "profile")
    elif "No module named pip" in joined:
        fix = "the environment has no pip: add it with `<environment>/bin/python -m ensurepip`, or choose a new folder"
    elif re.search(r"No space left|Errno 28", joined):
        fix = "the disk is full: free some space or choose a target folder on another disk"
    elif re.search(r"NewConnectionError|Temporary failure in name resolution|Could not fetch URL|ProxyError|"
                   r"timed out|SSLError", joined):
        fix = ("pip could not reach the package index: check the network connection or proxy "
               "(pip config list), then run Set up backend again (it reuses the folder)")
    else:
        fix = "read pip's log above, fix the cause, then run Set up backend again (it reuses the folder)"
    return f"pip could not install the {profile} profile ({said}) — {fix}"
