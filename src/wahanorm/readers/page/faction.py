"""A saved faction overview page (``/factions/<faction>/``): not a datasheet page.

It prints the army rules, then one section per detachment (``h2.outline_header``) with its
"Detachment Rule", "Enhancements" and "Stratagems" (``h2``), then Crusade rules, books and the
list of datasheets. The rules of the army and of each detachment are read with their faction
and detachment; the sections that hold no rules of the game are named in one note.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from wahanorm.blocks import html as dom
from wahanorm.blocks.html import Element
from wahanorm.blocks.html_tables import TableRows
from wahanorm.contract.ids import make_id
from wahanorm.contract.models import DetachmentRule, Rule, SourceRef
from wahanorm.readers.base import Entity
from wahanorm.readers.page.tooltips import (
    TooltipContext,
    read_enhancement,
    read_stratagem,
    report_tables,
)

ARMY_RULES = "ARMY RULES"
_PARTS = ("DETACHMENT RULE", "ENHANCEMENTS", "STRATAGEMS")
_FLAVOUR = "ShowFluff"
_ITEMS = (
    "//h2 | //h3"
    " | //ul[contains(concat(' ', normalize-space(@class), ' '), ' EnhancementsPts ')]"
    " | //div[contains(concat(' ', normalize-space(@class), ' '), ' str10Wrap ')]"
)


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
class _Walk:
    """Where the walk through the page is: the section (detachment) and its part."""

    section: str | None = None
    part: str | None = None
    entities: list[Entity] = field(default_factory=list)
    unread: list[str] = field(default_factory=list)
    read: set[str] = field(default_factory=set)


def read_faction_page(root: Element, ctx: TooltipContext) -> list[Entity]:
    """The army rules, detachment rules, enhancements and stratagems printed on the page."""
    walk = _Walk()
    for el in root.xpath(_ITEMS):
        if _in_tooltip(el):
            continue
        if el.tag == "h2":
            _heading(el, walk)
        elif walk.section is None:
            continue
        elif el.tag == "h3":
            _rule(el, walk, ctx)
        elif el.tag == "ul" and walk.part == "ENHANCEMENTS":
            holder = el.getparent()
            found = read_enhancement(holder, ctx, detachment=walk.section)
            _keep(found, walk)
        elif el.tag == "div" and walk.part == "STRATAGEMS":
            _keep(read_stratagem(el, ctx), walk)
    unread = [s for s in walk.unread if s not in walk.read]
    if unread:
        ctx.report.info(
            "section-skipped",
            f"faction page of {ctx.faction}: sections without rules entries not read: "
            + ", ".join(unread),
        )
    return walk.entities


def _heading(el: Element, walk: _Walk) -> None:
    title = dom.text(el)
    if dom.has_class(el, "outline_header"):
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
    name = dom.text(h3)
    following = list(h3.itersiblings())
    flavour = [n for n in following if isinstance(n.tag, str) and dom.has_class(n, _FLAVOUR)]
    # A rule has no flavour field: its text holds the flavour, as the page's tooltip does.
    skip = (_FLAVOUR,) if walk.part != ARMY_RULES else ()
    tables: list[TableRows] = []
    lines = dom.nodes_text(h3.tail, following, skip=skip, tables=tables)
    start, end = dom.line_range(h3.getparent())
    sources = [SourceRef(path=ctx.display, line_start=start, line_end=end)]
    if not name or not lines:
        ctx.report.warning("empty-text", f"rule {name!r} has no text", line=h3.sourceline)
        return
    text = "\n".join(lines)
    report_tables(f"rule {name!r}", tables, ctx.report, h3.sourceline)
    tables = [t for t in tables if t]
    if walk.part == ARMY_RULES:
        entity: Entity = Rule(
            id=make_id(ctx.faction, name), name=name, sources=sources, text=text, tables=tables
        )
    else:
        flavour_text = "\n".join(line for n in flavour for line in dom.text_lines(n)) or None
        entity = DetachmentRule(
            id=make_id(walk.section, name),
            name=name,
            sources=sources,
            detachment=walk.section,
            flavour=flavour_text,
            text=text,
            tables=tables,
        )
    _keep(entity, walk)


def _in_tooltip(el: Element) -> bool:
    return any(dom.has_class(a, "tooltip_templates") for a in el.iterancestors())
