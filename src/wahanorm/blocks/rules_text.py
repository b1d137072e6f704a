"""Rules text in the contract's shape, built once here for every reader: the flat text, the
labelled sections, paragraphs with the lists printed after them (items with their own items),
the modes a rule offers and its commentary apart.

What a reader hands in is lines (``html_text.TextLine``): from HTML the walker's lines, which
know how deep in lists they sit, an item's label and extra cost; from a dump its own lines
(``dump_lines``), which know only ``- `` bullets. Then:

- the **flat text**: every line as ``html_text.nested_line`` prints it (an item ``- text``, two
  spaces further in per level; a label and cost ``- Into the Fray [+1CP]:``);
- the **sections**: a *sectioner* says which lines open a labelled section and which belong to
  none (``labelled_rule.line_parts`` for rules: ``grammars/labelled_rule.lark``;
  ``stratagems.line_parts`` for stratagems: ``grammars/stratagem.lark``), reading the lines as
  the grammar always read them (one item per line, flat), so labels are found by their text;
- the **blocks** of each section and of the text outside them: depth-0 lines are a paragraph,
  an item line at depth *d* opens an item under the open item at depth *d* − 1, other lines at
  depth *d* continue it; two lists printed one after the other (a cost box between) are one;
- the **modes**: the first list item that carries each label, in printed order, with its cost
  (``+1CP`` → ``extra_cp`` 1). Derived from the items the source marks, never chosen by words;
- the **commentary**: the boxes the walker took apart (``html_text.Box``), title and text.

A dump marks less (``nest_dump_lines``, the rules its lines make sure of): a line that is only a
cost (``+1CP``) prices the item after it; an item that is only a name and a colon (``- Into the
Fray:``) has no text of its own and heads the bullets after it (up to a cost line, another such
item, or the end of the section; where prose follows them, the section stays flat); and the other
items of the list that holds such a sure mode and open with ``Name:`` are modes too (the sibling
rule: a decision the data made, see the README). A dump has no commentary boxes.

``read_element`` is the one call for an element of a page (a card's text, a tooltip, a rule box).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from wahanorm.blocks.html_tables import TableRows
from wahanorm.blocks.html_text import (
    SITE,
    Box,
    Element,
    TextLine,
    Walk,
    item_text,
    nested_line,
    walk,
    walk_nodes,
)
from wahanorm.blocks.parse.numbers import game_int
from wahanorm.contract.models import Block, Commentary, ListItem, Mode, RuleSection
from wahanorm.errors import ParseFailure

_EXTRA_CP = re.compile(r"^\+?\s*(\d+)\s*CP$", re.I)
_COST_LINE = re.compile(r"^\+\s*\d+\s*CP$", re.I)
# An item that is a name and a colon and nothing else: it heads the items after it.
_NAME_ONLY = re.compile(r"^(?P<name>[^\s:][^:]{0,58}):$")
# An item opening with a name and a colon: a mode's name, where the list holds a sure mode.
_NAMED = re.compile(r"^(?P<name>[A-Z][^:.!?]{0,48}?):\s+(?P<rest>\S.*)$")
_MAX_NAME_WORDS = 6
_COLON_END = (":", ":\n")  # how a text that ``_NAME_ONLY`` matches ends (``$`` so)


@dataclass(frozen=True)
class Part:
    """A run of lines of one section (``label``), or outside every section (``label`` None: an
    intro, or a heading's lines), as a sectioner cut them."""

    label: str | None
    head: TextLine | None = None
    """The line that holds the label (printed as it is in the flat text)."""
    rest: str = ""
    """What follows the label on its line: the section's first line of text."""
    lines: tuple[TextLine, ...] = ()
    """The part's other lines, in order."""

    def content(self) -> list[TextLine]:
        """The section's own lines: the rest of the label's line, then the lines under it."""
        return ([TextLine(self.rest)] if self.rest else []) + list(self.lines)


Sectioner = Callable[[list[str]], "Sections"]
"""The flat lines of a text (one item per line, ``- `` at column 0) → how they fall into
parts."""


@dataclass
class Sections:
    """What a sectioner makes of the flat lines: for each part, its label and the positions of
    its lines (0-based), the label's line first with the rest of it; a failure when the
    grammar cannot read the text (its lines then stay one part outside every section)."""

    parts: list[tuple[str | None, list[tuple[int, str | None]]]] = field(default_factory=list)
    """(label, [(line index, rest)]): ``rest`` is the rest of the line after the label, for the
    label's own line only; None for every other line."""
    failure: ParseFailure | None = None
    repeated: list[str] = field(default_factory=list)
    """Labels printed twice whose second copy was dropped (a dump's repeat)."""


@dataclass
class RulesText:
    """A rules text in the contract's shape."""

    text: str = ""
    """The flat text, every part in printed order."""
    blocks: list[Block] = field(default_factory=list)
    """The text outside every section as paragraphs with their lists."""
    sections: list[RuleSection] = field(default_factory=list)
    modes: list[Mode] = field(default_factory=list)
    commentary: list[Commentary] = field(default_factory=list)
    failure: ParseFailure | None = None
    """The sectioner's grammar could not read the text (then it is all outside sections)."""
    repeated: list[str] = field(default_factory=list)
    """Labels printed twice whose repeat was dropped (a dump's)."""

    def section_text(self, label: str) -> str | None:
        """The text of the first section labelled ``label`` (``EFFECT``), or None."""
        for section in self.sections:
            if section.label == label:
                return section.text or None
        return None


# --- lines in ---------------------------------------------------------------------------------


def dump_lines(texts: Iterable[str]) -> list[TextLine]:
    """A dump's lines as the walker's: a ``- `` line opens an item one level deep, every other
    line is a paragraph (a dump does not say which item a plain line continues)."""
    out: list[TextLine] = []
    for text in texts:
        text = text.strip()
        if text.startswith("- "):
            out.append(TextLine(text[2:].strip(), 1, True))
        elif text:
            out.append(TextLine(text))
    return out


def flat_text_lines(lines: Sequence[TextLine]) -> list[str]:
    """The lines as a grammar reads them: one item per line, ``- `` at column 0."""
    return [f"- {item_text(line)}" if line.item else line.text for line in lines]


def content_lines(lines: Iterable[TextLine]) -> list[TextLine]:
    """The lines that hold text (the walker's marks left out)."""
    return [line for line in lines if line.mark is None]


# --- the builder ------------------------------------------------------------------------------


def build(
    lines: Iterable[TextLine],
    sectioner: Sectioner,
    boxes: Iterable[Box] = (),
    dump: bool = False,
) -> RulesText:
    """A rules text from its lines: cut by ``sectioner``; a dump's lines (``dump``) nested where
    they make it sure (``nest_dump_lines``); commentary from the walker's ``boxes``."""
    lines = content_lines(lines)
    cut = sectioner(flat_text_lines(lines))
    result = build_parts(_parts(lines, cut), boxes, dump)
    result.failure, result.repeated = cut.failure, list(cut.repeated)
    return result


def dump_sections(sections: Iterable[tuple[str, list[str]]]) -> RulesText:
    """A dump's labelled sections (``label``, its lines, the rest of the label's line first),
    as its grammar cut them: in the contract's shape, nested where the lines make it sure."""
    parts = [Part(label.upper(), lines=tuple(dump_lines(texts))) for label, texts in sections]
    return build_parts(parts, dump=True)


def build_parts(parts: list[Part], boxes: Iterable[Box] = (), dump: bool = False) -> RulesText:
    """A rules text from its parts (``build``, ``dump_sections``)."""
    if dump:
        parts = [_nested_part(part) for part in parts]
    result = RulesText(commentary=[commentary(box) for box in boxes])
    printed: list[str] = []  # the flat text's lines
    offered: list[tuple[str | None, list[Block]]] = []
    for part in parts:
        # each line printed once: the flat text and the section's text share the part's lines
        # (the section's first line is the rest of the label's line, a line at depth 0)
        under = [nested_line(x) for x in part.lines]
        if part.head is not None:
            printed.append(nested_line(part.head))
        printed.extend(under)
        blocks = to_blocks(part.content())
        if part.label is None:
            result.blocks.extend(blocks)
        else:
            text = "\n".join([part.rest, *under] if part.rest else under)
            result.sections.append(RuleSection(label=part.label, text=text, blocks=blocks))
        offered.append((part.label, blocks))
    result.text = "\n".join(printed)
    result.modes = modes_of(offered)
    return result


def _parts(lines: list[TextLine], cut: Sections) -> list[Part]:
    parts: list[Part] = []
    for label, positions in cut.parts:
        if not positions:
            continue
        if label is None:
            parts.append(Part(None, lines=tuple(lines[i] for i, _ in positions)))
            continue
        (first, rest), *others = positions
        parts.append(Part(label, lines[first], rest or "", tuple(lines[i] for i, _ in others)))
    return parts


def whole(lines: list[str]) -> Sections:
    """A sectioner that cuts nothing: every line outside sections."""
    return Sections(parts=[(None, [(i, None) for i in range(len(lines))])])


def to_blocks(lines: Sequence[TextLine]) -> list[Block]:
    """Paragraphs and the lists printed after them; items with their own items."""
    if all(line.depth == 0 and not line.item for line in lines):
        # paragraph lines only (most texts): one paragraph, as the walk below makes it
        texts = [line.text for line in lines]
        return [Block(text="\n".join(texts), items=[], ordered=False)] if texts else []
    blocks: list[_Block] = []
    open_items: list[_Item] = []  # the open item at each depth (index 0: depth 1)
    for line in lines:
        if line.depth == 0 and not line.item:
            if not blocks or blocks[-1].items:
                blocks.append(_Block())
            blocks[-1].lines.append(line.text)
            open_items.clear()
            continue
        if not blocks:
            blocks.append(_Block())
        block = blocks[-1]
        if line.item:
            item = _Item(line.text, line.label, line.cost)
            depth = min(line.depth, len(open_items) + 1)
            if depth <= 1:
                if not block.items:
                    block.ordered = line.ordered
                block.items.append(item)
            else:
                open_items[depth - 2].items.append(item)
            del open_items[depth - 1 :]
            open_items.append(item)
        elif open_items:
            owner = open_items[min(line.depth, len(open_items)) - 1]
            owner.lines.append(line.text)
        else:
            block.lines.append(line.text)
    return [b.model() for b in blocks]


@dataclass
class _Item:
    text: str
    label: str | None
    cost: str | None
    lines: list[str] = field(default_factory=list)
    items: list[_Item] = field(default_factory=list)

    def model(self) -> ListItem:
        text = "\n".join(x for x in [self.text, *self.lines] if x)
        items = [i.model() for i in self.items]
        return ListItem(text=text, label=self.label, cost=self.cost, items=items)


@dataclass
class _Block:
    lines: list[str] = field(default_factory=list)
    items: list[_Item] = field(default_factory=list)
    ordered: bool = False

    def model(self) -> Block:
        items = [i.model() for i in self.items]
        return Block(text="\n".join(self.lines), items=items, ordered=self.ordered)


def modes_of(offered: Iterable[tuple[str | None, list[Block]]]) -> list[Mode]:
    """The modes: the first item carrying each label in printed order (a later item with the
    same label says what that mode does in a later section, and stays there)."""
    seen: dict[str, Mode] = {}
    for section, blocks in offered:
        for block in blocks:
            for item in block.items:
                if item.label and item.label not in seen:
                    seen[item.label] = Mode(
                        name=item.label,
                        cost=item.cost,
                        extra_cp=extra_cp(item.cost),
                        section=section,
                        text=item.text,
                        items=item.items,
                    )
    return list(seen.values())


def extra_cp(cost: str | None) -> int | None:
    """``+1CP`` → 1; None for no cost or one not in command points."""
    match = _EXTRA_CP.match(cost or "")
    return game_int(match.group(1)) if match else None


def commentary(box: Box) -> Commentary:
    """A commentary box as the contract holds it: its title and its text, lists nested."""
    text = "\n".join(nested_line(x) for x in content_lines(box.lines))
    return Commentary(title=box.title, text=text)


# --- what a dump's lines make sure of ---------------------------------------------------------


def _nested_part(part: Part) -> Part:
    nested = nest_dump_lines(list(part.lines))
    return part if nested is None else Part(part.label, part.head, part.rest, tuple(nested))


def nest_dump_lines(lines: list[TextLine]) -> list[TextLine] | None:
    """A dump section's lines with what they make sure of: a cost line prices the item after
    it; an item that is only ``Name:`` heads the items after it; the other ``Name: text`` items
    of its list are labelled too. None when nothing is sure (or prose follows the items a
    name heads: then where they end is not sure either)."""
    if not any(x.text.startswith("+") or (x.item and x.text.endswith(_COLON_END)) for x in lines):
        return None  # no cost line (``+1CP``), no item that ends with a colon: nothing is sure
    if not any(
        _name_only(x) or (_COST_LINE.match(x.text) and _next_is_item(lines, i))
        for i, x in enumerate(lines)
    ):
        return None
    out: list[TextLine] = []
    heading = False  # the items being read are under a name-only item
    cost: str | None = None
    for index, line in enumerate(lines):
        if not line.item and _COST_LINE.match(line.text) and _next_is_item(lines, index):
            cost, heading = line.text.replace(" ", ""), False
            continue
        if line.item and (name := _name_only(line)):
            out.append(line._replace(text="", label=name, cost=cost))
            heading, cost = True, None
        elif line.item:
            out.append(line._replace(depth=2, cost=cost) if heading else line._replace(cost=cost))
            cost = None
        elif heading:
            return None  # prose after the items a name heads: where they end is not sure
        else:
            out.append(line)
    return _sibling_labels(out)


def _next_is_item(lines: list[TextLine], index: int) -> bool:
    return index + 1 < len(lines) and lines[index + 1].item


def _name_only(line: TextLine) -> str | None:
    if not line.item or line.label is not None:
        return None
    match = _NAME_ONLY.match(line.text)
    if match is None or len(match.group("name").split()) > _MAX_NAME_WORDS:
        return None
    return match.group("name").strip()


def _sibling_labels(lines: list[TextLine]) -> list[TextLine]:
    """In each run of top-level items that holds a sure mode (an item with a label or an
    extra cost), ``Name: text`` items take ``Name`` as their label."""
    out = list(lines)
    start = 0
    while start < len(out):
        if not out[start].item:
            start += 1
            continue
        end = start
        while end < len(out) and out[end].item:
            end += 1
        run = range(start, end)
        if any(out[i].label or out[i].cost for i in run if out[i].depth == 1):
            for i in run:
                line = out[i]
                named = _NAMED.match(line.text) if line.depth == 1 and not line.label else None
                if named and len(named.group("name").split()) <= _MAX_NAME_WORDS:
                    out[i] = line._replace(text=named.group("rest"), label=named.group("name"))
        start = end
    return out


# --- the one call for a page's element --------------------------------------------------------


def read_element(
    el: Element,
    sectioner: Sectioner,
    skip: Iterable[str] = (),
    tables: list[TableRows] | None = None,
    options: Walk = SITE,
) -> RulesText:
    """The rules text of one element of a saved page, in the contract's shape: a card's text
    (``div.str11Text`` of an 11th-edition card, ``div.str10Text`` of a 10th-edition stratagem),
    a tooltip or a rule box. ``sectioner`` says how to cut it into sections (the reader names
    it, so that this module knows no grammar): ``parse.stratagems.line_parts`` for a stratagem
    card (its WHEN / TARGET / EFFECT / RESTRICTIONS; ``section_text("EFFECT")`` … give the
    fields; a text the grammar cannot read sets ``failure`` and stays whole),
    ``parse.labelled_rule.line_parts`` for a move, an action or any other rule (its ``UPPER
    CASE:`` labels). Elements with a class
    in ``skip`` are left out; given ``tables``, each table of rows is appended to it and left
    out of the text. Commentary boxes go to ``commentary``; FAQ and errata boxes are left out."""
    lines, boxes = element_lines(el, skip, tables, options)
    return build(lines, sectioner, boxes)


def element_lines(
    el: Element,
    skip: Iterable[str] = (),
    tables: list[TableRows] | None = None,
    options: Walk = SITE,
) -> tuple[list[TextLine], list[Box]]:
    """An element's lines of text and its commentary boxes (``read_element`` before it
    builds: for a reader that takes a heading line off first)."""
    boxes: list[Box] = []
    lines = content_lines(walk(el, options.but(skip), tables, boxes))
    return lines, boxes


def nodes_lines(
    text: str | None,
    nodes: Iterable[Element],
    skip: Iterable[str] = (),
    tables: list[TableRows] | None = None,
    options: Walk = SITE,
    collect: bool = True,
) -> tuple[list[TextLine], list[Box]]:
    """``element_lines`` of a run of sibling nodes (a leading text, then each node with its
    tail): a rule box printed after its heading. Without ``collect`` commentary boxes stay in
    the lines (for a text whose entity holds no commentary)."""
    boxes: list[Box] = []
    found = walk_nodes(text, nodes, options.but(skip), tables, boxes if collect else None)
    lines = content_lines(found)
    return lines, boxes
