"""The MFP training loss (method §10; paper Eq. 10): ``L = L1 + λ_G·L_G + λ_S·L_S``.

- ``L1``: mean absolute pixel error (the paper's regulariser for feature losses);
- ``L_G = 1 − G = MSE(CLS_o, CLS_t)``, the [CLS] tokens' mean squared error;
- ``L_S = D_S = ‖S_o − S_t‖_F``, the keys' self-similarity distance (not normalised, as in the
  paper, so λ_S = 1 weighs it as the paper did for its token count);

with λ_G = 10 and λ_S = 1 by default, each term averaged over the batch. The ViT is frozen (no
parameter takes a gradient, it stays in eval mode) and differentiable w.r.t. the generated
image; the reference goes through it without a graph. Works on any device the module is moved to.

This module imports torch (a loss is a ``torch.nn.Module``): import it only where torch is wanted.
"""
from __future__ import annotations

from typing import Any

import torch

from .metric import compare_features
from .options import L1_WEIGHT, LAMBDA_G, LAMBDA_S


class MFPLoss(torch.nn.Module):
    """``MFPLoss(vit)(generated, reference)`` → scalar loss; images (B, 3, H, W) RGB in [0, 1].

    ``vit`` is a :class:`~.vit.MapViT` or a model reference (folder or hub id) to load one.
    After each call ``last_terms`` holds the detached terms (l1, l_g, l_s, total)."""

    def __init__(self, vit: Any, lambda_g: float = LAMBDA_G, lambda_s: float = LAMBDA_S,
                 l1_weight: float = L1_WEIGHT, device: str | None = None):
        super().__init__()
        if not hasattr(vit, "features"):
            from .vit import MapViT

            vit = MapViT(str(vit), device=device)
        self.vit = vit
        self.backbone = vit.model  # a submodule: .to() and .double() reach it
        self.lambda_g, self.lambda_s, self.l1_weight = float(lambda_g), float(lambda_s), float(l1_weight)
        self.last_terms: dict[str, float] = {}

    def train(self, mode: bool = True):
        """The ViT stays in eval mode (no dropout, fixed statistics) whatever the generator does."""
        super().train(mode)
        self.backbone.eval()
        return self

    def _apply(self, fn, *args, **kwargs):
        """Keep the MapViT's device, dtype and normalisation constants in step with .to()/.double()."""
        result = super()._apply(fn, *args, **kwargs)
        param = next(self.backbone.parameters())
        self.vit.model = self.backbone
        self.vit.device, self.vit.dtype = param.device, param.dtype
        self.vit.mean = fn(self.vit.mean)
        self.vit.std = fn(self.vit.std)
        return result

    def terms(self, generated, reference) -> dict:
        """The three terms as tensors (L1, L_G, L_S), each averaged over the batch."""
        if generated.shape != reference.shape:
            raise ValueError(f"generated {tuple(generated.shape)} and reference {tuple(reference.shape)} images "
                             "differ in shape — give batches of the same shape")
        l1 = (generated - reference).abs().mean()
        with torch.no_grad():
            cls_t, keys_t = self.vit.features(reference)
        cls_o, keys_o = self.vit.features(generated)
        scores = compare_features(cls_o, keys_o, cls_t, keys_t)
        l_g = (1.0 - scores["g"]).mean().to(generated.dtype)
        l_s = scores["d_s"].mean().to(generated.dtype)
        return {"l1": l1, "l_g": l_g, "l_s": l_s}

    def forward(self, generated, reference):
        t = self.terms(generated, reference)
        total = self.l1_weight * t["l1"] + self.lambda_g * t["l_g"] + self.lambda_s * t["l_s"]
        self.last_terms = {**{k: float(v.detach()) for k, v in t.items()}, "total": float(total.detach())}
        return total
