"""The pixels DINOv2 sees, made without the image processor's per-call overhead (method §5
Features, "Preprocessing").

The checkpoint's image processor (transformers, PIL backend) resizes the shortest edge with PIL,
crops the centre, multiplies by the rescale factor in float64, rounds to float32 and normalises
``(x - mean) / std`` in float32. It does so through several array conversions per image, which
cost more than the JPEG decode itself on a CPU (7 ms against 3 ms per 1024×768 photo measured
here). :class:`PixelRecipe` does the same steps with the same library calls and the same
arithmetic — the last three collapse into a 256-entry table per channel, since a uint8 input has
only 256 values — so its output equals the processor's bit for bit (tested against the processor
on every image shape and mode the loader returns). Processors of another shape (padding, a
square resize, a crop larger than the image) are left to the processor: :func:`recipe_of` returns
None for them.

:func:`torch_pixels` is the device path's version (:mod:`.decode_device`): the same recipe on
uint8 tensors already on the GPU, resized with torch's antialiased bicubic filter instead of
PIL's. Its pixels differ from the CPU path's by rounding; the embedding cosine between the two is
measured and stated in method §5.

Standard library, numpy and PIL only at import time; torch is imported inside :func:`torch_pixels`.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from PIL import Image

#: PIL filters by the processors' integer ``resample`` codes
_RESAMPLE = {0: Image.NEAREST, 1: Image.LANCZOS, 2: Image.BILINEAR, 3: Image.BICUBIC, 4: Image.BOX,
             5: Image.HAMMING}
#: torch's names for the filters it can antialias like PIL
_TORCH_MODES = {2: "bilinear", 3: "bicubic"}


@dataclass(frozen=True)
class PixelRecipe:
    """Shortest-edge resize, centre crop, rescale and normalise, as a DINOv2 processor does."""

    shortest_edge: int
    crop_height: int
    crop_width: int
    resample: int
    rescale_factor: float
    mean: tuple[float, float, float]
    std: tuple[float, float, float]

    def resized_size(self, width: int, height: int) -> tuple[int, int]:
        """(width, height) after the shortest-edge resize, rounded as the processor rounds."""
        short, long = (width, height) if width <= height else (height, width)
        new_long = int(self.shortest_edge * long / short)
        return (self.shortest_edge, new_long) if width <= height else (new_long, self.shortest_edge)

    def crop_box(self, width: int, height: int) -> tuple[int, int, int, int] | None:
        """(left, top, right, bottom) of the centre crop, or None when the image is smaller."""
        top, left = (height - self.crop_height) // 2, (width - self.crop_width) // 2
        if top < 0 or left < 0:
            return None
        return left, top, left + self.crop_width, top + self.crop_height

    def table(self) -> np.ndarray:
        """(3, 256) float32: the normalised value of each uint8 level per channel, computed with
        the processor's own dtypes (float64 rescale, float32 subtract and divide)."""
        levels = (np.arange(256, dtype=np.float64) * self.rescale_factor).astype(np.float32)
        mean = np.asarray(self.mean, dtype=np.float32)
        std = np.asarray(self.std, dtype=np.float32)
        return ((levels[None, :] - mean[:, None]) / std[:, None]).astype(np.float32)

    def pixels(self, image: Image.Image, table: np.ndarray | None = None) -> np.ndarray:
        """(3, H, W) float32 for one RGB image — equal to the processor's ``pixel_values[0]``."""
        table = self.table() if table is None else table
        resized = image.resize(self.resized_size(*image.size), resample=_RESAMPLE[self.resample])
        box = self.crop_box(*resized.size)
        if box is None:
            raise ValueError(f"resized image {resized.size} is smaller than the crop")
        levels = np.asarray(resized.crop(box))
        out = np.empty((3, self.crop_height, self.crop_width), dtype=np.float32)
        for channel in range(3):
            np.take(table[channel], levels[:, :, channel], out=out[channel])
        return out


def recipe_of(processor) -> PixelRecipe | None:
    """The recipe a processor follows, or None when it does something this module does not copy."""
    if getattr(processor, "backend", "pil") != "pil":
        return None
    s = processor.to_dict()
    size, crop = s.get("size") or {}, s.get("crop_size") or {}
    plain = (s.get("do_resize") and s.get("do_center_crop") and s.get("do_rescale") and s.get("do_normalize")
             and s.get("do_convert_rgb", True) and not s.get("do_pad") and isinstance(size, dict)
             and set(k for k, v in size.items() if v) == {"shortest_edge"} and isinstance(crop, dict)
             and crop.get("height") and crop.get("width") and s.get("resample") in _RESAMPLE
             and len(s.get("image_mean") or ()) == 3 and len(s.get("image_std") or ()) == 3)
    if not plain or min(crop["height"], crop["width"]) > size["shortest_edge"]:
        return None
    return PixelRecipe(int(size["shortest_edge"]), int(crop["height"]), int(crop["width"]), int(s["resample"]),
                       float(s["rescale_factor"]), tuple(float(v) for v in s["image_mean"]),
                       tuple(float(v) for v in s["image_std"]))


def torch_pixels(images: list, recipe: PixelRecipe, table):
    """(B, 3, h, w) float32 from uint8 (3, H, W) tensors on one device, by the recipe: resize with
    torch's antialiased filter (PIL's bicubic is ``a = -0.5`` with antialiasing, as torch's is),
    round to uint8 levels as PIL does, crop, then look each level up in ``table`` ((3, 256) float32
    on the same device, :meth:`PixelRecipe.table`). Images of one size are resized together (one
    kernel launch per step for a batch of same-sized photos, as Mapillary's are)."""
    import torch
    import torch.nn.functional as F

    mode = _TORCH_MODES.get(recipe.resample)
    if mode is None:
        raise ValueError(f"resample filter {recipe.resample} has no torch equivalent")
    out = torch.empty((len(images), 3, recipe.crop_height, recipe.crop_width), dtype=torch.float32,
                      device=images[0].device if images else None)
    groups: dict[tuple[int, int], list[int]] = {}
    for i, image in enumerate(images):
        groups.setdefault((int(image.shape[-2]), int(image.shape[-1])), []).append(i)
    for (height, width), members in groups.items():
        new_w, new_h = recipe.resized_size(width, height)
        box = recipe.crop_box(new_w, new_h)
        if box is None:
            raise ValueError(f"resized image {new_w}×{new_h} is smaller than the crop")
        stack = torch.stack([images[i] for i in members]).float()
        resized = F.interpolate(stack, size=(new_h, new_w), mode=mode, antialias=True, align_corners=False)
        left, top, right, bottom = box
        levels = resized[:, :, top:bottom, left:right].round_().clamp_(0, 255).to(torch.long)
        index = torch.as_tensor(members, device=out.device)
        out[index] = torch.stack([table[c][levels[:, c]] for c in range(3)], dim=1)
    return out
