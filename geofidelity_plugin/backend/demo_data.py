"""Stand-in panels for the offline demo — clearly NOT Mapillary images and NOT model outputs.

No street-level imagery of the demo's Helsinki segments and no text-to-image weights can be
had offline, so the demo builds its panels from OpenCV's sample photos (Debian opencv-doc):
each segment is assigned one photo; its "reference panel" is 8 seeded crops of that photo;
two stand-in "generators" produce 4-image panels per prompt condition:

- ``stand-in:crops``: L1/L2 = other crops of the segment's own photo, L0 = crops of a photo
  of another segment of the city, C_WRONG_STREET = crops of the wrongly named segment's photo;
- ``stand-in:blurred`` : the same, blurred and colour-shifted (a weaker generator).

Two small panels exercise what a real benchmark meets: the manual audit rejects 5 of the last
segment's 8 reference images (3 left: no room for a held-out anchor), and one generated panel has
a single image (no unbiased MMD²). The CLIP check runs with a tiny, randomly initialised CLIP
(:func:`make_demo_clip`), since no CLIP weights can be had offline: its scores exercise the code,
they mean nothing. Every output of the demo carries the label :data:`STAND_IN_NOTE`.
"""
from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np

STAND_IN_NOTE = ("STAND-IN DATA: reference and generated panels are crops of OpenCV sample photos "
                 "(Debian opencv-doc), not Mapillary images and not text-to-image outputs")
PHOTO_DIR = Path("/usr/share/doc/opencv-doc/examples/data")
PHOTOS = ("leuvenA.jpg", "building.jpg", "home.jpg", "aero1.jpg", "stuff.jpg", "fruits.jpg", "baboon.jpg",
          "HappyFish.jpg", "starry_night.jpg", "butterfly.jpg", "orange.jpg", "squirrel_cls.jpg")
CONDITIONS = ("L0", "L1", "L2", "C_WRONG_STREET")
#: the demo's CLIP: random weights, named so that every table and figure says so
DEMO_CLIP_NAME = "tiny-random-clip-STAND-IN"


def _rng(*parts) -> np.random.Generator:
    digest = hashlib.sha256("/".join(map(str, parts)).encode()).digest()
    return np.random.default_rng(int.from_bytes(digest[:8], "little"))


def _crops(photo: Path, n: int, rng: np.random.Generator, weak: bool = False):
    from PIL import Image, ImageFilter

    with Image.open(photo) as img:
        img = img.convert("RGB")
        w, h = img.size
        for _ in range(n):
            scale = rng.uniform(0.55, 0.8)
            cw, ch = int(w * scale), int(h * scale)
            x, y = int(rng.integers(0, w - cw + 1)), int(rng.integers(0, h - ch + 1))
            crop = img.crop((x, y, x + cw, y + ch)).resize((224, 168))
            if weak:
                crop = crop.filter(ImageFilter.GaussianBlur(3))
                arr = np.asarray(crop).astype(np.int16) + rng.integers(-25, 25, size=3)
                crop = Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8))
            yield crop


def build_demo_store(store_path: Path, segments_gpkg: Path, seed: int = 0) -> dict:
    """Fill a benchmark store with the segments and stand-in panels; returns counts."""
    from geofidelity_plugin.core.evaluation.galleries import build_galleries
    from geofidelity_plugin.core.store.store import BenchmarkStore, GeneratedImage
    from geofidelity_plugin.core.evaluation.store_steps import load_segments_gpkg

    images_dir = store_path.parent / "stand_in_images"
    with BenchmarkStore(store_path) as store:
        load_segments_gpkg(store, segments_gpkg)
        segments = store.segments()
        ids = [s["segment_id"] for s in segments]
        photo = {sid: PHOTO_DIR / PHOTOS[i % len(PHOTOS)] for i, sid in enumerate(ids)}
        refs = []
        for sid in ids:
            for j, crop in enumerate(_crops(photo[sid], 8, _rng(seed, "ref", sid))):
                path = images_dir / "reference" / sid / f"{j:02d}.jpg"
                _save(crop, path)
                refs.append({"reference_id": f"{sid}:{j:02d}", "segment_id": sid, "image_id": f"standin-{sid}-{j}",
                             "image_path": str(path), "note": "stand-in"})
        store.put_reference_images(refs)
        store.put_candidates(_stand_in_positions(segments, refs, seed))
        for r in refs[-5:]:  # a small panel: the audit keeps 3 of the last segment's images
            store.set_audit(r["reference_id"], "reject")
        from geofidelity_plugin.core.generation.prompts import build_prompts

        prompts = {(p.segment_id, p.condition): p.prompt for p in build_prompts(segments, conditions=CONDITIONS)}
        generated = []
        for model, weak in (("stand-in:crops", False), ("stand-in:blurred", True)):
            for t, sid in enumerate(ids):
                other = ids[(t + 1) % len(ids)]
                source = {"L0": photo[ids[(t + 2) % len(ids)]], "L1": photo[sid], "L2": photo[sid],
                          "C_WRONG_STREET": photo[other]}
                for condition in CONDITIONS:
                    rng = _rng(seed, model, condition, sid)
                    n = 1 if (weak and condition == "C_WRONG_STREET" and t == 0) else 4  # a 1-image panel
                    for s, crop in enumerate(_crops(source[condition], n, rng, weak)):
                        path = images_dir / "generated" / model.replace(":", "_") / condition / sid / f"{s:02d}.jpg"
                        _save(crop, path)
                        generated.append(GeneratedImage(model, condition, sid, s, str(path), seed=seed,
                                                        prompt=prompts.get((sid, condition)),
                                                        prompt_meta=f'{{"stand_in": "crops of {source[condition].name}"}}',
                                                        origin="stand-in"))
        store.put_generated(generated)
        store.put_galleries(build_galleries(segments, seed=seed))
        store.set_meta("stand_in", STAND_IN_NOTE)
        return store.counts()


