"""Removal of the repetitions the dumps carry, each one reported.

- ``drop_weapon_name_rows``: a weapon table prints each weapon's name once on its own row
  (``| Lash of Khorne | |||||||``) and again with its profile; the name-only row goes.
- ``drop_doubled_headings``: a heading printed twice, first as written, then in capitals
  (``Feel No Pain`` / ``FEEL NO PAIN``); the first goes.
- ``drop_repeated_runs``: a run of lines printed again right after itself (the doubled
  FACTION KEYWORDS line, the repeated TARGET/EFFECT/RESTRICTIONS block, a weapon name printed
  twice); the second copy goes.
"""

from __future__ import annotations

import re

from wahanorm.blocks.clean.lines import Line
from wahanorm.errors import Report

_NAME_ONLY_ROW = re.compile(r"^\|\s*(?P<name>[^|]+?)\s*\|[\s|]*$")
_ROW_START = re.compile(r"^\|\s*(?P<name>[^|]+?)\s*\|")
# Table cells that may legitimately repeat one after the other (a characteristic, a cost).
_CELL = re.compile(r'^(?:[-+]?\d+[+"]?|\d*D\d+(?:[+-]\d+)?|N/A|Melee|-)$', re.IGNORECASE)
MAX_RUN = 8


def drop_weapon_name_rows(lines: list[Line], report: Report) -> list[Line]:
    """Drop a name-only table row that the next row repeats with its profile."""
    out: list[Line] = []
    for index, line in enumerate(lines):
        name_only = _NAME_ONLY_ROW.match(line.text) if line.text.startswith("|") else None
        if name_only and index + 1 < len(lines):
            following = _ROW_START.match(lines[index + 1].text)
            if following and following.group("name") == name_only.group("name"):
                report.info(
                    "duplicate-dropped",
                    f"weapon name row repeated by its profile row: {name_only.group('name')!r}",
                    line.number,
                )
                continue
        out.append(line)
    return out


def drop_doubled_headings(lines: list[Line], report: Report) -> list[Line]:
    """Drop a short heading that the next line repeats in capitals."""
    out: list[Line] = []
    for index, line in enumerate(lines):
        following = lines[index + 1].text if index + 1 < len(lines) else ""
        if (
            following
            and line.text != following
            and line.text.upper() == following
            and len(line.text.split()) <= 6
        ):
            report.info("duplicate-dropped", f"heading printed twice: {line.text!r}", line.number)
            continue
        out.append(line)
    return out


def drop_repeated_runs(lines: list[Line], report: Report) -> list[Line]:
    """Drop a run of up to ``MAX_RUN`` lines that repeats the run just before it.

    The kept lines work as a stack: each time one is added, a copy that its arrival completes
    (the last ``k`` lines equal the ``k`` before them) is taken off again. So no repeat is left
    anywhere, even one that only a removal brings together, and a second run changes nothing.
    """
    out: list[Line] = []
    texts: list[str] = []  # the texts of ``out``, for one test in C of most lines
    for line in lines:
        out.append(line)
        texts.append(line.text)
        if line.text not in texts[-1 - MAX_RUN : -1]:
            continue  # no line of the runs it could end repeats it
        run = _repeated_tail(texts)
        if run:
            first = out[-run]
            report.info(
                "duplicate-dropped",
                f"{run} line(s) repeated: {first.text[:60]!r}",
                first.number,
            )
            del out[-run:]
            del texts[-run:]
    return out


def _repeated_tail(texts: list[str]) -> int:
    """Length of the shortest run at the end of ``texts`` that repeats the run just before it."""
    text = texts[-1]
    for run in range(1, min(MAX_RUN, len(texts) // 2) + 1):
        if texts[-1 - run] != text:
            continue  # cheap test first: most lines repeat nothing
        if texts[-run:] == texts[-2 * run : -run]:  # the two runs compared in C
            if run == 1 and _CELL.match(text):
                continue  # two equal characteristics in a row are data, not a repetition
            return run
    return 0
