"""The statistics of method §7: seeded bootstraps — plain (``resampling``) and city-balanced
(``city_bootstrap``) —, paired deltas and counts (``bootstrap``, which names them all), the paper's
tables (``tables``) and rows as columns of arrays (``row_columns``)."""
