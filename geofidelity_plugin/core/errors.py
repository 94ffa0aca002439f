"""Error types whose messages name the problem and the fix.

Every error a user can cause by their input is an :class:`InputError`; the Processing
algorithms turn it into a ``QgsProcessingException`` and the CLI prints it without a traceback.
"""


class GeoFidelityError(Exception):
    """Base class of every error this project raises on purpose."""


class InputError(GeoFidelityError):
    """Bad or missing input: the message says what is wrong and how to fix it."""


class RemoteServiceError(GeoFidelityError):
    """A remote API (Overpass, Mapillary) failed after every retry."""


class Cancelled(GeoFidelityError):
    """The user cancelled the run; nothing half-written was left behind."""
