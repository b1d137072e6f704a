"""Export fields to plain text: HTML markup out, every word kept, one item per line.

Wahapedia's export carries the site's HTML in its text fields: keyword spans
(``<span class="kwb">ADEPTUS</span>``), tooltip wrappers around them, links to the core rules,
``<b>`` labels, ``<s>`` for keywords a faction lacks, ``<ul><li>`` lists, tables and layout
``<div>``\\ s. The text keeps what a reader sees: a ``<br>``, a block or a list item starts a new
line, list items read ``- item``, and words of adjacent inline elements keep the spacing of the
source. Then every line takes the clean stage's spelling (``normalize_text``).

Speed: fields with neither ``<`` nor ``&`` (most of them) skip HTML parsing altogether; the
others are parsed by lxml's HTML parser and walked as an lxml tree, which is what
beautifulsoup4's ``lxml`` builder does underneath, without building a second tree in Python
(seven times faster on a whole export). ``html_to_text_bs4`` is the same walk over a
BeautifulSoup tree: the tests hold the two to the same text on every field of both exports, and
it is the fallback for a fragment lxml refuses. Results are cached, since the export repeats the
same ability text on many datasheets.

Tables: ``field_parts`` (the rules of Abilities.csv and Detachment_abilities.csv) takes each
table of rows (``html_tables.is_data_table``) out of the text as rows of cells, and notes a
table whose rows are gone: an announcement ("… as shown below.") followed by neither a table
nor a list, a table without a row of text, a table whose values are gone. ``field_text``
(every other field) keeps a table's cells in the text, one row per line, as before.
"""

from __future__ import annotations

import copy
import functools
import re
from typing import Any

import lxml.html
from bs4 import BeautifulSoup
from bs4.element import Comment, NavigableString, Tag
from lxml import etree

from wahanorm.blocks.clean.characters import normalize_text
from wahanorm.blocks.html_tables import (
    TableRows,
    announces_table,
    cell_line,
    die_face,
    is_data_table,
    is_partial,
    table_rows,
    with_die_faces,
)

# Elements that start and end a line of their own.
_BLOCKS = frozenset(
    {
        "p", "div", "table", "tbody", "thead", "tr", "ul", "ol", "h1", "h2", "h3", "h4", "h5",
        "h6", "blockquote", "section", "article", "header", "footer", "dl", "dt", "dd",
    }
)  # fmt: skip
# Elements whose content is never text a reader sees.
_SKIPPED = frozenset({"img", "script", "style", "head", "title", "meta", "link"})
_CELLS = frozenset({"td", "th"})
_WIDE_SPACE = re.compile(r"[ \t\u2000-\u200a\u3000\u00a0]+")
_TAG = re.compile(r"<[A-Za-z/!][^<>]*>")
# A keyword printed in capitals with a letter or two in lower case ("IMpERIUM", "MAllEUS"):
# the source's small-caps font leaking into the text.
_BROKEN_CAPS = re.compile(r"\b(?=[A-Z]{2})(?=\w*[a-z])[A-Za-z]{4,}\b")
# The line a table taken out of the text leaves behind, until the text is joined.
_TABLE_MARK = "\x00table\x00"
Tables = tuple[tuple[tuple[str, ...], ...], ...]
"""Tables of a field, immutable (cached): rows of cells."""


def frozen(tables: list[TableRows]) -> Tables:
    """Tables as tuples (for the cache)."""
    return tuple(tuple(tuple(row) for row in table) for table in tables)


def thawed(tables: Tables) -> list[TableRows]:
    """Tables as lists (for the models)."""
    return [[list(row) for row in table] for table in tables]


@functools.lru_cache(maxsize=65536)
def field_text(raw: str) -> tuple[str, tuple[str, ...]]:
    """A field's text, and notes on what was repaired on the way (``escaped-markup``,
    ``broken-caps:WORD``) so the caller can report them with the field's position."""
    text, _, notes = _field(raw, with_tables=False)
    return text, notes


@functools.lru_cache(maxsize=4096)
def field_parts(raw: str) -> tuple[str, Tables, tuple[str, ...]]:
    """A rule's field: its text without its tables, the tables as rows of cells, and notes
    (``field_text``'s, and ``table-missing:LINE``, ``table-empty``, ``table-partial``)."""
    return _field(raw, with_tables=True)


