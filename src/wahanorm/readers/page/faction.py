"""A saved faction overview page (``/factions/<faction>/``): not a datasheet page.

It prints the army rules, then one section per detachment (``h2.outline_header``) with its
"Detachment Rule", "Enhancements" and "Stratagems" (``h2``), then Crusade rules, books and the
list of datasheets. The rules of the army and of each detachment are read with their faction
and detachment; the sections that hold no rules of the game are named in one note.

An 11th-edition page puts each detachment in a container of its own (``div.clFl[@data-f]``)
whose heading prints the detachment's cost (``span.dpPts``: ``3DP``, and its force disposition
as the title of ``img.dpFD``); the page's detachment filter (``label.DetFilterItem``) names
every detachment, those of a group (Boarding Actions) after the group's header
(``div.DetFilterGroupHeader``). Such a detachment is a ``Detachment``, and what its container
holds is its own: its rule (a box under its "Detachment Rule" part), its enhancements, its
stratagem cards. Boxes of a container that are no rule of the detachment (a Boarding Actions
detachment's mustering, rules adaptations and army rule) are named in the note, and so are
the FAQ and errata boxes left out of the text.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from wahanorm.blocks import html as dom
from wahanorm.blocks import rules_text
from wahanorm.blocks.html import Element
from wahanorm.blocks.html_tables import TableRows
from wahanorm.blocks.html_text import nested_line
from wahanorm.blocks.parse import labelled_rule
from wahanorm.blocks.parse.detachment import split_detachment_text
from wahanorm.blocks.parse.numbers import game_int
from wahanorm.contract.ids import make_id
from wahanorm.contract.models import Detachment, DetachmentRule, Rule, SourceRef
from wahanorm.readers.base import Entity
from wahanorm.readers.page import cards
from wahanorm.readers.page.cards import CARD, FAQ_BOXES
from wahanorm.readers.page.context import TooltipContext, report_tables
from wahanorm.readers.page.tooltips import read_enhancement, read_stratagem

ARMY_RULES = "ARMY RULES"
_PARTS = ("DETACHMENT RULE", "ENHANCEMENTS", "STRATAGEMS")
_FLAVOUR = "ShowFluff"
_SECTION_CLASSES = ("outline_header", "outline_header_book")
_CLASS = "contains(concat(' ', normalize-space(@class), ' '), ' {} ')"
_ITEMS = (
    "//h2 | //h3 | //h4"
    f" | //*[{_CLASS.format('EnhancementsPts')}]"
    f" | //div[{_CLASS.format('str10Wrap')}]"
    f" | //div[{_CLASS.format(CARD)}]"
    + "".join(f" | //div[{_CLASS.format(cls)}]" for cls in FAQ_BOXES)
)
_DP = re.compile(r"(\d+)\s*DP\b", re.I)


def page_faction(root: Element) -> str | None:
    """The faction a faction page is about: ``<h1 class="page_header"><span
    class="page_header_span">Tyranids</span>``."""
    for header in dom.select(root, "h1", "page_header"):
        span = dom.select_one(header, "span", "page_header_span")
        if span is not None and dom.text(span):
            return dom.text(span)
    return None


def is_faction_page(root: Element) -> bool:
    """A Wahapedia faction page: a faction header and section headings, no datasheet frame."""
    return page_faction(root) is not None and bool(dom.select(root, "h2", "outline_header"))


@dataclass
class _Detachment:
    """A detachment heading of an 11th-edition page and the container it heads."""

    heading: Element
    container: Element | None
    entity: Detachment


@dataclass
class FactionPage:
    """What the page's body gives: its entities, and what it holds that was not read."""

    entities: list[Entity] = field(default_factory=list)
    sections: list[str] = field(default_factory=list)
    """The sections without rules entries, by their headings."""
    boxes: dict[str, list[str]] = field(default_factory=dict)
    """Detachment → the headings of its boxes that are no rule of it."""


@dataclass
class _Walk:
    """Where the walk through the page is: the section (detachment) and its part."""

    section: str | None = None
    part: str | None = None
    entities: list[Entity] = field(default_factory=list)
    unread: list[str] = field(default_factory=list)
    read: set[str] = field(default_factory=set)
    boxes: dict[str, list[str]] = field(default_factory=dict)
    faq: list[tuple[str | None, Element]] = field(default_factory=list)
    """The FAQ and errata boxes met, with the section each is printed in."""


