"""The crosscheck as markdown (a pull-request comment, a report): the two sides and the counts,
the datasheets that disagree on characteristics, points and weapons faction by faction, then
the other disagreements (abilities, keywords, texts) faction by faction, then what one side
holds alone. Rule text is escaped, so nothing in it can open a tag. With ``max_chars`` the
report is cut after the last whole entity that fits, saying what it leaves out."""

from __future__ import annotations

from itertools import groupby

from wahanorm.outputs.crosscheck.render_text import (
    WORDS_LEGEND,
    check_title,
    fields_line,
    headline_line,
    not_compared_lines,
    one_sided_title,
    printable,
    sections,
    side_line,
    summary_line,
)
from wahanorm.outputs.crosscheck.result import CrosscheckReport
from wahanorm.outputs.diff.render_markdown import md

Part = tuple[str, int, int]
"""A piece of the report: its text, how many disagreements and how many entities one side
holds alone it shows: what a cut counts as left out."""


def render_markdown(report: CrosscheckReport, max_chars: int | None = None) -> str:
    """The whole report as GitHub-flavoured markdown; with ``max_chars``, cut after the last
    whole entity that fits (a GitHub comment holds 65536 characters) and say how many are
    left out, never silently."""
    report = printable(report)
    head, parts = _parts(report)
    text = head + "".join(p[0] for p in parts)
    if max_chars is None or len(text) <= max_chars:
        return text
    return _cut(head, parts, max_chars)


def _cut(head: str, parts: list[Part], max_chars: int) -> str:
    checks = sum(p[1] for p in parts)
    alone = sum(p[2] for p in parts)
    shown, room = [], max_chars - len(head) - _NOTE_ROOM
    for part in parts:
        if len(part[0]) > room:
            break
        shown.append(part)
        room -= len(part[0])
    left = checks - sum(p[1] for p in shown), alone - sum(p[2] for p in shown)
    note = (
        f"\n---\n**Cut to fit {max_chars} characters:** {left[0]} of the {checks} "
        f"disagreements and {left[1]} of the {alone} entities one side holds alone are not "
        "shown here. Run `wahanorm crosscheck` with the same arguments (or `--format json`) "
        "for the whole report.\n"
    )
    if room < 0:  # not even the counts fit: as much of them as does, whole lines
        head = head[: max(head.rfind("\n", 0, max(max_chars - len(note), 0)), 0) + 1]
        head = head if len(head) + len(note) <= max_chars else ""
    text = head + "".join(p[0] for p in shown) + note
    if len(text) <= max_chars:
        return text
    short = f"**Cut to fit {max_chars} characters:** nothing of the report fits.\n"
    return short if len(short) <= max_chars else short[: max_chars - 1] + "\n"


_NOTE_ROOM = 400
"""Room kept for the note that says what a cut leaves out."""


def _parts(report: CrosscheckReport) -> tuple[str, list[Part]]:
    out = ["## wahanorm crosscheck", ""]
    out += [f"- {md(side_line('A', report.a))}", f"- {md(side_line('B', report.b))}", ""]
    if report.headline.datasheets:
        out += [f"**{md(headline_line(report))}**", ""]
    out += [f"{md(summary_line(report))}", ""]
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
    for names in report.factions:
        out.append(
            f"- faction named differently: {md(names.a)} (A) is {md(names.b)} (B), "
            f"{names.datasheets} datasheets"
        )
    if report.factions:
        out.append("")
    if report.not_compared:
        out += ["Not compared (the other side holds none of them):", ""]
        out += [f"- {md(line)}" for line in not_compared_lines(report.not_compared)]
        out.append("")
    if not report.disagrees:
        return "\n".join([*out, "A and B agree on every entity compared.", ""]), []
    if any(d.words for c in report.entities for d in c.disagreements):
        out += [md(WORDS_LEGEND), ""]
    parts: list[Part] = []
    for title, groups in sections(report):
        if not groups:
            continue
        parts.append((f"\n## {md(title)}\n", 0, 0))
        for group, checks in groups:
            parts.append((f"\n### {md(group)}\n\n", 0, 0))
            for check, said in checks:
                lines = [f"- **{md(check_title(check))}**"]
                lines += [f"  - {md(d.summary)}" for d in said]
                parts.append(("\n".join(lines) + "\n", len(said), 0))
    for name, side, items in (("A", report.a, report.only_a), ("B", report.b, report.only_b)):
        if items:
            parts.append((f"\n## Only in {name} ({md(side.label)})\n\n", 0, 0))
            for group, entries in groupby(items, key=lambda e: e.group):
                listed = list(entries)
                line = f"- {md(group)}: " + ", ".join(md(one_sided_title(e)) for e in listed)
                parts.append((line + "\n", 0, len(listed)))
    return "\n".join(out) + "\n", parts
