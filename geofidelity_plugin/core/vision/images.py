"""Robust image loading for the feature stage (method §5).

Every image — a Mapillary reference photo, a generated image, a folder imported from a generator
outside the tool — goes through :func:`load_rgb`, which either returns an 8-bit RGB PIL image or
raises :class:`ImageError` naming the file and the reason. The feature extractor records that
reason per image and carries on with the rest, so one bad file never stops a run.

Decisions:

- Truncated files are errors, never silently padded: PIL's ``ImageFile.LOAD_TRUNCATED_IMAGES``
  is left False and every image is fully decoded (``.load()``) here, not later in a batch.
- A decompression-bomb guard: images above ``max_pixels`` (default 80 megapixels) are refused
  before decoding, with the size in the message.
- Colour modes are mapped to RGB by what the pixels mean: 16-bit greyscale is scaled (not
  clipped) to 8 bits; CMYK goes through its embedded ICC profile when there is one; anything
  with transparency (RGBA, LA, palette with a transparent index) is composited over white;
  EXIF orientation is applied, so a photo is embedded the way a person sees it.

:data:`LOADER_VERSION` changes whenever these decisions change; it is part of the feature
cache's preprocessing signature, so a change invalidates cached embeddings.
"""
from __future__ import annotations

import hashlib
import io
import logging
import os
import threading
import warnings
from pathlib import Path

import numpy as np
from PIL import Image, ImageFile, ImageOps, UnidentifiedImageError

from geofidelity_plugin.core.errors import InputError

log = logging.getLogger("geofidelity")

LOADER_VERSION = "rgb-loader-1"
DEFAULT_MAX_PIXELS = 80_000_000
BACKGROUND = (255, 255, 255)

_SIXTEEN_BIT_MODES = ("I;16", "I;16L", "I;16B", "I;16N")
#: ``warnings.catch_warnings`` saves and restores the process's one list of warning filters, so
#: two threads inside it at once can leave a filter behind for good (seen with 8 decode threads);
#: the header parse it guards holds the GIL anyway, so taking turns costs nothing
_FILTERS_LOCK = threading.Lock()


def open_header(data: bytes) -> Image.Image:
    """``PIL.Image.open`` on ``data`` (header only), without PIL's decompression-bomb warning —
    the loader's own ``max_pixels`` guard replaces it — and safe from several threads."""
    with _FILTERS_LOCK, warnings.catch_warnings():
        warnings.simplefilter("ignore", Image.DecompressionBombWarning)
        return Image.open(io.BytesIO(data))


class ImageError(InputError):
    """One image could not be used; ``reason`` says why in words a user can act on."""

    def __init__(self, path: str | os.PathLike, reason: str):
        self.path = str(path)
        self.reason = reason
        super().__init__(f"{self.path}: {reason}")

    def __reduce__(self):  # keep (path, reason) across process boundaries
        return (type(self), (self.path, self.reason))


def content_hash(path: str | os.PathLike, chunk: int = 1 << 20) -> str:
    """sha256 of the file's bytes — the image's identity in the feature cache (method §5)."""
    digest = hashlib.sha256()
    try:
        with open(path, "rb") as fh:
            for block in iter(lambda: fh.read(chunk), b""):
                digest.update(block)
    except FileNotFoundError:
        raise ImageError(path, "file not found") from None
    except IsADirectoryError:
        raise ImageError(path, "is a folder, not an image file") from None
    except PermissionError:
        raise ImageError(path, "cannot be read (permission denied)") from None
    except OSError as exc:
        raise ImageError(path, f"cannot be read ({exc.strerror or exc})") from None
    return digest.hexdigest()


def load_rgb(path: str | os.PathLike, max_pixels: int | None = DEFAULT_MAX_PIXELS,
             draft_shortest_edge: int | None = None) -> Image.Image:
    """Decode ``path`` fully and return an 8-bit RGB image, or raise :class:`ImageError`.

    ``draft_shortest_edge``: let libjpeg decode a JPEG at a reduced DCT scale (1/2, 1/4, 1/8)
    as long as its shortest side stays ≥ this many pixels — the size the model's processor
    resizes to anyway. It skips most of the decoding work; see :func:`load_rgb_bytes`.
    """
    path = Path(path)
    if not path.exists():
        raise ImageError(path, "file not found")
    if path.is_dir():
        raise ImageError(path, "is a folder, not an image file")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ImageError(path, f"cannot be read ({exc.strerror or exc})") from None
    return load_rgb_bytes(data, path, max_pixels, draft_shortest_edge)


