"""The crosscheck of three sources or more, for a terminal and as markdown: the sides, what all
of them hold and agree on, each pair's counts, then the entities they differ on (the
datasheets' characteristics, points and weapons first, faction by faction; then the rest),
each difference with the sides grouped by the value they hold and the majority named."""

from __future__ import annotations

from wahanorm.outputs.crosscheck.render_text import (
    NUMBERS_TITLE,
    OTHERS_TITLE,
    side_line,
)
from wahanorm.outputs.crosscheck.result import NUMBERS, Difference, ManyEntity, ManyReport
from wahanorm.outputs.diff.render_markdown import md
from wahanorm.outputs.diff.render_text import escaped, paint

Section = list[tuple[str, list[tuple[ManyEntity, list[Difference]]]]]


def printable(report: ManyReport, one_line: bool = False) -> ManyReport:
    """The report with every control character and bidi override in its text escaped."""
    return ManyReport.model_validate(escaped(report.model_dump(), one_line))


def head_lines(report: ManyReport) -> list[str]:
    """The sides, what they all hold and agree on, the datasheets' numbers, each pair."""
    s = report.summary
    lines = [side_line(f"{n + 1}", side) for n, side in enumerate(report.sides)]
    if report.kinds or report.fields:
        kept = [f"kinds {', '.join(report.kinds)}"] if report.kinds else []
        kept += [f"fields {', '.join(report.fields)}"] if report.fields else []
        lines.append(f"kept to {'; '.join(kept)}")
    lines.append(
        f"{s.held_by_all} entities held by all {s.sides} sources: {s.agreeing} agree on every "
        f"field compared, {s.held_by_all - s.agreeing} differ; {s.held_by_some} held by some "
        f"of them only; {s.majority} differences where a majority holds one value"
    )
    h = report.headline
    if h.datasheets:
        lines.append(
            f"datasheets held by all: {h.disagreeing} of {h.datasheets} differ; on "
            f"characteristics {h.characteristics}, points {h.points}, weapons {h.weapons} "
            f"({h.numbers} {'datasheet' if h.numbers == 1 else 'datasheets'}, listed first)"
        )
    for p in report.pairs:
        lines.append(
            f"  {p.a} / {p.b}: {p.compared} compared, {p.agreeing} agree, "
            f"{p.disagreeing} disagree; {p.only_a} only in {p.a}, {p.only_b} only in {p.b}"
        )
    for label, kinds in report.only_one.items():
        counts = ", ".join(f"{kind} {n}" for kind, n in kinds.items())
        lines.append(f"  only in {label}: {counts}")
    return lines


def sections(report: ManyReport) -> list[tuple[str, Section]]:
    """The datasheets' characteristics, points and weapons first, then everything else, each
    faction by faction."""
    first: Section = []
    rest: Section = []
    for entity in report.entities:
        numbers = [d for d in entity.differences if d.field in NUMBERS]
        others = [d for d in entity.differences if d.field not in NUMBERS]
        if not (numbers and entity.kind == "datasheet"):
            numbers, others = [], entity.differences
        for section, said in ((first, numbers), (rest, others)):
            if said:
                if not section or section[-1][0] != entity.group:
                    section.append((entity.group, []))
                section[-1][1].append((entity, said))
    return [(NUMBERS_TITLE, first), (OTHERS_TITLE, rest)]


def entity_title(entity: ManyEntity) -> str:
    """``datasheet Hive Tyrant (tyranids/hive-tyrant), held by A, B and C``."""
    title = f"{entity.kind} {entity.name} ({entity.id}), held by {', '.join(entity.held_by)}"
    if entity.ids:
        title += "; named " + ", ".join(f"{i} in {label}" for label, i in entity.ids.items())
    return title


def render_many_text(report: ManyReport, colour: bool = False) -> str:
    """The whole report as terminal text (control characters escaped)."""
    report = printable(report, one_line=True)
    specs = " ".join(side.spec for side in report.sides)
    lines = [paint(f"wahanorm crosscheck {specs}", "head", colour), *head_lines(report)]
    if not report.disagrees:
        return "\n".join([*lines, "all sides agree on every entity compared"]) + "\n"
    for title, groups in sections(report):
        if not groups:
            continue
        lines += ["", paint(f"== {title}", "head", colour)]
        for group, entities in groups:
            lines += ["", paint(group, "head", colour)]
            for entity, said in entities:
                lines.append(f"  {paint('≠', 'changed', colour)} {entity_title(entity)}")
                lines += [f"      {d.summary}" for d in said]
    return "\n".join(lines) + "\n"


def render_many_markdown(report: ManyReport, max_chars: int | None = None) -> str:
    """The whole report as markdown; with ``max_chars``, cut after the last whole entity that
    fits, saying how many differences are left out."""
    report = printable(report)
    head = f"## Crosscheck of {len(report.sides)} sources\n\n"
    head += "".join(f"- {md(line)}\n" for line in head_lines(report)) + "\n"
    parts: list[tuple[str, int]] = []
    for title, groups in sections(report):
        if not groups:
            continue
        parts.append((f"### {title}\n\n", 0))
        for group, entities in groups:
            parts.append((f"#### {md(group)}\n\n", 0))
            for entity, said in entities:
                text = f"- **{md(entity_title(entity))}**\n"
                text += "".join(f"  - {md(d.summary)}\n" for d in said)
                parts.append((text, len(said)))
    text = head + "".join(p for p, _ in parts)
    if max_chars is None or len(text) <= max_chars:
        return text
    total = sum(n for _, n in parts)
    note_room = 300
    shown, room = [], max_chars - len(head) - note_room
    for part, n in parts:
        if len(part) > room:
            break
        shown.append((part, n))
        room -= len(part)
    left = total - sum(n for _, n in shown)
    note = (
        f"\n---\n**Cut to fit {max_chars} characters:** {left} of the {total} differences are "
        "not shown here. Run `wahanorm crosscheck` with the same arguments (or `--format "
        "json`) for the whole report.\n"
    )
    return (head + "".join(p for p, _ in shown) + note)[:max_chars]
