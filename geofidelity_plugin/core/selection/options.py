"""The options of segment selection (method §1) with their defaults — stdlib only, so that the
QGIS side shows the same defaults as the command line without importing numpy or shapely."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import InputError

#: method §1 road classes *(option)*: class → OSM ``highway`` values.
DEFAULT_ROAD_CLASSES: dict[str, tuple[str, ...]] = {
    "primary": ("trunk", "primary"),
    "secondary": ("secondary", "tertiary"),
    "residential": ("residential", "living_street", "unclassified"),
    "pedestrian": ("pedestrian",),
}

#: Class given to named highways outside every listed class (when ``include_other`` is on).
OTHER_CLASS = "other"

#: The public Overpass endpoint, and how often a busy or timed-out answer is asked for again.
DEFAULT_OVERPASS_ENDPOINT = "https://overpass-api.de/api/interpreter"
DEFAULT_OVERPASS_RETRIES = 4


@dataclass
class SelectionOptions:
    """Every method §1 *(option)* with its default; recorded in the run manifest."""

    radius_m: float = 6000.0
    min_length_m: float = 500.0
    clip_length_m: float = 2000.0
    min_spacing_m: float = 400.0
    max_per_city: int = 12
    seed: int = 0
    road_classes: dict[str, tuple[str, ...]] = field(default_factory=lambda: dict(DEFAULT_ROAD_CLASSES))
    neighbourhood_max_distance_m: float | None = 3000.0
    include_other: bool = True
    #: method §1 "context layers": write the map context (other roads, water, green, buildings).
    write_context: bool = True

    @property
    def class_order(self) -> list[str]:
        return list(self.road_classes) + ([OTHER_CLASS] if self.include_other else [])

    def validate(self) -> None:
        """The same checks as the command line's option types (``option_checks``)."""
        from .option_checks import check_number, check_road_classes

        check_number("search radius (m)", self.radius_m, "positive", "6000")
        check_number("minimum length (m)", self.min_length_m, "non-negative", "500")
        check_number("clip length (m)", self.clip_length_m, "positive", "2000")
        check_number("minimum spacing (m)", self.min_spacing_m, "non-negative", "400")
        check_number("maximum number of segments per city", self.max_per_city, "count", "12")
        check_number("random seed", self.seed, "seed", "0")
        if self.neighbourhood_max_distance_m is not None:
            check_number("maximum neighbourhood distance (m)", self.neighbourhood_max_distance_m,
                         "non-negative", "3000")
        if self.clip_length_m < self.min_length_m:
            raise InputError(f"clip length {self.clip_length_m} m is shorter than the minimum length "
                             f"{self.min_length_m} m — raise the clip length or lower the minimum")
        check_road_classes(self.road_classes)
