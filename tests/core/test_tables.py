"""The one table reader and the one JSON reader (issue 40; docs/method.md, "Errors and exit codes"):
each shape of bad input named by file, line and column, with a fix; good variants read whole."""
import pytest

from geofidelity_plugin.core.documents import parse_json_text, read_json
from geofidelity_plugin.core.enumerations import CONDITION
from geofidelity_plugin.core.errors import InputError
from geofidelity_plugin.core.tables import TableSchema, read_table

SCHEMA = TableSchema("test table", ("id", "n"), optional=("condition",), key=("id",), types={"n": "int"},
                     enums={"condition": CONDITION}, fix="correct the file")


@pytest.mark.parametrize("data,words", [
    (b"id,n\n1,2\n3,\xe94\n", ["byte 0xe9 at byte offset 11", "line 3", "column n", "correct the file"]),
    ("id,n\n1,2\n".encode("utf-16"), ["not UTF-8", "UTF-16", "byte 0"]),
    (b"id,n\n1,2\x00\n", ["NUL byte at byte offset 8", "line 2", "column n"]),
    (b"id,n\n1,2,3\n", ["line 2", "3 cells", "2 columns", "'3' has no column"]),
    (b"id,n\n1\n", ["line 2", "1 cells", "no cell for n"]),
    (b"id,n,id\n1,2,3\n", ["line 1", "columns 1 and 3 are both 'id'"]),
    (b"id,n\n1,2\n1,2\n", ["lines 2 and 3 both give id '1'", "the two rows are the same"]),
    (b"id,n\n1,2\n01,3\n1,4\n", ["lines 2 and 4", "they differ in n ('2' and '4')"]),
    (b"", ["is empty"]),
    (b"id,n\n", ["has a header but no rows"]),
    (b"id\n1\n", ["line 1", "lacks column(s) n"]),
    (b"id,n,condition\n1,2,L7\n", ["line 2, column condition", "'L7' is not a known prompt condition"]),
    (b"id,n\n1,2.5\n", ["line 2, column n", "'2.5' is not a whole number"]),
    (b'id,n\n1,"2\n3,4\n', ["line 2", "quote opened in this row is never closed"]),
    (b'id,n\n1,"2"x\n', ["line 2", "quoted cell is followed by more text"]),
    (b"id,n,\n1,2,x\n", ["line 2, column #3", "no name"]),
])
def test_a_bad_table_is_refused_by_file_line_and_column(tmp_path, data, words):
    path = tmp_path / "t.csv"
    path.write_bytes(data)
    with pytest.raises(InputError) as caught:
        read_table(path, SCHEMA)
    message = str(caught.value)
    assert str(path) in message and " — " in message, message
    for word in words:
        assert word in message, message
    assert path.read_bytes() == data


@pytest.mark.parametrize("data", [b"\xef\xbb\xbfid,n\r\n1,2\r\n3,4\r\n", b"id,n\r1,2\r3,4\r", b"id,n\n\n1,2\n \n3,4\n",
                                  b"id , n ,\n 1 , 2 ,\n3,4,\n"])
def test_harmless_variants_are_read_whole(tmp_path, data):
    path = tmp_path / "t.csv"
    path.write_bytes(data)
    table = read_table(path, SCHEMA)
    assert [dict(r) for r in table.rows] == [{"id": "1", "n": "2"}, {"id": "3", "n": "4"}]
    assert table.rows[0].line == (3 if b"\n\n" in data else 2)


def test_legacy_encodings_are_read_with_a_warning_naming_them(tmp_path):
    legacy = TableSchema("city table", ("name",), legacy_encodings=True)
    warnings = []
    text = "name\nTöölö\n"
    for data, encoding in ((text.encode("cp1252"), "cp1252"), (text.encode("utf-16"), "UTF-16")):
        (tmp_path / "c.csv").write_bytes(data)
        assert read_table(tmp_path / "c.csv", legacy, warn=warnings.append).rows[0]["name"] == "Töölö"
        assert encoding in warnings[-1]


def test_a_repeat_that_agrees_may_be_allowed(tmp_path):
    (tmp_path / "t.csv").write_bytes(b"id,n\n1,2\n1,2\n")
    from dataclasses import replace

    assert len(read_table(tmp_path / "t.csv", replace(SCHEMA, repeats_ok=True)).rows) == 2


@pytest.mark.parametrize("text,words", [
    ('{"L1": "a", "L1": "b"}', ["key 'L1' twice", '"a" and "b"']),
    ('{"L1": "a",\n "L1": "a"}', ["key 'L1' twice", "same value"]),
    ('{"L1": ', ["not valid JSON", "line 1, column 8"]),
    ("[1]", ["is not a JSON object", "list"]),
])
def test_a_bad_json_value_is_refused(text, words):
    with pytest.raises(InputError) as caught:
        parse_json_text(text, "prompt templates", "give a JSON object")
    message = str(caught.value)
    assert message.startswith("prompt templates") and message.endswith("give a JSON object")
    for word in words:
        assert word in message, message


def test_a_json_file_names_the_line_of_a_repeated_key_and_refuses_other_encodings(tmp_path):
    path = tmp_path / "m.json"
    path.write_text('{\n "blocks": [],\n "blocks": [1]\n}', encoding="utf-8")
    with pytest.raises(InputError, match=r"key 'blocks' twice \(line 3\)"):
        read_json(path, "release manifest", "download it again")
    path.write_bytes('{"a": "Töölö"}'.encode("latin-1"))
    with pytest.raises(InputError, match="byte 0xf6 at byte offset 8"):
        read_json(path, "release manifest", "download it again")
    path.write_bytes(b'\xef\xbb\xbf{"a": 1}')
    assert read_json(path, "release manifest", "download it again") == {"a": 1}
