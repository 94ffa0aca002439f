"""City table validation: clear errors that name the problem and the fix."""
import pytest

from geofidelity_plugin.core.errors import InputError
from geofidelity_plugin.core.selection.cities import read_city_table


def _write(tmp_path, text):
    path = tmp_path / "cities.csv"
    path.write_text(text, encoding="utf-8")
    return path


def test_reads_rows_and_aliases(tmp_path):
    path = _write(tmp_path, "City,Country,ISO2,Longitude,Latitude\nHelsinki,Finland,fi,24.94,60.17\n"
                            "London,United Kingdom,GB,-0.12,51.5\n")
    cities = read_city_table(path)
    assert [(c.name, c.country_code, c.lon, c.lat) for c in cities] == [
        ("Helsinki", "FI", 24.94, 60.17), ("London", "GB", -0.12, 51.5)]
    assert [c.driving_side for c in cities] == ["right", "left"]


@pytest.mark.parametrize("text,needle", [
    ("name,country,lon,lat\nA,B,1,2\n", "country_code"),
    ("name,country,country_code,lon\nA,B,FI,1\n", "lat"),
    ("name,country,country_code,lon,lat\nA,B,FI,abc,2\n", "not numbers"),
    ("name,country,country_code,lon,lat\nA,B,FI,200,2\n", "swapped"),
    ("name,country,country_code,lon,lat\nA,B,FI,24,95\n", "swapped"),
    ("name,country,country_code,lon,lat\nA,B,FIN,24,60\n", "alpha-2"),
    ("name,country,country_code,lon,lat\n,B,FI,24,60\n", "empty name"),
    ("name,country,country_code,lon,lat\n", "no rows"),
    ("name,country,country_code,lon,lat\nA,B,FI,24,60\nA,B,FI,25,61\n", "more than once"),
    ("name,country,country_code,lon,lat\nA,B,FI,nan,60\n", "finite"),
])
def test_bad_tables(tmp_path, text, needle):
    with pytest.raises(InputError) as err:
        read_city_table(_write(tmp_path, text))
    assert needle in str(err.value)


def test_missing_file(tmp_path):
    with pytest.raises(InputError, match="not found"):
        read_city_table(tmp_path / "nope.csv")
