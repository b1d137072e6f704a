"""HTML → text: the one walker for saved pages, the export's HTML fields and any other HTML.

The text is what a reader of the page sees, line by line: a block element (paragraph, div,
heading, list, table row, table cell …) and a ``<br>`` start a new line; a list item is a line
that a renderer prints after ``- ``; white space runs (a line end in the source included) are one
space; the words of adjacent inline elements keep the spacing of the source. Scripts, styles,
forms, pictures, navigation and the like are never text. A run of alternatives (the site prints a
keyword once per filter and hides all but one: ``snFl`` spans, or any element hidden by
``display:none`` right after a hidden sibling) shows its first copy only.

``walk`` gives ``TextLine``\\ s: each knows how deep in lists it sits (``depth``), whether it
opens a list item (``item``) and whether that list is numbered (``ordered``), so a renderer can
print nested lists indented (``nested_lines``) or flat, the way every reader prints them today
(``flat_lines``). A line can also be a mark: where a separator (``split_on``) or a table taken
out of the text stood.

What callers differ in are the parameters of ``Walk``: classes left out (``skip``), classes that
split the text (a page's ``dsLineHor`` between abilities), tables of rows taken out as rows of
cells (``walk(..., tables=[])``, see ``html_tables``), containers of site chrome dropped by a word
of their id or class (cookie banners and ads of other HTML), and whether lines take the clean
stage's spelling (HTML that a text reader reads next keeps its characters for that reader's own
clean stage, which reports what it repairs).

The lines are enough to build the 11th edition's rules structure from (``blocks.rules_text``:
a paragraph and the list printed after it, items with their sub-items): depth-0 lines are
paragraphs, an ``item`` line at depth *d* opens an item under the last open item at depth
*d* − 1, other lines at depth *d* continue it. The site's own marks of that structure are
fields of a line: an item's label (``span.redPad`` / ``div.redPad`` at the item's start, a
mode's name) and an extra cost (``div.str11CP2``, printed before the list whose items it
prices). Given a ``commentary`` list, a commentary box (``div.blackComment`` headed by a
``div.bcHeader``; ``div.redExample``, an example or a designer's note, titled by its bold lead)
is walked apart into it instead of the lines; a ``blackComment`` without a header (an ability a
rule grants) is rules text and stays. The FAQ and errata boxes under a rule
(``faqErrataStrat``, ``faqErrataSpoiler``) are never its text.

The walk is an ``lxml.etree.iterwalk`` over the tree, no recursion: time is linear and a
document nested thousands deep is no problem.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

from lxml import etree

from wahanorm.blocks.clean.characters import normalize_text
from wahanorm.blocks.html_tables import (
    TableRows,
    cell_line,
    is_data_table,
    table_rows,
    with_die_faces,
)

Element = Any
"""An ``lxml.html.HtmlElement`` (lxml ships no type information)."""

# Never text: scripts, styles, forms and their controls, pictures and embedded objects, the
# document head, navigation.
NEVER_TEXT = frozenset(
    {"script", "style", "noscript", "template", "head", "title", "meta", "link", "img", "svg",
     "canvas", "iframe", "object", "embed", "form", "button", "input", "select", "option",
     "textarea", "nav"}
)  # fmt: skip
# Elements that start and end a line of text (list items and lists are blocks too).
BLOCKS = frozenset(
    {"address", "article", "aside", "blockquote", "caption", "dd", "div", "dl", "dt", "fieldset",
     "figcaption", "figure", "footer", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr",
     "main", "p", "pre", "section", "table", "tbody", "thead", "tfoot", "tr", "td", "th"}
)  # fmt: skip
_LISTS = frozenset({"ul", "ol"})
# Elements whose end ends a line.
_BREAKS = BLOCKS | _LISTS | {"li", "br"}
# Inline elements that, without attributes, need no look at all (most elements of a field).
_INLINE = frozenset({"b", "i", "u", "s", "em", "strong", "span", "a", "sup", "sub", "small"})
# The site's filter copies of one keyword, all hidden but the one the filter shows.
ALTERNATIVE_CLASSES = frozenset({"snFl"})
# A characteristic box inside a rule ("LD" over "+1"): one line.
ONE_LINE_CLASSES = frozenset({"dsCharWrap"})
# Containers of cookie/consent banners and ads, by a whole word of their id or class.
CHROME = re.compile(r"(?:^|[\s_-])(?:cookie|consent|gdpr|advert|adsbygoogle|ad|ads)(?:$|[\s_-])")
_HIDDEN = re.compile(r"display\s*:\s*none", re.I)
_FRAGMENT_PARSER = etree.HTMLParser(huge_tree=True)
"""libxml2's own limits lifted (a text or attribute past 10 MB, 256 levels): an export field is
bounded by its table's size limit, and a fragment nested past the 2,048 levels ``huge_tree``
still stops at is built again from the parser's events, whole (``_deep_document``)."""

