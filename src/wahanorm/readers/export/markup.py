"""Export fields to plain text: HTML markup out, every word kept, one item per line.

Wahapedia's export carries the site's HTML in its text fields: keyword spans
(``<span class="kwb">ADEPTUS</span>``), tooltip wrappers around them, links to the core rules,
``<b>`` labels, ``<s>`` for keywords a faction lacks, ``<ul><li>`` lists, tables and layout
``<div>``\\ s. A field with markup is read by the one HTML walker (``blocks.html_text``), the
one that reads saved pages: a ``<br>``, a block or a list item starts a new line, list items
read ``- item``, and words of adjacent inline elements keep the spacing of the source; every
line takes the clean stage's spelling (``normalize_text``).

Speed: fields with neither ``<`` nor ``&`` (most of them) skip HTML parsing altogether, and
``field_text`` gives a one-line one its clean spelling without making lines of it; a field of
words in inline elements and ``<br>``\\ s (``simple_lines``) is cut at its breaks without a
parse; the others are parsed by lxml's HTML parser and walked as the lxml tree. Results are
cached, since the export repeats the same ability text on many datasheets
(``tests/test_fast_paths.py`` holds the short ways equal to the whole way on every value of the
real exports).

Tables: ``field_parts`` (the rules of Abilities.csv and Detachment_abilities.csv) takes each
table of rows (``html_tables.is_data_table``) out of the text as rows of cells, and notes a
table whose rows are gone: an announcement ("… as shown below.") followed by neither a table
nor a list, a table without a row of text, a table whose values are gone. ``field_text``
(every other field) keeps a table's cells in the text, a cell per line.
"""

from __future__ import annotations

import functools
import re
from typing import NamedTuple

from wahanorm.blocks.clean.characters import normalize_text
from wahanorm.blocks.html_tables import TableRows, announces_table, is_partial
from wahanorm.blocks.html_text import (
    SITE,
    TABLE,
    Box,
    TextLine,
    flat_lines,
    nested_lines,
    parse_fragment,
    walk,
)

_WIDE_SPACE = re.compile(r"[ \t\u2000-\u200a\u3000\u00a0]+")
_TAG = re.compile(r"<[A-Za-z/!][^<>]*>")
# A keyword printed in capitals with a letter or two in lower case ("IMpERIUM", "MAllEUS"):
# the source's small-caps font leaking into the text.
_BROKEN_CAPS = re.compile(r"\b(?=[A-Z]{2})(?=\w*[a-z])[A-Za-z]{4,}\b")
# What such a keyword holds at least: two capitals, then a small letter before any other
# character (its letters are ASCII to the end of the word). A search for it is twice as quick,
# and most texts have none.
_MAYBE_BROKEN_CAPS = re.compile(r"[A-Z][A-Z]+[a-z]")
Tables = tuple[tuple[tuple[str, ...], ...], ...]
"""Tables of a field, immutable (cached): rows of cells."""


class FieldLines(NamedTuple):
    """A field read: its lines (``html_text.TextLine``), its tables as rows of cells, its
    commentary boxes (when asked for) and notes on what was repaired on the way."""

    lines: tuple[TextLine, ...]
    tables: Tables
    boxes: tuple[Box, ...]
    notes: tuple[str, ...]


def frozen(tables: list[TableRows]) -> Tables:
    """Tables as tuples (for the cache)."""
    return tuple(tuple(tuple(row) for row in table) for table in tables)


def thawed(tables: Tables) -> list[TableRows]:
    """Tables as lists (for the models)."""
    return [[list(row) for row in table] for table in tables]


@functools.lru_cache(maxsize=65536)
def field_text(raw: str) -> tuple[str, tuple[str, ...]]:
    """A field's text (nested lists two spaces further in per level), and notes on what was
    repaired on the way (``escaped-markup``, ``broken-caps:WORD``) so the caller can report
    them with the field's position."""
    if "<" not in raw and "&" not in raw and "\n" not in raw:
        # One line without markup (most fields): ``plain_lines``' clean spelling, and no
        # TextLine made; a list item or a broken capital takes the whole way below. (Three
        # searches for a character are quicker than one regex for all three. In ASCII text
        # the wide spaces are runs of spaces and tabs, which ``normalize_text`` makes one
        # space as well.)
        text = normalize_text(raw if raw.isascii() else _WIDE_SPACE.sub(" ", raw))
        if not text.startswith("- ") and not _broken_caps(text):
            return text, ()
    read = field_lines(raw)
    return "\n".join(nested_lines(read.lines)), read.notes


