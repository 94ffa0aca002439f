"""A tiny release in the published GeoFidelity-Bench layout (RELEASE_FORMAT.md): four blocks,
five reference images and two conditions × four generated images each, for the release tests."""
from __future__ import annotations

import csv
import json

import numpy as np
from PIL import Image

BLOCKS = [("b001", "Helsinki", "FI", "Kluuvi", "Aleksanterinkatu", 60.169, 24.946),
          ("b002", "Helsinki", "FI", "Kamppi", "Annankatu", 60.166, 24.937),
          ("b003", "Helsinki", "FI", "Kluuvi", "Mikonkatu", 60.170, 24.945),
          ("b004", "London", "GB", "Soho", "Old Compton Street", 51.513, -0.131)]


def _jpg(path, seed):
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.fromarray(np.random.default_rng(seed).integers(0, 255, (16, 16, 3), dtype=np.uint8)).save(path)


def _write_csv(path, rows):
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)


def make_release(root):
    blocks, refs, gens = [], [], []
    n = 0
    for bid, city, cc, hood, street, lat, lon in BLOCKS:
        images = []
        for j in range(5):
            rel = f"data/raw/mapillary_v3/{bid}/mapillary_{bid}{j}.jpg"
            _jpg(root / rel, n)
            n += 1
            images.append({"image_path": rel})
            refs.append({"reference_id": f"r{n}", "image_id": f"{bid}{j}", "image_path": rel, "block_id": bid,
                         "city": city, "country": cc, "lat": lat, "lon": lon, "captured_at_utc_ms": 1560000000000 + n})
        for level in ("L0", "L1"):
            for s in range(4):
                rel = f"generations_v3/sdxl/{level}/{bid}/{s:02d}.jpg"
                _jpg(root / rel, n)
                n += 1
                gens.append({"model": "sdxl", "block_id": bid, "city": city, "country": cc, "level": level,
                             "sample_index": s, "image_path": rel, "seed": "missing" if s == 3 else 100 + s,
                             "prompt": f"{level} {street}", "prompt_meta": "{}", "image_origin": "release",
                             "metadata_source": "test"})
        blocks.append({"block_id": bid, "city": city, "country": cc, "stratum": "primary", "neighborhood": hood,
                       "street_name": street, "centroid": [lat, lon], "images": images,
                       "neg_same_neighborhood_diff_block": "b003" if bid == "b001" else "",
                       "neg_same_city_diff_neighborhood": "b002" if bid in ("b001", "b003") else "",
                       "neg_same_driving_side_diff_city": "", "neg_random_city": "b004" if bid != "b004" else "b001"})
    (root / "data/processed/v3").mkdir(parents=True)
    (root / "data/processed/v3/benchmark_v3.json").write_text(json.dumps({"blocks": blocks}))
    _write_csv(root / "metadata/reference_images.csv", refs)
    _write_csv(root / "metadata/generated_images.csv", gens)
    return root
