"""The default atlas layouts, built with the QGIS API and saved as the templates
``resources/layouts/segment_atlas.qpt`` (one page per segment) and ``atlas_cover.qpt`` (the
cover). :mod:`.atlas_layout` loads the templates and finds their items by id, so a user may
restyle or move any item in QGIS's layout designer and save the template over these files.

Regenerate: ``python -m geofidelity_plugin.qgis_side.atlas_template`` (needs QGIS).
"""
from __future__ import annotations

from pathlib import Path

FONT = "DejaVu Sans"
MONO = "DejaVu Sans Mono"
PAGE_MM = (297.0, 210.0)  # A4 landscape
SEGMENT_TEMPLATE, COVER_TEMPLATE = "segment_atlas.qpt", "atlas_cover.qpt"

#: id → (kind, x, y, width, height, font size, bold, mono) on the segment page, mm
SEGMENT_ITEMS = {
    "title": ("label", 8, 5, 220, 10, 18, True, False),
    "subtitle": ("label", 8, 15, 220, 6, 9, False, False),
    "date": ("label", 229, 5, 60, 6, 8, False, False),
    "map": ("map", 8, 22, 146, 112, 0, False, False),
    "north_arrow": ("north", 156, 22, 9, 13, 0, False, False),  # beside the map, never over its content
    "scalebar": ("scalebar", 10, 121, 60, 11, 7, False, False),
    "legend": ("legend", 168, 22, 80, 42, 7, False, False),
    "locator": ("locator", 251, 22, 38, 42, 0, False, False),   # where the page's map lies in the city
    "scores": ("label", 168, 65, 121, 26, 7, False, True),
    "coverage": ("label", 168, 92, 121, 19, 7, False, False),
    "dates_title": ("label", 168, 112, 121, 4.5, 7, True, False),
    "dates": ("picture", 168, 117, 121, 17, 0, False, False),
    "references_title": ("label", 8, 135, 281, 5, 8, True, False),
    "references": ("picture", 8, 140, 281, 24, 0, False, False),
    "generated_title": ("label", 8, 165, 281, 5, 8, True, False),
    "generated": ("picture", 8, 170, 281, 24, 0, False, False),
    "credits": ("label", 8, 195, 281, 12, 7, False, False),
}
#: the cover page
COVER_ITEMS = {
    "title": ("label", 8, 5, 220, 12, 22, True, False),
    "subtitle": ("label", 8, 17, 220, 6, 10, False, False),
    "date": ("label", 229, 5, 60, 6, 8, False, False),
    "map": ("map", 8, 25, 168, 133, 0, False, False),
    "north_arrow": ("north", 178, 25, 9, 13, 0, False, False),
    "scalebar": ("scalebar", 10, 145, 60, 11, 7, False, False),
    "legend": ("legend", 193, 25, 96, 40, 7, False, False),
    "summary": ("label", 193, 67, 96, 28, 8, False, False),
    "index": ("label", 193, 97, 96, 61, 6.5, False, True),     # page · street, the pages' order
    "cities": ("label", 8, 161, 281, 30, 8, False, True),
    "credits": ("label", 8, 193, 281, 14, 8, False, False),
}


def north_arrow_svg() -> str:
    from qgis.core import QgsApplication

    for folder in QgsApplication.svgPaths():
        path = Path(folder) / "arrows" / "NorthArrow_02.svg"
        if path.is_file():
            return str(path)
    return ""


def link_locator(locator, main_map) -> None:
    """The locator map's frame of ``main_map``'s extent (one overview, made once)."""
    from qgis.core import QgsLayoutItemMapOverview

    overviews = locator.overviews()
    if not overviews.asList():
        overviews.addOverview(QgsLayoutItemMapOverview("page map", locator))
    overviews.asList()[0].setLinkedMap(main_map)


