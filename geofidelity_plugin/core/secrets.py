"""What must never be shown: credentials in URLs and known secret values, taken out of any text
before it reaches a message, a log or a file. Standard library only: the setup room, the QGIS
side and the backend all use it.
"""
from __future__ import annotations

import json
import os
import re
import sys


#: ``scheme://user[:password]@`` in a URL: the part that must never be shown
USERINFO = re.compile(r"(?P<scheme>\b[A-Za-z][A-Za-z0-9+.-]*://)[^\s/@]*@")


def scrub(text: str, secrets=()) -> str:
    """``text`` with every URL's ``user:password@`` replaced by ``***@`` and each of ``secrets``
    (a proxy password, also in its %-encoded form; a token) by ``***`` — and, quoted text being
    shown here too, without a library's advice to switch a protection off (:func:`strip_unsafe_advice`, below)."""
    text = USERINFO.sub(lambda m: m.group("scheme") + "***@", str(text))
    for secret in sorted({s for s in secrets if s and len(s) >= 3}, key=len, reverse=True):
        text = text.replace(secret, "***")
    return strip_unsafe_advice(text)


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



# ---- No advice that lowers safety ----
# No advice that lowers safety: sentences in quoted third-party text that tell the reader to
# switch a protection off are taken out before the text reaches a person.
#
# Libraries write their own fixes into their errors and warnings: torch suggests loading a pickle
# with ``weights_only`` off, transformers suggests ``trust_remote_code=True``, HTTP clients and pip
# suggest turning certificate checks off. Quoted in a GeoFidelity message, such a sentence reads as
# GeoFidelity's advice — and it is the one step that would run a stranger's code or let a forged
# server in. :func:`strip_unsafe_advice` replaces each such sentence by :data:`NOTE`; the rest of
# the quoted text (what went wrong) is kept. It runs wherever quoted text leaves the process:
# :func:`.secrets.scrub` (so every stdout and stderr line, every protocol line, the QGIS side's
# tail of a backend's stderr, a setup step's output) and :func:`.errors.user_message`.
#
# A protocol line (a JSON object on one line) is filtered field by field and written again, so it
# stays valid JSON. Standard library only: the setup room, the QGIS side and the backend use it.



NOTE = "(a suggestion to lower a safety setting was removed)"

_Q = r"[`'\"\s]*"  # quotes, backticks and spaces around a name or a value
#: ``name`` [=|:|to|set to|as] ``value`` for a setting and the values that lower it
_SETTINGS = (
    (r"weights_only", r"false|0|no|off|none"),
    (r"trust_remote_code", r"true|1|yes|on"),
    (r"(?:ssl_?)?verify(?:_ssl|_certs?|_tls)?", r"false|0|no|off|none"),
    (r"allow_pickle", r"true|1|yes|on"),
    (r"use_safetensors", r"false|0|no|off"),
    (r"check_hostname", r"false|0|no|off"),
    (r"PYTHONHTTPSVERIFY", r"0|false|no|off"),
    (r"(?:GIT_SSL_NO_VERIFY|HF_HUB_DISABLE_SSL_VERIFICATION|TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD|"
     r"TRANSFORMERS_TRUST_REMOTE_CODE)", r"1|true|yes|on"),
    (r"TORCH_FORCE_WEIGHTS_ONLY_LOAD", r"0|false|no|off"),
    (r"NODE_TLS_REJECT_UNAUTHORIZED", r"0|false|no"),
)
_SETTING = "|".join(
    rf"(?<![A-Za-z0-9_-])(?:{name}){_Q}(?:=|:|\bis\s+set\s+to\b|\bset\s+to\b|\bto\b|\bas\b|\bequal\s+to\b){_Q}"
    rf"(?:{value})(?![A-Za-z0-9_])" for name, value in _SETTINGS)