def _field(raw: str, with_tables: bool) -> tuple[str, Tables, tuple[str, ...]]:
    notes: list[str] = []
    tables: list[TableRows] = []
    if "<" in raw or "&" in raw:
        text = _html(raw, tables if with_tables else None, notes)
        if _TAG.search(text):
            # Markup escaped once more (``&lt;SPAN …&gt;``): its text is what was meant.
            notes.append("escaped-markup")
            text = _html(text, tables if with_tables else None, notes)
    else:
        text = plain_to_text(raw)
    if with_tables:
        notes.extend(missing_tables(text))
        text = strip_marks(text)
    text, fixed = fix_broken_caps(text)
    notes.extend(f"broken-caps:{word}" for word in fixed)
    return text, frozen(tables), tuple(notes)


def _html(raw: str, tables: list[TableRows] | None, notes: list[str]) -> str:
    if tables is None:
        return html_to_text(raw)
    text, found = html_to_parts(raw)
    for table in found:
        if not table:
            notes.append("table-empty")
        elif is_partial(table):
            notes.append("table-partial")
    tables.extend(table for table in found if table)
    return text


def missing_tables(text: str) -> list[str]:
    """``table-missing:LINE`` for each line announcing a table ("… as shown below.") that is
    followed by neither a table (a mark line where one was taken out) nor a list."""
    lines = text.split("\n")
    found: list[str] = []
    for index, line in enumerate(lines):
        if not announces_table(line):
            continue
        after = lines[index + 1] if index + 1 < len(lines) else ""
        if after.startswith("- ") or after == _TABLE_MARK:
            continue
        found.append(f"table-missing:{line}")
    return found


def plain_to_text(raw: str) -> str:
    """A field without markup: each line in the clean spelling, blank lines dropped."""
    if "\n" not in raw:
        return normalize_text(_WIDE_SPACE.sub(" ", raw))
    return _join_lines(raw.split("\n"))


def html_to_text(raw: str) -> str:
    """A field with markup as text: blocks, ``<br>`` and list items on lines of their own,
    list items as ``- item``, every word kept, no markup left."""
    try:
        root = lxml.html.fragment_fromstring(raw, create_parent="div")
    except (etree.ParserError, ValueError):
        return html_to_text_bs4(raw)
    parts: list[str] = []
    _walk_lxml(root, parts, None)
    return _join_lines("".join(parts).split("\n"))


def html_to_parts(raw: str) -> tuple[str, list[TableRows]]:
    """``html_to_text`` with each table of rows taken out as rows of cells (a table without a
    row of text is an empty list); where a table was, the text holds a mark line that
    ``strip_marks`` removes."""
    try:
        root = lxml.html.fragment_fromstring(raw, create_parent="div")
    except (etree.ParserError, ValueError):
        return html_to_parts_bs4(raw)
    parts: list[str] = []
    tables: list[TableRows] = []
    _walk_lxml(root, parts, tables)
    return _join_lines("".join(parts).split("\n")), tables


def strip_marks(text: str) -> str:
    """The text without the lines that mark where tables were taken out."""
    if _TABLE_MARK not in text:
        return text
    return "\n".join(line for line in text.split("\n") if line != _TABLE_MARK)


def _cell_lxml(cell: Any) -> str:
    cell, dice = with_die_faces(cell)
    parts: list[str] = []
    _walk_lxml(cell, parts, None)
    return cell_line(_join_lines("".join(parts).split("\n")).split("\n"), dice)


def _walk_lxml(node: Any, parts: list[str], tables: list[TableRows] | None) -> None:
    if node.text:
        parts.append(node.text.replace("\n", " "))
    for child in node:
        name = child.tag if isinstance(child.tag, str) else None
        if name is not None and name not in _SKIPPED:
            if tables is not None and name == "table" and is_data_table(child):
                tables.append(table_rows(child, _cell_lxml))
                parts.append(f"\n{_TABLE_MARK}\n")
            else:
                _element(child, name, parts, tables)
        if child.tail:
            parts.append(child.tail.replace("\n", " "))