# Never rules text on the site: the FAQ / errata boxes printed under a rule or card.
SITE_SKIP = frozenset({"faqErrataStrat", "faqErrataSpoiler"})
# An item's label at its start (a mode's name), an extra cost beside the next list.
LABEL_CLASSES = frozenset({"redPad"})
COST_CLASSES = frozenset({"str11CP2"})
# Commentary: a box headed by its title, and the example / designer's note boxes.
COMMENT_CLASSES = frozenset({"blackComment"})
COMMENT_TITLE_CLASSES = frozenset({"bcHeader"})
EXAMPLE_CLASSES = frozenset({"redExample"})
_LEAD_TAGS = frozenset({"b", "strong"})
_MAX_LEAD_WORDS = 4

SPLIT = "split"
"""The mark of a separator element (``Walk.split_on``)."""
TABLE = "table"
"""The mark of a table of rows taken out of the text."""


class TextLine(NamedTuple):
    """One line of text as the page shows it."""

    text: str
    depth: int = 0
    """The list items the line sits in: 0 outside every list, 1 in an item of a list, 2 in an
    item of a list inside an item …"""
    item: bool = False
    """The line opens a list item (printed after ``- ``); its other lines continue it."""
    ordered: bool = False
    """The innermost list is numbered (``<ol>``)."""
    mark: str | None = None
    """``SPLIT`` or ``TABLE`` for a line that only marks where something stood (text empty)."""
    label: str | None = None
    """For a line that opens an item: the label the source marks at the item's start, without
    its colon (``Into the Fray``); ``text`` is then the rest (empty for a label alone)."""
    cost: str | None = None
    """For a line that opens an item: the extra cost printed beside its list (``+1CP``)."""


class Box(NamedTuple):
    """A commentary box walked apart from the text: its title and its own lines."""

    title: str | None
    lines: tuple[TextLine, ...]


@dataclass(frozen=True, slots=True)
class Walk:
    """What a caller asks of the walk."""

    skip: frozenset[str] = frozenset()
    """Classes whose elements are left out (their tails kept)."""
    split_on: frozenset[str] = frozenset()
    """Classes whose elements become a ``SPLIT`` mark line."""
    chrome: bool = False
    """Drop containers of site chrome by a word of their id or class (``CHROME``)."""
    clean: bool = True
    """Lines in the clean stage's spelling (``normalize_text``); else only white space
    collapsed."""
    alternatives: frozenset[str] = field(default=ALTERNATIVE_CLASSES)
    one_line: frozenset[str] = field(default=ONE_LINE_CLASSES)
    labels: frozenset[str] = field(default=LABEL_CLASSES)
    """Classes of an item's label, read when the element opens the item."""
    costs: frozenset[str] = field(default=COST_CLASSES)
    """Classes of an extra cost printed before the list whose items it prices."""
    comments: frozenset[str] = field(default=COMMENT_CLASSES | EXAMPLE_CLASSES)
    """Classes of commentary boxes (walked apart when the caller collects commentary)."""

    watched: frozenset[str] = field(init=False, repr=False, compare=False)
    """Every class above: an element with none of them needs no further look."""

    def __post_init__(self) -> None:
        watched = self.skip | self.split_on | self.one_line | self.labels | self.costs
        object.__setattr__(self, "watched", watched | self.comments)

    def but(self, skip: Iterable[str] = (), split_on: Iterable[str] = ()) -> Walk:
        """These options with more ``skip`` and ``split_on`` classes (the page readers' calls)."""
        if not skip and not split_on:
            return self
        return replace(
            self, skip=self.skip | frozenset(skip), split_on=self.split_on | frozenset(split_on)
        )


