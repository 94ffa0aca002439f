"""The MFP metric (method §10): G from the [CLS] tokens, D_S from the keys' self-similarity.

For a generated map o and its reference t:

- ``G = 1 − MSE(CLS_o, CLS_t)`` (paper Eq. 5–6), 1 when the [CLS] tokens agree;
- ``D_S = ‖S_o − S_t‖_F`` (paper Eq. 7–8), S the cosine self-similarity of the last layer's
  keys over all N tokens, [CLS] included; 0 when the structures agree;
- ``D_S_rms = D_S / N``, the root mean square over the N² entries of S — independent of the
  token count, so tiles, models and input sizes compare;
- ``MFP = G − D_S_rms``: our single score (the paper reports one MFP number but gives no closed
  form); 1 for identical maps, lower for each kind of difference, both parts on a per-entry
  scale. The rule is written into every manifest (``MFP_RULE``).

Generated and reference images go through the model in separate forward passes of the same
shape, so identical maps give bit-identical features: G = 1 and D_S = 0 exactly.
"""
from __future__ import annotations

from dataclasses import dataclass
import numpy as np

from .vit import MapViT, self_similarity

METRICS = ("g", "d_s", "d_s_rms", "mfp")


def compare_features(cls_o, keys_o, cls_t, keys_t) -> dict:
    """Per-pair G, D_S, D_S_rms and MFP (float64 tensors of shape (B,)) from two feature sets."""
    diff = cls_o.double() - cls_t.double()
    g = 1.0 - (diff * diff).mean(dim=-1)
    delta = self_similarity(keys_o.double()) - self_similarity(keys_t.double())
    d_s = delta.flatten(1).norm(dim=-1)
    d_s_rms = d_s / delta.shape[-1]
    return {"g": g, "d_s": d_s, "d_s_rms": d_s_rms, "mfp": g - d_s_rms}


def to_tensor(images: np.ndarray):
    """(B, H, W, 3) uint8 → (B, 3, H, W) float32 in [0, 1]."""
    import torch

    array = np.ascontiguousarray(np.asarray(images, dtype=np.uint8))
    return torch.from_numpy(array).permute(0, 3, 1, 2).float().div_(255.0)


@dataclass
class MapFidelityScorer:
    """Scores pairs of map images in batches with a frozen :class:`MapViT`."""

    vit: MapViT
    batch_size: int = 8

    def features(self, images: np.ndarray):
        """([CLS], keys) of uint8 RGB images (B, H, W, 3), without gradients."""
        import torch

        with torch.inference_mode():
            return self.vit.features(to_tensor(images))

    def score(self, generated: np.ndarray, reference: np.ndarray) -> dict[str, np.ndarray]:
        """G, D_S, D_S_rms, MFP for each pair of one batch."""
        import torch

        with torch.inference_mode():
            cls_o, keys_o = self.vit.features(to_tensor(generated))
            cls_t, keys_t = self.vit.features(to_tensor(reference))
            scores = compare_features(cls_o, keys_o, cls_t, keys_t)
        return {k: v.cpu().numpy() for k, v in scores.items()}
