"""The crosscheck for a terminal: the two sides, the counts, then each faction with the
entities the two disagree on, their disagreements indented below, and what one side holds
alone. Colour only when asked (the command asks on a terminal without NO_COLOR)."""

from __future__ import annotations

from itertools import groupby

from wahanorm.contract.vocabulary import KINDS
from wahanorm.outputs.crosscheck.result import (
    NUMBERS,
    CrosscheckReport,
    Disagreement,
    EntityCheck,
    KindCounts,
    NotCompared,
    OneSided,
    Side,
)
from wahanorm.outputs.diff.render_text import escaped, paint

WORDS_LEGEND = "in a text, [-…-] is A's wording and {+…+} B's"


def printable(report: CrosscheckReport, one_line: bool = False) -> CrosscheckReport:
    """The report with every control character and bidi override in its text escaped (with
    ``one_line``, a line break too): what an input holds never drives the reader's terminal."""
    return CrosscheckReport.model_validate(escaped(report.model_dump(), one_line))


def side_line(name: str, side: Side) -> str:
    """``A: wahapedia-10ed-2026-02-14 (output out/feb; data 2026-02-14 02:04:28; …)``."""
    facts = [f"{side.source} {side.spec}"]
    if side.data_version:
        facts.append(f"data {side.data_version}")
    if side.generator:
        facts.append(side.generator)
    editions = " and ".join(f"{e}th" for e in side.editions)
    facts.append(f"{side.entities} entities" + (f", {editions} edition" if editions else ""))
    return f"{name}: {side.label}  ({'; '.join(facts)})"


def summary_line(report: CrosscheckReport) -> str:
    """``457 entities compared: 300 agree, 157 disagree; 2 only in A, 5 only in B``."""
    s = report.summary
    line = (
        f"{s.compared} entities compared: {s.agreeing} agree, {s.disagreeing} disagree; "
        f"{s.only_a} only in A, {s.only_b} only in B"
    )
    return line + (f"; {s.named_differently} named differently" if s.named_differently else "")


def kind_line(kind: str, c: KindCounts) -> str:
    """One kind's counts."""
    return (
        f"{kind}: {c.compared} compared, {c.agreeing} agree, {c.disagreeing} disagree, "
        f"{c.only_a} only in A, {c.only_b} only in B"
    )


def fields_line(c: KindCounts) -> str:
    """The fields a kind's pairs disagree on: ``profiles 6 of 280, points 2 of 269``."""
    wrong = [(name, f) for name, f in c.by_field.items() if f.disagreeing]
    wrong.sort(key=lambda item: (-item[1].disagreeing, item[0]))
    return ", ".join(f"{name} {f.disagreeing} of {f.compared}" for name, f in wrong)


def not_compared_line(item: NotCompared) -> str:
    """``stratagem: 1391 only in A``, ``datasheet of Space Marines: 160 only in A``."""
    what = f"{item.kind} of {item.group}" if item.group else item.kind
    return f"{what}: {item.entities} only in {item.side.upper()}"


def not_compared_lines(items: list[NotCompared]) -> list[str]:
    """What was not compared, one line per kind: ``stratagem: 1391 only in A``, ``enhancement:
    139 only in A (Adepta Sororitas 24, Necrons 42); 3 only in B (Daemons 3)``."""
    by_kind: dict[str, dict[str, list[NotCompared]]] = {}
    for item in items:
        by_kind.setdefault(item.kind, {}).setdefault(item.side, []).append(item)
    rank: dict[str, int] = {kind: n for n, kind in enumerate(KINDS)}
    lines = []
    for kind in sorted(by_kind, key=lambda k: (rank.get(k, len(rank)), k)):
        parts = []
        for side in ("a", "b"):
            found = by_kind[kind].get(side)
            if not found:
                continue
            total = sum(i.entities for i in found)
            groups = ", ".join(f"{i.group} {i.entities}" for i in found if i.group)
            parts.append(f"{total} only in {side.upper()}" + (f" ({groups})" if groups else ""))
        lines.append(f"{kind}: {'; '.join(parts)}")
    return lines


def headline_line(report: CrosscheckReport) -> str:
    """``datasheets: 986 of 1177 disagree; on characteristics 212, points 113, weapons 384``."""
    h = report.headline
    return (
        f"datasheets: {h.disagreeing} of {h.datasheets} disagree; on characteristics "
        f"{h.characteristics}, points {h.points}, weapons {h.weapons} ({h.numbers} datasheets, "
        "listed first)"
    )


