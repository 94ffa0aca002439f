"""Thumbnail strips for the atlas pages: a row of images, each captioned, the rejected reference
images (manual audit, method §2) framed in red and labelled "rejected", a missing file shown as
a grey tile saying so. One PNG per strip; the layout places it as a picture."""
from __future__ import annotations

from pathlib import Path

from .data import Thumb
from .fonts import _font

REJECTED_RGB = (200, 30, 30)
MISSING_RGB = (210, 210, 210)
BORDER = 6
CAPTION = 22


def _tile(thumb: Thumb, height: int):
    from PIL import Image, ImageDraw

    width = int(height * 4 / 3)
    try:
        with Image.open(thumb.path) as img:
            img = img.convert("RGB")
            img.thumbnail((width, height))
    except (OSError, ValueError):
        img = Image.new("RGB", (width, height), MISSING_RGB)
        ImageDraw.Draw(img).text((8, height // 2 - 8), "image missing", fill=(90, 90, 90), font=_font(14))
    tile = Image.new("RGB", (width + 2 * BORDER, height + 2 * BORDER + CAPTION), "white")
    if thumb.rejected:
        ImageDraw.Draw(tile).rectangle([0, 0, width + 2 * BORDER - 1, height + 2 * BORDER - 1], fill=REJECTED_RGB)
    tile.paste(img, (BORDER + (width - img.width) // 2, BORDER + (height - img.height) // 2))
    caption = f"{thumb.label} rejected" if thumb.rejected else thumb.label
    ImageDraw.Draw(tile).text((BORDER, height + 2 * BORDER + 2), caption[:28],
                              fill=REJECTED_RGB if thumb.rejected else (40, 40, 40), font=_font(15))
    return tile


def compose_strip(thumbs: list[Thumb], out_path: str | Path, height: int = 150, max_items: int = 8) -> Path | None:
    """Write ``thumbs`` (at most ``max_items``) side by side as a PNG; ``None`` when there are none."""
    from PIL import Image

    from ..atomic import atomic_path

    thumbs = list(thumbs)[:max_items]
    if not thumbs:
        return None
    tiles = [_tile(t, height) for t in thumbs]
    gap = 8
    strip = Image.new("RGB", (sum(t.width for t in tiles) + gap * (len(tiles) - 1), max(t.height for t in tiles)),
                      "white")
    x = 0
    for tile in tiles:
        strip.paste(tile, (x, 0))
        x += tile.width + gap
    out_path = Path(out_path)
    with atomic_path(out_path, suffix=".png") as tmp:
        strip.save(tmp, format="PNG")
    return out_path


def segment_strips(page, folder: str | Path) -> dict[str, Path | None]:
    """The reference strip (``"references"``) and one strip per model of a page, in ``folder``."""
    folder = Path(folder)
    safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in page.segment_id)
    out = {"references": compose_strip(page.references, folder / f"{safe}_references.png")}
    for n, (model, thumbs) in enumerate(page.generated.items()):
        out[model] = compose_strip(thumbs, folder / f"{safe}_generated_{n}.png", max_items=4)
    return out


def compose_row(strips: list[tuple[str, Path]], out_path: str | Path) -> Path | None:
    """Strips side by side, each under its title (one per model); ``None`` when there are none."""
    from PIL import Image, ImageDraw

    from ..atomic import atomic_path

    if not strips:
        return None
    images = []
    for title, path in strips:
        with Image.open(path) as img:
            tile = Image.new("RGB", (img.width, img.height + 26), "white")
            tile.paste(img.convert("RGB"), (0, 26))
        ImageDraw.Draw(tile).text((4, 2), title, fill=(20, 20, 20), font=_font(18))
        images.append(tile)
    gap = 30
    row = Image.new("RGB", (sum(i.width for i in images) + gap * (len(images) - 1), max(i.height for i in images)),
                    "white")
    x = 0
    for img in images:
        row.paste(img, (x, 0))
        x += img.width + gap
    out_path = Path(out_path)
    with atomic_path(out_path, suffix=".png") as tmp:
        row.save(tmp, format="PNG")
    return out_path
