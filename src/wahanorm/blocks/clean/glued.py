"""Splitting of headings and items glued onto the end of the previous sentence.

The dumps lose the line break between blocks: ``…Fights First ability.HEROIC INTERVENTION``,
``…such as [LETHAL HITS] (24).[EXTRA ATTACKS]24.11``, ``…allocation group.EPIC CHALLENGE15.03``,
``…the following conditions apply:- Each model…``, ``…fewer than 7YP.FIRE OVERWATCH``. Wherever a sentence ends (``.``, ``!``, ``?``)
and the next begins with no space, or a bullet is glued after ``:`` or ``.``, the line is split;
both parts keep the input line's number.
"""

from __future__ import annotations

import itertools
import re

from wahanorm.blocks.clean.lines import Line
from wahanorm.errors import Report

# A sentence end glued to the start of the next block: a capital letter or a bracket heading.
# The sentence may end in a word of capitals ("fewer than 7YP.FIRE OVERWATCH", "your
# WARLORD.Each time"), but not in initials ("S.T.C."): two capitals at least before the stop.
_GLUED_SENTENCE = re.compile(r"(?<=[a-z0-9)\]'\"%][.!?])(?=[A-Z\[])|(?<=[A-Z]{2}[.!?])(?=[A-Z\[])")
# A bullet glued after a colon or a full stop: "apply:- Each model".
_GLUED_BULLET = re.compile(r"(?<=[.:])(?=- [A-Z(\[])")
# Where glue may be: a stop and a character after it that glue starts with. The stops are found
# in the whole text by ``str.find`` (a regex scans each character several times slower); the
# look-behinds and look-aheads of the two patterns above are then tested at each stop found.
_STOPS = ".!?:"
_AFTER_STOP = frozenset("-ABCDEFGHIJKLMNOPQRSTUVWXYZ[")
_BEFORE_SENTENCE_END = frozenset("abcdefghijklmnopqrstuvwxyz0123456789)]'\"%")
_CAPITALS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
_AFTER_BULLET = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ([")


def stops(text: str) -> list[int]:
    """The positions of every ``[.!?:]`` followed by ``[-A-Z[]`` in ``text``, in order."""
    found: list[int] = []
    for mark in _STOPS:
        at = text.find(mark)
        while at != -1:
            if text[at + 1 : at + 2] in _AFTER_STOP:
                found.append(at)
            at = text.find(mark, at + 1)
    found.sort()
    return found


def glue_points(text: str, candidates: list[int] | None = None) -> list[int]:
    """The positions at which ``_GLUED_SENTENCE`` and ``_GLUED_BULLET`` split ``text``, in
    order (a test holds them equal to the two patterns' splits); ``candidates`` are its
    ``stops`` when the caller has them."""
    points: list[int] = []
    for stop in stops(text) if candidates is None else candidates:
        mark, after = text[stop], text[stop + 1]
        if after == "-":  # a bullet: ``[.:]`` then ``- `` and a capital or a bracket
            bullet = text[stop + 2 : stop + 3] == " " and text[stop + 3 : stop + 4] in _AFTER_BULLET
            if mark in ".:" and bullet:
                points.append(stop + 1)
        elif mark != ":" and stop >= 1:  # a sentence's end before a capital or a bracket
            before = text[stop - 1]
            if before in _BEFORE_SENTENCE_END or (
                before in _CAPITALS and stop >= 2 and text[stop - 2] in _CAPITALS
            ):
                points.append(stop + 1)
    return points


def split_glued_headings(lines: list[Line], report: Report) -> list[Line]:
    """Split every line at glued sentence and bullet boundaries."""
    # The stops of all lines at once (a line break is no character glue starts with, so the
    # stops of the joined text are those of its lines), then each line with its own.
    found = stops("\n".join(line.text for line in lines))
    out: list[Line] = []
    start = 0  # where the line starts in the joined text
    next_stop = 0  # the first stop not yet passed
    for line in lines:
        text = line.text
        end = start + len(text)
        first = next_stop
        while next_stop < len(found) and found[next_stop] < end:
            next_stop += 1
        if first == next_stop or text.startswith("|"):
            out.append(line)  # most lines have nothing glued
            start = end + 1
            continue
        points = glue_points(text, [at - start for at in found[first:next_stop]])
        start = end + 1
        if not points:
            out.append(line)
            continue
        cuts = [0, *points, len(text)]
        parts = [p for p in (text[a:b].strip() for a, b in itertools.pairwise(cuts)) if p]
        if len(parts) > 1:
            report.info("glued-split", f"glued line split in {len(parts)}", line.number)
        out.extend(Line(line.number, part) for part in parts)
    return out