NUMBERS_TITLE = "Characteristics, points and weapons"
OTHERS_TITLE = "Abilities, keywords, leaders and texts"

Section = list[tuple[str, list[tuple[EntityCheck, list[Disagreement]]]]]
"""Groups (factions), each with its entities and the disagreements a section shows of each."""


def sections(report: CrosscheckReport) -> list[tuple[str, Section]]:
    """The entities in two sections: the datasheets' characteristics, points and weapons
    first, faction by faction; then everything else (abilities, keywords, leader links, texts,
    entities named differently), faction by faction."""
    first: Section = []
    rest: Section = []
    for check in report.entities:
        numbers = [d for d in check.disagreements if d.field in NUMBERS]
        others = [d for d in check.disagreements if d.field not in NUMBERS]
        if numbers and check.kind == "datasheet":
            _add(first, check, numbers)
        else:
            others = check.disagreements
        if others or not check.disagreements:
            _add(rest, check, others)
    return [(NUMBERS_TITLE, first), (OTHERS_TITLE, rest)]


def _add(section: Section, check: EntityCheck, said: list[Disagreement]) -> None:
    if not section or section[-1][0] != check.group:
        section.append((check.group, []))
    section[-1][1].append((check, said))


def check_title(check: EntityCheck) -> str:
    """``datasheet Boyz (orks/boyz)``, with B's name and id where B names it otherwise."""
    title = f"{check.kind} {check.name} ({check.id})"
    if check.b_id or check.b_name:
        other = check.b_name or check.name
        how = f", {check.similarity}% alike" if check.similarity is not None else ""
        title += f", in B {other} ({check.b_id or check.id}{how})"
    return title


def one_sided_title(item: OneSided) -> str:
    """``datasheet Big Mek (orks/big-mek)``."""
    return f"{item.kind} {item.name} ({item.id})"


def render_text(report: CrosscheckReport, colour: bool = False) -> str:
    """The whole report as terminal text (control characters escaped)."""
    report = printable(report, one_line=True)
    lines = [paint(f"wahanorm crosscheck {report.a.spec} {report.b.spec}", "head", colour)]
    lines += [side_line("A", report.a), side_line("B", report.b)]
    if report.kinds or report.fields:
        kept = [f"kinds {', '.join(report.kinds)}"] if report.kinds else []
        kept += [f"fields {', '.join(report.fields)}"] if report.fields else []
        lines.append(f"kept to {'; '.join(kept)}")
    if report.headline.datasheets:
        lines.append(headline_line(report))
    lines.append(summary_line(report))
    for kind, counts in report.by_kind.items():
        lines.append(f"  {kind_line(kind, counts)}")
        if fields_line(counts):
            lines.append(f"      disagreeing: {fields_line(counts)}")
    for names in report.factions:
        lines.append(
            f"faction named differently: {names.a} (A) is {names.b} (B), "
            f"{names.datasheets} datasheets"
        )
    if report.not_compared:
        lines.append("not compared (the other side holds none of them):")
        lines += [f"  {line}" for line in not_compared_lines(report.not_compared)]
    if not report.disagrees:
        return "\n".join([*lines, "A and B agree on every entity compared"]) + "\n"
    if any(d.words for c in report.entities for d in c.disagreements):
        lines.append(WORDS_LEGEND)
    for title, groups in sections(report):
        if not groups:
            continue
        lines += ["", paint(f"== {title}", "head", colour)]
        for group, checks in groups:
            lines += ["", paint(group, "head", colour)]
            for check, said in checks:
                mark = paint("≠" if said else "=", "changed", colour)
                lines.append(f"  {mark} {check_title(check)}")
                lines += [f"      {d.summary}" for d in said]
    for name, side, items in (("A", report.a, report.only_a), ("B", report.b, report.only_b)):
        if items:
            lines += ["", paint(f"Only in {name} ({side.label})", "head", colour)]
            for group, entries in groupby(items, key=lambda e: e.group):
                mark = paint(
                    "-" if name == "A" else "+", "removed" if name == "A" else "added", colour
                )
                lines += [f"  {mark} {group}: {one_sided_title(e)}" for e in entries]
    return "\n".join(lines) + "\n"
