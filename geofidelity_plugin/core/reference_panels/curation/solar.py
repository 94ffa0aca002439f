"""Solar elevation for the daytime tier of reference-panel curation (method §2, filter 3:
"solar elevation at capture time and place ≥ 20°").

This is the NOAA solar-position algorithm as laid out in NOAA's "Solar Calculations"
spreadsheet (after Meeus, *Astronomical Algorithms*), written out step by step: Julian century,
the Sun's geometric mean longitude and anomaly, the equation of centre, apparent longitude,
corrected obliquity, declination, the equation of time, the hour angle from true solar time,
the zenith angle, and finally the spreadsheet's piecewise atmospheric-refraction correction.
Its stated accuracy is about 0.01° for dates between 1800 and 2100 — far finer than a 20°
threshold needs. The tests compare it with ``astral`` over a grid of places and dates.

Mapillary's ``captured_at`` is epoch milliseconds in UTC, so no time zone enters: true solar
time is minutes past UTC midnight + equation of time + 4 min per degree of east longitude.
"""
from __future__ import annotations

import math

_MS_PER_DAY = 86_400_000.0
_UNIX_EPOCH_JD = 2_440_587.5  # Julian day of 1970-01-01 00:00 UTC
_J2000_JD = 2_451_545.0


def _sin(deg: float) -> float:
    return math.sin(math.radians(deg))


def _cos(deg: float) -> float:
    return math.cos(math.radians(deg))


def julian_century(when_utc_ms: float) -> float:
    """Julian centuries since J2000.0 for a UTC instant given in epoch milliseconds."""
    julian_day = when_utc_ms / _MS_PER_DAY + _UNIX_EPOCH_JD
    return (julian_day - _J2000_JD) / 36525.0


def sun_declination_and_equation_of_time(when_utc_ms: float) -> tuple[float, float]:
    """The Sun's apparent declination (degrees) and the equation of time (minutes)."""
    t = julian_century(when_utc_ms)
    mean_longitude = (280.46646 + t * (36000.76983 + t * 0.0003032)) % 360.0
    mean_anomaly = 357.52911 + t * (35999.05029 - 0.0001537 * t)
    eccentricity = 0.016708634 - t * (0.000042037 + 0.0000001267 * t)
    centre = (_sin(mean_anomaly) * (1.914602 - t * (0.004817 + 0.000014 * t))
              + _sin(2.0 * mean_anomaly) * (0.019993 - 0.000101 * t)
              + _sin(3.0 * mean_anomaly) * 0.000289)
    true_longitude = mean_longitude + centre
    omega = 125.04 - 1934.136 * t  # longitude of the Moon's ascending node (nutation term)
    apparent_longitude = true_longitude - 0.00569 - 0.00478 * _sin(omega)
    mean_obliquity = 23.0 + (26.0 + (21.448 - t * (46.815 + t * (0.00059 - t * 0.001813))) / 60.0) / 60.0
    obliquity = mean_obliquity + 0.00256 * _cos(omega)
    declination = math.degrees(math.asin(_sin(obliquity) * _sin(apparent_longitude)))

    y = math.tan(math.radians(obliquity / 2.0)) ** 2
    l0 = math.radians(mean_longitude)
    m = math.radians(mean_anomaly)
    e = eccentricity
    equation_of_time = 4.0 * math.degrees(
        y * math.sin(2.0 * l0) - 2.0 * e * math.sin(m) + 4.0 * e * y * math.sin(m) * math.cos(2.0 * l0)
        - 0.5 * y * y * math.sin(4.0 * l0) - 1.25 * e * e * math.sin(2.0 * m))
    return declination, equation_of_time


def refraction_correction(elevation_deg: float) -> float:
    """Approximate atmospheric refraction (degrees) to add to a geometric elevation, as in the
    NOAA spreadsheet: none above 85°, a series in tan(e) above 5°, a polynomial near the horizon
    and a small negative term below it."""
    e = elevation_deg
    if e > 85.0:
        return 0.0
    if e > 5.0:
        tan_e = math.tan(math.radians(e))
        arcsec = 58.1 / tan_e - 0.07 / tan_e ** 3 + 0.000086 / tan_e ** 5
    elif e > -0.575:
        arcsec = 1735.0 + e * (-518.2 + e * (103.4 + e * (-12.79 + e * 0.711)))
    else:
        arcsec = -20.772 / math.tan(math.radians(e))
    return arcsec / 3600.0


def solar_elevation(lon: float, lat: float, when_utc_ms: float, refraction: bool = True) -> float:
    """Apparent solar elevation in degrees above the horizon at ``lon``/``lat`` (WGS84 degrees)
    and the UTC instant ``when_utc_ms`` (epoch milliseconds), refraction included by default.
    """
    if not (math.isfinite(lon) and math.isfinite(lat) and math.isfinite(when_utc_ms)):
        raise ValueError(f"solar_elevation needs finite lon, lat and time, got "
                         f"({lon}, {lat}, {when_utc_ms})")
    if not -90.0 <= lat <= 90.0:
        raise ValueError(f"latitude {lat} is outside [-90, 90]")
    declination, equation_of_time = sun_declination_and_equation_of_time(when_utc_ms)
    minutes_past_midnight = (when_utc_ms % _MS_PER_DAY) / 60_000.0
    true_solar_time = (minutes_past_midnight + equation_of_time + 4.0 * lon) % 1440.0
    hour_angle = true_solar_time / 4.0 - 180.0  # degrees, 0 at local solar noon
    cos_zenith = _sin(lat) * _sin(declination) + _cos(lat) * _cos(declination) * _cos(hour_angle)
    zenith = math.degrees(math.acos(max(-1.0, min(1.0, cos_zenith))))
    elevation = 90.0 - zenith
    return elevation + refraction_correction(elevation) if refraction else elevation
