"""The crosscheck for a terminal: the two sides, the counts, then each faction with the
entities the two disagree on, their disagreements indented below, and what one side holds
alone. Colour only when asked (the command asks on a terminal without NO_COLOR)."""

from __future__ import annotations

from itertools import groupby

from wahanorm.outputs.crosscheck.result import (
    CrosscheckReport,
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
    lines.append(summary_line(report))
    for kind, counts in report.by_kind.items():
        lines.append(f"  {kind_line(kind, counts)}")
        if fields_line(counts):
            lines.append(f"      disagreeing: {fields_line(counts)}")
    if report.not_compared:
        lines.append("not compared (the other side holds none of them):")
        lines += [f"  {not_compared_line(item)}" for item in report.not_compared]
    for names in report.factions:
        lines.append(
            f"faction named differently: {names.a} (A) is {names.b} (B), "
            f"{names.datasheets} datasheets"
        )
    if not report.disagrees:
        return "\n".join([*lines, "A and B agree on every entity compared"]) + "\n"
    if any(d.words for c in report.entities for d in c.disagreements):
        lines.append(WORDS_LEGEND)
    for group, checks in groupby(report.entities, key=lambda c: c.group):
        lines += ["", paint(group, "head", colour)]
        for check in checks:
            mark = paint("≠" if check.disagreements else "=", "changed", colour)
            lines.append(f"  {mark} {check_title(check)}")
            lines += [f"      {d.summary}" for d in check.disagreements]
    for name, side, items in (("A", report.a, report.only_a), ("B", report.b, report.only_b)):
        if items:
            lines += ["", paint(f"Only in {name} ({side.label})", "head", colour)]
            for group, entries in groupby(items, key=lambda e: e.group):
                mark = paint(
                    "-" if name == "A" else "+", "removed" if name == "A" else "added", colour
                )
                lines += [f"  {mark} {group}: {one_sided_title(e)}" for e in entries]
    return "\n".join(lines) + "\n"
