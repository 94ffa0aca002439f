"""What must never be shown: credentials in URLs and known secret values, taken out of any text
before it reaches a message, a log or a file. Standard library only: the setup room, the QGIS
side and the backend all use it.
"""
from __future__ import annotations

import re

#: ``scheme://user[:password]@`` in a URL: the part that must never be shown
USERINFO = re.compile(r"(?P<scheme>\b[A-Za-z][A-Za-z0-9+.-]*://)[^\s/@]*@")


def scrub(text: str, secrets=()) -> str:
    """``text`` with every URL's ``user:password@`` replaced by ``***@`` and each of ``secrets``
    (a proxy password, also in its %-encoded form; a token) by ``***``."""
    text = USERINFO.sub(lambda m: m.group("scheme") + "***@", str(text))
    for secret in sorted({s for s in secrets if s and len(s) >= 3}, key=len, reverse=True):
        text = text.replace(secret, "***")
    return text
