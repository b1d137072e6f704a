"""Saved Wahapedia datasheet pages (HTML), read through their structure.

``extract_page`` finds the datasheet frame(s) of a page (``div.dsOuterFrame``), reads each into
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
from wahanorm.blocks.edition import Edition, links_edition, settle_edition
from wahanorm.blocks.html import Element
from wahanorm.contract.hashing import content_hash
from wahanorm.pipeline import after_read as checks
from wahanorm.readers.base import Entity, Extraction, with_edition
from wahanorm.readers.page import faction as faction_page
from wahanorm.readers.page.datasheet import FrameContext, read_frame
from wahanorm.readers.page.tooltips import TooltipContext, read_tooltips

FRAME_CLASS = "dsOuterFrame"


def is_datasheet_page(html: str) -> bool:
    """A cheap first look: does the text hold a Wahapedia datasheet frame at all?"""
    return FRAME_CLASS in html


def extract_page(html: str, display: str, edition: Edition | None = None) -> Extraction | None:
    """The entities of a saved Wahapedia datasheet page; None when the HTML is not one (the
    caller then reads it as flattened text). Problems on the page become diagnostics. The page's
    edition is the one its links to its own site name (``/wh40k10ed/``), else ``edition``."""
    if not is_datasheet_page(html) and not _may_be_faction_page(html):
        return None
    root = dom.parse(html)
    if root is None:
        return None
    frames = dom.select(root, "div", FRAME_CLASS)
    if not frames:
        if not faction_page.is_faction_page(root):
            return None
        extraction = _faction_page(root, display)
        return _stamp_edition(extraction, _page_edition(html, edition, extraction, None))
    extraction = Extraction(display)
    report = extraction.report
    faction = page_faction(root)
    if faction is None:
        report.error(
            "html-no-faction",
            "the page header names no faction; datasheet ids cannot be built",
            line=frames[0].sourceline,
        )
        return extraction
    tooltips = read_tooltips(root, TooltipContext(faction, display, report))
    context = FrameContext(faction, display, report, tooltips)
    sheets = [sheet for frame in frames if (sheet := read_frame(frame, context)) is not None]
    for sheet in sheets:
        checks.report_missing_data(sheet, report)
    extraction.entities.extend(checks.keep_plausible(list(sheets), report))
    extraction.entities.extend(_deduplicated(list(tooltips.values()), extraction))
    page = _page_edition(html, edition, extraction, frames[0].sourceline)
    return _stamp_edition(extraction, page)


def _stamp_edition(extraction: Extraction, edition: Edition) -> Extraction:
    extraction.entities = [with_edition(e, edition) for e in extraction.entities]
    return extraction


def _page_edition(
    html: str, said: Edition | None, extraction: Extraction, line: int | None
) -> Edition:
    return settle_edition(
        links_edition(html),
        said,
        "the page's links say",
        "the page has no link of its own site telling its edition",
        lambda code, message: extraction.report.warning(code, message, line=line),
    )


def _may_be_faction_page(html: str) -> bool:
    return "page_header_span" in html and "outline_header" in html


def _faction_page(root: Element, display: str) -> Extraction:
    """A faction overview page: its army rules and detachments' rules, enhancements and
    stratagems with their faction and detachment, and the tooltips behind them."""
    extraction = Extraction(display)
    name = faction_page.page_faction(root) or ""
    ctx = TooltipContext(name, display, extraction.report)
    extraction.report.info(
        "html-faction-page", f"a faction page of {name}, not a datasheet page: read its rules"
    )
    entities = faction_page.read_faction_page(root, ctx) + list(read_tooltips(root, ctx).values())
    extraction.entities.extend(_deduplicated(entities, extraction))
    return extraction


def page_faction(root: Element) -> str | None:
    """The faction the page's title names: ``<h1 class="page_header2">`` holds
    ``<span>Tyranids</span><span> – Old One Eye</span>``."""
    for header in dom.select(root, "h1", "page_header2"):
        spans = dom.select(header, "span", "page_header_span2")
        if spans:
            name = dom.text(spans[0])
            return name or None
    return None


def _deduplicated(entities: list[Entity], extraction: Extraction) -> list[Entity]:
    """One entity per id and content: the page repeats a rule under several tooltips (one per
    place that links it). Same id with different content stays twice, for merge to report."""
    seen: dict[tuple[str, str], Entity] = {}
    repeats = 0
    for entity in entities:
        key = (entity.id, content_hash(entity))
        if key in seen:
            repeats += 1
            continue
        seen[key] = entity
    if repeats:
        extraction.report.info(
            "html-tooltip-repeats", f"{repeats} tooltips repeat an entity read from another one"
        )
    return sorted(seen.values(), key=lambda e: (e.kind, e.id))
