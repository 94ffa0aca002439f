"""Stage 3 — generated panels (PROTOCOL §4)."""