#: flags, calls and phrases that switch a check off whatever their value
_PHRASES = (
    r"--no-verify(?:-ssl)?\b", r"--insecure\b", r"--no-check-certificate\b", r"--trusted-host\b",
    r"--disable-ssl(?:-verification)?\b", r"--allow-unsafe-pickle\b",
    r"_create_unverified(?:_https)?_context", r"\bCERT_NONE\b", r"\badd_safe_globals\b", r"\bsafe_globals\s*\(",
    r"\b(?:CURL_CA_BUNDLE|REQUESTS_CA_BUNDLE)\s*=\s*(?:''|\"\"|\s|$)",  # set to nothing: no check
    r"\b(?:disabl\w*|turn\w*\s+off|switch\w*\s+off|skip\w*|bypass\w*|ignor\w*)\s+"
    r"(?:the\s+|any\s+|all\s+)?(?:ssl|tls|https|certificate|cert|host\s*name|server)(?:\s+|-)?"
    r"(?:certificates?\s+)?(?:verification|verifying|validation|validating|checks?|checking)\b",
    r"\b(?:ssl|tls|certificate)\s+(?:verification|validation|checks?)\s+(?:off|disabled)\b",
    r"\b(?:disabl\w*|turn\w*\s+off)\s+(?:ssl|tls|https)\b(?!\s+(?:library|module|error))",
    r"\b(?:trust|allow|enable)\w*\s+remote\s+code\b",
    r"\bweights[_ ]only\b[^.\n]{0,40}?\b(?:disabled|off)\b",
    r"\bonly\s+if\s+you\s+(?:trust\b|got\b[^.\n]{0,40}\btrusted\b)",  # torch's "do it only if you trust …"
)
_UNSAFE = re.compile(rf"{_SETTING}|{'|'.join(_PHRASES)}", re.IGNORECASE)
#: a word every pattern above contains: most lines (a QGIS log can hold 200,000) stop here, at the
#: cost of a few substring searches
_CUES = ("weights", "remote", "verif", "pickle", "safetensors", "hostname", "insecure", "trusted", "safe_globals",
         "ca_bundle", "node_tls", "cert_none", "check-cert", "only if you", "disabl", " turn", "switch", "skip",
         "bypass", "ignor", " off")
#: "never set …", "do not pass …": a warning against the step, which stays
_AGAINST = re.compile(r"\b(?:never|not|n't|avoid|against|instead\s+of|rather\s+than)\s+(?:\w+\s+){0,2}$",
                      re.IGNORECASE)
#: sentence ends: ". ", "! ", "? " (not "torch.load" or "v2.6"), a line break, "; "
_BOUNDARY = re.compile(r"((?<=[.!?])\s+|\s*\n\s*|(?<=;)\s+)")


def unsafe(sentence: str) -> bool:
    """Whether ``sentence`` tells its reader to lower a safety setting."""
    return any(not _AGAINST.search(sentence[:found.start()]) for found in _UNSAFE.finditer(sentence))


def _sentences(text: str) -> str:
    parts = _BOUNDARY.split(text)
    out: list[str] = []
    removed = False
    for index, part in enumerate(parts):
        if index % 2:  # a boundary: kept, unless it joins two removed sentences
            out.append(part)
            continue
        if part and unsafe(part):
            if removed:
                out.pop()  # the boundary after the previous note: one note for a run of sentences
            else:
                out.append(NOTE)
            removed = True
            continue
        if part.strip():
            removed = False
        out.append(part)
    return "".join(out)


def _scrub_value(value):
    if isinstance(value, str):
        return _sentences(value) if _UNSAFE.search(value) else value
    if isinstance(value, list):
        return [_scrub_value(v) for v in value]
    if isinstance(value, dict):
        return {k: _scrub_value(v) for k, v in value.items()}
    return value


def _line(line: str) -> str:
    body = line.strip()
    if body.startswith("{") and body.endswith("}"):
        try:
            record = json.loads(body)
        except ValueError:
            record = None
        if isinstance(record, dict):
            end = line[len(line.rstrip("\r\n")):]
            return json.dumps(_scrub_value(record), ensure_ascii=False) + end
    return _sentences(line)


def strip_unsafe_advice(text: str) -> str:
    """``text`` with every sentence that suggests lowering a safety setting replaced by
    :data:`NOTE`; text without one comes back as it was (the same object)."""
    if not isinstance(text, str):
        return text
    low = text.lower()
    if not any(cue in low for cue in _CUES) or not _UNSAFE.search(text):
        return text
    return "".join(_line(line) for line in text.splitlines(keepends=True))