def _add(layout, item_id: str, spec, maps: dict):
    from qgis.core import (Qgis, QgsLayoutItem, QgsLayoutItemLabel, QgsLayoutItemLegend, QgsLayoutItemMap,
                           QgsLayoutItemPicture, QgsLayoutItemScaleBar, QgsLayoutPoint, QgsLayoutSize)
    from qgis.PyQt.QtCore import Qt
    from qgis.PyQt.QtGui import QFont

    from geofidelity_plugin.qgis_side.qgis_compat import legend_component

    kind, x, y, w, h, size, bold, mono = spec
    if kind == "label":
        item = QgsLayoutItemLabel(layout)
        font = QFont(MONO if mono else FONT)
        font.setPointSizeF(size)
        font.setBold(bold)
        item.setFont(font)
        item.setHAlign(Qt.AlignmentFlag.AlignLeft)  # the default justifies: gaps between words
        item.setVAlign(Qt.AlignmentFlag.AlignTop)
        item.setText(item_id)
    elif kind == "map":
        item = QgsLayoutItemMap(layout)
        item.setFrameEnabled(True)
        maps["map"] = item
    elif kind == "locator":
        item = QgsLayoutItemMap(layout)
        item.setFrameEnabled(True)
        link_locator(item, maps["map"])
    elif kind == "picture":
        item = QgsLayoutItemPicture(layout)
        item.setResizeMode(QgsLayoutItemPicture.ResizeMode.Zoom)
        item.setPictureAnchor(QgsLayoutItem.ReferencePoint.UpperLeft)
    elif kind == "north":
        item = QgsLayoutItemPicture(layout)
        item.setPicturePath(north_arrow_svg())
        item.setLinkedMap(maps["map"])
        item.setNorthMode(QgsLayoutItemPicture.NorthMode.TrueNorth)
    elif kind == "scalebar":
        item = QgsLayoutItemScaleBar(layout)
        item.setStyle("Single Box")
        item.setLinkedMap(maps["map"])
        item.setUnits(Qgis.DistanceUnit.Meters)
        item.setUnitLabel("m")
        item.setNumberOfSegments(2)
        item.setNumberOfSegmentsLeft(0)
        item.setSegmentSizeMode(Qgis.ScaleBarSegmentSizeMode.FitWidth)
        item.setMinimumBarWidth(20)
        item.setMaximumBarWidth(45)
        fmt = item.textFormat()
        font = QFont(FONT)
        font.setPointSizeF(size)
        fmt.setFont(font)
        fmt.setSize(size)
        item.setTextFormat(fmt)
        item.setBackgroundEnabled(True)
    else:  # legend
        item = QgsLayoutItemLegend(layout)
        item.setLinkedMap(maps["map"])
        item.setTitle("Legend")
        part = legend_component()
        for style in (part.Title, part.Group, part.Subgroup, part.Symbol,
                      part.SymbolLabel):  # every style: no default font left
            font = QFont(FONT)
            font.setPointSizeF(size + (2 if style == part.Title else 0))
            font.setBold(style != part.SymbolLabel)
            item.setStyleFont(style, font)
        item.setSymbolHeight(3)
        item.setSymbolWidth(6)
    layout.addLayoutItem(item)
    item.setId(item_id)
    item.attemptMove(QgsLayoutPoint(x, y, Qgis.LayoutUnit.Millimeters))
    item.attemptResize(QgsLayoutSize(w, h, Qgis.LayoutUnit.Millimeters))
    return item


def build_layout(project, items: dict, name: str):
    """A one-page A4-landscape print layout holding ``items`` (see :data:`SEGMENT_ITEMS`)."""
    from qgis.core import Qgis, QgsLayoutSize, QgsPrintLayout

    layout = QgsPrintLayout(project)
    layout.initializeDefaults()
    layout.setName(name)
    layout.pageCollection().page(0).setPageSize(QgsLayoutSize(*PAGE_MM, Qgis.LayoutUnit.Millimeters))
    maps: dict = {}
    for item_id, spec in items.items():
        _add(layout, item_id, spec, maps)
    return layout


def write_default_templates(folder: str | Path) -> list[Path]:
    """Write both default templates into ``folder``; returns their paths."""
    from qgis.core import QgsProject, QgsReadWriteContext

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    project = QgsProject()
    for name, items in ((SEGMENT_TEMPLATE, SEGMENT_ITEMS), (COVER_TEMPLATE, COVER_ITEMS)):
        layout = build_layout(project, items, Path(name).stem)
        path = folder / name
        if not layout.saveAsTemplate(str(path), QgsReadWriteContext()):
            raise OSError(f"could not write the layout template {path}")
        out.append(path)
    return out


if __name__ == "__main__":
    from geofidelity_plugin.core.resources import resource
    from geofidelity_plugin.qgis_side.qgis_env import start_qgis

    start_qgis()
    for written in write_default_templates(resource("layouts", SEGMENT_TEMPLATE).parent):
        print(written)
