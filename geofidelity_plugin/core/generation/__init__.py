"""Stage 3 — generated panels (method §4)."""
