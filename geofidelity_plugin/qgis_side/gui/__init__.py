"""QGIS GUI: the segment inspector (map tool + dock). Imported only inside QGIS."""
