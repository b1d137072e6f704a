"""Tables of rules text in HTML (the export's fields, a saved page's tooltips and rules boxes):
which ``<table>`` is a table of rows, and its rows of cells as printed.

Wahapedia uses ``<table>`` two ways: as a grid of data (``BATTLE SIZE`` / ``NUMBER OF UNITS``
rows, the Wound roll chart), always the innermost table of a wrapper table, and as a frame
around one box of text (an order, an imperative: one row of one cell). Only the first is a
table: one with no table inside it and at least one row of two or more cells. A frame is
text and stays in the rule's text.

Rows are the ``<tr>``\\ s in order, cells their ``<td>``/``<th>`` in order, each cell's text
on one line (its lines joined by a space) in the clean stage's spelling. The site prints a
roll as a die's picture (``img/d2.png``) and a ``+``: the picture reads as its number
(``2+``), as a player reads it. A caption spanning
the table (``WOUND ROLL``, a unit's name over its rows) is a row of one cell, as the dump
path gives it; spans are not repeated into the rows they cover. A row with no text (the
site's spacer rows) is no row.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from typing import Any

TableRows = list[list[str]]
"""One table: its rows, each a list of cell texts."""

_ANNOUNCES = re.compile(r"\bas shown below\.$", re.IGNORECASE)
# The picture of a die face (``/wh40k10ed/img/d2.png``), and a roll split over two lines by it.
_DIE = re.compile(r"(?:^|/)d([1-6])\.png$")
_DIE_PLUS = re.compile(r"\b([1-6]) \+(?= |$)")


def die_face(src: str | None) -> str | None:
    """The number a die picture shows (``…/img/d2.png`` → ``2``), else None."""
    match = _DIE.search(src or "")
    return match.group(1) if match else None


def with_die_faces(cell: Any) -> tuple[Any, bool]:
    """A copy of an lxml cell whose die pictures are followed by their number (the picture
    itself is no text), and whether it had any."""
    found = False
    for img in cell.iter("img"):
        if die_face(img.get("src")) is not None:
            found = True
            break
    if not found:
        return cell, False
    cell = copy.deepcopy(cell)
    for img in cell.iter("img"):
        face = die_face(img.get("src"))
        if face is not None:
            img.tail = face + (img.tail or "")
    return cell, True


def cell_line(lines: list[str], dice: bool) -> str:
    """A cell's lines on one line; a die's number and the ``+`` printed under it as ``2+``."""
    text = " ".join(lines)
    return _DIE_PLUS.sub(r"\1+", text) if dice else text


def is_data_table(el: Any) -> bool:
    """Whether an lxml element is a table of rows (not a frame, not a wrapper of a table)."""
    if el.tag != "table" or next(el.iterdescendants("table"), None) is not None:
        return False
    return any(len(_cells(row)) >= 2 for row in el.iter("tr"))


def table_rows(el: Any, cell_text: Callable[[Any], str]) -> TableRows:
    """The rows of a data table with the text of each cell; rows without text left out."""
    rows: TableRows = []
    for row in el.iter("tr"):
        cells = [cell_text(cell) for cell in _cells(row)]
        if any(cells):
            rows.append(cells)
    return rows


def _cells(row: Any) -> list[Any]:
    return [cell for cell in row if cell.tag in ("td", "th")]


def is_partial(rows: TableRows) -> bool:
    """Whether cells of a table lost their values: a row with text whose other cells are empty
    or a bare ``+`` (a dice image whose number was the picture, ``2+`` printed as ``+``)."""
    return any(len(row) > 1 and any(cell.strip("+ ") == "" for cell in row[1:]) for row in rows)


def announces_table(line: str) -> bool:
    """Whether a line ends by announcing a table ("… as shown below.")."""
    return bool(_ANNOUNCES.search(line))
