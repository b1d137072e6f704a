"""Detachment rules (``Detachment_abilities.csv``), enhancements (``Enhancements.csv``) and the
abilities glossary (``Abilities.csv``, kind ``rule``).

Each builder returns its entities and a map from the export's own row id to the entity id, so
that datasheets can name what they link to by the ids the dumps give.
"""

from __future__ import annotations

import re

from wahanorm.blocks import rules_text
from wahanorm.blocks.parse import labelled_rule
from wahanorm.blocks.parse.detachment import split_detachment_text
from wahanorm.blocks.parse.numbers import game_int
from wahanorm.blocks.rules_text import content_lines
from wahanorm.contract.ids import make_id
from wahanorm.contract.models import Detachment, DetachmentRule, Enhancement, Rule
from wahanorm.readers.export.context import ExportContext
from wahanorm.readers.export.markup import thawed
from wahanorm.readers.export.tables import Record

Links = dict[str, str]
"""Export row id → entity id."""

_COST = re.compile(r"^\s*(?P<sign>\+)?\s*(?P<points>\d+)\s*(?:pts|points)?\s*$", re.I)


def detachment_of(ctx: ExportContext, table: str, record: Record) -> str | None:
    """The detachment a row belongs to: its ``detachment`` column, else the name of its
    ``detachment_id`` in Detachments.csv."""
    name = ctx.text(table, record, "detachment")
    if name:
        return name
    return ctx.detachments.get(record.get("detachment_id"))


def detachments(ctx: ExportContext) -> list[Detachment]:
    """One ``Detachment`` per row of Detachments.csv, with its 11th-edition ``dp`` and force
    disposition."""
    table = "Detachments.csv"
    found: list[Detachment] = []
    for record in ctx.table(table):
        name = ctx.text(table, record, "name")
        faction = ctx.faction_name(table, record, record.get("faction_id"))
        if not name or not faction:
            what = "name" if not name else "faction"
            ctx.report.error(
                "missing-field",
                f"detachment row without a {what} ({name or record.get('id')!r}); left out",
                line=record.line_start,
                path=ctx.path(table),
            )
            continue
        found.append(
            Detachment(
                id=make_id(faction, name),
                name=name,
                sources=[ctx.source(table, record)],
                faction=faction,
                type=ctx.optional(table, record, "type"),
                dp=_whole_number(ctx, table, record, "dp"),
                force_disposition=ctx.optional(table, record, "force_disposition"),
                flavour=ctx.optional(table, record, "legend"),
            )
        )
    return found


def _whole_number(ctx: ExportContext, table: str, record: Record, column: str) -> int | None:
    raw = record.get(column).strip()
    if not raw:
        return None
    if raw.isdigit() and (value := game_int(raw)) is not None:
        return value
    ctx.report.warning(
        "bad-value",
        f"{table}: {column} {raw!r} is not a whole number; left out",
        line=record.line_start,
        path=ctx.path(table),
    )
    return None


def flag(ctx: ExportContext, table: str, record: Record, column: str) -> bool | None:
    """A ``true``/``false`` column; empty is None, anything else is reported and None."""
    raw = record.get(column).strip().lower()
    if raw in ("true", "false"):
        return raw == "true"
    if raw:
        ctx.report.warning(
            "bad-value",
            f"{table}: {column} {raw!r} is neither true nor false; left out",
            line=record.line_start,
            path=ctx.path(table),
        )
    return None


def detachment_rules(ctx: ExportContext) -> tuple[list[DetachmentRule], Links]:
    """One ``DetachmentRule`` per row of Detachment_abilities.csv."""
    table = "Detachment_abilities.csv"
    rules: list[DetachmentRule] = []
    links: Links = {}
    for record in ctx.table(table):
        name = ctx.text(table, record, "name")
        detachment = detachment_of(ctx, table, record)
        if not name or not detachment:
            _unnamed(ctx, table, record, "detachment rule", name, detachment)
            continue
        text, tables = ctx.rule_text(table, record, "description")
        if not text:
            ctx.report.warning(
                "empty-text",
                f"detachment rule {name!r} has no description",
                line=record.line_start,
                path=ctx.path(table),
            )
        split = split_detachment_text(text)
        rule = DetachmentRule(
            id=make_id(detachment, name),
            name=name,
            sources=[ctx.source(table, record)],
            detachment=detachment,
            flavour=ctx.optional(table, record, "legend"),
            text=split.text,
            abilities=split.abilities,
            restrictions=split.restrictions,
            tables=tables,
        )
        rules.append(rule)
        links[record.get("id")] = rule.id
    return rules, links


