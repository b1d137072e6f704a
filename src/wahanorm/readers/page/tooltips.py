"""The page's hidden tooltips (``div.tooltip_templates > span#tooltip_content…``) → entities.

A saved page carries, hidden, the full text of everything it links: its stratagems
(``div.str10Wrap``), detachment rules (a header and ``div.detachName``), enhancements
(``ul.EnhancementsPts``), and a glossary of core and faction rules (a ``div.tooltip_header``,
or the boxed ``div.abWrap`` of a core ability, or the ``p.impact18`` title of an order). The
rest are site furniture: keyword indexes, menus, the login form, picture ads.

An 11th-edition page adds its cards (``div.str11Wrap``, read by ``cards``): a tooltip of its
own, or printed inside a glossary rule (the moves of ``18.03 Disembarking``), whence each is
taken out as its own entity. Its headings print their rule numbers (``span.h_number``, or
``03.04 Engagement``): a numbered rule is a core rule, its id without the number. The FAQ and
errata boxes under a tooltip's rule are no part of its text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from wahanorm.blocks import html as dom
from wahanorm.blocks import rules_text
from wahanorm.blocks.html import Element
from wahanorm.blocks.html_tables import TableRows
from wahanorm.blocks.parse import labelled_rule, stratagems
from wahanorm.blocks.parse.detachment import split_detachment_text
from wahanorm.blocks.parse.labelled_rule import split_rule_number
from wahanorm.blocks.parse.numbers import game_int
from wahanorm.blocks.parse.stratagems import split_source, stratagem_fields, whole_effect
from wahanorm.blocks.parse.timing import derive_timing
from wahanorm.contract.ids import make_id
from wahanorm.contract.models import DetachmentRule, Enhancement, Rule, SourceRef, Stratagem
from wahanorm.readers.base import Entity
from wahanorm.readers.page import cards
from wahanorm.readers.page.cards import CARD, FAQ_BOXES, Heading, heading
from wahanorm.readers.page.context import TooltipContext, report_tables

_CP = re.compile(r"(\d+)\s*CP", re.I)
_PTS = re.compile(r"(\d+)\s*pts?\b", re.I)
_DETACHMENT_SUFFIX = re.compile(r"\s+Detachment$", re.I)
# Parts of a tooltip that are its title, its link icon or its flavour, never its rules text;
# and the FAQ and errata boxes under it.
_NOT_TEXT = (
    "tooltip_header",
    "tooltip_link",
    "tooltip_link_inline",
    "abFlex",
    "abNameWrap",
    "detachName",
    *FAQ_BOXES,
)
_FLAVOUR = ("ShowFluff",)
_BODY_LABELS = ("WHEN:", "TARGET:", "EFFECT:", "RESTRICTIONS:")
_UPGRADE = "EnhUpgrade"


@dataclass
class Tooltips:
    """What the page's tooltips hold."""

    by_id: dict[str, Entity] = field(default_factory=dict)
    """Tooltip id → the entity the tooltip is about (what a link to it names)."""
    entities: list[Entity] = field(default_factory=list)
    """Every entity read from the tooltips, in page order: a rule and each card printed inside
    it apart."""


def read_tooltips(root: Element, ctx: TooltipContext) -> Tooltips:
    """Every readable tooltip of the page."""
    found = Tooltips()
    spans = root.xpath(
        "//div[contains(concat(' ', normalize-space(@class), ' '), ' tooltip_templates ')]"
        "/span[@id]"
    )
    dom.apart(spans)  # a tooltip nested in another (tags left open) is read apart from it
    for span in spans:
        entities = read_tooltip(span, ctx)
        if entities:
            found.by_id[span.get("id")] = entities[0]
            found.entities.extend(entities)
    return found


def read_tooltip(span: Element, ctx: TooltipContext) -> list[Entity]:
    """The entities of one tooltip, the one it is about first; none for site furniture and
    shapes not known."""
    # One pass over the tooltip for the classes it holds decides its kind.
    held = {c for el in span.iter() if isinstance(el.tag, str) for c in dom.classes(el)}
    cards.leave_out_faq([span], ctx)
    if CARD in held:
        return _with_cards(span, ctx)
    entity = _entity(span, held, ctx)
    return [entity] if entity is not None else []


def _entity(span: Element, held: set[str], ctx: TooltipContext) -> Entity | None:
    if "str10Wrap" in held:
        return read_stratagem(span, ctx)
    if "EnhancementsPts" in held:
        return read_enhancement(span, ctx)
    if "detachName" in held:
        return _detachment_rule(span, ctx)
    if "tooltip_header" in held:
        header = dom.select_one(span, "div", "tooltip_header")
        return _rule(span, heading(header), _namespace(span, held, ctx), ctx)
    if "abName" in held:
        ability = dom.select_one(span, "div", "abName")
        return _rule(span, heading(ability), "core", ctx)
    if "impact18" in held and span.xpath(".//a[contains(@href, '/factions/')]"):
        order = dom.select_one(span, "p", "impact18")
        return _rule(span, heading(order), ctx.faction, ctx, skip=("impact18",))
    if not _is_furniture(span, held):
        ctx.report.info(
            "html-tooltip-skipped",
            f"tooltip {span.get('id')!r} of an unknown shape not read",
            line=span.sourceline,
        )
    return None


