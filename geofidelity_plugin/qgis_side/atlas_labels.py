"""The atlas maps' labels: each segment's street with the page it is on (the cover and other
pages), its score on its own page, and the reference images numbered as their thumbnails. The
expressions read layout variables that :mod:`.atlas_layout` sets per page; the locator map
(item id ``locator``) stays unlabelled."""
from __future__ import annotations


#: a segment's label: on its own page the street and its score; elsewhere (and on the cover) the
#: street and the page it is on — layout variables set by :func:`render_atlas`
SEGMENT_LABEL = ("CASE WHEN @map_id = 'locator' THEN NULL "
                 "WHEN \"segment_id\" = attribute(@atlas_feature, 'segment_id') "
                 "THEN coalesce(\"street_name\", \"segment_id\") || '\n' || @geofidelity_score "
                 "ELSE coalesce(\"street_name\", \"segment_id\") || "
                 "coalesce(' · p. ' || map_get(json_to_map(@geofidelity_pages), \"segment_id\"), '') END")
#: true for the segment (or image) of the page being drawn
OWN_PAGE = "\"segment_id\" = attribute(@atlas_feature, 'segment_id') AND @map_id <> 'locator'"
#: a reference image's number on its segment's page, as under its thumbnail (#n)
POINT_LABEL = ("CASE WHEN @map_id = 'locator' THEN NULL WHEN \"segment_id\" = attribute(@atlas_feature, 'segment_id') "
               "THEN map_get(json_to_map(@geofidelity_numbers), to_string(\"image_id\")) END")


def label(layer, expression: str, line: bool, size: float) -> None:
    from qgis.core import (Qgis, QgsPalLayerSettings, QgsTextBufferSettings, QgsTextFormat,
                           QgsVectorLayerSimpleLabeling)
    from qgis.PyQt.QtGui import QColor, QFont

    from geofidelity_plugin.qgis_side.atlas_template import FONT

    settings = QgsPalLayerSettings()
    settings.fieldName = expression
    settings.isExpression = True
    # horizontal: a label longer than a short segment is still placed (along the line it would not be)
    settings.placement = Qgis.LabelPlacement.Horizontal if line else Qgis.LabelPlacement.OrderedPositionsAroundPoint
    from qgis.core import QgsPalLayerSettings as Pal, QgsProperty

    settings.dataDefinedProperties().setProperty(Pal.Property.AlwaysShow, QgsProperty.fromExpression(
        OWN_PAGE))  # the page's own segment and images are labelled even where labels collide
    text = QgsTextFormat()
    text.setFont(QFont(FONT))
    text.setSize(size)
    buffer = QgsTextBufferSettings()
    buffer.setEnabled(True)
    buffer.setSize(0.8)
    buffer.setColor(QColor("white"))
    text.setBuffer(buffer)
    settings.setFormat(text)
    layer.setLabeling(QgsVectorLayerSimpleLabeling(settings))
    layer.setLabelsEnabled(True)
