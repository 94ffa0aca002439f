"""The credit lines every map, report, image view and atlas page carries (method §1 data sources).

OpenStreetMap data is under the ODbL and Mapillary imagery under CC BY-SA 4.0: both ask for
attribution wherever the data is shown. ``image_credit`` adds the image's creator when the
Mapillary API gave one (the ``creator`` field: ``{"id": …, "username": …}``).
"""
from __future__ import annotations

OSM = "© OpenStreetMap contributors (ODbL)"
MAPILLARY = "Images: Mapillary contributors (CC BY-SA 4.0)"
#: what a view shows when its images are not real Mapillary panels (the demo's stand-ins)
STAND_IN = "STAND-IN images: not Mapillary photos, labelled as such in every output"


def creator_name(creator) -> str | None:
    """The creator's user name from a Mapillary ``creator`` value (dict or JSON text), else None."""
    if isinstance(creator, str):
        import json

        try:
            creator = json.loads(creator)
        except ValueError:
            return creator.strip() or None
    if isinstance(creator, dict):
        name = creator.get("username") or creator.get("id")
        return str(name) if name else None
    return None


def image_credit(creator=None) -> str:
    """``Images: Mapillary contributors (CC BY-SA 4.0)``, with ``— photo by NAME`` when known."""
    name = creator_name(creator)
    return f"{MAPILLARY} — photo by {name}" if name else MAPILLARY


def credit_lines(stand_in: bool = False, creators: list | tuple = ()) -> list[str]:
    """The lines for a view showing a map and images; ``stand_in`` adds the stand-in note."""
    names = sorted({n for n in (creator_name(c) for c in creators) if n})
    images = f"{MAPILLARY} — photos by {', '.join(names)}" if names else MAPILLARY
    return [OSM, images] + ([STAND_IN] if stand_in else [])
