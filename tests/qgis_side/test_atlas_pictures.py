"""The atlas pictures Qt draws inside QGIS (qgis_side/atlas_pictures.py): thumbnail strips with the
rejected images marked, the row of generated strips and the capture-date chart. Read back with PIL
and numpy here, on the test side only."""
from __future__ import annotations

import numpy as np
from PIL import Image

from geofidelity_plugin.core.atlas.data import Thumb
from geofidelity_plugin.qgis_side.atlas_pictures import (BORDER, REJECTED_RGB, compose_row, compose_strip,
                                                         draw_histogram, segment_dates_chart)


def _photo(path, colour):
    Image.new("RGB", (400, 300), colour).save(path)
    return str(path)


def test_the_strip_frames_rejected_images_in_red_and_says_so(qgis_app, tmp_path):
    thumbs = [Thumb(_photo(tmp_path / "a.jpg", (0, 90, 200)), "#1"),
              Thumb(_photo(tmp_path / "b.jpg", (0, 90, 200)), "#2", rejected=True),
              Thumb(str(tmp_path / "missing.jpg"), "#3")]
    strip = np.asarray(Image.open(compose_strip(thumbs, tmp_path / "strip.png", height=120)).convert("RGB"))
    tile_w = 160 + 2 * BORDER  # 4:3 tiles of height 120
    assert strip.shape[0] == 120 + 2 * BORDER + 22 and strip.shape[1] == 3 * tile_w + 2 * 8
    red = np.all(np.abs(strip.astype(int) - REJECTED_RGB) < 10, axis=2)
    first, second, third = (red[:, i * (tile_w + 8):i * (tile_w + 8) + tile_w] for i in range(3))
    assert second[:BORDER].mean() > 0.9 and second[:120, :BORDER].mean() > 0.9  # a full red frame
    assert first.sum() == 0 and third.sum() == 0  # only the rejected one
    caption = second[120 + 2 * BORDER:]
    assert caption.sum() > 50  # "#2 rejected", written in red under it
    assert np.abs(strip[60, BORDER + 80].astype(int) - (0, 90, 200)).max() < 10  # the image itself
    grey = strip[20, 2 * (tile_w + 8) + BORDER + 20]
    assert tuple(grey) == (210, 210, 210)  # the missing image is a grey tile, not a crash
    assert compose_strip([], tmp_path / "none.png") is None and not (tmp_path / "none.png").exists()
    row = compose_row([("model a", tmp_path / "strip.png"), ("model b", tmp_path / "strip.png")], tmp_path / "row.png")
    assert Image.open(row).width == 2 * strip.shape[1] + 30


def _bars(png):
    """The bars of a chart: (centre x, height in px) per run of bar-coloured columns."""
    from geofidelity_plugin.core.atlas.dates import BAR_RGB

    rgb = np.asarray(Image.open(png).convert("RGB")).astype(int)
    mask = np.all(np.abs(rgb - BAR_RGB) <= 2, axis=2)
    columns = mask.any(axis=0)
    runs, start = [], None
    for x, on in enumerate(list(columns) + [False]):
        if on and start is None:
            start = x
        elif not on and start is not None:
            runs.append((start, x))
            start = None
    return [((a + b - 1) / 2, int(mask[:, (a + b) // 2].sum())) for a, b in runs]


def test_the_date_chart_draws_the_audits_bins_as_bars(qgis_app, tmp_path):
    """One bar per dated bin, heights in proportion to the audit's counts, an empty bin an empty
    slot (a gap in time reads as a gap)."""
    from geofidelity_plugin.core.atlas.data import AtlasSegment
    from geofidelity_plugin.core.atlas.dates import BOTTOM, SIZE, TOP

    counts = {"2019": 3, "2020": 0, "2021": 6, "2022": 1}
    bars = _bars(draw_histogram(counts, tmp_path / "chart.png"))
    assert len(bars) == 3  # 2019, 2021, 2022: the empty 2020 has no bar
    plot_h = SIZE[1] - TOP - BOTTOM
    assert [h for _, h in bars] == [round(plot_h * n / 6) for n in (3, 6, 1)]
    (x19, _), (x21, _), (x22, _) = bars
    assert abs((x21 - x19) / (x22 - x21) - 2.0) < 0.02  # 2020 keeps its slot
    monthly = {f"2019-{m:02d}": (m * 7) % 5 for m in range(1, 13)} | {f"2020-{m:02d}": m % 3 for m in range(1, 13)}
    heights = [h for _, h in _bars(draw_histogram(monthly, tmp_path / "monthly.png"))]
    peak = max(monthly.values())
    assert heights == [round(plot_h * n / peak) for n in monthly.values() if n]
    assert draw_histogram({"2019": 0}, tmp_path / "none.png") is None and not (tmp_path / "none.png").exists()
    page = AtlasSegment("a/b", {}, [], {}, {}, {"date_unit": "month", "date_histogram": '{"2019-06":8}'})
    assert len(_bars(segment_dates_chart(page, tmp_path))) == 1 and (tmp_path / "a_b_dates.png").is_file()
    undated = AtlasSegment("c", {}, [], {}, {}, {"images_kept": 3, "date_histogram": "{}"})
    assert segment_dates_chart(undated, tmp_path) is None and segment_dates_chart(AtlasSegment("d", {}, [], {}, {}),
                                                                                tmp_path) is None
