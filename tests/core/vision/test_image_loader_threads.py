"""The image loader from many threads at once (the feature stage decodes a batch on several
threads, method §5 "Decoding"): the process's warning filters come out as they went in."""
from __future__ import annotations

import io
import sys
import warnings
from concurrent.futures import ThreadPoolExecutor

from PIL import Image

from geofidelity_plugin.core.vision.decode_device import cpu_reason
from geofidelity_plugin.core.vision.images import load_rgb_bytes


def test_many_threads_leave_the_warning_filters_as_they_were():
    buffer = io.BytesIO()
    Image.new("RGB", (64, 48), (10, 20, 30)).save(buffer, "JPEG")
    data = buffer.getvalue()
    interval = sys.getswitchinterval()
    before = list(warnings.filters)
    sys.setswitchinterval(1e-6)  # switch threads as often as possible, so that a race shows
    try:
        with ThreadPoolExecutor(8) as pool:
            images = list(pool.map(lambda i: load_rgb_bytes(data, f"photo {i}"), range(6000)))
            reasons = set(pool.map(lambda i: cpu_reason(data, None), range(2000)))
    finally:
        sys.setswitchinterval(interval)
    assert warnings.filters == before, (len(before), len(warnings.filters))
    assert {image.size for image in images} == {(64, 48)} and reasons == {None}
