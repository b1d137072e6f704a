"""The clean stage: an ordered list of small named passes, lines in, lines out.

Each pass is ``fn(lines, report) -> lines``; it knows nothing of datasheets or stratagems, only of
text. Every line keeps the number it had in the input file, so anything downstream can point back
at its source. What a pass removes, it reports.

The first ``LINE_LOCAL`` passes make of each line what they make of it alone, so ``clean`` runs
them once per distinct line text of a batch (the core rules and stratagems every page dump prints
are the same lines) and gives each input its own lines and notes at its own line numbers;
``tests/test_fast_paths_lines.py`` holds it to every pass over every line.
"""

from __future__ import annotations

import itertools
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
from wahanorm.errors import LINES_KEPT, LONGEST_KEPT, BatchMemo, Report, Severity

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
    return to_numbered(text.splitlines())


def to_numbered(texts: list[str]) -> list[Line]:
    """``texts`` as lines numbered from 1."""
    # Each line made in C (``tuple.__new__`` is what ``Line._make`` calls): a third faster.
    return list(map(tuple.__new__, itertools.repeat(Line), enumerate(texts, start=1)))


LINE_LOCAL = 4
"""How many of the first ``PASSES`` make of each line what they make of it alone: what they
give for a line (its parts, its notes) depends on its text only, not on the lines around it.
(``strip_site_chrome`` looks for the header before it, and the passes after it at the next
lines.)"""

Note = tuple[int, Severity, str, str, int | None, str | None]
"""A note of a line-local pass: (the pass's index, severity, code, message, column, excerpt)."""
Made = tuple[tuple[str, ...], tuple[Note, ...]]
"""What the line-local passes make of a line they change, drop or say something of: its parts
(none when dropped) and its notes, in the order the passes say them."""


class _Same:
    """What the line-local passes make of a line they leave as it is, saying nothing."""


_SAME = _Same()
# Kept across the inputs of a batch: the rules and stratagems every page prints are the same lines.
_LOCAL: BatchMemo[str, Made | _Same] = BatchMemo(LINES_KEPT, LONGEST_KEPT)


def clean(lines: list[Line], report: Report) -> list[Line]:
    """Run every pass in order (the line-local ones once per distinct line text of a batch)."""
    lines = _line_local(lines, report)
    for _name, run in PASSES[LINE_LOCAL:]:
        lines = run(lines, report)
    return lines


def _line_local(lines: list[Line], report: Report) -> list[Line]:
    """What the line-local passes make of ``lines``, each distinct text read once a batch."""
    out: list[Line] = []
    notes: list[tuple[int, Note]] = []
    made_of = _LOCAL.each([line.text for line in lines], _read_local)
    for line, made in zip(lines, made_of, strict=True):
        if isinstance(made, _Same):
            out.append(line)
            continue
        parts, said = made
        out.extend(Line(line.number, part) for part in parts)
        notes.extend((line.number, note) for note in said)
    notes.sort(key=lambda n: n[1][0])  # pass by pass, each in line order, as the passes say them
    for number, (_step, severity, code, message, column, excerpt) in notes:
        report.add(severity, code, message, number, column, excerpt)
    return out


def _read_local(texts: list[str]) -> list[Made | _Same]:
    """What the line-local passes make of each of ``texts`` (the passes run over them all,
    each numbered by its place)."""
    lines = to_numbered(texts)
    said: dict[int | None, list[Note]] = {}
    for step, (_name, run) in enumerate(PASSES[:LINE_LOCAL]):
        scratch = Report(most=None)  # said again in the input's own report, capped there
        lines = run(lines, scratch)
        for d in scratch.diagnostics:
            note = (step, d.severity, d.code, d.message, d.column, d.excerpt)
            said.setdefault(d.line, []).append(note)
    parts: list[list[str]] = [[] for _ in texts]
    for line in lines:
        parts[line.number - 1].append(line.text)
    return [
        _SAME if p == [text] and at not in said else (tuple(p), tuple(said.get(at, ())))
        for at, (text, p) in enumerate(zip(texts, parts, strict=True), start=1)
    ]


__all__ = ["LINE_LOCAL", "PASSES", "Line", "clean", "to_lines"]
