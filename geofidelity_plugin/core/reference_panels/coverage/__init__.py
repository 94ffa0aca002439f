"""The coverage audit of stage 2 (method §2): images per km, gaps, capture dates, its layers."""