def read_faction_page(root: Element, ctx: TooltipContext) -> FactionPage:
    """The army rules, detachments, detachment rules, enhancements and stratagems printed on
    the page."""
    detachments = read_detachments(root, ctx)
    headings = {d.heading: d for d in reversed(detachments)}  # the first of a heading kept
    containers = {d.container: d for d in reversed(detachments) if d.container is not None}
    above = _Above(containers)
    # Where each item is, worked out before the enhancements are taken apart (which moves them).
    items: list[tuple[Element, _Detachment | None]] = []
    for el in root.xpath(_ITEMS):
        flags, _frame, holder = above.of(el)
        if not flags:
            items.append((el, headings.get(el) or holder))
    # An enhancement's box nested in another's by tags left open is read apart from it.
    boxes = {el.getparent() for el, _ in items if dom.has_class(el, "EnhancementsPts")}
    if boxes:
        dom.apart([el for el in root.iter() if el in boxes])  # in document order
    walk = _Walk()
    for el, held in items:
        if any(dom.has_class(el, cls) for cls in FAQ_BOXES):
            walk.faq.append((walk.section, el))
            continue
        if held is not None:
            _in_detachment(el, held, walk, ctx)
        elif el.tag == "h2":
            _heading(el, walk)
        elif walk.section is None:
            continue
        elif el.tag == "h3":
            _rule(el, walk, ctx)
        elif el.tag == "h4":
            continue
        elif el.tag == "ul" and walk.part == "ENHANCEMENTS":
            holder = el.getparent()
            found = read_enhancement(holder, ctx, detachment=walk.section)
            _keep(found, walk)
        elif dom.has_class(el, "str10Wrap") and walk.part == "STRATAGEMS":
            _keep(read_stratagem(el, ctx), walk)
        elif dom.has_class(el, CARD) and walk.part == "STRATAGEMS":
            _keep(cards.read_card(el, ctx, namespace=ctx.faction), walk)
    # The FAQ and errata boxes of what was read are left out of its text; those of a section
    # not read are part of that section.
    cards.leave_out_faq([box for section, box in walk.faq if section in walk.read], ctx)
    return FactionPage(walk.entities, [s for s in walk.unread if s not in walk.read], walk.boxes)


def report_unread(page: FactionPage, ctx: TooltipContext) -> None:
    """The one note naming what the page holds that was not read: its sections without rules
    entries, the boxes of a detachment that are no rule of it, and the FAQ and errata boxes
    left out of the rules text (``ctx.faq_left_out``, the tooltips' included)."""
    said: list[str] = []
    if page.sections:
        said.append("sections without rules entries not read: " + ", ".join(page.sections))
    if page.boxes:
        said.append(
            "boxes of a detachment that are no rule of it, not read: "
            + "; ".join(f"{name}: {', '.join(boxes)}" for name, boxes in page.boxes.items())
        )
    faq = faq_note(ctx)
    if faq:
        said.append(faq)
    if said:
        ctx.report.info("section-skipped", f"faction page of {ctx.faction}: " + "; ".join(said))


def faq_note(ctx: TooltipContext) -> str | None:
    """How many FAQ and errata boxes were left out of the rules text, by class; None for
    none."""
    if not ctx.faq_left_out:
        return None
    kinds = Counter(kind for kind, _, _ in ctx.faq_left_out.values())
    each = ", ".join(f"{kinds[cls]} {cls}" for cls in FAQ_BOXES if kinds[cls])
    questions = sum(q for _, q, _ in ctx.faq_left_out.values())
    errata = sum(e for _, _, e in ctx.faq_left_out.values())
    return (
        f"FAQ and errata boxes left out of the rules text: {len(ctx.faq_left_out)} ({each}), "
        f"holding {questions} questions and {errata} errata"
    )


# ---- 11th edition: detachments and their containers --------------------------------------------


def read_detachments(root: Element, ctx: TooltipContext) -> list[_Detachment]:
    """The detachments of an 11th-edition page: every section heading that prints a cost in
    detachment points (``span.dpPts``), or that the page's detachment filter names; none on a
    page without either."""
    groups = _filter_groups(root)
    above = _Above({})
    found: list[_Detachment] = []
    for head in root.xpath("//h2 | //h3"):
        if not dom.has_class(head, "outline_header"):
            continue
        flags, frame, _holder = above.of(head)
        if flags & _TOOLTIP:
            continue
        points = dom.select_one(head, "span", "dpPts")
        name = dom.text(head, skip=("dpPts",))
        if not name or (points is None and name not in groups):
            continue
        start, end = dom.line_range(head)
        dp, disposition = _cost(name, points, ctx, head.sourceline)
        entity = Detachment(
            id=make_id(ctx.faction, name),
            name=name,
            sources=[SourceRef(path=ctx.display, line_start=start, line_end=end)],
            faction=ctx.faction,
            type=groups.get(name),
            dp=dp,
            force_disposition=disposition,
            flavour=_detachment_flavour(head),
        )
        found.append(_Detachment(head, frame, entity))
    return found