def load_rgb_bytes(data: bytes, name: str | os.PathLike,
                   max_pixels: int | None = DEFAULT_MAX_PIXELS,
                   draft_shortest_edge: int | None = None) -> Image.Image:
    """As :func:`load_rgb`, for bytes already in memory; ``name`` is used in error messages.

    With ``draft_shortest_edge`` a large JPEG is decoded at a reduced scale; the pixels then
    differ slightly from a full decode followed by the processor's bicubic resize (measured on
    1024×768 photos with the DINOv2-S/14 backbone: embedding cosine ≥ 0.9997, mean 0.99995).
    """
    if ImageFile.LOAD_TRUNCATED_IMAGES:  # someone else flipped the global: refuse, loudly
        raise RuntimeError("PIL.ImageFile.LOAD_TRUNCATED_IMAGES is True; truncated images would "
                           "be silently padded. Leave it False.")
    if not data:
        raise ImageError(name, "empty file (0 bytes)")
    try:
        image = open_header(data)  # our own max_pixels guard below replaces PIL's warning
    except UnidentifiedImageError:
        raise ImageError(name, "not an image, or a corrupt one (no known image format in the file)") from None
    except Image.DecompressionBombError as exc:
        raise ImageError(name, f"refused as a possible decompression bomb ({exc})") from None
    except (OSError, SyntaxError, ValueError) as exc:
        raise ImageError(name, f"corrupt image header ({exc})") from None
    width, height = image.size
    if max_pixels is not None and width * height > max_pixels:
        raise ImageError(name, f"image is {width}×{height} = {width * height / 1e6:.1f} megapixels, "
                               f"above the limit of {max_pixels / 1e6:g} megapixels "
                               "(decompression-bomb guard; raise max_pixels to allow it)")
    if width == 0 or height == 0:
        raise ImageError(name, f"image has no pixels ({width}×{height})")
    sixteen_bit = _declared_sixteen_bit(image)
    if draft_shortest_edge and image.format == "JPEG" and min(width, height) > draft_shortest_edge:
        scale = draft_shortest_edge / min(width, height)
        image.draft(image.mode, (int(np.ceil(width * scale)), int(np.ceil(height * scale))))
    try:
        image.load()
    except OSError as exc:
        text = str(exc)
        if "truncated" in text.lower():
            raise ImageError(name, f"truncated image file: the data ends early ({text})") from None
        raise ImageError(name, f"damaged image data ({text})") from None
    except Exception as exc:  # decoders raise SyntaxError, ValueError, zlib.error, EOFError…
        raise ImageError(name, f"damaged image data ({type(exc).__name__}: {exc})") from None
    image = _upright(image, name)
    try:
        return to_rgb(image, sixteen_bit)
    except ValueError as exc:
        raise ImageError(name, f"unsupported colour mode {image.mode!r} ({exc})") from None


def _upright(image: Image.Image, name) -> Image.Image:
    """Apply the EXIF orientation; an image without one is returned as is (no copy)."""
    try:
        orientation = image.getexif().get(0x0112, 1)
        return image if orientation in (None, 1) else ImageOps.exif_transpose(image)
    except Exception as exc:  # a broken EXIF block must not cost the picture
        log.debug("ignoring unreadable EXIF orientation in %s: %s", name, exc)
        return image


def _declared_sixteen_bit(image: Image.Image) -> bool:
    """True when the file stores 16-bit samples that PIL will widen to 32-bit mode "I"."""
    if image.mode in _SIXTEEN_BIT_MODES:
        return True
    for tile in getattr(image, "tile", None) or []:
        args = tile[3] if len(tile) > 3 else None
        rawmode = args[0] if isinstance(args, tuple) and args else args
        if isinstance(rawmode, str) and rawmode.startswith("I;16"):
            return True
    return False


def to_rgb(image: Image.Image, sixteen_bit: bool = False) -> Image.Image:
    """Map any PIL mode to 8-bit RGB by what its pixel values mean (see the module docstring)."""
    mode = image.mode
    if mode == "RGB":
        return image
    if mode in _SIXTEEN_BIT_MODES or mode in ("I", "F"):
        return _wide_grey_to_rgb(image, sixteen_bit)
    if mode == "CMYK":
        return _cmyk_to_rgb(image)
    if mode == "P":
        has_alpha = "transparency" in image.info or image.palette is not None and image.palette.mode == "RGBA"
        return _over_background(image.convert("RGBA")) if has_alpha else image.convert("RGB")
    if mode in ("RGBA", "LA", "PA", "RGBa", "La"):
        return _over_background(image.convert("RGBA"))
    if mode in ("L", "1") and "transparency" in image.info:
        return _over_background(image.convert("RGBA"))
    return image.convert("RGB")


def _over_background(rgba: Image.Image) -> Image.Image:
    canvas = Image.new("RGB", rgba.size, BACKGROUND)
    canvas.paste(rgba, mask=rgba.getchannel("A"))
    return canvas


def _wide_grey_to_rgb(image: Image.Image, sixteen_bit: bool) -> Image.Image:
    values = np.asarray(image, dtype=np.float64)
    if sixteen_bit or image.mode in _SIXTEEN_BIT_MODES:
        scaled = values / 257.0  # 0..65535 -> 0..255
    elif image.mode == "F" and np.nanmax(values, initial=0.0) <= 1.0:
        scaled = values * 255.0  # float images in [0, 1]
    elif np.nanmax(values, initial=0.0) <= 255.0:
        scaled = values
    elif np.nanmax(values) <= 65535.0:
        scaled = values / 257.0
    else:  # genuinely 32-bit data: stretch its range
        low, high = np.nanmin(values), np.nanmax(values)
        scaled = (values - low) * (255.0 / (high - low))
    grey = np.clip(np.nan_to_num(np.rint(scaled)), 0, 255).astype(np.uint8)
    return Image.fromarray(grey, "L").convert("RGB")


def _cmyk_to_rgb(image: Image.Image) -> Image.Image:
    profile = image.info.get("icc_profile")
    if profile:
        try:
            from PIL import ImageCms

            source = ImageCms.ImageCmsProfile(io.BytesIO(profile))
            return ImageCms.profileToProfile(image, source, ImageCms.createProfile("sRGB"),
                                             outputMode="RGB")
        except Exception as exc:  # no littlecms, or a broken profile: fall back to the formula
            log.debug("CMYK ICC conversion failed (%s); using PIL's plain conversion", exc)
    return image.convert("RGB")