SITE = Walk(skip=SITE_SKIP)
"""Wahapedia's own HTML: saved pages and the export's fields."""
OTHER_HTML = Walk(
    chrome=True,
    clean=False,
    one_line=frozenset(),
    labels=frozenset(),
    costs=frozenset(),
    comments=frozenset(),
)
"""HTML that is no Wahapedia page, read as a text dump next."""


def parse_fragment(raw: str) -> Element:
    """An HTML fragment (an export field) as the ``body`` element holding it. Unlike
    ``lxml.html.fragment_fromstring`` this never fails (a fragment that looks like a whole
    document, ``<html>`` alone, is still a body's content), and its elements are plain lxml
    elements: ``lxml.html`` picks a Python class for each element it hands out, which made
    parsing and walking a field twice as slow."""
    wrapped = f"<html><body>{raw}</body></html>"
    root = etree.fromstring(wrapped, _FRAGMENT_PARSER)
    if _hit_limit(_FRAGMENT_PARSER):
        root = _deep_document(wrapped)
    body = root.find("body")
    return body if body is not None else root


def parse_document(text: str) -> Element | None:
    """A whole HTML document as its root element (plain lxml elements), or None when it holds
    no document. libxml2 stops building a tree 256 levels deep and drops the rest; a document
    nested deeper is built again from the parser's events, whole. (``huge_tree``: libxml2's
    10 MB cut of a text or attribute lifted; the input is bounded by its size limit.)"""
    parser = etree.HTMLParser(huge_tree=True)
    try:
        root = etree.fromstring(text, parser)
    except ValueError:
        # A declared encoding in a str makes lxml refuse it; give it bytes instead.
        parser = etree.HTMLParser(encoding="utf-8", huge_tree=True)
        try:
            root = etree.fromstring(text.encode("utf-8"), parser)
        except (etree.LxmlError, ValueError):
            return None
    if _hit_limit(parser):
        root = _deep_document(text)
    return root


def _hit_limit(parser: Any) -> bool:
    """Whether the last parse stopped at one of libxml2's limits (its error log says so)."""
    return any(error.type_name == "ERR_RESOURCE_LIMIT" for error in parser.error_log)


class _TreeBuilder:
    """A parser target building a tree as the events come: no depth limit, and a tag or
    attribute name lxml refuses is left out instead of failing the document."""

    def __init__(self) -> None:
        self.root = etree.Element("html")
        self.open: list[Element] = []
        self.last: Element = self.root
        self.tail = False  # text goes to the tail of ``last`` (it was closed), else its text

    def start(self, tag: str, attrib: dict[str, str]) -> None:
        parent = self.open[-1] if self.open else None
        try:
            el = self.root if parent is None else etree.SubElement(parent, tag)
        except ValueError:
            el = etree.SubElement(parent, "span")
        for name, value in attrib.items():
            with contextlib.suppress(ValueError):
                el.set(name, value)
        self.open.append(el)
        self.last, self.tail = el, False

    def end(self, tag: str) -> None:
        if self.open:
            self.last, self.tail = self.open.pop(), True

    def data(self, text: str) -> None:
        if self.tail:
            self.last.tail = (self.last.tail or "") + text
        else:
            self.last.text = (self.last.text or "") + text

    def close(self) -> Element:
        return self.root


def _deep_document(text: str) -> Element:
    builder = _TreeBuilder()
    parser = etree.HTMLParser(target=builder, encoding="utf-8", huge_tree=True)
    with contextlib.suppress(etree.LxmlError):
        etree.fromstring(text.encode("utf-8"), parser)
    return builder.root


