"""The tables of a Wahapedia CSV export, read by header name.

An export table is pipe-delimited UTF-8 with a byte-order mark, CRLF line ends and a trailing
pipe on every line; it has no quoting, so a field that holds a line break simply continues on
the next physical line. A record is therefore complete once it holds as many pipes as the
header. Columns are found by name (headers change between exports); a column the converter does
not know is reported, a column it needs and does not find reads as empty and is reported, a
missing table reads as empty and is reported. Nothing here raises for bad data.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from wahanorm.errors import Report


@dataclass(frozen=True, slots=True)
class Record:
    """One record of a table: its fields by column name and the lines it spans (1-based)."""

    fields: dict[str, str]
    line_start: int
    line_end: int

    def get(self, column: str) -> str:
        """The raw text of ``column``, or "" when the table has no such column."""
        return self.fields.get(column, "")


@dataclass
class Table:
    """A table of the export: file name, display path, columns as read, records."""

    name: str
    path: str
    columns: tuple[str, ...] = ()
    records: list[Record] = field(default_factory=list)
    present: bool = False

    def __iter__(self) -> Iterator[Record]:
        return iter(self.records)

    def __len__(self) -> int:
        return len(self.records)


def read_table(
    folder: Path,
    name: str,
    display: str,
    expected: tuple[str, ...],
    report: Report,
    required: bool = True,
) -> Table:
    """Read ``folder/name``; ``expected`` are the columns the converter uses. A missing table,
    missing column or unknown column becomes a diagnostic on ``display/name``."""
    path = f"{display}/{name}"
    table = Table(name=name, path=path)
    file = folder / name
    if not file.is_file():
        if required:
            report.warning("missing-table", f"the export has no {name}", path=path)
        return table
    raw = file.read_bytes()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        report.error(
            "encoding",
            f"{name} is not UTF-8 (byte {exc.start}); undecodable bytes replaced",
            path=path,
        )
        text = raw.decode("utf-8-sig", errors="replace")
    table.present = True
    _parse(text, table, expected, report)
    return table


def _header(line: str) -> tuple[tuple[str, ...], int]:
    """Column names and the number of pipes a complete record holds."""
    pipes = line.count("|")
    cells = line.split("|")
    if cells and cells[-1].strip() == "":
        cells = cells[:-1]
    else:  # no trailing pipe: a record holds one pipe fewer than it has columns
        pipes = len(cells) - 1
    return tuple(c.strip() for c in cells), pipes


def _parse(text: str, table: Table, expected: tuple[str, ...], report: Report) -> None:
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if not lines or not lines[0].strip():
        report.warning("empty-table", f"{table.name} has no header line", path=table.path)
        return
    columns, pipes = _header(lines[0])
    table.columns = columns
    _check_columns(table, expected, report)
    width = len(columns)
    records = table.records
    index = 1
    total = len(lines)
    while index < total:
        line = lines[index]
        start = index
        index += 1
        if not line.strip():
            continue
        count = line.count("|")
        # A record short of pipes continues on the next line, unless that line is a whole
        # record of its own (then this one lost its trailing fields and is reported).
        while count < pipes and index < total and lines[index].count("|") < pipes:
            line += "\n" + lines[index]
            count = line.count("|")
            index += 1
        if count < pipes:
            report.warning(
                "short-record",
                f"{table.name}: record has {count + 1} of {width} fields; the rest read as empty",
                line=start + 1,
                path=table.path,
            )
        elif count > pipes:
            report.warning(
                "long-record",
                f"{table.name}: record has {count - pipes} separator(s) more than the header; "
                "the extra text is kept in the last field",
                line=start + 1,
                path=table.path,
            )
        cells = line.split("|", width - 1) if count > pipes else line.split("|")
        if count > pipes:
            cells[-1] = cells[-1].removesuffix("|")
        records.append(Record(dict(zip(columns, cells, strict=False)), start + 1, index))


def _check_columns(table: Table, expected: tuple[str, ...], report: Report) -> None:
    known = set(expected)
    present = set(table.columns)
    for column in table.columns:
        if column not in known:
            report.info(
                "unknown-column",
                f"{table.name}: column {column!r} is not read by wahanorm",
                line=1,
                path=table.path,
            )
    for column in expected:
        if column not in present:
            report.warning(
                "missing-column",
                f"{table.name}: no column {column!r}; its values read as empty",
                line=1,
                path=table.path,
            )
