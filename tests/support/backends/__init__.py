"""Fake GeoFidelity backends (each a small script a test runs through a temporary wrapper that
stands in for the configured backend Python) and the helpers the backend-process tests share."""