def walk(
    el: Element,
    options: Walk = SITE,
    tables: list[TableRows] | None = None,
    commentary: list[Box] | None = None,
) -> list[TextLine]:
    """The lines of an element (its own tail left out). Given ``tables``, each table of rows
    is appended to it as rows of cells and leaves a ``TABLE`` mark in the lines; given
    ``commentary``, each commentary box is appended to it and left out of the lines."""
    walker = _Walker(options, tables, commentary)
    walker.element(el)
    walker.flush()
    walker.end_walk()
    return walker.lines


def walk_nodes(
    text: str | None,
    nodes: Iterable[Element],
    options: Walk = SITE,
    tables: list[TableRows] | None = None,
    commentary: list[Box] | None = None,
) -> list[TextLine]:
    """The lines of a run of sibling nodes: a leading text, then each node with its tail."""
    walker = _Walker(options, tables, commentary)
    walker.add(text)
    for node in nodes:
        if isinstance(node.tag, str):
            walker.element(node)
        walker.add(node.tail)
    walker.flush()
    walker.end_walk()
    return walker.lines


def item_text(line: TextLine) -> str:
    """What follows an item's ``- ``: its label (and cost in brackets) and its text:
    ``Into the Fray [+1CP]:``, ``Leap to Defend: When …``; a line that opens no item as it is."""
    if not line.item or (line.label is None and line.cost is None):
        return line.text
    head = " ".join(x for x in (line.label, f"[{line.cost}]" if line.cost else None) if x)
    if line.label is None:
        return f"{head} {line.text}".rstrip()
    return f"{head}: {line.text}".rstrip()


def flat_lines(lines: Iterable[TextLine], split: str | None = None) -> list[str]:
    """Lines flat, as a text dump prints them: a list item ``- text`` at any depth, its other
    lines as they are; marks left out, or printed as ``split`` where a separator stood."""
    out: list[str] = []
    for line in lines:
        if line.mark is not None:
            if line.mark == SPLIT and split is not None:
                out.append(split)
        else:
            out.append(f"- {item_text(line)}" if line.item else line.text)
    return out


def nested_line(line: TextLine) -> str:
    """One line with its list's nesting shown: an item two spaces further in per level
    (``- a`` / ``  - a.1``), an item's other lines at its text's column."""
    if line.depth == 0:
        return line.text
    if line.item:
        return f"{'  ' * (line.depth - 1)}- {item_text(line)}"
    return f"{'  ' * line.depth}{line.text}"


def nested_lines(lines: Iterable[TextLine], split: str | None = None) -> list[str]:
    """Lines with nested lists shown (``nested_line``), the way the contract's texts hold
    them; marks left out, or printed as ``split`` where a separator stood."""
    out: list[str] = []
    for line in lines:
        if line.mark is not None:
            if line.mark == SPLIT and split is not None:
                out.append(split)
        else:
            out.append(nested_line(line))
    return out


def is_alternative(el: Element, classes: frozenset[str] = ALTERNATIVE_CLASSES) -> bool:
    """An element the site prints as one of several copies, all hidden but one: a class in
    ``classes``, or hidden by its style."""
    return _is_alternative(el, str(el.get("class") or "").split(), classes)


def is_chrome(el: Element) -> bool:
    """A container of site chrome: a word of its id or class says cookie, consent, ad …"""
    words = f"{el.get('id') or ''} {el.get('class') or ''}"
    return el.tag not in ("html", "body") and CHROME.search(words.lower()) is not None


