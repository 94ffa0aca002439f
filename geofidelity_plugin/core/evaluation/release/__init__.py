"""The published GeoFidelity-Bench release: its folder layout read and written
(``release_folder``) and its own evaluator (``protocol``, ``evaluate``, ``outputs``; method §6
Release protocol)."""
