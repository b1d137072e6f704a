"""Saved Wahapedia datasheet pages (HTML), read through their structure.

``read_page`` finds the datasheet frame(s) of a page (``div.dsOuterFrame``), reads each into
a ``Datasheet``, and reads the page's hidden tooltips into its stratagems, detachment rules,
enhancements and glossary rules. Only those two parts of the document are walked: the scripts,
ads, menus and cookie banners around them are never looked at, so they leave no trace.

    dom        parsing, class tests, source lines, text as the page shows it
    datasheet  one frame → Datasheet
    faction    a faction overview page → its army and detachment rules, enhancements, stratagems
    tooltips   hidden tooltips → Stratagem, DetachmentRule, Enhancement, Rule
"""

from __future__ import annotations

from wahanorm.blocks import html as dom
from wahanorm.blocks.edition import links_edition
from wahanorm.blocks.html import Element
from wahanorm.readers.base import EditionSign, Entity, Part, Reading
from wahanorm.readers.page import faction as faction_page
from wahanorm.readers.page.datasheet import FrameContext, read_frame
from wahanorm.readers.page.tooltips import TooltipContext, read_tooltips

FRAME_CLASS = "dsOuterFrame"


def is_datasheet_page(html: str) -> bool:
    """A cheap first look: does the text hold a Wahapedia datasheet frame at all?"""
    return FRAME_CLASS in html


def read_page(html: str, display: str) -> Reading | None:
    """The entities of a saved Wahapedia datasheet or faction page; None when the HTML is not
    one (it is then read as flattened text). Problems on the page become diagnostics; the
    page tells its edition by the links to its own site (``/wh40k10ed/``)."""
    if not is_datasheet_page(html) and not _may_be_faction_page(html):
        return None
    root = dom.parse(html)
    if root is None:
        return None
    frames = dom.select(root, "div", FRAME_CLASS)
    if not frames:
        if not faction_page.is_faction_page(root):
            return None
        reading = _faction_page(root, display)
        reading.parts[0] = Part(reading.parts[0].entities, _page_sign(html, None))
        return reading
    reading = Reading(display)
    report = reading.report
    faction = page_faction(root)
    if faction is None:
        report.error(
            "no-faction",
            "the page header names no faction; datasheet ids cannot be built",
            line=frames[0].sourceline,
        )
        return reading
    tooltips = read_tooltips(root, TooltipContext(faction, display, report))
    context = FrameContext(faction, display, report, tooltips)
    sheets = [sheet for frame in frames if (sheet := read_frame(frame, context)) is not None]
    entities: list[Entity] = [*sheets, *tooltips.values()]
    reading.parts.append(Part(entities, _page_sign(html, frames[0].sourceline)))
    return reading


def _page_sign(html: str, line: int | None) -> EditionSign:
    return EditionSign(
        links_edition(html),
        "the page's links say",
        "the page has no link of its own site telling its edition",
        line=line,
    )


def _may_be_faction_page(html: str) -> bool:
    return "page_header_span" in html and "outline_header" in html


def _faction_page(root: Element, display: str) -> Reading:
    """A faction overview page: its army rules and detachments' rules, enhancements and
    stratagems with their faction and detachment, and the tooltips behind them."""
    reading = Reading(display)
    name = faction_page.page_faction(root) or ""
    ctx = TooltipContext(name, display, reading.report)
    reading.report.info(
        "faction-page", f"a faction page of {name}, not a datasheet page: read its rules"
    )
    entities = faction_page.read_faction_page(root, ctx) + list(read_tooltips(root, ctx).values())
    reading.parts.append(Part(entities, EditionSign(None)))
    return reading


def page_faction(root: Element) -> str | None:
    """The faction the page's title names: ``<h1 class="page_header2">`` holds
    ``<span>Tyranids</span><span> – Old One Eye</span>``."""
    for header in dom.select(root, "h1", "page_header2"):
        spans = dom.select(header, "span", "page_header_span2")
        if spans:
            name = dom.text(spans[0])
            return name or None
    return None