class _Walker:
    """One walk: the lines so far, the pieces of the line being read, where in lists it is."""

    __slots__ = (
        "bullet", "commentary", "cost", "costs", "depth", "item_cost", "label", "lines",
        "options", "ordered", "pieces", "tables",
    )  # fmt: skip

    def __init__(
        self, options: Walk, tables: list[TableRows] | None, commentary: list[Box] | None = None
    ) -> None:
        self.options = options
        self.tables = tables
        self.commentary = commentary
        self.lines: list[TextLine] = []
        self.pieces: list[str] = []
        self.depth = 0
        self.bullet = False  # the next line with text opens a list item
        self.ordered: list[bool] = []  # the kinds of the lists the walk is in
        self.costs: list[str | None] = []  # the extra cost of each list the walk is in
        self.cost: str | None = None  # a cost box read, waiting for its list
        self.item_cost: str | None = None  # the cost of the item being opened
        self.label: str | None = None  # the label of the item being opened

    def add(self, text: str | None) -> None:
        if text:
            self.pieces.append(text)

    def flush(self) -> None:
        """End the line being read; a line without text is none (a pending bullet waits for
        the item's first line of text, beside which a browser draws it), unless the item has a
        label: then the label alone opens it."""
        pieces = self.pieces
        text = ""
        if pieces:
            # str.split() cuts at the white space ``\\s`` matches, five times faster than a regex.
            text = " ".join((pieces[0] if len(pieces) == 1 else "".join(pieces)).split())
            pieces.clear()
            if self.options.clean:
                text = normalize_text(text)
        label = self.label if self.bullet else None
        if label is not None:
            text = text.removeprefix(":").lstrip()  # a colon printed after the label's box
        elif not text or (text == "-" and not self.bullet):
            return
        if self.cost is not None:
            self.cost_line()  # a cost box no list followed: its words stay, a line of its own
        ordered = self.ordered[-1] if self.ordered else False
        cost = self.item_cost if self.bullet else None
        self.lines.append(TextLine(text, self.depth, self.bullet, ordered, None, label, cost))
        if self.bullet:
            self.label = self.item_cost = None
        self.bullet = False

    def cost_line(self) -> None:
        cost, self.cost = self.cost, None
        if cost:
            self.lines.append(TextLine(cost, self.depth))

    def end_walk(self) -> None:
        """The end of the walk: a cost box still waiting for its list is a line of its own."""
        if self.cost is not None:
            self.cost_line()

    def mark(self, kind: str) -> None:
        self.flush()
        self.lines.append(TextLine("", self.depth, False, False, kind))

    def element(self, root: Element) -> None:
        """Walk ``root`` and everything under it (its tail is the caller's). The common case
        (an inline or block element, its text) is inline here: this loop is most of the time
        of reading an export."""
        pieces = self.pieces
        events = etree.iterwalk(root, events=("start", "end", "comment", "pi"))
        left_out = None  # the element whose subtree the walk skips: only its tail counts
        for event, el in events:
            if event == "start":
                tag = el.tag
                if tag in _INLINE and not el.attrib:
                    pass  # the most common element: a bare <b>, <i>, <span>
                elif not self.start(el, tag, el is not root):
                    events.skip_subtree()
                    left_out = el
                    continue
                text = el.text
                if text:
                    pieces.append(text)
            elif event == "end":
                if el is left_out:
                    left_out = None
                else:
                    tag = el.tag
                    if tag in _BREAKS:
                        self.end(tag)
                if el is not root:
                    tail = el.tail
                    if tail:
                        pieces.append(tail)
            else:  # a comment or processing instruction: no text, but its tail is
                tail = el.tail
                if tail:
                    pieces.append(tail)

    def start(self, el: Element, tag: str, has_siblings: bool) -> bool:
        """Open an element; False when its content is no text of this walk."""
        if tag in NEVER_TEXT:
            return False
        options = self.options
        cls = el.get("class")
        names = cls.split() if cls else ()
        if names and not options.watched.isdisjoint(names) and not self.classed(el, names):
            return False
        if options.chrome and is_chrome(el):
            return False
        if (
            has_siblings
            and _is_alternative(el, names, options.alternatives)
            and _follows_alternative(el, options.alternatives)
        ):
            return False
        if tag == "table" and self.tables is not None and is_data_table(el):
            self.tables.append(table_rows(el, self.cell))
            self.mark(TABLE)
            return False
        if tag == "li":
            self.flush()
            self.depth += 1
            self.bullet = True
            self.label = None
            self.item_cost = self.costs[-1] if self.costs else None
        elif tag in _LISTS:
            self.flush()
            self.ordered.append(tag == "ol")
            self.costs.append(self.cost)
            self.cost = None
        elif tag in _BREAKS:
            self.flush()
        return True

    def classed(self, el: Element, names: list[str]) -> bool:
        """An element with a class the options name: False when its content is left out
        (skipped, a separator's mark, a characteristic box's one line, a label or cost read
        into the line, a commentary box walked apart)."""
        options = self.options
        if not options.skip.isdisjoint(names):
            return False
        if not options.split_on.isdisjoint(names):
            self.mark(SPLIT)
            return False
        if not options.one_line.isdisjoint(names):
            self.flush()
            self.add(" ".join(t.strip() for t in el.itertext() if t.strip()))
            self.flush()
            return False
        if not options.labels.isdisjoint(names) and self.opens_item():
            label = self.spelt(" ".join("".join(el.itertext()).split())).rstrip(":").rstrip()
            if label:
                self.pieces.clear()
                self.label = label
                return False
        if not options.costs.isdisjoint(names):
            self.flush()
            self.cost = self.spelt(" ".join("".join(el.itertext()).split())) or None
            return False
        if self.commentary is not None and not options.comments.isdisjoint(names):
            box = commentary_box(el, names, options)
            if box is not None:
                self.flush()
                self.commentary.append(box)
                return False
        return True

    def opens_item(self) -> bool:
        """Nothing of the current list item read yet: an element here is at its start."""
        return self.bullet and self.label is None and not "".join(self.pieces).strip()

    def spelt(self, text: str) -> str:
        return normalize_text(text) if self.options.clean else text

    def end(self, tag: str) -> None:
        self.flush()
        if tag == "li":
            self.depth -= 1
            self.bullet = False
            self.label = self.item_cost = None
        elif tag in _LISTS:
            self.ordered.pop()
            self.costs.pop()

    def cell(self, cell: Element) -> str:
        """A table cell's text on one line; a die's picture reads as its number."""
        cell, dice = with_die_faces(cell)
        return cell_line(flat_lines(walk(cell, self.options)), dice)


