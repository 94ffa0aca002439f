"""The semantic attributes every stage names (method §2 curation ratios, §5 GADS): the groups of
Mapillary Vistas classes, in their fixed order. Standard library only, so the QGIS side can show
them without the segmentation model's imports."""
from __future__ import annotations

ATTRIBUTES = ("road", "sidewalk", "building", "vehicle", "vegetation", "sky", "pole", "sign")
RECORDING_CAR_ALTERNATIVE = "vehicle_excluding_recording_car"
