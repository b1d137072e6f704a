"""Saved Wahapedia datasheet pages (HTML), read through their structure.

``read_page`` finds the datasheet frame(s) of a page (``div.dsOuterFrame``), reads each into
a ``Datasheet``, and reads the page's hidden tooltips into its stratagems, detachment rules,
enhancements and glossary rules. Only those two parts of the document are walked: the scripts,
ads, menus and cookie banners around them are never looked at, so they leave no trace.

A frame of the 11th edition (its links say ``/wh40k11ed/``) is read with what the 10th
edition's pages teach; the boxes of it those pages do not print are named in one warning.

    dom        parsing, class tests, source lines, text as the page shows it
    datasheet  one frame → Datasheet
    faction    a faction overview page → its army rules, detachments and their rules,
               enhancements, stratagems
    tooltips   hidden tooltips → Stratagem, DetachmentRule, Enhancement, Rule
    cards      the 11th edition's cards (stratagems, moves) and numbered headings
    context    who reads the page, and what was left out on purpose
"""

from __future__ import annotations

import re

from wahanorm.blocks import html as dom
from wahanorm.blocks.edition import links_edition
from wahanorm.blocks.html import Element
from wahanorm.contract.vocabulary import Edition
from wahanorm.errors import Report
from wahanorm.readers.base import EditionSign, Entity, Part, Reading
from wahanorm.readers.page import faction as faction_page
from wahanorm.readers.page.context import TooltipContext
from wahanorm.readers.page.datasheet import FrameContext, read_frame
from wahanorm.readers.page.tooltips import read_tooltips

FRAME_CLASS = "dsOuterFrame"
KNOWN_BOXES = frozenset(
    {"ds2col", "ds2colKW", "dsAbility", "dsAbility_noLine", "dsBanner", "dsBannerWrap",
     "dsCharFrame", "dsCharFrameBack", "dsCharFrameBackM", "dsCharFrameM", "dsCharInvul",
     "dsCharInvulBack", "dsCharInvulText", "dsCharInvulValue", "dsCharName", "dsCharSkull",
     "dsCharValue", "dsCharWrap", "dsCharWrapM", "dsH2Header", "dsHeader", "dsIconsNarrow",
     "dsIconsRoundPad", "dsIconsWide", "dsInvulWrap", "dsLeft\u0421ol", "dsLeft\u0421olKW",
     "dsLineHor", "dsMeleeIcon", "dsModelBase2", "dsModelBase2Top", "dsOptionsComment",
     "dsOuterFrame", "dsPicNarrow", "dsPicWide", "dsPointy", "dsProfileBaseWrap",
     "dsProfileWrap", "dsProfileWrapLeft", "dsProfileWrapRight", "dsRangedIcon",
     "dsRight\u0421ol", "dsRight\u0421olKW", "dsSkull2", "dsUl", "ShowDatasheetFeatures"}
)  # fmt: skip
"""The boxes of a datasheet frame as the 10th-edition pages print them (every ``ds…`` class met
in their frames, and the classes of a frame's own boxes); ``dsLeftСol`` and its kin are spelt
with a Cyrillic ``С`` (U+0421) by the site. A frame of the 11th edition is read with what these
pages taught; any other box of it is said, not guessed at."""
_COLOUR = re.compile(r"dsColor(?:Ban|Bg|Fr)?[A-Z]+")
"""A faction's colour of a frame (``dsColorFrTYR``): no box of its own."""


def is_datasheet_page(html: str) -> bool:
    """A cheap first look: does the text hold a Wahapedia datasheet frame at all?"""
    return FRAME_CLASS in html


def read_page(html: str, display: str) -> Reading | None:
    """The entities of a saved Wahapedia datasheet or faction page; None when the HTML is not
    one (it is then read as flattened text). Problems on the page become diagnostics; the
    page tells its edition by the links to its own site (``/wh40k10ed/``)."""
    if not is_datasheet_page(html) and not _may_be_faction_page(html):
        return None
    root, cut = dom.parse_page(html)
    if root is None:
        return None
    if cut is not None:
        reading = Reading(display)
        reading.report.error(
            "page-cut",
            f"the page cannot be read whole: {cut.reason}; nothing of it was read (no part of a "
            "datasheet is written)",
            line=cut.line,
        )
        return reading
    frames = dom.select(root, "div", FRAME_CLASS)
    dom.apart(frames)  # a frame nested in another (tags left open) is read apart from it
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
    ctx = TooltipContext(faction, display, report)
    tooltips = read_tooltips(root, ctx)
    context = FrameContext(faction, display, report, tooltips.by_id)
    sheets = [sheet for frame in frames if (sheet := read_frame(frame, context)) is not None]
    page_edition = links_edition(html)
    for frame in frames:
        if (frame_edition(frame) or page_edition) == 11:
            report_unknown_boxes(frame, report)
    faq = faction_page.faq_note(ctx)
    if faq is not None:
        report.info("section-skipped", f"datasheet page of {faction}: {faq}")
    entities: list[Entity] = [*sheets, *tooltips.entities]
    reading.parts.append(Part(entities, _page_sign(html, frames[0].sourceline)))
    return reading


def frame_edition(frame: Element) -> Edition | None:
    """The edition a datasheet frame's own links and pictures name (``/wh40k11ed/…``)."""
    return links_edition(
        " ".join(
            str(v) for el in frame.iter() if isinstance(el.tag, str) for v in el.attrib.values()
        )
    )


def unknown_boxes(frame: Element) -> list[str]:
    """The class names of a frame's boxes that the 10th-edition pages do not print
    (``KNOWN_BOXES``), each once, in page order: the frame's own boxes' and every ``ds…``
    class."""
    found: dict[str, None] = {}
    own = list(dom.children(frame))  # kept alive: lxml hands out one proxy per live node
    for el in frame.iter():
        if not isinstance(el.tag, str):
            continue
        for cls in dom.classes(el):
            if cls in KNOWN_BOXES or _COLOUR.fullmatch(cls):
                continue
            if cls.startswith("ds") or any(el is child for child in own):
                found.setdefault(cls)
    return list(found)


def report_unknown_boxes(frame: Element, report: Report) -> None:
    """One warning naming the boxes of an 11th-edition frame that were not read."""
    unknown = unknown_boxes(frame)
    if unknown:
        report.warning(
            "unread-boxes",
            "datasheet frame of the 11th edition: boxes of classes not known from the 10th "
            f"edition's pages, not read: {', '.join(unknown)}",
            line=frame.sourceline,
        )


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
    page = faction_page.read_faction_page(root, ctx)
    tooltips = read_tooltips(root, ctx)
    faction_page.report_unread(page, ctx)
    reading.parts.append(Part(page.entities + tooltips.entities, EditionSign(None)))
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