def commentary_box(el: Element, names: Iterable[str], options: Walk = SITE) -> Box | None:
    """A commentary box: a ``blackComment`` whose first element is its ``bcHeader`` (the title;
    the rest is its text), or an example box titled by its bold lead (``<b>Example:</b> …``).
    None for a ``blackComment`` without a header: an ability the rule grants, rules text."""
    names = set(names)
    first = next((c for c in el if isinstance(c.tag, str)), None)
    plain = replace(options, comments=frozenset())
    if names & COMMENT_CLASSES:
        if first is None or COMMENT_TITLE_CLASSES.isdisjoint(str(first.get("class")).split()):
            return None
        title = " ".join("".join(first.itertext()).split())
        lines = walk_nodes(first.tail, first.itersiblings(), plain)
        return Box(_spelt(title, options) or None, tuple(lines))
    lead = " ".join("".join(first.itertext()).split()) if first is not None else ""
    if (
        first is not None
        and first.tag in _LEAD_TAGS
        and not (el.text or "").strip()
        and lead.endswith(":")
        and len(lead.split()) <= _MAX_LEAD_WORDS
    ):
        lines = walk_nodes(first.tail, first.itersiblings(), plain)
        return Box(_spelt(lead.rstrip(":").rstrip(), options) or None, tuple(lines))
    return Box(None, tuple(walk(el, plain)))


def _spelt(text: str, options: Walk) -> str:
    return normalize_text(text) if options.clean else text


def _is_alternative(el: Element, names: Iterable[str], classes: frozenset[str]) -> bool:
    if not classes.isdisjoint(names):
        return True
    style = el.get("style")
    return style is not None and _HIDDEN.search(style) is not None


def _follows_alternative(el: Element, classes: frozenset[str]) -> bool:
    """Whether an alternative comes right after an alternative sibling, nothing but white
    space between (then it is a further copy)."""
    previous = el.getprevious()
    while previous is not None:
        if previous.tail and previous.tail.strip():
            return False
        if isinstance(previous.tag, str):
            return is_alternative(previous, classes)
        previous = previous.getprevious()
    return False
