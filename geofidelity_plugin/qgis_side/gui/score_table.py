"""The inspector's score table: one row per score, the primary first, under the names the legend,
the tables and the glossary use with which way is better; one column per model and real anchor
(method §6)."""
from __future__ import annotations

from qgis.PyQt.QtWidgets import QTableWidgetItem

from geofidelity_plugin.core.evaluation.score_names import SCORE_NAMES, direction

#: (column of per_panel_scores.csv, the name shown, which way is better: "↑" higher, "↓" lower, "" neither),
#: the primary score first
SCORES = tuple((key, SCORE_NAMES[key], direction(key)) for key in (
    "margin_hard", "chance_adjusted_top1", "top1", "margin_mean", "cos_sim", "mmd2", "gads",
    "margin_nearest_same_city", "margin_same_city_other_neighbourhood", "margin_same_driving_side_other_city",
    "margin_random_other_city", "margin_same_neighbourhood", "gallery_size"))
SCORE_ROWS = tuple(key for key, _, _ in SCORES)
SCORES_KEY = ("<b>Scores</b> — this panel beside the real anchors. ↑ higher is better, ↓ lower is better. "
              "Δhard: how much closer the images are to this street's photos than to the closest look-alike "
              "street (above 0: this street wins). The glossary is in each algorithm's Help.")


def fill_score_table(table, scores: dict) -> None:
    """Fill ``table`` from ``scores`` ({column: {score: value}}) and make it as tall as its rows (the
    dock scrolls, not the table)."""
    columns = list(scores)
    table.clear()
    table.setColumnCount(len(columns))
    table.setRowCount(len(SCORE_ROWS))
    table.setHorizontalHeaderLabels([c.replace("anchor:", "") for c in columns])
    table.setVerticalHeaderLabels([f"{name} {better}".strip() for _, name, better in SCORES])
    for j, column in enumerate(columns):
        for i, key in enumerate(SCORE_ROWS):
            value = scores[column].get(key)
            table.setItem(i, j, QTableWidgetItem("—" if value is None else f"{value:.3f}"))
    table.resizeColumnsToContents()
    table.setFixedHeight(table.horizontalHeader().height() + table.verticalHeader().length()
                         + table.horizontalScrollBar().sizeHint().height()  # when the anchors overflow
                         + 2 * table.frameWidth())