def _element(child: Any, name: str, parts: list[str], tables: list[TableRows] | None) -> None:
    if name == "br":
        parts.append("\n")
    elif name == "li":
        parts.append("\n- ")
        _walk_lxml(child, parts, tables)
        parts.append("\n")
    elif name in _BLOCKS:
        parts.append("\n")
        _walk_lxml(child, parts, tables)
        parts.append("\n")
    elif name in _CELLS:
        _walk_lxml(child, parts, tables)
        parts.append(" ")
    else:
        _walk_lxml(child, parts, tables)


def html_to_text_bs4(raw: str) -> str:
    """``html_to_text`` over a BeautifulSoup tree (lxml builder): the reference the fast walk is
    tested against, and its fallback."""
    soup = BeautifulSoup(raw, "lxml")
    parts: list[str] = []
    _walk(soup, parts, None)
    return _join_lines("".join(parts).split("\n"))


def html_to_parts_bs4(raw: str) -> tuple[str, list[TableRows]]:
    """``html_to_parts`` over a BeautifulSoup tree: its reference and fallback."""
    soup = BeautifulSoup(raw, "lxml")
    parts: list[str] = []
    tables: list[TableRows] = []
    _walk(soup, parts, tables)
    return _join_lines("".join(parts).split("\n")), tables


def _bs4_cells(row: Tag) -> list[Tag]:
    return [c for c in row.children if isinstance(c, Tag) and c.name in _CELLS]


def _bs4_table(table: Tag) -> TableRows | None:
    """The rows of a table of rows (``html_tables.is_data_table``), else None."""
    if table.find("table") is not None:
        return None
    rows = [_bs4_cells(row) for row in table.find_all("tr")]
    if not any(len(cells) >= 2 for cells in rows):
        return None
    texts = [[_bs4_cell(cell) for cell in cells] for cells in rows]
    return [row for row in texts if any(row)]


def _bs4_cell(cell: Tag) -> str:
    faces = [(img, _bs4_face(img)) for img in cell.find_all("img")]
    dice = any(face for _, face in faces)
    if dice:
        cell = copy.copy(cell)
        for img in cell.find_all("img"):
            if face := _bs4_face(img):
                img.insert_after(NavigableString(face))
    parts: list[str] = []
    _walk(cell, parts, None)
    return cell_line(_join_lines("".join(parts).split("\n")).split("\n"), dice)


def _bs4_face(img: Any) -> str | None:
    src = img.get("src") if isinstance(img, Tag) else None
    return die_face(src if isinstance(src, str) else None)


def _walk(node: Tag, parts: list[str], tables: list[TableRows] | None) -> None:
    for child in node.children:
        if isinstance(child, Comment):
            continue
        if isinstance(child, NavigableString):
            # In HTML a line break inside text is only a space.
            parts.append(str(child).replace("\n", " "))
            continue
        if not isinstance(child, Tag):
            continue
        name = child.name
        if name in _SKIPPED:
            continue
        if tables is not None and name == "table" and (rows := _bs4_table(child)) is not None:
            tables.append(rows)
            parts.append(f"\n{_TABLE_MARK}\n")
        elif name == "br":
            parts.append("\n")
        elif name == "li":
            parts.append("\n- ")
            _walk(child, parts, tables)
            parts.append("\n")
        elif name in _BLOCKS:
            parts.append("\n")
            _walk(child, parts, tables)
            parts.append("\n")
        elif name in _CELLS:
            _walk(child, parts, tables)
            parts.append(" ")
        else:
            _walk(child, parts, tables)


def _join_lines(lines: list[str]) -> str:
    out: list[str] = []
    for line in lines:
        text = normalize_text(_WIDE_SPACE.sub(" ", line))
        if text and text != "-":
            out.append(text)
    return "\n".join(out)


def fix_broken_caps(text: str) -> tuple[str, list[str]]:
    """Upper-case keywords printed with stray lower-case letters (``IMpERIUM`` → ``IMPERIUM``);
    returns the text and the words repaired. A word counts when it starts with two capitals and
    at least two thirds of its letters are capitals."""
    if not _BROKEN_CAPS.search(text):
        return text, []
    fixed: list[str] = []

    def repair(match: re.Match[str]) -> str:
        word = match.group(0)
        upper = sum(1 for c in word if c.isupper())
        if upper * 3 < len(word) * 2:
            return word
        fixed.append(word)
        return word.upper()

    return _BROKEN_CAPS.sub(repair, text), fixed
