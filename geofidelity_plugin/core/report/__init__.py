"""Stage 5 — reports.

A self-contained HTML report of an evaluation folder (method §6–§8): the run's key facts,
the paper-style tables with bootstrap intervals, figures, and the full run manifest.
Entry point: :func:`geofidelity_plugin.core.report.html.write_report`.
"""
