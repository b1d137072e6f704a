"""Reading export tables: header names, BOM, trailing pipe, records over several lines, and
diagnostics (never exceptions) for missing tables and columns."""

from __future__ import annotations

from pathlib import Path

from wahanorm.errors import Report
from wahanorm.readers.export.tables import read_table

BOM = b"\xef\xbb\xbf"


def write(folder: Path, name: str, text: str) -> None:
    (folder / name).write_bytes(BOM + text.replace("\n", "\r\n").encode("utf-8"))


def test_columns_by_name_bom_and_trailing_pipe(tmp_path: Path) -> None:
    write(tmp_path, "T.csv", "id|name|\n1|Boyz|\n2|Nobz|\n")
    report = Report()
    table = read_table(tmp_path, "T.csv", "exp", ("name", "id"), report)
    assert table.columns == ("id", "name")
    assert [(r.get("id"), r.get("name")) for r in table] == [("1", "Boyz"), ("2", "Nobz")]
    assert [(r.line_start, r.line_end) for r in table] == [(2, 2), (3, 3)]
    assert report.diagnostics == []


def test_record_spanning_lines_keeps_its_line_break_and_range(tmp_path: Path) -> None:
    # A legend with a line break inside, as one Stratagems.csv row of an export had.
    write(tmp_path, "S.csv", "id|legend|cp|\n1|first half\nsecond half|2|\n2|one line|1|\n")
    table = read_table(tmp_path, "S.csv", "exp", ("id", "legend", "cp"), Report())
    first, second = table.records
    assert first.get("legend") == "first half\nsecond half"
    assert first.get("cp") == "2"
    assert (first.line_start, first.line_end) == (2, 3)
    assert (second.get("id"), second.line_start) == ("2", 4)


def test_short_record_is_reported_not_glued_to_the_next(tmp_path: Path) -> None:
    write(tmp_path, "S.csv", "id|name|cp|\n1|Lost\n2|Kept|1|\n")
    report = Report()
    table = read_table(tmp_path, "S.csv", "exp", ("id", "name", "cp"), report)
    assert [r.get("id") for r in table] == ["1", "2"]
    assert table.records[0].get("cp") == ""
    assert [(d.code, d.line, d.path) for d in report.diagnostics] == [
        ("short-record", 2, "exp/S.csv")
    ]


def test_unknown_and_missing_columns_are_diagnostics(tmp_path: Path) -> None:
    write(tmp_path, "T.csv", "id|colour|\n1|red|\n")
    report = Report()
    table = read_table(tmp_path, "T.csv", "exp", ("id", "name"), report)
    assert table.records[0].get("name") == ""
    found = {(d.severity, d.code, d.message) for d in report.diagnostics}
    assert found == {
        ("info", "unknown-column", "T.csv: column 'colour' is not read by wahanorm"),
        ("warning", "missing-column", "T.csv: no column 'name'; its values read as empty"),
    }


def test_a_column_named_twice_is_said_and_read_from_its_last_copy(tmp_path: Path) -> None:
    # A short record that does not reach the second copy reads it as empty, as any short
    # record's missing fields: never the first copy's value under the second copy's name.
    write(tmp_path, "R.csv", "id|name|name|\n1|First|Second|\n2|Short\n")
    report = Report()
    table = read_table(tmp_path, "R.csv", "exp", ("id", "name"), report)
    assert [r.get("name") for r in table] == ["Second", ""]
    found = [(d.severity, d.code, d.line, d.message) for d in report.diagnostics]
    assert found == [
        (
            "warning",
            "repeated-column",
            1,
            "R.csv: column 'name' is named 2 times; the last one is read",
        ),
        ("warning", "short-record", 3, "R.csv: record has 2 of 3 fields; the rest read as empty"),
    ]


def test_missing_table_reads_empty_with_a_warning(tmp_path: Path) -> None:
    report = Report()
    table = read_table(tmp_path, "Stratagems.csv", "exp", ("id",), report)
    assert len(table) == 0 and not table.present
    assert [(d.code, d.path) for d in report.diagnostics] == [
        ("missing-table", "exp/Stratagems.csv")
    ]


def test_undecodable_bytes_are_an_error_and_the_rest_is_read(tmp_path: Path) -> None:
    (tmp_path / "T.csv").write_bytes(b"id|name|\r\n1|Bad \xff name|\r\n")
    report = Report()
    table = read_table(tmp_path, "T.csv", "exp", ("id", "name"), report)
    assert table.records[0].get("name") == "Bad \ufffd name"
    assert [d.code for d in report.diagnostics] == ["encoding-lost"]
