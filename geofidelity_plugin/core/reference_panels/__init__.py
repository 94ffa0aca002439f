"""Stage 2 — reference panels from Mapillary (PROTOCOL §2)."""
