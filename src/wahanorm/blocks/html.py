"""The DOM of a saved page: parsing, class tests, source lines, and text as the page shows it.

The page is parsed with lxml's HTML parser directly. beautifulsoup4 over lxml would give the same
tree, but it does not record source lines (``Tag.sourceline`` is only filled by ``html.parser``
and html5lib) and takes some fifteen times as long as lxml alone on a large page.
The text of an element comes from the one HTML walker, ``html_text``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from functools import cache
from typing import Any, NamedTuple, TypeAlias

from lxml import etree
from lxml import html as lxml_html

from wahanorm.blocks.clean.characters import normalize_text
from wahanorm.blocks.html_tables import TableRows
from wahanorm.blocks.html_text import SITE, flat_lines, nested_lines, walk, walk_nodes

Element: TypeAlias = Any
"""An ``lxml.html.HtmlElement`` (lxml ships no type information)."""

_SPACE = re.compile(r"\s+")
SPLIT = "\ue000"
"""A line of its own where a separator element (``dsLineHor``) stood, when asked for."""


MAX_DEPTH = 512
"""The deepest nesting of elements a saved page may have (real pages nest some 20 deep): a page
nested deeper is refused, whole, with an error naming the line (``parse_page``)."""
_PAST_DEPTH = etree.XPath("(" + "/".join(["*"] * MAX_DEPTH) + ")[1]")
"""The first element nested ``MAX_DEPTH`` levels below the root (level by level: linear)."""


class Cut(NamedTuple):
    """Why a page cannot be read whole, and the line where it was cut."""

    line: int
    reason: str


def parse(text: str) -> Element | None:
    """The document's root element, or None when lxml finds no document in the text."""
    return parse_page(text)[0]


def parse_page(text: str) -> tuple[Element | None, Cut | None]:
    """The document's root element (None when lxml finds no document in the text), and why it
    cannot be read whole, if it cannot: what the parser cut (a parser limit hit, from its error
    log) or nesting past ``MAX_DEPTH``.

    libxml2 stops building a tree 256 levels deep and cuts a text or an attribute value past
    10 MB, silently but for its error log. Its ``huge_tree`` lifts both (to 2,048 levels and
    1 GB); our own bounds stand instead: an input is at most ``decode.MAX_INPUT_BYTES``, and a
    page at most ``MAX_DEPTH`` deep. A limit of the parser still hit is said, never a page read
    in part."""
    parser = lxml_html.HTMLParser(huge_tree=True)
    try:
        root = lxml_html.document_fromstring(text, parser=parser)
    except (etree.ParserError, ValueError):
        # A declared encoding in a str makes lxml refuse it; give it bytes instead.
        try:
            parser = lxml_html.HTMLParser(encoding="utf-8", huge_tree=True)
            root = lxml_html.document_fromstring(text.encode("utf-8"), parser=parser)
        except (etree.ParserError, ValueError):
            return None, None
    if not isinstance(root, lxml_html.HtmlElement):
        return None, None
    for error in parser.error_log:
        if error.type_name == "ERR_RESOURCE_LIMIT":
            said = error.message.strip().split(", use ")[0].split(", try ")[0]
            return root, Cut(
                error.line or 1, f"the HTML parser stopped at one of its limits ({said})"
            )
    past: list[Element] = _PAST_DEPTH(root)
    if past:
        return root, Cut(
            past[0].sourceline or 1, f"its elements are nested more than {MAX_DEPTH} levels deep"
        )
    return root, None


def apart(elements: list[Element]) -> int:
    """Take each of ``elements`` (in document order) that lies inside another of them out of
    it, so that each is read over its own content alone; how many were taken out. Those taken
    out go, in document order, into one new element at the end of the document made like the
    parent of the first of ``elements`` (a ``div.tooltip_templates``), each keeping its source line; its tail
    text stays where it was. The list (the order they are read in) is left as it is.

    A page holds its tooltips (or datasheet frames) side by side; a page whose tags do not
    close (a cut or a copy of a part of one) nests each in the one before, and reading each
    over all it holds made reading the page quadratic in its size. The innermost are taken out
    first, so that each move carries its own content only (lxml walks what it moves), and each
    walks up to the nearest one holding it, at most ``MAX_DEPTH`` levels (``parse_page``)."""
    members = set(elements)
    holder: Element | None = None
    moved = 0
    for el in reversed(elements):
        if next((a for a in el.iterancestors() if a in members), None) is None:
            continue
        if holder is None:  # made like the parent of the first (which nothing before holds)
            parent = elements[0].getparent()
            root = el.getroottree().getroot()
            body = root.find("body")
            holder = etree.SubElement(
                body if body is not None else root, parent.tag, attrib=dict(parent.attrib)
            )
        _keep_tail(el)
        holder.insert(0, el)
        moved += 1
    return moved


def _keep_tail(el: Element) -> None:
    """Hand ``el``'s tail text to what comes before it (lxml moves a tail with its element)."""
    if not el.tail:
        return
    before = el.getprevious()
    if before is not None:
        before.tail = (before.tail or "") + el.tail
    else:
        parent = el.getparent()
        parent.text = (parent.text or "") + el.tail
    el.tail = None


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


def text_lines(
    el: Element,
    split_on: Iterable[str] = (),
    skip: Iterable[str] = (),
    tables: list[TableRows] | None = None,
) -> list[str]:
    """The element's text as lines, the way the page shows it (``html_text.walk``): block
    elements break lines, list items start with ``- `` (two spaces further in per level of
    nesting), white space collapsed, the clean stage's spelling, no blank lines. Elements with
    a class in ``split_on`` become a line holding ``SPLIT``; elements with a class in ``skip``
    are left out; given ``tables``, each table of rows is appended to it as rows of cells and
    left out of the lines."""
    return nested_lines(walk(el, SITE.but(skip, split_on), tables), split=SPLIT)


def flat_text_lines(el: Element) -> list[str]:
    """``text_lines`` with every list item at column 0, as the dumps and the export print a
    datasheet's wargear options (an option and the choices it lists)."""
    return flat_lines(walk(el, SITE))


def text(el: Element, skip: Iterable[str] = ()) -> str:
    """The element's text on one line (elements with a class in ``skip`` left out)."""
    return " ".join(flat_lines(walk(el, SITE.but(skip))))


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
    return nested_lines(walk_nodes(parent_text, nodes, SITE.but(skip), tables))
