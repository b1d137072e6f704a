"""The clean stage: an ordered list of small named passes, lines in, lines out.

Each pass is ``fn(lines, report) -> lines``; it knows nothing of datasheets or stratagems, only of
text. Every line keeps the number it had in the input file, so anything downstream can point back
at its source. What a pass removes, it reports.
"""

from __future__ import annotations

from collections.abc import Callable

from wahanorm.blocks.clean.characters import drop_blank_lines, normalize_characters
from wahanorm.blocks.clean.chrome import strip_site_chrome, strip_table_remnants
from wahanorm.blocks.clean.glued import split_glued_headings
from wahanorm.blocks.clean.lines import Line
from wahanorm.blocks.clean.mojibake import repair_mojibake
from wahanorm.blocks.clean.repetitions import (
    drop_doubled_headings,
    drop_repeated_runs,
    drop_weapon_name_rows,
)
from wahanorm.errors import Report

Pass = Callable[[list[Line], Report], list[Line]]

PASSES: list[tuple[str, Pass]] = [
    ("repair_mojibake", repair_mojibake),
    ("normalize_characters", normalize_characters),
    ("drop_blank_lines", drop_blank_lines),
    # glued headings are split before the chrome is judged: a header glued after navigation
    # ("0.A – 0") must be found by the first pass, not by a second one
    ("split_glued_headings", split_glued_headings),
    ("strip_site_chrome", strip_site_chrome),
    ("strip_table_remnants", strip_table_remnants),
    ("drop_weapon_name_rows", drop_weapon_name_rows),
    ("drop_doubled_headings", drop_doubled_headings),
    ("drop_repeated_runs", drop_repeated_runs),
]
"""The clean stage in order; each name is the function's name."""


def to_lines(text: str) -> list[Line]:
    """Numbered lines of a text (1-based), any line ending accepted."""
    return list(map(Line._make, enumerate(text.splitlines(), start=1)))  # a fifth faster


def clean(lines: list[Line], report: Report) -> list[Line]:
    """Run every pass in order."""
    for _name, run in PASSES:
        lines = run(lines, report)
    return lines


__all__ = ["PASSES", "Line", "clean", "to_lines"]
