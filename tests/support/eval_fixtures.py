"""Small benchmark stores for the evaluation tests: real files on disk, known embeddings."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from PIL import Image

from geofidelity_plugin.core.evaluation.galleries import build_galleries
from geofidelity_plugin.core.store.store import BenchmarkStore, GeneratedImage

CITIES = [("Alpha", "FI", "right", 24.90, 60.10), ("Beta", "GB", "left", -0.10, 51.50),
          ("Gamma", "FI", "right", 25.50, 60.40)]
CONDITIONS = ("L0", "L1", "L2", "C_WRONG_STREET")


@dataclass
class TableEmbedder:
    """Test stand-in for the feature model: returns the vector registered for each path, so
    the orchestration can be checked against hand computations. Counts every call."""

    vectors: dict[str, np.ndarray]
    computed: int = 0
    failed_paths: dict[str, str] = field(default_factory=dict)

    def embed_paths(self, paths, progress=None):
        from types import SimpleNamespace

        emb = np.full((len(paths), next(iter(self.vectors.values())).shape[0]), np.nan, dtype=np.float32)
        failed = {}
        for i, p in enumerate(paths):
            if p in self.failed_paths:
                failed[p] = self.failed_paths[p]
            else:
                emb[i] = self.vectors[p]
        self.computed += len(paths)
        return SimpleNamespace(embeddings=emb, failed=failed, computed=len(paths), cached=0)

    def model_info(self):
        return {"id": "table-embedder (test stand-in)", "revision": "n/a"}


def _image(path: Path, seed: int) -> None:
    rng = np.random.default_rng(seed)
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.fromarray(rng.integers(0, 255, (24, 32, 3), dtype=np.uint8)).save(path)


def make_store(root: Path, per_city: int = 3, refs: int = 7, models=("m1", "m2"), dim: int = 16,
               seed: int = 0) -> tuple[BenchmarkStore, dict[str, np.ndarray]]:
    """Segments with a 'true' direction each; reference images near it; generated images near
    it for L1/L2 (closer for m1), near another segment for the wrong-street control."""
    rng = np.random.default_rng(seed)
    store = BenchmarkStore(root / "store.sqlite")
    segments, vectors, refs_rows, generated = [], {}, [], []
    centre = {}
    n = 0
    for city, cc, side, lon, lat in CITIES:
        for k in range(per_city):
            sid = f"{cc.lower()}-{city.lower()}-{k}"
            segments.append({"segment_id": sid, "city": city, "country": cc, "country_code": cc,
                             "street_name": f"Street {k}", "neighbourhood": f"N{k % 2}", "road_class": "primary",
                             "driving_side": side, "centroid_lon": lon + 0.01 * k, "centroid_lat": lat + 0.005 * k})
            centre[sid] = rng.normal(size=dim)
            for j in range(refs):
                path = root / "refs" / sid / f"{j}.png"
                _image(path, n)
                n += 1
                vectors[str(path.resolve())] = (centre[sid] + 0.3 * rng.normal(size=dim)).astype(np.float32).astype(np.float64)
                refs_rows.append({"reference_id": f"{sid}:{j}", "segment_id": sid, "image_id": f"{sid}{j}",
                                  "image_path": str(path)})
    store.put_segments(segments)
    store.put_reference_images(refs_rows)
    ids = [s["segment_id"] for s in segments]
    for mi, model in enumerate(models):
        for condition in CONDITIONS:
            for t, sid in enumerate(ids):
                source = ids[(t + 1) % len(ids)] if condition == "C_WRONG_STREET" else sid
                noise = {"L0": 1.5, "L1": 0.6 + 0.4 * mi, "L2": 0.6 + 0.4 * mi, "C_WRONG_STREET": 0.6}[condition]
                for s in range(4):
                    path = root / "gen" / model / condition / sid / f"{s:02d}.png"
                    _image(path, n)
                    n += 1
                    vectors[str(path.resolve())] = (centre[source] + noise * rng.normal(size=dim)).astype(np.float32).astype(np.float64)
                    generated.append(GeneratedImage(model, condition, sid, s, str(path), seed=1000 + n,
                                                    prompt=f"{condition} prompt", clip_score=float(rng.random())))
    store.put_generated(generated)
    store.put_galleries(build_galleries(segments, seed=seed))
    return store, vectors
