"""GeoFidelity core library.

Plain Python (numpy, shapely, pyproj, torch, transformers) that never imports ``qgis``: the
Processing algorithms, the CLI and notebooks all drive the same functions. Stages mirror the
protocol (``docs/method.md``): ``selection`` (§1 named road segments), ``evaluation`` (§3, §5–§7).
"""

__all__ = ["errors", "progress", "atomic", "manifest", "resources"]
