"""The tables of a Wahapedia CSV export, read by header name.

An export table is pipe-delimited UTF-8 with a byte-order mark, CRLF line ends and a trailing
pipe on every line; it has no quoting, so a field that holds a line break simply continues on
the next physical line. A record is therefore complete once it holds as many pipes as the
header. Columns are found by name (headers change between exports); a column the converter does
not know is reported, a column it needs and does not find reads as empty and is reported, a
missing table reads as empty and is reported. Nothing here raises for bad data.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from operator import itemgetter
from pathlib import Path
from typing import Literal, NamedTuple, cast

from wahanorm.blocks import decode as decoding
from wahanorm.errors import InputError, Report


class Record(NamedTuple):
    """One record of a table: its cells, where each column is among them, and the lines it
    spans (1-based).

    A named tuple of the row's cells and the table's one column → position map, rather than a
    dict per row: an export holds some 160,000 records, and a dict per record was most of the
    time of reading the tables (``_parse`` makes them with ``tuple.__new__``). A record always
    holds a cell for each column (a short record's missing ones empty)."""

    cells: list[str]
    positions: dict[str, int]
    """Column name → position in ``cells``; shared by every record of a table."""
    line_start: int
    line_end: int

    def get(self, column: str) -> str:
        """The raw text of ``column``, or "" when the table has no such column."""
        at = self.positions.get(column)
        return "" if at is None else self.cells[at]

    @property
    def fields(self) -> dict[str, str]:
        """The record's fields by column name (a new dict; for tests and tools)."""
        cells = self.cells
        return {column: cells[at] for column, at in self.positions.items()}


@dataclass
class Table:
    """A table of the export: file name, display path, columns as read, records."""

    name: str
    path: str
    columns: tuple[str, ...] = ()
    records: list[Record] = field(default_factory=list)
    present: bool = False
    positions: dict[str, int] = field(default_factory=dict)
    """Column name → position in a record's cells (the last of two columns of one name)."""

    def __iter__(self) -> Iterator[Record]:
        return iter(self.records)

    def __len__(self) -> int:
        return len(self.records)


def cells_key(table: Table, columns: tuple[str, ...]) -> Callable[[list[str]], tuple[str, ...]]:
    """A function of a record's cells: the cells of ``columns`` in that order, as a tuple (a
    column the table lacks is left out: it is empty on every record alike). Two records agree
    in those columns exactly when their keys are equal."""
    at = [table.positions[column] for column in columns if column in table.positions]
    if len(at) >= 2:
        return cast(Callable[[list[str]], tuple[str, ...]], itemgetter(*at))
    return lambda cells: tuple(cells[i] for i in at)


def read_table(
    folder: Path,
    name: str,
    display: str,
    expected: tuple[str, ...],
    report: Report,
) -> Table:
    """Read ``folder/name``; ``expected`` are the columns the converter uses. A missing table,
    missing column or unknown column becomes a diagnostic on ``display/name``. (The converter
    reads all tables at once through ``ExportContext.load``; this reads one, for tests and
    tools.)"""
    path = f"{display}/{name}"
    text = read_text(folder, name, path, report)
    if text is None:
        report.warning("missing-table", f"the export has no {name}", path=path)
        return Table(name=name, path=path)
    return parse_table(text, name, path, expected, report)


def read_text(
    folder: Path, name: str, path: str, report: Report, budget: int | None = None
) -> str | None:
    """The decoded text of ``folder/name`` (None when there is no such file, or when it is
    refused: reported on ``path`` as ``table-refused``); bytes that are not UTF-8 are replaced
    and reported on ``path``.

    A table is bounded as an input is (``decode.read_bounded``: the per-input size limit,
    checked before it is read and while it is read), and only a regular file of the folder
    itself is read: a symbolic link (even to a table) or anything else by a table's name is
    refused unopened. ``budget``: the bytes the export may still read (its tables together are
    one input, held to the same limit); a table past it is refused too."""
    file = folder / name
    try:
        size = file.lstat().st_size
    except OSError:
        return None
    limit = decoding.MAX_INPUT_BYTES
    try:
        if budget is not None and budget < size <= limit:
            raise InputError(
                f"file is {size} bytes: with the tables read before it, the export would pass "
                f"the {limit} byte limit for one input",
                path=path,
            )
        if size <= limit and budget is not None:
            limit = budget  # a table that grows while read is held to what is left
        raw = decoding.read_bounded(file, path, limit, links=False)
    except InputError as exc:
        report.error(
            "table-refused",
            f"{name} not read ({exc.message}); the rest of the export is read, without "
            f"{LOST.get(name, 'what it holds')}",
            path=path,
        )
        return None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        report.error(
            "encoding-lost",
            f"{name} is not UTF-8 (byte {exc.start}); undecodable bytes replaced",
            path=path,
        )
        return raw.decode("utf-8-sig", errors="replace")


LOST: dict[str, str] = {
    "Factions.csv": "the factions' names",
    "Source.csv": "the source books",
    "Last_update.csv": "the export's date",
    "Datasheets.csv": "every datasheet",
    "Datasheets_abilities.csv": "the datasheets' abilities",
    "Datasheets_keywords.csv": "the datasheets' keywords",
    "Datasheets_models.csv": "the datasheets' profiles",
    "Datasheets_options.csv": "the datasheets' wargear options",
    "Datasheets_wargear.csv": "the datasheets' weapons",
    "Datasheets_unit_composition.csv": "the datasheets' unit composition",
    "Datasheets_models_cost.csv": "the datasheets' points",
    "Datasheets_stratagems.csv": "the datasheets' links to stratagems",
    "Datasheets_enhancements.csv": "the datasheets' links to enhancements",
    "Datasheets_detachment_abilities.csv": "the datasheets' links to detachment rules",
    "Datasheets_leader.csv": "the leaders' links",
    "Stratagems.csv": "every stratagem",
    "Abilities.csv": "the abilities glossary",
    "Enhancements.csv": "every enhancement",
    "Detachment_abilities.csv": "every detachment rule",
    "Detachments.csv": "the detachments",
}
"""What the export loses when a table is refused, for its diagnostic."""


def parse_table(
    text: str,
    name: str,
    path: str,
    expected: tuple[str, ...],
    report: Report,
    optional: frozenset[str] = frozenset(),
) -> Table:
    """The records of a table's decoded text; an ``optional`` column may be absent unreported
    (a column only newer exports have)."""
    table = Table(name=name, path=path, present=True)
    _parse(text, table, expected, report, optional)
    return table


HeaderForm = Literal["export", "resaved", "foreign"]
_COLUMN = re.compile(r"[A-Za-z][A-Za-z0-9_]*")


def header_form(text: str, expected: tuple[str, ...]) -> HeaderForm:
    """What a table's header line is: Wahapedia's own (``id|name|link|``: column names, each
    followed by a pipe, at least one of them one wahanorm knows), the same re-saved by a
    spreadsheet (``"id|name|link|"``, see ``undo_resave``), or anything else (``foreign``)."""
    first = first_line(text)
    if _is_export_header(first, expected):
        return "export"
    undone = _undo_line(first)
    if undone is not None and undone != first and _is_export_header(undone, expected):
        return "resaved"
    return "foreign"


def first_line(text: str) -> str:
    """The first line of a table's text, without its line end (the rest is not copied, as a
    split would: a table is megabytes)."""
    end = text.find("\n")
    return (text if end < 0 else text[:end]).rstrip("\r")


def _is_export_header(line: str, expected: tuple[str, ...]) -> bool:
    cells = line.removesuffix("|").split("|")
    return all(_COLUMN.fullmatch(c) for c in cells) and bool(set(cells) & set(expected))


def undo_resave(text: str) -> str | None:
    """Undo a spreadsheet's re-save of an export table, or None when it cannot be undone exactly.

    The export's tables are stored publicly re-saved: each physical line split at commas and the
    pieces joined with ``|``, a piece holding ``|`` or ``"`` wrapped in double quotes (inner
    quotes doubled). Each line is read back as ``|``-delimited CSV and its fields joined with
    commas; the result is re-saved again and compared with the input, so nothing is guessed."""
    lines = text.replace("\r\n", "\n").split("\n")
    undone: list[str] = []
    for line in lines:
        back = _undo_line(line)
        if back is None or _resave_line(back) != line:
            return None
        undone.append(back)
    return "\r\n".join(undone)


def _undo_line(line: str) -> str | None:
    if not line:
        return line
    try:
        rows = list(csv.reader([line], delimiter="|", quotechar='"', strict=True))
    except csv.Error:
        return None
    return ",".join(rows[0]) if len(rows) == 1 else None


def _resave_line(line: str) -> str:
    if not line:
        return line
    return "|".join(_quoted(piece) for piece in line.split(","))


def _quoted(piece: str) -> str:
    if "|" in piece or '"' in piece:
        return '"' + piece.replace('"', '""') + '"'
    return piece


def _header(line: str) -> tuple[tuple[str, ...], int]:
    """Column names and the number of pipes a complete record holds."""
    pipes = line.count("|")
    cells = line.split("|")
    if cells and cells[-1].strip() == "":
        cells = cells[:-1]
    else:  # no trailing pipe: a record holds one pipe fewer than it has columns
        pipes = len(cells) - 1
    return tuple(c.strip() for c in cells), pipes


def _parse(
    text: str,
    table: Table,
    expected: tuple[str, ...],
    report: Report,
    optional: frozenset[str] = frozenset(),
) -> None:
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if not lines or not lines[0].strip():
        report.warning("table-without-header", f"{table.name} has no header line", path=table.path)
        return
    columns, pipes = _header(lines[0])
    table.columns = columns
    _check_columns(table, expected, report, optional)
    width = len(columns)
    positions = table.positions = {column: at for at, column in enumerate(columns)}
    records = table.records
    counts = [line.count("|") for line in lines]
    make = tuple.__new__
    position = 1
    total = len(lines)
    while position < total:
        line = lines[position]
        count = counts[position]
        start = position
        position += 1
        if count == pipes and pipes:  # the common case: one whole record on one line
            records.append(make(Record, (line.split("|"), positions, position, position)))
            continue
        if not line.strip():
            continue
        # A record short of pipes continues on the next line, unless that line is a whole
        # record of its own (then this one lost its trailing fields and is reported).
        while count < pipes and position < total and counts[position] < pipes:
            line += "\n" + lines[position]
            count = line.count("|")
            position += 1
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
        if len(cells) < width:
            cells.extend([""] * (width - len(cells)))
        records.append(Record(cells, positions, start + 1, position))


def _check_columns(
    table: Table, expected: tuple[str, ...], report: Report, optional: frozenset[str]
) -> None:
    known = set(expected)
    present = set(table.columns)
    if len(present) < len(table.columns):
        for column in sorted(present, key=table.columns.index):
            times = table.columns.count(column)
            if times > 1:
                report.warning(
                    "repeated-column",
                    f"{table.name}: column {column!r} is named {times} times; the last one is read",
                    line=1,
                    path=table.path,
                )
    for column in table.columns:
        if column not in known:
            report.info(
                "unknown-column",
                f"{table.name}: column {column!r} is not read by wahanorm",
                line=1,
                path=table.path,
            )
    for column in expected:
        if column not in present and column not in optional:
            report.warning(
                "missing-column",
                f"{table.name}: no column {column!r}; its values read as empty",
                line=1,
                path=table.path,
            )
