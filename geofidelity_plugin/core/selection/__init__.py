"""Stage 1 — select named OSM road segments (method §1)."""