def _with_cards(span: Element, ctx: TooltipContext) -> list[Entity]:
    """A tooltip holding 11th-edition cards: each card is its own entity; a rule the cards are
    printed in (``18.03 Disembarking``, the ability SCOUTS) keeps its own text without them,
    and is the entity the tooltip is about. A header over a card alone is that card's."""
    found: list[Entity] = []
    inside = cards.cards_in(span)
    outside = {
        c
        for el in span.iter()
        if isinstance(el.tag, str)
        and not any(el is card or cards.within(el, card) for card in inside)
        for c in dom.classes(el)
    }
    namespace = _namespace(span, outside, ctx)
    host = next(
        (
            el
            for cls in ("tooltip_header", "abName")
            for el in dom.select(span, "div", cls)
            if not any(cards.within(el, card) for card in inside)
        ),
        None,
    )
    if host is not None:
        rule = _rule(span, heading(host), namespace, ctx, skip=(CARD,), alone=False)
        if rule is not None:
            found.append(rule)
    for card in inside:
        entity = cards.read_card(card, ctx, namespace=namespace)
        if entity is not None:
            found.append(entity)
    return found


def _is_furniture(span: Element, held: set[str]) -> bool:
    """Keyword indexes, menus, the login form, the weapon-profile hint, picture ads."""
    first = next(dom.children(span), None)
    return first is None or first.tag in ("form", "i", "b") or "contents" in held


def _source(span: Element, ctx: TooltipContext) -> list[SourceRef]:
    start, end = dom.line_range(span)
    return [SourceRef(path=ctx.display, line_start=start, line_end=end)]


def _namespace(span: Element, held: set[str], ctx: TooltipContext) -> str:
    """``core`` for the core rules and core abilities, else the page's faction: the header's
    link says which (``/the-rules/…`` or ``/factions/…``); a boxed ability is a core one."""
    for anchor in span.iter("a"):
        if dom.select_one(anchor, "div", "tooltip_link") is not None:
            href = anchor.get("href") or ""
            return "core" if "/the-rules/" in href else ctx.faction
    if "abWrap" in held:
        return "core"
    return ctx.faction


def _rule(
    span: Element,
    head: Heading,
    namespace: str,
    ctx: TooltipContext,
    skip: tuple[str, ...] = (),
    alone: bool = True,
) -> Rule | None:
    """A glossary tooltip's rule. Its name and number come from its heading; a numbered rule is
    a core rule. ``alone`` is False for a rule whose tooltip also holds cards: without text of
    its own besides them it is none (and nothing is said)."""
    tables: list[TableRows] = []
    lines, boxes = rules_text.element_lines(span, _NOT_TEXT + skip, tables)
    if not head.name or not (lines or boxes):
        if alone:
            ctx.report.warning(
                "empty-text", f"glossary tooltip {head.name!r} has no text", line=span.sourceline
            )
        return None
    name, number = split_rule_number(head.name)  # "FIRING DECK24.14": a number glued on
    number = head.number or number
    in_text, lines = labelled_rule.numbered_heading_lines(name, lines)
    number = number or in_text
    cards.report_numbers("rule", head, ctx.report, span.sourceline)
    shape = rules_text.build(lines, labelled_rule.line_parts, boxes)
    report_tables(f"rule {name!r}", tables, ctx.report, span.sourceline)
    return Rule(
        id=make_id("core" if head.numbers else namespace, name),
        name=name,
        sources=_source(span, ctx),
        rule_number=number,
        tables=[t for t in tables if t],
        **labelled_rule.rule_fields(shape),
    )


def _detachment(span: Element) -> str | None:
    el = dom.select_one(span, "div", "detachName")
    if el is None:
        return None
    return _DETACHMENT_SUFFIX.sub("", dom.text(el)) or None


def _flavour(span: Element) -> str | None:
    lines = [line for el in _flavour_elements(span) for line in dom.text_lines(el)]
    return "\n".join(lines) or None


def _flavour_elements(span: Element) -> list[Element]:
    return [el for cls in _FLAVOUR for el in dom.select(span, "*", cls)]


def _detachment_rule(span: Element, ctx: TooltipContext) -> DetachmentRule | None:
    header = dom.select_one(span, "div", "tooltip_header")
    detachment = _detachment(span)
    name = dom.text(header) if header is not None else ""
    tables: list[TableRows] = []
    text = "\n".join(dom.text_lines(span, skip=_NOT_TEXT + _FLAVOUR, tables=tables))
    if not name or not detachment or not text:
        ctx.report.error(
            "missing-field", "detachment rule tooltip not complete", line=span.sourceline
        )
        return None
    split = split_detachment_text(text)
    report_tables(f"detachment rule {name!r}", tables, ctx.report, span.sourceline)
    return DetachmentRule(
        id=make_id(detachment, name),
        name=name,
        sources=_source(span, ctx),
        detachment=detachment,
        flavour=_flavour(span),
        text=split.text,
        abilities=split.abilities,
        restrictions=split.restrictions,
        tables=[t for t in tables if t],
    )