@functools.lru_cache(maxsize=4096)
def field_parts(raw: str) -> tuple[str, Tables, tuple[str, ...]]:
    """A rule's field: its text without its tables, the tables as rows of cells, and notes
    (``field_text``'s, and ``table-missing:LINE``, ``table-empty``, ``table-partial``)."""
    read = field_lines(raw, with_tables=True)
    return "\n".join(nested_lines(read.lines)), read.tables, read.notes


@functools.lru_cache(maxsize=16384)
def field_lines(raw: str, with_tables: bool = False, with_commentary: bool = False) -> FieldLines:
    """A field as lines: with its tables of rows out of them (``with_tables``; else their
    cells stay, a cell per line), with its commentary boxes apart (``with_commentary``; else
    they stay in the lines)."""
    notes: list[str] = []
    tables: list[TableRows] | None = [] if with_tables else None
    boxes: list[Box] | None = [] if with_commentary else None
    if "<" in raw or "&" in raw:
        # A field of inline words and breaks has no table, no box, and no markup left in its
        # text (its every ``<`` opens a tag, and it has no entity).
        simple = simple_lines(raw)
        if simple is not None:
            lines = simple
        else:
            lines = _read(raw, tables, notes, boxes)
            flat = "\n".join(flat_lines(lines))
            if _TAG.search(flat):
                # Markup escaped once more (``&lt;SPAN …&gt;``): its text is what was meant.
                notes.append("escaped-markup")
                lines = _read(flat, tables, notes, boxes)
        if tables is not None:
            notes.extend(missing_tables(lines))
    else:
        lines = plain_lines(raw)
    lines, fixed = _caps_fixed(lines)
    found_boxes: list[Box] = []
    for box in boxes or []:
        box_lines, box_fixed = _caps_fixed(list(box.lines))
        found_boxes.append(Box(box.title, tuple(box_lines)))
        fixed.extend(box_fixed)
    notes.extend(f"broken-caps:{word}" for word in fixed)
    return FieldLines(
        tuple(lines), frozen([t for t in tables or [] if t]), tuple(found_boxes), tuple(notes)
    )


def _caps_fixed(lines: list[TextLine]) -> tuple[list[TextLine], list[str]]:
    fixed: list[str] = []
    labels = [line.label for line in lines if line.label]
    if _MAYBE_BROKEN_CAPS.search("\n".join([line.text for line in lines] + labels)) is None:
        return lines, fixed  # no line can hold a broken keyword: one look at them all
    out: list[TextLine] = []
    for line in lines:
        text, words = fix_broken_caps(line.text)
        label, label_words = fix_broken_caps(line.label) if line.label else (line.label, [])
        fixed.extend(words + label_words)
        out.append(line._replace(text=text, label=label) if words or label_words else line)
    return out, fixed


# A field whose markup is only words in inline elements (``<b>``, ``<i>``, ``<s>``, ``<a>``,
# ``<span>``, with no attribute but a class, a link, a title or a tooltip's) and line breaks
# (most HTML fields of an export), with no entity and no character libxml2 refuses:
# ``_NOT_SIMPLE_CHARACTER`` and ``_NOT_SIMPLE_TAG`` find anything else (two searches, each
# with a quick scan for its first character, three times faster than one).
_NOT_SIMPLE_CHARACTER = re.compile(r"[&\x00-\x08\x0b-\x1f\ufffe\uffff]")
_NOT_SIMPLE_TAG = re.compile(
    r"<(?!(?:/?(?:b|i|s|a|span)|br ?/?"
    r'|(?:b|i|s|a|span)(?: (?:class|href|title|data-tooltip-content|data-tooltip-anchor)="[^"<>]*")+)>)'
)
_BR = re.compile(r"<br ?/?>")
_ANY_TAG = re.compile(r"<[^>]*>")
_CLASS = re.compile(r'class="([^"]*)"')
_WATCHED = SITE.watched | SITE.alternatives


