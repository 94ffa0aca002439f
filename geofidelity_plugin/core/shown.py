"""What a person sees for a failure: :func:`.errors.user_message`, with every credential and every
quoted library's advice to switch a protection off taken out (:func:`.secrets.scrub`). The CLI, the
Processing algorithms and the inspector all show failures through :func:`shown_message`."""
from __future__ import annotations

from .errors import user_message
from .secrets import scrub


def shown_message(exc: BaseException) -> tuple[str, bool]:
    """``(text, foreseen)`` as :func:`.errors.user_message` gives them, the text scrubbed."""
    text, foreseen = user_message(exc)
    return scrub(text), foreseen