def _filter_groups(root: Element) -> dict[str, str | None]:
    """The detachment filter's names → the group each is listed under (the text of the
    ``div.DetFilterGroupHeader`` its column follows), None for the main list."""
    groups: dict[str, str | None] = {}
    for label in dom.select(root, "label", "DetFilterItem"):
        name = str(label.get("data-det-name") or "").strip()
        if not name:
            continue
        group: str | None = None
        column = label.getparent()
        for before in column.itersiblings(preceding=True) if column is not None else ():
            if not isinstance(before.tag, str):
                continue
            if dom.has_class(before, "DetFilterGroupHeader"):
                group = dom.text(before) or None
            break
        groups[name] = group
    return groups


def _cost(
    name: str, points: Element | None, ctx: TooltipContext, line: int | None
) -> tuple[int | None, str | None]:
    """The DP and force disposition a heading prints: ``3DP`` and the title of its picture
    (``Force Disposition: Purge the Foe``). A heading without ``span.dpPts`` has neither (a
    Boarding Actions detachment)."""
    if points is None:
        return None, None
    match = _DP.search(dom.text(points))
    if match is None:
        ctx.report.warning(
            "bad-value", f"detachment {name!r}: its cost {dom.text(points)!r} is no DP", line
        )
    picture = points.find(".//img")
    title = str(picture.get("title") or "") if picture is not None else ""
    _label, colon, value = title.partition(":")
    if not (colon and value.strip()):
        ctx.report.warning(
            "bad-value",
            f"detachment {name!r}: no force disposition beside its cost ({title!r}); left out",
            line,
        )
    return (game_int(match.group(1)) if match else None), (value.strip() if colon else None) or None


def _detachment_flavour(head: Element) -> str | None:
    """The paragraphs printed right under the heading (``p.desc_indent``, ``p.legend``)."""
    lines: list[str] = []
    for sibling in head.itersiblings():
        if not isinstance(sibling.tag, str):
            continue
        if sibling.tag != "p":
            break
        lines.extend(dom.text_lines(sibling))
    return "\n".join(lines) or None


_TOOLTIP, _CARD, _FAQ = 1, 2, 4
"""What an element may lie inside (``_Above``): a tooltip, a stratagem card, a FAQ box."""
_Place = tuple[int, Element | None, _Detachment | None]


class _Above:
    """What lies above each element: whether a tooltip, a card or a FAQ or errata box holds it
    (flags), the nearest ``div[@data-f]`` holding it (the container a detachment heading
    opens), and the detachment whose container (of ``containers``) is the nearest holding it.

    Each element's is worked out once, from its parent's: linear in the page, where walking up
    from each item was quadratic in a page whose tags left open nest each part of it in the one
    before (every item under all that came before it)."""

    def __init__(self, containers: dict[Element, _Detachment]) -> None:
        self._containers = containers
        self._memo: dict[Element, _Place] = {}

    def of(self, el: Element) -> _Place:
        """What lies above ``el`` (its ancestors, not itself)."""
        chain: list[Element] = []
        node: Element | None = el
        while node is not None and node not in self._memo:
            chain.append(node)
            node = node.getparent()
        if node is None:
            node = chain.pop()
            self._memo[node] = (0, None, None)
        for child in reversed(chain):
            self._memo[child] = self._below(node)
            node = child
        return self._memo[el]

    def _below(self, parent: Element) -> _Place:
        """What lies above a child of ``parent``."""
        flags, frame, held = self._memo[parent]
        names = dom.classes(parent)
        if "tooltip_templates" in names:
            flags |= _TOOLTIP
        if CARD in names:
            flags |= _CARD
        if any(cls in names for cls in FAQ_BOXES):
            flags |= _FAQ
        if parent.tag == "div":
            if parent.get("data-f") is not None:
                frame = parent
            held = self._containers.get(parent, held)
        return flags, frame, held


