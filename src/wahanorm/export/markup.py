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
"""

from __future__ import annotations

import functools
import re
from typing import Any

import lxml.html
from bs4 import BeautifulSoup
from bs4.element import Comment, NavigableString, Tag
from lxml import etree

from wahanorm.clean.characters import normalize_text

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


@functools.lru_cache(maxsize=65536)
def field_text(raw: str) -> tuple[str, tuple[str, ...]]:
    """A field's text, and notes on what was repaired on the way (``escaped-markup``,
    ``broken-caps:WORD``) so the caller can report them with the field's position."""
    notes: list[str] = []
    if "<" in raw or "&" in raw:
        text = html_to_text(raw)
        if _TAG.search(text):
            # Markup escaped once more (``&lt;SPAN …&gt;``): its text is what was meant.
            notes.append("escaped-markup")
            text = html_to_text(text)
    else:
        text = plain_to_text(raw)
    text, fixed = fix_broken_caps(text)
    notes.extend(f"broken-caps:{word}" for word in fixed)
    return text, tuple(notes)


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
    _walk_lxml(root, parts)
    return _join_lines("".join(parts).split("\n"))


def _walk_lxml(node: Any, parts: list[str]) -> None:
    if node.text:
        parts.append(node.text.replace("\n", " "))
    for child in node:
        name = child.tag if isinstance(child.tag, str) else None
        if name is not None and name not in _SKIPPED:
            _element(child, name, parts)
        if child.tail:
            parts.append(child.tail.replace("\n", " "))


def _element(child: Any, name: str, parts: list[str]) -> None:
    if name == "br":
        parts.append("\n")
    elif name == "li":
        parts.append("\n- ")
        _walk_lxml(child, parts)
        parts.append("\n")
    elif name in _BLOCKS:
        parts.append("\n")
        _walk_lxml(child, parts)
        parts.append("\n")
    elif name in _CELLS:
        _walk_lxml(child, parts)
        parts.append(" ")
    else:
        _walk_lxml(child, parts)


def html_to_text_bs4(raw: str) -> str:
    """``html_to_text`` over a BeautifulSoup tree (lxml builder): the reference the fast walk is
    tested against, and its fallback."""
    soup = BeautifulSoup(raw, "lxml")
    parts: list[str] = []
    _walk(soup, parts)
    return _join_lines("".join(parts).split("\n"))


def _walk(node: Tag, parts: list[str]) -> None:
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
        if name == "br":
            parts.append("\n")
        elif name == "li":
            parts.append("\n- ")
            _walk(child, parts)
            parts.append("\n")
        elif name in _BLOCKS:
            parts.append("\n")
            _walk(child, parts)
            parts.append("\n")
        elif name in _CELLS:
            _walk(child, parts)
            parts.append(" ")
        else:
            _walk(child, parts)


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
