"""Tables a rule announces ("… as shown below.") read into rows, or found missing.

The dumps print such a table in one of two ways, or lose it:

- pipe rows: ``| Strength is TWICE the Toughness | 2+ |`` (one row per line);
- one cell per line: an optional caption and header in capitals, then a label line and a value
  line per row (``Strength is GREATER than the Toughness.`` / ``3+``);
- nothing at all (the site's table was an image, or its cells were empty pipes that the clean
  stage removed): the announcement is then reported, since its rows are gone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_ANNOUNCES = re.compile(r"\bas shown below\.$", re.IGNORECASE)
# What the end of an announcement holds in lower case (of these letters only ASCII ones match
# them ignoring case): the cheap test first, for the pattern is searched along the whole line.
_MAY_ANNOUNCE = "elow."
_PIPE_ROW = re.compile(r"^\|.*\|$")
# A value cell: a roll, a characteristic or a dice expression ("2+", "D6", "-1", "+").
_VALUE = re.compile(r"^[0-9D+\-–\"*/ ]{1,8}$")


@dataclass
class RuleTables:
    """A rule's lines without its tables, the tables as rows of cells, and the indexes (into
    the lines given) of announcements whose table is not there."""

    lines: list[str]
    tables: list[list[list[str]]] = field(default_factory=list)
    missing: list[int] = field(default_factory=list)
    partial: list[int] = field(default_factory=list)


def read_tables(lines: list[str]) -> RuleTables:
    """Each table announced in ``lines`` taken out of them as rows."""
    result = RuleTables(lines=[])
    index = 0
    while index < len(lines):
        line = lines[index]
        result.lines.append(line)
        index += 1
        if not (_MAY_ANNOUNCE in line[-7:].lower() and _ANNOUNCES.search(line)):
            continue
        rows, used = _rows(lines, index)
        if not rows:
            result.missing.append(index - 1)
            continue
        if any(cell.strip("+ ") == "" for row in rows for cell in row[1:]):
            result.partial.append(index - 1)
        result.tables.append(rows)
        index += used
    return result


def _rows(lines: list[str], start: int) -> tuple[list[list[str]], int]:
    """The rows of the table that starts at ``lines[start]`` and how many lines it takes."""
    end = start
    while end < len(lines) and _PIPE_ROW.match(lines[end]):
        end += 1
    if end > start:
        rows = [[c.strip() for c in x.strip("|").split("|")] for x in lines[start:end]]
        return [r for r in rows if any(r)], end - start
    return _cell_rows(lines, start)


def _cell_rows(lines: list[str], start: int) -> tuple[list[list[str]], int]:
    head = start
    while head < len(lines) and head - start < 2 and lines[head].isupper():
        head += 1
    rows: list[list[str]] = []
    index = head
    while index + 1 < len(lines) and _VALUE.match(lines[index + 1]):
        if _VALUE.match(lines[index]):
            break
        rows.append([lines[index], lines[index + 1]])
        index += 2
    if len(rows) < 2:
        return [], 0
    return [[x] for x in lines[start:head]] + rows, index - start