def _in_detachment(el: Element, held: _Detachment, walk: _Walk, ctx: TooltipContext) -> None:
    """An item of a detachment's container: the heading, a part heading, a rules box (the
    detachment's rule under its "Detachment Rule" part, else a box named in the note), an
    enhancement, a card."""
    name = held.entity.name
    if el is held.heading:
        walk.entities.append(held.entity)
        walk.section, walk.part = name, None
        walk.read.add(name)
        return
    if el.tag in ("h2", "h3", "h4"):
        title = dom.text(el)
        if title.upper() in _PARTS:
            walk.part = title.upper()
        elif el.tag == "h2":
            walk.part = None
        elif walk.part == "DETACHMENT RULE":
            _detachment_rule(el, name, walk, ctx)
        elif title:
            walk.boxes.setdefault(name, []).append(title)
        return
    if dom.has_class(el, "EnhancementsPts"):
        holder = el.getparent()
        walk.entities.extend(e for e in [read_enhancement(holder, ctx, detachment=name)] if e)
    elif dom.has_class(el, CARD):
        card = cards.read_card(el, ctx, detachment=name, namespace=ctx.faction)
        walk.entities.extend(e for e in [card] if e)
    elif dom.has_class(el, "str10Wrap"):
        walk.entities.extend(e for e in [read_stratagem(el, ctx)] if e)


# ---- the walk: sections, parts, rules -----------------------------------------------------------


def _heading(el: Element, walk: _Walk) -> None:
    title = dom.text(el)
    if any(dom.has_class(el, cls) for cls in _SECTION_CLASSES):
        walk.section, walk.part = title, None
        walk.unread.append(title)
        if title.upper() == ARMY_RULES:
            walk.part = ARMY_RULES
    elif title.upper() in _PARTS and walk.section is not None:
        walk.part = title.upper()
    else:
        walk.part = None


def _keep(entity: Entity | None, walk: _Walk) -> None:
    if entity is not None and walk.section is not None:
        walk.entities.append(entity)
        walk.read.add(walk.section)


def _rule(h3: Element, walk: _Walk, ctx: TooltipContext) -> None:
    """An army rule or a detachment rule: an ``h3`` title, a flavour paragraph, then the text
    up to the end of its box."""
    if walk.part not in (ARMY_RULES, "DETACHMENT RULE") or walk.section is None:
        return
    if walk.part == ARMY_RULES:
        _keep(_rule_box(h3, None, ctx), walk)
    else:
        _keep(_rule_box(h3, walk.section, ctx), walk)


def _detachment_rule(head: Element, detachment: str, walk: _Walk, ctx: TooltipContext) -> None:
    entity = _rule_box(head, detachment, ctx)
    if entity is not None:
        walk.entities.append(entity)


def _rule_box(head: Element, detachment: str | None, ctx: TooltipContext) -> Entity | None:
    """The rule a heading (``h3``, ``h4``) names: its flavour paragraph, then the text up to the
    end of its box, FAQ and errata boxes left out. An army rule (``detachment`` None) keeps its
    flavour in its text, as the page's tooltip does."""
    name = dom.text(head)
    following = list(head.itersiblings())
    flavour = [n for n in following if isinstance(n.tag, str) and dom.has_class(n, _FLAVOUR)]
    skip = (*FAQ_BOXES, _FLAVOUR) if detachment is not None else FAQ_BOXES
    tables: list[TableRows] = []
    # An army rule is read as the rule's tooltip is: its commentary apart (a detachment rule's
    # text has no place for commentary: it stays in it, as in the detachment rule's tooltip).
    lines, boxes = rules_text.nodes_lines(
        head.tail, following, skip, tables, collect=detachment is None
    )
    text = "\n".join(nested_line(x) for x in lines)
    start, end = dom.line_range(head.getparent())
    sources = [SourceRef(path=ctx.display, line_start=start, line_end=end)]
    if not name or not (text or boxes):
        ctx.report.warning("empty-text", f"rule {name!r} has no text", line=head.sourceline)
        return None
    report_tables(f"rule {name!r}", tables, ctx.report, head.sourceline)
    tables = [t for t in tables if t]
    if detachment is None:
        shape = rules_text.build(lines, labelled_rule.line_parts, boxes)
        fields = labelled_rule.rule_fields(shape)
        return Rule(
            id=make_id(ctx.faction, name), name=name, sources=sources, tables=tables, **fields
        )
    flavour_text = "\n".join(line for n in flavour for line in dom.text_lines(n)) or None
    split = split_detachment_text(text)  # as the rule's tooltip is read
    return DetachmentRule(
        id=make_id(detachment, name),
        name=name,
        sources=sources,
        detachment=detachment,
        flavour=flavour_text,
        text=split.text,
        abilities=split.abilities,
        restrictions=split.restrictions,
        tables=tables,
    )