def make_demo_clip(folder: Path, seed: int = 0) -> Path:
    """A tiny CLIP (2 layers, 32 wide, 32-px images) with random weights and a byte-level
    tokenizer, saved like a downloaded checkpoint, so the CLIP check runs offline through the
    real loading code. Deterministic for a seed; the folder name says it is a stand-in."""
    import torch
    from transformers import CLIPConfig, CLIPImageProcessor, CLIPModel, CLIPProcessor, CLIPTokenizer

    folder = Path(folder)
    if (folder / "model.safetensors").is_file():
        return folder
    kept = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1), *range(ord("®"), ord("ÿ") + 1)]
    symbols = [chr(b) for b in kept] + [chr(256 + i) for i in range(256 - len(kept))]
    vocab = {"<|startoftext|>": 0, "<|endoftext|>": 1}
    for suffix in ("", "</w>"):
        vocab.update({s + suffix: len(vocab) + i for i, s in enumerate(symbols)})
    config = CLIPConfig(
        text_config=dict(bos_token_id=0, eos_token_id=1, pad_token_id=1, hidden_size=32, intermediate_size=37,
                         num_attention_heads=4, num_hidden_layers=2, vocab_size=len(vocab), max_position_embeddings=77),
        vision_config=dict(hidden_size=32, intermediate_size=37, num_attention_heads=4, num_hidden_layers=2,
                           image_size=32, patch_size=8), projection_dim=16)
    torch.manual_seed(seed)
    tmp = folder.with_name(f".{folder.name}.tmp")
    CLIPModel(config).eval().save_pretrained(tmp, safe_serialization=True)
    CLIPProcessor(image_processor=CLIPImageProcessor(size={"shortest_edge": 32}, crop_size={"height": 32, "width": 32}),
                  tokenizer=CLIPTokenizer(vocab=vocab, merges=[], model_max_length=77)).save_pretrained(tmp)
    tmp.replace(folder)
    return folder


def _stand_in_positions(segments: list[dict], refs: list[dict], seed: int) -> list[dict]:
    """Place each segment's stand-in images along the first ~70 % of its line (two sequences,
    2019–2021), so the coverage audit has something true to find: the last stretch has none."""
    from shapely import wkt

    lines = {s["segment_id"]: wkt.loads(s["geometry_wkt"]) for s in segments if s.get("geometry_wkt")}
    rows = []
    for r in refs:
        line = lines.get(r["segment_id"])
        if line is None:
            continue
        j = int(r["reference_id"].rsplit(":", 1)[1])
        point = line.interpolate(0.7 * (j + 0.5) / 8, normalized=True)
        rng = _rng(seed, "position", r["reference_id"])
        rows.append({"segment_id": r["segment_id"], "image_id": r["image_id"], "lon": point.x, "lat": point.y,
                     "captured_at_ms": int(1_560_000_000_000 + rng.integers(0, 2) * 31_536_000_000 * (j % 3)),
                     "compass_angle": float(rng.uniform(0, 360)), "sequence": f"stand-in-{j % 2}",
                     "image_path": r["image_path"], "status": "kept", "reason": "stand-in",
                     "record": {"stand_in": True}})
    return rows


def _save(image, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists():
        tmp = path.with_name(f".{path.name}.part")
        image.save(tmp, format="JPEG", quality=92)
        tmp.replace(path)
