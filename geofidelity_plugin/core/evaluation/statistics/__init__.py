"""The statistics of method §7: seeded bootstraps, paired deltas and city-balanced summaries
(``bootstrap``), the paper's tables (``tables``) and rows as columns of arrays (``row_columns``)."""
