"""What the map inspector shows for one segment, gathered without QGIS (testable headless)."""