def read_enhancement(
    span: Element, ctx: TooltipContext, detachment: str | None = None
) -> Enhancement | None:
    """An enhancement; its detachment is the tooltip's own, else ``detachment`` (the section of
    a faction page it is printed in)."""
    title = dom.select_one(span, "*", "EnhancementsPts")
    assert title is not None  # read_tooltip chose this reader because it is there
    # A list item of spans (name, link, "15 pts"); Boarding Actions enhancements have no cost
    # and print the bare name in a div.
    spans = [s for s in title.iter("span") if not dom.has_class(s, _UPGRADE)]
    parts = (
        [dom.text(s, skip=(_UPGRADE,)) for s in spans] if title.tag == "ul" else [dom.text(title)]
    )
    parts = [p for p in parts if p]
    # An 11th-edition upgrade prints the word in its name: ``<span class="EnhUpgrade">``.
    upgrade = True if dom.select_one(title, "span", _UPGRADE) is not None else None
    name = parts[0] if parts else ""
    printed = next((m.group(1) for p in parts[1:] if (m := _PTS.search(p))), None)
    cost = game_int(printed) if printed is not None else None
    if printed is not None and cost is None:
        ctx.report.warning(
            "bad-cost",
            f"enhancement {name[:60]!r}: its cost {printed[:40]!r} is no number of points an "
            "enhancement can have; left out",
            span.sourceline,
        )
    detachment = _detachment(span) or detachment
    if not name:
        ctx.report.error("missing-field", "enhancement without a name", span.sourceline)
        return None
    if detachment is None:
        ctx.report.warning(
            "no-detachment", f"enhancement {name!r} names no detachment", span.sourceline
        )
    text = "\n".join(dom.text_lines(span, skip=(*_NOT_TEXT, *_FLAVOUR, "EnhancementsPts")))
    return Enhancement(
        id=make_id(detachment or ctx.faction, name),
        name=name,
        sources=_source(span, ctx),
        detachment=detachment,
        faction=ctx.faction,
        cost=cost,
        flavour=_flavour(span),
        text=text or None,
        upgrade=upgrade,
    )


def read_stratagem(span: Element, ctx: TooltipContext) -> Stratagem | None:
    """A stratagem from its ``str10Wrap`` (the element itself, or inside a tooltip)."""
    wrap = span if dom.has_class(span, "str10Wrap") else dom.select_one(span, "div", "str10Wrap")
    assert wrap is not None  # read_tooltip chose this reader because it is there
    name_el = dom.select_one(wrap, "div", "str10Name")
    type_el = dom.select_one(wrap, "div", "str10Type")
    if name_el is None or type_el is None:
        ctx.report.error("missing-field", "stratagem without name or type", span.sourceline)
        return None
    name = dom.text(name_el)
    source, category = split_source(dom.text(type_el))
    cp_el = dom.select_one(wrap, "div", "str10CP")
    cp = _CP.search(dom.text(cp_el)) if cp_el is not None else None
    if cp is not None and game_int(cp.group(1)) is None:
        ctx.report.warning(
            "out-of-range",
            f"stratagem {name!r}: its CP cost {cp.group(1)[:40]!r} is no number a cost can be; "
            "left out",
            span.sourceline,
        )
    legend = dom.select_one(wrap, "div", "str10Legend")
    fields: dict[str, Any] = {}
    body_el = dom.select_one(wrap, "div", "str10Text")
    if body_el is not None:
        fields = stratagem_body(body_el, name, ctx)
    return Stratagem(
        id=make_id(source, name),
        name=name,
        sources=_source(span, ctx),
        cp=game_int(cp.group(1)) if cp else None,
        source=source,
        category=category,
        flavour=("\n".join(dom.text_lines(legend)) or None) if legend is not None else None,
        timing=derive_timing(fields.get("when")),
        **fields,
    )


def stratagem_body(body: Element, name: str, ctx: TooltipContext) -> dict[str, Any]:
    """A stratagem card's fields of rules text from its text element (``str10Text``,
    ``str11Text``): WHEN … RESTRICTIONS, sections, modes, commentary (``rules_text``)."""
    shape = rules_text.read_element(body, stratagems.line_parts)
    if shape.text and not any(label in shape.text for label in _BODY_LABELS):
        # An older stratagem printed as one paragraph (Boarding Action's INSANE BRAVERY): no
        # WHEN/TARGET/EFFECT to cut, the whole text is its effect.
        ctx.report.warning(
            "stratagem-unlabelled",
            f"stratagem {name!r} has no WHEN/TARGET/EFFECT: its text is kept as the effect",
            line=body.sourceline,
        )
        return stratagem_fields(whole_effect(shape))
    if shape.failure is not None:
        ctx.report.error(
            "stratagem-body", f"stratagem {name!r}: {shape.failure.message}", line=body.sourceline
        )
        return stratagem_fields(whole_effect(shape)) if shape.text else {}
    return stratagem_fields(shape)