def enhancements(ctx: ExportContext) -> tuple[list[Enhancement], Links]:
    """One ``Enhancement`` per row of Enhancements.csv, with its detachment, faction and cost."""
    table = "Enhancements.csv"
    found: list[Enhancement] = []
    links: Links = {}
    for record in ctx.table(table):
        name = ctx.text(table, record, "name")
        detachment = detachment_of(ctx, table, record)
        if not name or not detachment:
            _unnamed(ctx, table, record, "enhancement", name, detachment)
            continue
        enhancement = Enhancement(
            id=make_id(detachment, name),
            name=name,
            sources=[ctx.source(table, record)],
            detachment=detachment,
            faction=ctx.faction_name(table, record, record.get("faction_id")),
            cost=_cost(ctx, table, record),
            flavour=ctx.optional(table, record, "legend"),
            text=ctx.optional(table, record, "description"),
            upgrade=flag(ctx, table, record, "upgrade"),
            support_leader=ctx.optional(table, record, "support_leader"),
        )
        found.append(enhancement)
        links[record.get("id")] = enhancement.id
    return found, links


def _cost(ctx: ExportContext, table: str, record: Record) -> int | None:
    raw = record.get("cost").strip()
    match = _COST.match(raw)
    if match and match.group("sign"):
        ctx.report.info(
            "upgrade-cost",
            f"cost {raw!r} is written as an addition; read as {match.group('points')} points",
            line=record.line_start,
            path=ctx.path(table),
        )
    if match and (points := game_int(match.group("points"))) is not None:
        return points
    ctx.report.warning(
        "bad-cost",
        f"cost {raw!r} is not a number of points; left out",
        line=record.line_start,
        path=ctx.path(table),
    )
    return None


def glossary(ctx: ExportContext) -> tuple[list[Rule], Links]:
    """One ``Rule`` per row of Abilities.csv: core abilities under ``core/``, a faction's own
    abilities under its faction name. The flavour (``legend``) has no field in a rule."""
    table = "Abilities.csv"
    rules: list[Rule] = []
    links: Links = {}
    dropped_legends = 0
    for record in ctx.table(table):
        name = ctx.text(table, record, "name")
        if not name:
            _unnamed(ctx, table, record, "ability", name, "-")
            continue
        faction = ctx.faction_name(table, record, record.get("faction_id")) or "core"
        read = ctx.rules_lines(table, record, "description", tables=True)
        lines = content_lines(read.lines)
        if not lines and not read.boxes:
            ctx.report.warning(
                "empty-text",
                f"ability {name!r} has no description",
                line=record.line_start,
                path=ctx.path(table),
            )
        if record.get("legend").strip():
            dropped_legends += 1
        number, lines = labelled_rule.numbered_heading_lines(name, lines)
        lines = labelled_rule.unglued_lines(lines)
        shape = rules_text.build(lines, labelled_rule.line_parts, read.boxes)
        rule = Rule(
            id=make_id(faction, name),
            name=name,
            sources=[ctx.source(table, record)],
            rule_number=number,
            tables=thawed(read.tables),
            **labelled_rule.rule_fields(shape),
        )
        rules.append(rule)
        links[record.get("id")] = rule.id
    if dropped_legends:
        ctx.report.info(
            "dropped-field",
            f"Abilities.csv: the flavour text (legend) of {dropped_legends} abilities has no "
            "field in a rule and is left out",
            path=ctx.path(table),
        )
    return rules, links


def _unnamed(
    ctx: ExportContext, table: str, record: Record, what: str, name: str, group: str | None
) -> None:
    missing = "name" if not name else "detachment"
    ctx.report.error(
        "missing-field",
        f"{what} row without a {missing} ({name or record.get('id')!r}); left out",
        line=record.line_start,
        path=ctx.path(table),
    )
