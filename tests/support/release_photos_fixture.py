"""A release in the published layout (RELEASE_FORMAT.md) made of crops of real street photos
(Debian's opencv-doc), for the tests of the release's own evaluator (method §6 Release protocol)."""
from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
from PIL import Image

from conftest import external

OPENCV = Path("/usr/share/doc/opencv-doc/examples/data")
# block, city, country code, neighbourhood, photo, number of reference images
BLOCKS = [("h1", "Helsinki", "FI", "Kluuvi", "building.jpg", 8), ("h2", "Helsinki", "FI", "Kluuvi", "leuvenA.jpg", 8),
          ("h3", "Helsinki", "FI", "Kamppi", "home.jpg", 5), ("p1", "Paris", "FR", "Marais", "aero1.jpg", 8),
          ("p2", "Paris", "FR", "Bastille", "fruits.jpg", 8), ("l1", "London", "GB", "Soho", "baboon.jpg", 8),
          ("l2", "London", "GB", "Soho", "stuff.jpg", 2)]
NEGS = {  # neg_same_neighborhood_diff_block, _same_city_diff_neighborhood, _same_driving_side_diff_city, _random_city
    "h1": ("h2", "h3", "p1", "l1"), "h2": ("h1", "h3", "p2", "l2"), "h3": ("", "h1", "p1", "l1"),
    "p1": ("", "p2", "h1", "l2"), "p2": ("", "p1", "h3", "l1"), "l1": ("l2", "", "", "h2"), "l2": ("l1", "", "", "p1")}
FIELDS = ("neg_same_neighborhood_diff_block", "neg_same_city_diff_neighborhood", "neg_same_driving_side_diff_city",
          "neg_random_city")
EPS = 1e-8


def _crops(photo: Path, n: int, seed: int):
    rng = np.random.default_rng(seed)
    with Image.open(photo) as img:
        img = img.convert("RGB")
        w, h = img.size
        for _ in range(n):
            cw, ch = int(w * rng.uniform(0.5, 0.8)), int(h * rng.uniform(0.5, 0.8))
            x, y = int(rng.integers(0, w - cw + 1)), int(rng.integers(0, h - ch + 1))
            yield img.crop((x, y, x + cw, y + ch)).resize((96, 72))


def make_release(root: Path) -> Path:
    """The release layout (RELEASE_FORMAT.md) with reference_images.csv listing each block's images in
    the reverse of the manifest's order, so that only the manifest's order gives the release's split."""
    blocks, refs, gens = [], [], []
    photos = {b[0]: OPENCV / b[4] for b in BLOCKS}
    for i, (bid, city, cc, hood, photo, n) in enumerate(BLOCKS):
        images = []
        for j, crop in enumerate(_crops(photos[bid], n, seed=100 + i)):
            rel = f"data/raw/mapillary_v3/{bid}/mapillary_{bid}{j}.jpg"
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            crop.save(root / rel, quality=90)
            images.append({"image_path": rel, "image_id": f"{bid}{j}"})
        refs += [{"reference_id": f"{bid}-r{n - j:02d}", "image_id": img["image_id"], "image_path": img["image_path"],
                  "block_id": bid, "city": city, "country": cc} for j, img in enumerate(images)][::-1]
        for level, source in (("L1", bid), ("L0", BLOCKS[(i + 3) % len(BLOCKS)][0])):
            for s, crop in enumerate(_crops(photos[source], 4, seed=1000 + 10 * i + len(level))):
                rel = f"generations_v3/my-gen/{level}/{bid}/{s:02d}.jpg"
                (root / rel).parent.mkdir(parents=True, exist_ok=True)
                crop.save(root / rel, quality=90)
                gens.append({"model": "my-gen", "block_id": bid, "city": city, "country": cc, "level": level,
                             "sample_index": s, "image_path": rel, "seed": 7 + s, "prompt": "", "prompt_meta": "{}"})
        blocks.append({"block_id": bid, "city": city, "country": cc, "neighborhood": hood, "street_name": f"{bid} street",
                       "stratum": "primary", "centroid": [60.0 + i / 100, 24.0 + i / 100], "images": images,
                       **dict(zip(FIELDS, NEGS[bid]))})
    (root / "data/processed/v3").mkdir(parents=True, exist_ok=True)
    (root / "data/processed/v3/benchmark_v3.json").write_text(json.dumps({"blocks": blocks}))
    for name, rows in (("reference_images.csv", refs), ("generated_images.csv", gens)):
        (root / "metadata").mkdir(exist_ok=True)
        with open(root / "metadata" / name, "w", newline="") as fh:
            writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)
    return root
