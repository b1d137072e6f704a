"""Removal of site chrome: Wahapedia's navigation, menus, ads and tooltip boilerplate, and of the
remnants of tables the dump flattened (lines of nothing but ``|``).

The catalogue below holds strings of the site's user interface, never rules content. A dump that
starts with the site's navigation (``Datasheets``, ``Army List`` … the faction menu) loses every
line before its datasheet header.
"""

from __future__ import annotations

import re

from wahanorm.blocks.clean.lines import Line
from wahanorm.errors import Report

SITE_CHROME = frozenset(
    {
        "Datasheets",
        "[ ]",
        "Army List",
        "Datasheets collated",
        "Faction Rules",
        "Army Rules",
        "AuthorCommunityData Export",
        "Settings",
        "Disable Ads",
        "Boosty subscribers may disable ads:",
        "1. Enter e-mail you have used to login on Boosty.",
        "2. Press Get new pin code button (if you don't have it already)",
        "3. Enter pin code.",
        "Note that login database updated once a day. So, if you are a new booster - try "
        "tomorrow. And thank you!",
        "This datasheet does not meet the selection criteria (see Settings tab).",
        "This datasheet does not meet the selection criteria (see Filter combo-box or Settings "
        "tab).",
        "Before selecting targets for this weapon, select one of its profiles to make attacks "
        "with.",
    }
)
ROLE_WORDS = frozenset(
    [
        "infantry",
        "mounted",
        "vehicle",
        "vehicles",
        "walker",
        "monster",
        "monsters",
        "beast",
        "beasts",
        "swarm",
        "artillery",
        "aircraft",
        "fly",
        "epic",
        "hero",
        "heroes",
        "character",
        "characters",
        "battleline",
        "dedicated",
        "transport",
        "transports",
        "fortification",
        "fortifications",
        "other",
        "allied",
        "units",
        "unit",
        "and",
        "others...",
    ]
)
"""Words of the army list's role menu ("Infantry Epic Hero", "Dedicated Transports")."""

_CHROME_PREFIX = re.compile(r"^Datasheets collated(?=\S)")
# "Faction – Unit": a faction is named in at most four words ("Chaos Space Marines").
_HEADER = re.compile(r"^[^\s–]+(?: [^\s–]+){0,3} – \S.*$")
_SECTION_MARKERS = re.compile(
    r"^\|?\s*(?:(?:RANGED WEAPONS|MELEE WEAPONS|ABILITIES|UNIT COMPOSITION|M)\b|KEYWORDS:)"
)
_COST = re.compile(r"^\d+\s*CP$", re.IGNORECASE)
_REMNANT = re.compile(r"^[|\s]+$")
_TRAILING_PIPE = re.compile(r"\s*\|\s*$")


def is_role_line(text: str) -> bool:
    """An army-list role line such as ``Infantry Epic Hero`` or ``Dedicated Transports``."""
    words = text.lower().split()
    return bool(words) and all(w in ROLE_WORDS for w in words)


def is_datasheet_header(lines: list[Line], index: int) -> bool:
    """True when ``lines[index]`` is a ``Faction – Unit`` line that opens a datasheet: one
    followed within a few lines by the datasheet's stats, weapons, abilities or keywords."""
    if " – " not in lines[index].text:
        return False  # the test of ``_HEADER``'s dash first (trimming a bar adds none)
    # Judged as strip_table_remnants will leave it, so that a second clean pass sees the same
    # header as the first ("0 – 0|" becomes the header "0 – 0"; "0 – |" becomes no header).
    text = trim_lone_bar(lines[index].text)
    if "|" in text or text.startswith("-") or not _HEADER.match(text):
        return False  # a header is never a table row
    if index > 0 and _COST.match(lines[index - 1].text):
        return False  # "1CP" then "Recon Element – Strategic Ploy Stratagem": a stratagem
    return any(_SECTION_MARKERS.match(x.text) for x in lines[index + 1 : index + 12])


def find_datasheet_header(lines: list[Line]) -> int | None:
    """Index of the first datasheet header among the first lines, or None."""
    for index in range(min(len(lines), 400)):
        if is_datasheet_header(lines, index):
            return index
    return None


def strip_site_chrome(lines: list[Line], report: Report) -> list[Line]:
    """Drop the navigation before the datasheet header, and every chrome line."""
    header = find_datasheet_header(lines)
    if header:
        first, last = lines[0].number, lines[header - 1].number
        report.info(
            "chrome-removed",
            f"site navigation removed (lines {first}-{last}, {header} lines)",
            line=first,
        )
        lines = lines[header:]
    out: list[Line] = []
    in_role_menu = False
    for line in lines:
        if line.text in SITE_CHROME:
            report.info("chrome-removed", f"site chrome removed: {line.text[:60]!r}", line.number)
            in_role_menu = line.text == "Datasheets collated"
            continue
        text = line.text
        if text.startswith("Datasheets collated"):  # the prefix's test before its pattern
            text = _CHROME_PREFIX.sub("", text)
            if text != line.text:
                report.info(
                    "chrome-removed", "site chrome removed: 'Datasheets collated'", line.number
                )
                in_role_menu = True
        if in_role_menu and is_role_line(text):
            report.info("chrome-removed", f"army list menu entry removed: {text!r}", line.number)
            continue
        in_role_menu = False
        out.append(line if text is line.text else Line(line.number, text))
    return out


def trim_lone_bar(text: str) -> str:
    """A table cell left alone loses its bar: ``UNBRIDLED BLOODLUST |`` → ``UNBRIDLED
    BLOODLUST``; any other text is returned as it is."""
    return _TRAILING_PIPE.sub("", text) if text.count("|") == 1 else text


def strip_table_remnants(lines: list[Line], report: Report) -> list[Line]:
    """Drop lines of nothing but table bars; trim a lone bar left after a table cell."""
    out: list[Line] = []
    for line in lines:
        if "|" not in line.text:
            out.append(line)
            continue
        if _REMNANT.match(line.text):
            report.info("chrome-removed", "empty table row removed", line.number)
            continue
        out.append(Line(line.number, trim_lone_bar(line.text)))
    return out
