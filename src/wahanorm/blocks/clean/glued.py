"""Splitting of headings and items glued onto the end of the previous sentence.

The dumps lose the line break between blocks: ``…Fights First ability.HEROIC INTERVENTION``,
``…such as [LETHAL HITS] (24).[EXTRA ATTACKS]24.11``, ``…allocation group.EPIC CHALLENGE15.03``,
``…the following conditions apply:- Each model…``, ``…fewer than 7YP.FIRE OVERWATCH``. Wherever a sentence ends (``.``, ``!``, ``?``)
and the next begins with no space, or a bullet is glued after ``:`` or ``.``, the line is split;
both parts keep the input line's number.
"""

from __future__ import annotations

import re

from wahanorm.blocks.clean.lines import Line
from wahanorm.errors import Report

# A sentence end glued to the start of the next block: a capital letter or a bracket heading.
# The sentence may end in a word of capitals ("fewer than 7YP.FIRE OVERWATCH", "your
# WARLORD.Each time"), but not in initials ("S.T.C."): two capitals at least before the stop.
_GLUED_SENTENCE = re.compile(r"(?<=[a-z0-9)\]'\"%][.!?])(?=[A-Z\[])|(?<=[A-Z]{2}[.!?])(?=[A-Z\[])")
# A bullet glued after a colon or a full stop: "apply:- Each model".
_GLUED_BULLET = re.compile(r"(?<=[.:])(?=- [A-Z(\[])")
# What any glue contains, without look-behinds, so that most lines are passed by one fast search.
_ANY_GLUE = re.compile(r"[.!?][A-Z\[]|[.:]- ")


def split_glued_headings(lines: list[Line], report: Report) -> list[Line]:
    """Split every line at glued sentence and bullet boundaries."""
    out: list[Line] = []
    for line in lines:
        if line.text.startswith("|") or not _ANY_GLUE.search(line.text):
            out.append(line)  # one search first: most lines have nothing glued
            continue
        parts = [
            p for chunk in _GLUED_SENTENCE.split(line.text) for p in _GLUED_BULLET.split(chunk)
        ]
        parts = [p.strip() for p in parts if p.strip()]
        if len(parts) > 1:
            report.info("glued-split", f"glued line split in {len(parts)}", line.number)
        out.extend(Line(line.number, part) for part in parts)
    return out
