"""The page's hidden tooltips (``div.tooltip_templates > span#tooltip_content…``) → entities.

A saved page carries, hidden, the full text of everything it links: its stratagems
(``div.str10Wrap``), detachment rules (a header and ``div.detachName``), enhancements
(``ul.EnhancementsPts``), and a glossary of core and faction rules (a ``div.tooltip_header``,
or the boxed ``div.abWrap`` of a core ability, or the ``p.impact18`` title of an order). The
rest are site furniture: keyword indexes, menus, the login form, picture ads.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from wahanorm.blocks import html as dom
from wahanorm.blocks.html import Element
from wahanorm.blocks.html_tables import TableRows, is_partial
from wahanorm.blocks.parse.detachment import split_detachment_text
from wahanorm.blocks.parse.labelled_rule import (
    numbered_heading,
    rule_references,
    rule_sections,
    split_rule_number,
)
from wahanorm.blocks.parse.stratagems import parse_body, split_source
from wahanorm.blocks.parse.timing import derive_timing
from wahanorm.contract.ids import make_id
from wahanorm.contract.models import DetachmentRule, Enhancement, Rule, SourceRef, Stratagem
from wahanorm.errors import ParseFailure, Report
from wahanorm.readers.base import Entity

_CP = re.compile(r"(\d+)\s*CP", re.I)
_PTS = re.compile(r"(\d+)\s*pts?\b", re.I)
_DETACHMENT_SUFFIX = re.compile(r"\s+Detachment$", re.I)
# Parts of a tooltip that are its title, its link icon or its flavour, never its rules text.
_NOT_TEXT = ("tooltip_header", "tooltip_link", "tooltip_link_inline", "abFlex", "detachName")
_FLAVOUR = ("ShowFluff",)
_BODY_LABELS = ("WHEN:", "TARGET:", "EFFECT:", "RESTRICTIONS:")


@dataclass
class TooltipContext:
    """Who reads the tooltips: the page's faction (namespace of faction rules), its display
    path and its report."""

    faction: str
    display: str
    report: Report


def read_tooltips(root: Element, ctx: TooltipContext) -> dict[str, Entity]:
    """Every readable tooltip of the page as ``tooltip id → entity``."""
    found: dict[str, Entity] = {}
    for span in root.xpath(
        "//div[contains(concat(' ', normalize-space(@class), ' '), ' tooltip_templates ')]"
        "/span[@id]"
    ):
        entity = read_tooltip(span, ctx)
        if entity is not None:
            found[span.get("id")] = entity
    return found


def read_tooltip(span: Element, ctx: TooltipContext) -> Entity | None:
    """The entity of one tooltip, or None for site furniture and shapes not known."""
    # One pass over the tooltip for the classes it holds decides its kind.
    held = {c for el in span.iter() if isinstance(el.tag, str) for c in dom.classes(el)}
    if "str10Wrap" in held:
        return read_stratagem(span, ctx)
    if "EnhancementsPts" in held:
        return read_enhancement(span, ctx)
    if "detachName" in held:
        return _detachment_rule(span, ctx)
    if "tooltip_header" in held:
        header = dom.select_one(span, "div", "tooltip_header")
        return _rule(span, dom.text(header), _namespace(span, held, ctx), ctx)
    if "abName" in held:
        ability = dom.select_one(span, "div", "abName")
        return _rule(span, dom.text(ability), "core", ctx)
    if "impact18" in held and span.xpath(".//a[contains(@href, '/factions/')]"):
        order = dom.select_one(span, "p", "impact18")
        return _rule(span, dom.text(order), ctx.faction, ctx, skip=("impact18",))
    if not _is_furniture(span, held):
        ctx.report.info(
            "html-tooltip-skipped",
            f"tooltip {span.get('id')!r} of an unknown shape not read",
            line=span.sourceline,
        )
    return None


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
    span: Element, name: str, namespace: str, ctx: TooltipContext, skip: tuple[str, ...] = ()
) -> Rule | None:
    tables: list[TableRows] = []
    lines = dom.text_lines(span, skip=_NOT_TEXT + skip, tables=tables)
    if not name or not lines:
        ctx.report.warning(
            "empty-text", f"glossary tooltip {name!r} has no text", line=span.sourceline
        )
        return None
    name, number = split_rule_number(name)  # "FIRING DECK24.14": the heading's rule number
    in_text, text = numbered_heading(name, "\n".join(lines))
    number = number or in_text
    report_tables(f"rule {name!r}", tables, ctx.report, span.sourceline)
    return Rule(
        id=make_id(namespace, name),
        name=name,
        sources=_source(span, ctx),
        rule_number=number,
        text=text,
        tables=[t for t in tables if t],
        sections=rule_sections(text),
        references=rule_references(text),
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


def report_tables(what: str, tables: list[TableRows], report: Report, line: int | None) -> None:
    """A warning for each table of a rule whose rows (``table-missing``) or values
    (``table-partial``: ``2+`` printed as a die image and ``+``) are gone."""
    for table in tables:
        if not table:
            report.warning("table-missing", f"{what} holds a table without a row of text", line)
        elif is_partial(table):
            report.warning(
                "table-partial",
                f"{what}: cells of a table lost their values (a die image); kept as printed",
                line,
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
    parts = [dom.text(s) for s in title.iter("span")] if title.tag == "ul" else [dom.text(title)]
    parts = [p for p in parts if p]
    name = parts[0] if parts else ""
    cost = next((int(m.group(1)) for p in parts[1:] if (m := _PTS.search(p))), None)
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
    legend = dom.select_one(wrap, "div", "str10Legend")
    fields: dict[str, str | None] = {}
    body_el = dom.select_one(wrap, "div", "str10Text")
    if body_el is not None:
        fields = _stratagem_body(body_el, name, ctx)
    return Stratagem(
        id=make_id(source, name),
        name=name,
        sources=_source(span, ctx),
        cp=int(cp.group(1)) if cp else None,
        source=source,
        category=category,
        flavour=("\n".join(dom.text_lines(legend)) or None) if legend is not None else None,
        timing=derive_timing(fields.get("when")),
        **fields,
    )


def _stratagem_body(body: Element, name: str, ctx: TooltipContext) -> dict[str, str | None]:
    lines = dom.text_lines(body)
    if lines and not any(label in line for line in lines for label in _BODY_LABELS):
        # An older stratagem printed as one paragraph (Boarding Action's INSANE BRAVERY): no
        # WHEN/TARGET/EFFECT to cut, the whole text is its effect.
        ctx.report.warning(
            "stratagem-unlabelled",
            f"stratagem {name!r} has no WHEN/TARGET/EFFECT: its text is kept as the effect",
            line=body.sourceline,
        )
        return {"effect": "\n".join(lines)}
    try:
        parsed = parse_body("\n".join(lines), ctx.display, body.sourceline or 1)
    except ParseFailure as exc:
        ctx.report.error(
            "stratagem-body", f"stratagem {name!r}: {exc.message}", line=body.sourceline
        )
        return {"effect": "\n".join(lines) or None}
    return {
        "when": parsed.when,
        "target": parsed.target,
        "effect": parsed.effect,
        "restrictions": parsed.restrictions,
    }
