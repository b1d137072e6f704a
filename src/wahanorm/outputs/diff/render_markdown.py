"""The diff as a pull-request comment: summary counts first, then each faction with its
entities grouped by kind; long text diffs are folded in ``<details>``."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from itertools import groupby

from wahanorm.contract.vocabulary import edition_name
from wahanorm.outputs.diff.render_text import differ_line, edition_names, mixed_editions, printable
from wahanorm.outputs.diff.result import Change, Counts, DiffReport, EntityDiff, WordOp
from wahanorm.outputs.diff.words import elide

FOLD_CHARS = 200
"""Prose longer than this (either side) is shown elided, with the full diff in ``<details>``."""

KIND_TITLES = {
    "datasheet": "Datasheets",
    "stratagem": "Stratagems",
    "detachment": "Detachments",
    "detachment_rule": "Detachment rules",
    "enhancement": "Enhancements",
    "rule": "Rules",
}
_ICONS = {
    "added": "➕ added",
    "removed": "➖ removed",
    "changed": "✏️ changed",
    "renamed": "🔀 renamed",
}
_MD_SPECIAL = re.compile(r"([\\`*_\[\]|~])")
_ZERO_WIDTH = "&#8203;"
# What GitHub turns into a link or a notification in a comment: an issue or pull request
# (#12, GH-12), a person or team (@name), a bare address (https://…, www.…).
_AUTOLINKED = re.compile(
    r"(?<=#)(?=\d)|(?<=\bGH-)(?=\d)|(?<=@)(?=[\w-])|(?<=://)|(?<=\bwww)(?=\.)", re.I
)


def md(text: str) -> str:
    """Text safe in markdown and HTML, and in a GitHub comment: nothing in a rule's text can
    open a tag or a style, end the list item it is in (a line break is ``<br>``), link an issue,
    mention a person or link an address (a zero-width space is put inside each)."""
    escaped = _MD_SPECIAL.sub(r"\\\1", html.escape(text, quote=False))
    escaped = _AUTOLINKED.sub(_ZERO_WIDTH, escaped)
    return escaped.replace("\r\n", "\n").replace("\n", "<br>")


def render_markdown(report: DiffReport, max_chars: int | None = None) -> str:
    """The whole report as GitHub-flavoured markdown; with ``max_chars``, cut after the last
    whole entity that fits (a GitHub comment holds 65536 characters) and say how many are
    left out, never silently."""
    report = printable(report)
    blocks = _blocks(report)
    text = "".join(b.text for b in blocks)
    if max_chars is None or len(text) <= max_chars:
        return text
    return _cut(blocks, report.summary.total, max_chars)


@dataclass
class _Block:
    """A piece of the comment: the head and summary, or one entity (with the headings of its
    faction and kind when it is the first under them)."""

    text: str
    entities: int


CUT_NOTE_CHARS = 300
"""Room kept for the note that says what a cut left out."""


def _cut(blocks: list[_Block], total: int, max_chars: int) -> str:
    kept: list[str] = []
    used = CUT_NOTE_CHARS
    shown = 0
    for block in blocks:
        if used + len(block.text) > max_chars:
            break
        kept.append(block.text)
        used += len(block.text)
        shown += block.entities
    note = (
        f"\n---\n**Cut to fit:** {shown} of {total} entities are shown, {total - shown} are "
        "left out. Run `wahanorm diff` with the same arguments for the whole diff.\n"
    )
    return "".join(kept) + note


def _blocks(report: DiffReport) -> list[_Block]:
    lines = [f"## Rules changes: `{report.old.spec}` → `{report.new.spec}`", ""]
    if report.old.data_version or report.new.data_version:
        lines += [
            f"Data version: {md(str(report.old.data_version))} → "
            f"{md(str(report.new.data_version))}",
            "",
        ]
    if report.old.editions != report.new.editions:
        lines += [f"Editions: {edition_names(report.old)} → {edition_names(report.new)}", ""]
    if not report.has_changes:
        return [_Block("\n".join([*lines, "No rules changes."]) + "\n", 0)]
    blocks = [_Block("\n".join([*lines, *_summary(report)]) + "\n", 0)]
    for group, diffs in groupby(report.entities, key=lambda d: d.group):
        headings = ["", f"### {md(group)}"]
        for kind, of_kind in groupby(diffs, key=lambda d: d.kind):
            headings += ["", f"#### {KIND_TITLES.get(kind, md(kind))}", ""]
            for diff in of_kind:
                entity = _entity(diff, mixed_editions(report))
                blocks.append(_Block("\n".join([*headings, *entity]) + "\n", 1))
                headings = []
    return blocks


def _counts(c: Counts) -> str:
    return f"{c.added} added · {c.removed} removed · {c.renamed} renamed · {c.changed} changed"


def _summary(report: DiffReport) -> list[str]:
    lines = [f"**{differ_line(report.summary.total)}:** {_counts(report.summary)}", ""]
    lines += [f"- {KIND_TITLES.get(k, k)}: {_counts(c)}" for k, c in report.by_kind.items()]
    lines += [
        "",
        "| Faction | Added | Removed | Renamed | Changed |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    for group, diffs in groupby(report.entities, key=lambda d: d.group):
        listed = list(diffs)
        n = {s: sum(1 for d in listed if d.status == s) for s in _ICONS}
        lines.append(
            f"| {md(group)} | {n['added']} | {n['removed']} | {n['renamed']} | {n['changed']} |"
        )
    return lines


def _entity(d: EntityDiff, with_edition: bool = False) -> list[str]:
    if d.status == "renamed":
        head = (
            f"- {_ICONS[d.status]}: **{md(str(d.old_name))}** → **{md(d.name)}** "
            f"(`{d.old_id}` → `{d.id}`, {d.similarity}% alike)"
        )
    else:
        where = (
            f"`{d.id}`, {edition_name(d.edition)}" if with_edition and d.edition else f"`{d.id}`"
        )
        head = f"- {_ICONS[d.status]}: **{md(d.name)}** ({where})"
    lines = [head]
    for ch in d.changes:
        lines += _change(ch)
    return lines


def _change(ch: Change) -> list[str]:
    if ch.words is None:
        return [f"  - {md(ch.summary)}"]
    long = max(len(ch.old or ""), len(ch.new or "")) > FOLD_CHARS
    if not long:
        return [f"  - {md(ch.label)}: {_words(ch.words)}"]
    return [
        f"  - {md(ch.label)}: {_words(elide(ch.words))}",
        "    <details><summary>full text</summary>",
        "",
        f"    {_words(ch.words)}",
        "",
        "    </details>",
    ]


def _words(ops: list[WordOp]) -> str:
    tags = {"equal": "{}", "delete": "<del>{}</del>", "insert": "<ins>{}</ins>"}
    return " ".join(tags[op.op].format(md(op.text)) for op in ops)