def simple_lines(raw: str) -> list[TextLine] | None:
    """The lines the walker gives a field of words in inline elements and ``<br>``\\ s, without
    parsing it (None for any other field): each run between two breaks is a line, its tags out
    and its white space one space, in the clean spelling; an empty or ``-`` run is no line. A
    class the walker looks at (``html_text.SITE``'s, ``snFl``) takes the whole way. The tags
    allowed are inline elements in which libxml2 keeps white space between elements as text
    (``tests/test_fast_paths.py`` holds this equal to the walker on every field of the real
    exports)."""
    if _NOT_SIMPLE_CHARACTER.search(raw) is not None or _NOT_SIMPLE_TAG.search(raw) is not None:
        return None
    if 'class="' in raw:
        for found in _CLASS.finditer(raw):
            if not _WATCHED.isdisjoint(found.group(1).split()):
                return None
    lines: list[TextLine] = []
    # Each break a NUL (a character no such field holds), then every tag out, in two passes.
    for run in _ANY_TAG.sub("", _BR.sub("\x00", raw)).split("\x00"):
        text = normalize_text(" ".join(run.split()))
        if text and text != "-":
            lines.append(TextLine(text))
    return lines


def _read(
    raw: str, tables: list[TableRows] | None, notes: list[str], boxes: list[Box] | None
) -> list[TextLine]:
    """The lines of a field with markup; each table it took out noted when empty or partial."""
    if boxes is not None:
        boxes.clear()  # a field read again (escaped once more): its boxes are read again
    if tables is None:
        return walk(parse_fragment(raw), commentary=boxes)
    found: list[TableRows] = []
    lines = walk(parse_fragment(raw), tables=found, commentary=boxes)
    notes.extend(
        "table-empty" if not t else "table-partial" for t in found if not t or is_partial(t)
    )
    tables.extend(found)
    return lines


def missing_tables(lines: list[TextLine]) -> list[str]:
    """``table-missing:LINE`` for each line announcing a table ("… as shown below.") that is
    followed by neither a table (a mark where one was taken out) nor a list."""
    found: list[str] = []
    for index, line in enumerate(lines):
        if line.mark is not None or not announces_table(line.text):
            continue
        after = lines[index + 1] if index + 1 < len(lines) else None
        if after is not None and (after.mark == TABLE or after.item or _bullet(after.text)):
            continue
        found.append(f"table-missing:{'- ' if line.item else ''}{line.text}")
    return found


def _bullet(text: str) -> bool:
    return text.startswith("- ")


def plain_lines(raw: str) -> list[TextLine]:
    """A field without markup: each line in the clean spelling, blank lines dropped; a
    ``- `` line is a list item."""
    if "\n" not in raw:
        return _plain_line(normalize_text(_WIDE_SPACE.sub(" ", raw)))
    out: list[TextLine] = []
    for line in raw.split("\n"):
        text = normalize_text(_WIDE_SPACE.sub(" ", line))
        if text and text != "-":
            out.extend(_plain_line(text))
    return out


def _plain_line(text: str) -> list[TextLine]:
    if text.startswith("- "):
        return [TextLine(text[2:], 1, True)]
    return [TextLine(text)] if text else []


def html_to_text(raw: str) -> str:
    """A field with markup as text: blocks, ``<br>`` and list items on lines of their own,
    list items as ``- item`` (two spaces further in per level), every word kept, no markup
    left."""
    return "\n".join(nested_lines(walk(parse_fragment(raw))))


def _broken_caps(text: str) -> bool:
    return _MAYBE_BROKEN_CAPS.search(text) is not None and _BROKEN_CAPS.search(text) is not None


def fix_broken_caps(text: str) -> tuple[str, list[str]]:
    """Upper-case keywords printed with stray lower-case letters (``IMpERIUM`` → ``IMPERIUM``);
    returns the text and the words repaired. A word counts when it starts with two capitals and
    at least two thirds of its letters are capitals."""
    if not _broken_caps(text):
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
