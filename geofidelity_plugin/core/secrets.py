"""What must never be shown: credentials in URLs and known secret values, taken out of any text
before it reaches a message, a log or a file. Standard library only: the setup room, the QGIS
side and the backend all use it.
"""
from __future__ import annotations

import os
import re
import sys

#: ``scheme://user[:password]@`` in a URL: the part that must never be shown
USERINFO = re.compile(r"(?P<scheme>\b[A-Za-z][A-Za-z0-9+.-]*://)[^\s/@]*@")


def scrub(text: str, secrets=()) -> str:
    """``text`` with every URL's ``user:password@`` replaced by ``***@`` and each of ``secrets``
    (a proxy password, also in its %-encoded form; a token) by ``***``."""
    text = USERINFO.sub(lambda m: m.group("scheme") + "***@", str(text))
    for secret in sorted({s for s in secrets if s and len(s) >= 3}, key=len, reverse=True):
        text = text.replace(secret, "***")
    return text


#: environment variables whose values are secrets wherever they appear (besides any variable whose
#: name says TOKEN, PASSWORD, SECRET or API_KEY)
SECRET_VARIABLES = ("MAPILLARY_ACCESS_TOKEN", "HF_TOKEN", "HUGGING_FACE_HUB_TOKEN", "RAY_AUTH_TOKEN")
_SECRET_NAME = re.compile(r"TOKEN|PASSWORD|PASSWD|SECRET|API_?KEY", re.I)
_PROXY_NAME = re.compile(r"^(?:https?|all)_proxy$", re.I)


def known_secrets(environ=None) -> list[str]:
    """The secret values this process holds: tokens and passwords from its environment, and the
    credentials of its proxy URLs (raw and %-encoded)."""
    from urllib.parse import unquote, urlsplit

    environ = os.environ if environ is None else environ
    found: set[str] = set()
    for name, value in environ.items():
        if not value:
            continue
        if name in SECRET_VARIABLES or (_SECRET_NAME.search(name) and len(value) >= 6):
            found.add(value)
        elif _PROXY_NAME.match(name):
            try:
                parts = urlsplit(value if "://" in value else f"http://{value}")
            except ValueError:
                continue
            if parts.password:  # not the user name alone: it may be a common word
                found.update({parts.password, unquote(parts.password)})
    return sorted((s for s in found if len(s) >= 3), key=len, reverse=True)


class ScrubbingStream:
    """A text stream that takes secrets out of everything written to it (the process's stdout
    and stderr: every message, warning and quoted third-party exception a person or a driver
    reads)."""

    def __init__(self, inner, secrets):
        self._inner, self._secrets = inner, tuple(secrets)

    def write(self, text):
        return self._inner.write(scrub(text, self._secrets) if isinstance(text, str) else text)

    def writelines(self, lines):
        for line in lines:
            self.write(line)

    def __getattr__(self, name):
        return getattr(self._inner, name)


def guard_streams() -> None:
    """Put :class:`ScrubbingStream` around ``sys.stdout`` and ``sys.stderr`` (once)."""
    secrets = known_secrets()
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        if stream is not None and not isinstance(stream, ScrubbingStream):
            setattr(sys, name, ScrubbingStream(stream, secrets))
