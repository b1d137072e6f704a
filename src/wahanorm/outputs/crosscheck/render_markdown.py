"""The crosscheck as markdown (a pull-request comment, a report): the two sides and the counts
as tables, then one section per faction with the entities the two disagree on, then what one
side holds alone. Rule text is escaped, so nothing in it can open a tag."""

from __future__ import annotations

from itertools import groupby

from wahanorm.outputs.crosscheck.render_text import (
    WORDS_LEGEND,
    check_title,
    fields_line,
    not_compared_line,
    one_sided_title,
    printable,
    side_line,
    summary_line,
)
from wahanorm.outputs.crosscheck.result import CrosscheckReport
from wahanorm.outputs.diff.render_markdown import md


def render_markdown(report: CrosscheckReport) -> str:
    """The whole report as GitHub-flavoured markdown."""
    report = printable(report)
    out = ["## wahanorm crosscheck", ""]
    out += [f"- {md(side_line('A', report.a))}", f"- {md(side_line('B', report.b))}", ""]
    out += [f"**{md(summary_line(report))}**", ""]
    if report.by_kind:
        out += [
            "| kind | compared | agree | disagree | only in A | only in B | disagreeing fields |",
            "| --- | ---: | ---: | ---: | ---: | ---: | --- |",
        ]
        for kind, c in report.by_kind.items():
            out.append(
                f"| {kind} | {c.compared} | {c.agreeing} | {c.disagreeing} | {c.only_a} | "
                f"{c.only_b} | {md(fields_line(c))} |"
            )
        out.append("")
    if report.not_compared:
        out += ["Not compared (the other side holds none of them):", ""]
        out += [f"- {md(not_compared_line(item))}" for item in report.not_compared]
        out.append("")
    for names in report.factions:
        out.append(
            f"- faction named differently: {md(names.a)} (A) is {md(names.b)} (B), "
            f"{names.datasheets} datasheets"
        )
    if not report.disagrees:
        return "\n".join([*out, "A and B agree on every entity compared.", ""])
    if any(d.words for c in report.entities for d in c.disagreements):
        out += ["", md(WORDS_LEGEND)]
    for group, checks in groupby(report.entities, key=lambda c: c.group):
        out += ["", f"### {md(group)}", ""]
        for check in checks:
            out.append(f"- **{md(check_title(check))}**")
            out += [f"  - {md(d.summary)}" for d in check.disagreements]
    for name, side, items in (("A", report.a, report.only_a), ("B", report.b, report.only_b)):
        if items:
            out += ["", f"### Only in {name} ({md(side.label)})", ""]
            for group, entries in groupby(items, key=lambda e: e.group):
                out.append(f"- {md(group)}: " + ", ".join(md(one_sided_title(e)) for e in entries))
    return "\n".join(out) + "\n"
