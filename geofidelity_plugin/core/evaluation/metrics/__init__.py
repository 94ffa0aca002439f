"""The metrics of method §6: CosSim, MMD², DCSF and GADS (``panel_metrics``), retrieval over the
galleries with Δhard (``retrieval``), the fused pass that reads them all at once (``metric_pass``),
the CLIP check's rank statistics (``rank_stats``) and panels as arrays (``panel_arrays``)."""
