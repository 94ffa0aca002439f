"""Stage 1 — select named OSM road segments (PROTOCOL §1)."""
