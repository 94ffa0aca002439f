"""Stage 2 — reference panels from Mapillary (method §2)."""
