"""Curation of reference panels (method §2): tiers 1–3 from metadata, 4–5 from models (SigLIP,
Mask2Former), 6 quality, 7 duplicates, 8 the manual audit, then the cap per segment."""
