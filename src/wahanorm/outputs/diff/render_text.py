"""The diff for a terminal: one line per entity, its changes indented below; colour only when
asked (the command asks when stdout is a terminal and NO_COLOR is not set)."""

from __future__ import annotations

from typing import Any

from wahanorm.contract.ids import UNSAFE_CHARACTERS, escape_line, escape_unsafe
from wahanorm.contract.vocabulary import edition_name
from wahanorm.outputs.diff.result import Change, Counts, DiffReport, EntityDiff, Side, WordOp
from wahanorm.outputs.diff.values import plain_words
from wahanorm.outputs.diff.words import elide

_COLOURS = {
    "added": "32",
    "removed": "31",
    "changed": "33",
    "renamed": "36",
    "delete": "31",
    "insert": "32",
    "head": "1",
}
_MARKS = {"added": "+", "removed": "-", "changed": "~", "renamed": ">"}


def paint(text: str, what: str, colour: bool) -> str:
    """``text`` in the colour of ``what`` (an entity status, a word op, ``head``)."""
    return f"\033[{_COLOURS[what]}m{text}\033[0m" if colour else text


def differ_line(total: int) -> str:
    """``1 entity differs``, ``3 entities differ``."""
    return f"{total} entity differs" if total == 1 else f"{total} entities differ"


def mixed_editions(report: DiffReport) -> bool:
    """True when a side holds both editions: each entity line then says its edition."""
    return len(report.old.editions) > 1 or len(report.new.editions) > 1


def edition_names(side: Side) -> str:
    """``10th`` or ``10th and 11th`` (``-`` for an output written before editions)."""
    return " and ".join(f"{e}th" for e in side.editions) or "-"


def counts_line(c: Counts) -> str:
    """``3 added, 1 removed, 0 renamed, 8 changed``."""
    return f"{c.added} added, {c.removed} removed, {c.renamed} renamed, {c.changed} changed"


def escaped(value: Any, one_line: bool = False) -> Any:
    """``value`` (JSON of a report) with every control character and bidi override in its
    text written as an escape; with ``one_line``, a line break too (the text report prints each
    name and change on a line of its own: nothing in them may start another)."""
    if isinstance(value, str):
        if UNSAFE_CHARACTERS.search(value) is None:
            return value
        return escape_line(value) if one_line else escape_unsafe(value)
    if isinstance(value, list):
        return [escaped(v, one_line) for v in value]
    if isinstance(value, dict):
        return {k: escaped(v, one_line) for k, v in value.items()}
    return value


def printable(report: DiffReport, one_line: bool = False) -> DiffReport:
    """The report with every control character and bidi override in its text written as an
    escape (``\\x1b``; with ``one_line``, a line break too): what an input holds never drives
    the reader's terminal."""
    return DiffReport.model_validate(escaped(report.model_dump(), one_line))


def render_text(report: DiffReport, colour: bool = False) -> str:
    """The whole report as terminal text (control characters escaped)."""
    report = printable(report, one_line=True)
    lines = [paint(f"wahanorm diff {report.old.spec} → {report.new.spec}", "head", colour)]
    if report.old.data_version or report.new.data_version:
        lines.append(f"data: {report.old.data_version} → {report.new.data_version}")
    if report.old.editions != report.new.editions:
        lines.append(f"editions: {edition_names(report.old)} → {edition_names(report.new)}")
    if not report.has_changes:
        return "\n".join([*lines, "no rules changes"]) + "\n"
    lines.append(f"{differ_line(report.summary.total)}: {counts_line(report.summary)}")
    group = None
    for diff in report.entities:
        if diff.group != group:
            group = diff.group
            lines += ["", paint(group, "head", colour)]
        lines.append(_entity_line(diff, colour, mixed_editions(report)))
        lines += [f"      {_change_line(ch, colour)}" for ch in diff.changes]
    return "\n".join(lines) + "\n"


def _entity_line(d: EntityDiff, colour: bool, with_edition: bool) -> str:
    mark = paint(_MARKS[d.status], d.status, colour)
    if d.status == "renamed":
        return (
            f"  {mark} {d.kind} {d.old_name} → {d.name}  ({d.old_id} → {d.id}, "
            f"{d.similarity}% alike)"
        )
    where = f"{d.id}, {edition_name(d.edition)}" if with_edition and d.edition else d.id
    return f"  {mark} {d.kind} {d.name}  ({where})"


def _change_line(ch: Change, colour: bool) -> str:
    if ch.words is None:
        return ch.summary
    return f"{ch.label}: {_words(elide(ch.words), colour)}"


def _words(ops: list[WordOp], colour: bool) -> str:
    if not colour:
        return plain_words(ops)
    return " ".join(op.text if op.op == "equal" else paint(op.text, op.op, True) for op in ops)
