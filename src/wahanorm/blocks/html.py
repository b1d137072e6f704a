"""The DOM of a saved page: parsing, class tests, source lines, and text as the page shows it.

The page is parsed with lxml's HTML parser directly. beautifulsoup4 over lxml would give the same
tree, but it does not record source lines (``Tag.sourceline`` is only filled by ``html.parser``
and html5lib) and takes 2-3 s on a 3.6 MB Space Marines page where lxml alone takes 0.16 s.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from functools import cache
from typing import Any, TypeAlias

from lxml import etree
from lxml import html as lxml_html

from wahanorm.blocks.clean.characters import normalize_text
from wahanorm.blocks.html_tables import (
    TableRows,
    cell_line,
    is_data_table,
    table_rows,
    with_die_faces,
)

Element: TypeAlias = Any
"""An ``lxml.html.HtmlElement`` (lxml ships no type information)."""

# Never text: scripts, styles, form controls, pictures.
_SKIP = frozenset(
    {"script", "style", "noscript", "template", "img", "select", "option", "button", "input",
     "iframe", "svg", "form", "textarea", "head", "title", "meta", "link"}
)  # fmt: skip
# Elements that start and end a line of text.
_BLOCK = frozenset(
    {"address", "article", "aside", "blockquote", "br", "dd", "div", "dl", "dt", "fieldset",
     "figcaption", "figure", "footer", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li",
     "main", "nav", "ol", "p", "pre", "section", "table", "tbody", "thead", "tfoot", "tr", "td",
     "th", "ul"}
)  # fmt: skip
BREAK = "\n"
_SPACE = re.compile(r"\s+")
SPLIT = "\ue000"
"""A line of its own where a separator element (``dsLineHor``) stood, when asked for."""


def parse(text: str) -> Element | None:
    """The document's root element, or None when lxml finds no document in the text."""
    try:
        root = lxml_html.document_fromstring(text)
    except (etree.ParserError, ValueError):
        # A declared encoding in a str makes lxml refuse it; give it bytes instead.
        try:
            parser = lxml_html.HTMLParser(encoding="utf-8")
            root = lxml_html.document_fromstring(text.encode("utf-8"), parser=parser)
        except (etree.ParserError, ValueError):
            return None
    return root if isinstance(root, lxml_html.HtmlElement) else None


def classes(el: Element) -> list[str]:
    """The class names of an element."""
    return str(el.get("class") or "").split()


def has_class(el: Element, name: str) -> bool:
    """True when ``name`` is one of the element's classes."""
    return name in classes(el)


@cache
def _class_xpath(tag: str, cls: str) -> Any:
    # Compiled once per selector: compiling on every call was a third of the reading time.
    return etree.XPath(f".//{tag}[contains(concat(' ', normalize-space(@class), ' '), ' {cls} ')]")


def select(el: Element, tag: str, cls: str) -> list[Element]:
    """Descendants ``tag.cls`` in document order (``tag`` may be ``*``)."""
    found: list[Element] = _class_xpath(tag, cls)(el)
    return found


def select_one(el: Element, tag: str, cls: str) -> Element | None:
    """The first descendant ``tag.cls``, or None."""
    found = select(el, tag, cls)
    return found[0] if found else None


def children(el: Element) -> Iterator[Element]:
    """Child elements, comments and processing instructions left out."""
    return (c for c in el if isinstance(c.tag, str))


def line_range(el: Element) -> tuple[int, int]:
    """First and last source line of an element (its deepest last descendant, plus the line
    breaks of that descendant's text)."""
    start = el.sourceline or 1
    last = el
    while True:
        kids = [c for c in last if isinstance(c.tag, str)]
        if not kids:
            break
        last = kids[-1]
    end = (last.sourceline or start) + (last.text or "").count("\n")
    return start, max(start, end)


def _is_collapsed_variant(el: Element) -> bool:
    # The site prints a faction keyword once per detachment filter and hides all but one with
    # script ("snFl" spans); the page as read shows only the first.
    return has_class(el, "snFl")


def _walk(
    el: Element,
    out: list[str],
    split_on: frozenset[str],
    skip: frozenset[str],
    tables: list[TableRows] | None = None,
) -> None:
    tag = el.tag
    if not isinstance(tag, str) or tag in _SKIP:
        return
    if tables is not None and tag == "table" and is_data_table(el):
        # A table of rows leaves the text: its rows are the caller's (``html_tables``).
        tables.append(table_rows(el, _cell_line))
        out.append(BREAK)
        return
    cls = classes(el)
    if skip and skip.intersection(cls):
        return
    if split_on and split_on.intersection(cls):
        out.extend((BREAK, SPLIT, BREAK))
        return
    if "dsCharWrap" in cls:
        # A characteristic box inside a rule: "LD +1" on one line.
        out.extend((BREAK, " ".join(t.strip() for t in el.itertext() if t.strip()), BREAK))
        return
    block = tag in _BLOCK
    if block:
        out.append(BREAK)
    if tag == "li":
        out.append("- ")
    if el.text:
        out.append(el.text)
    in_variants = False
    for child in el:
        if isinstance(child.tag, str):
            variant = _is_collapsed_variant(child)
            if not (variant and in_variants):
                _walk(child, out, split_on, skip, tables)
            in_variants = variant
        if child.tail:
            out.append(child.tail)
            if child.tail.strip():
                in_variants = False
    if block:
        out.append(BREAK)


def _cell_line(cell: Element) -> str:
    cell, dice = with_die_faces(cell)
    return cell_line(text_lines(cell), dice)


def text_lines(
    el: Element,
    split_on: Iterable[str] = (),
    skip: Iterable[str] = (),
    tables: list[TableRows] | None = None,
) -> list[str]:
    """The element's text as lines, the way the page shows it: block elements break lines,
    list items start with ``- ``, white space collapsed, the clean stage's spelling, no blank
    lines. Elements with a class in ``split_on`` become a line holding ``SPLIT``; elements with
    a class in ``skip`` are left out; given ``tables``, each table of rows is appended to it
    as rows of cells and left out of the lines."""
    out: list[str] = []
    _walk(el, out, frozenset(split_on), frozenset(skip), tables)
    return _lines(out)


def _lines(out: list[str]) -> list[str]:
    lines = (normalize_text(_SPACE.sub(" ", line)) for line in "".join(out).split(BREAK))
    return [line for line in lines if line and line != "-"]


def text(el: Element, skip: Iterable[str] = ()) -> str:
    """The element's text on one line (elements with a class in ``skip`` left out)."""
    return " ".join(text_lines(el, skip=skip))


def cell_text(el: Element) -> str:
    """The text of a table cell or characteristic box as printed, on one line: unlike ``text``,
    a lone ``-`` (a characteristic the model does not have) is kept."""
    return normalize_text(_SPACE.sub(" ", "".join(el.itertext())).strip())


def nodes_text(
    parent_text: str | None,
    nodes: Iterable[Element],
    skip: Iterable[str] = (),
    tables: list[TableRows] | None = None,
) -> list[str]:
    """Lines of a run of sibling nodes: a leading text, then elements with their tails
    (elements with a class in ``skip`` left out, their tails kept; tables as in
    ``text_lines``)."""
    out: list[str] = [parent_text or ""]
    skipped = frozenset(skip)
    for node in nodes:
        if isinstance(node.tag, str):
            _walk(node, out, frozenset(), skipped, tables)
        if node.tail:
            out.append(node.tail)
    return _lines(out)
