"""Stratagems from ``Stratagems.csv``, their description read by the dumps' Lark grammar.

The source is ``Core`` for core stratagems, ``Boarding Actions`` for that expansion's, else the
stratagem's detachment (or, for a stratagem without one, what its ``type`` column names). The
timing comes from WHEN, as for the dumps; the export's own ``turn`` and ``phase`` columns are a
second opinion: the run reports how often the two agree and every row where they do not.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any

from wahanorm.blocks import rules_text
from wahanorm.blocks.parse import labelled_rule
from wahanorm.blocks.parse import stratagems as stratagem_text
from wahanorm.blocks.parse.numbers import game_int
from wahanorm.blocks.parse.stratagems import split_source
from wahanorm.blocks.parse.timing import derive_timing
from wahanorm.blocks.rules_text import RulesText
from wahanorm.contract.ids import make_id
from wahanorm.contract.models import Rule, Stratagem, Timing
from wahanorm.readers.export.context import ExportContext
from wahanorm.readers.export.rules import Links, detachment_of
from wahanorm.readers.export.tables import Record
from wahanorm.readers.export.timing import column_timing, compare, show_timing

TABLE = "Stratagems.csv"
_CP = re.compile(r"^\s*(\d+)\s*(?:CP)?\s*$", re.I)
_TRAILING_STRATAGEM = re.compile(r"\s*(?:[–-]\s*)?(?:Stratagem)?\s*[–-]?\s*$", re.I)
_ABILITY_TYPE = re.compile(r"\bAbility\s*$", re.I)


@dataclass
class TimingTally:
    """How many stratagems' derived timing matched the export's turn and phase columns."""

    compared: int = 0
    agreed: int = 0
    without_when: int = 0


def stratagems(ctx: ExportContext) -> tuple[list[Stratagem], Links]:
    """One ``Stratagem`` per row of Stratagems.csv, and the agreement report on timing."""
    found: list[Stratagem] = []
    links: Links = {}
    tally = TimingTally()
    for record in ctx.table(TABLE):
        if is_ability_row(ctx.text(TABLE, record, "type")):
            continue  # a move or shooting type, read by ``abilities``
        stratagem = _stratagem(ctx, record, tally)
        if stratagem is not None:
            found.append(stratagem)
            links[record.get("id")] = stratagem.id
    _report_agreement(ctx, tally)
    return found, links


def is_ability_row(type_text: str) -> bool:
    """Rows typed ``Movement Ability``, ``Shooting Ability`` … are rules of the game (moves,
    shooting types), not stratagems."""
    return _ABILITY_TYPE.search(type_text) is not None


def abilities(ctx: ExportContext) -> list[Rule]:
    """One ``Rule`` per ability row of Stratagems.csv, its ``type`` as its category and its
    labelled sections (SET-UP DISTANCE, ELIGIBLE IF, WHILE MOVING …) read by the grammar."""
    found: list[Rule] = []
    for record in ctx.table(TABLE):
        category = ctx.text(TABLE, record, "type")
        if not is_ability_row(category):
            continue
        name = ctx.text(TABLE, record, "name")
        read = ctx.rules_lines(TABLE, record, "description")
        shape = rules_text.build(read.lines, labelled_rule.line_parts, read.boxes)
        if not name or not shape.text:
            ctx.report.error(
                "missing-field",
                f"{category} row {record.get('id')!r} has no {'name' if not name else 'text'}; "
                "left out",
                line=record.line_start,
                path=ctx.path(TABLE),
            )
            continue
        namespace = ctx.faction_name(TABLE, record, record.get("faction_id")) or "core"
        found.append(
            Rule(
                id=make_id(namespace, name),
                name=name,
                sources=[ctx.source(TABLE, record)],
                category=category,
                **labelled_rule.rule_fields(shape),
            )
        )
    _report_ability_columns(ctx, found)
    return found


def _report_ability_columns(ctx: ExportContext, found: list[Rule]) -> None:
    """What an ability row holds beyond a rule's fields (its ``phase``, e.g. ``Ability "Move"``,
    a flavour) is said once."""
    if not found:
        return
    dropped: dict[str, int] = {}
    for record in ctx.table(TABLE):
        if is_ability_row(ctx.text(TABLE, record, "type")):
            for column in ("legend", "cp_cost", "turn", "phase", "detachment"):
                if record.get(column).strip():
                    dropped[column] = dropped.get(column, 0) + 1
    held = ", ".join(f"{column} ({n} rows)" for column, n in dropped.items())
    ctx.report.info(
        "ability-rows",
        f"{len(found)} rows of Stratagems.csv typed '… Ability' are rules, not stratagems"
        + (f"; their columns with no field in a rule, left out: {held}" if held else ""),
        path=ctx.path(TABLE),
    )


@functools.lru_cache(maxsize=4096)
def source_of(type_text: str, detachment: str | None) -> tuple[str, str | None]:
    """(source, category) of a stratagem from its ``type`` column and detachment:
    ``Core – Battle Tactic Stratagem`` → (``Core``, ``Battle Tactic``); a detachment's stratagem
    takes the detachment's full name as its source. (Cached: an export's 1,400 stratagems hold
    some 600 distinct pairs.)"""
    named, category = split_source(type_text) if type_text else ("", None)
    named = _TRAILING_STRATAGEM.sub("", named)
    if category is not None and category.lower() == "stratagem":
        category = None
    if named in ("Core", "Boarding Actions") and not detachment:
        return named, category
    return detachment or named or "Unknown", category


def _stratagem(ctx: ExportContext, record: Record, tally: TimingTally) -> Stratagem | None:
    name = ctx.text(TABLE, record, "name")
    if not name:
        ctx.report.error(
            "missing-field",
            f"stratagem row {record.get('id')!r} has no name; left out",
            line=record.line_start,
            path=ctx.path(TABLE),
        )
        return None
    source, category = source_of(ctx.text(TABLE, record, "type"), detachment_of(ctx, TABLE, record))
    if source == "Unknown":
        ctx.report.warning(
            "no-detachment",
            f"stratagem {name!r} names neither a type nor a detachment; source 'Unknown'",
            line=record.line_start,
            path=ctx.path(TABLE),
        )
    fields = description_fields(ctx, record, name)
    timing = derive_timing(fields["when"])
    _compare_timing(ctx, record, name, fields["when"], timing, tally)
    return Stratagem(
        id=make_id(source, name),
        name=name,
        sources=[ctx.source(TABLE, record)],
        cp=_cp(ctx, record, name),
        source=source,
        category=category,
        flavour=ctx.optional(TABLE, record, "legend"),
        timing=timing,
        variants=[],  # given: pydantic deep-copies a list default for each model
        **fields,
    )


def _cp(ctx: ExportContext, record: Record, name: str) -> int | None:
    raw = record.get("cp_cost").strip()
    match = _CP.match(raw)
    if match and (cp := game_int(match.group(1))) is not None:
        return cp
    ctx.report.info(
        "no-cp",
        f"stratagem {name!r} has no CP cost ({raw!r}); cp left empty",
        line=record.line_start,
        path=ctx.path(TABLE),
    )
    return None


def description_fields(ctx: ExportContext, record: Record, name: str) -> dict[str, Any]:
    """The stratagem's fields of its description: its labelled sections (``rules_text``, cut
    by the stratagem grammar). A description the grammar cannot read is an error; its whole
    text is kept as effect (and its one section) so that no rule text is lost."""
    read = ctx.rules_lines(TABLE, record, "description")
    shape = rules_text.build(read.lines, stratagem_text.line_parts, read.boxes)
    if not shape.text:
        ctx.report.warning(
            "empty-text",
            f"stratagem {name!r} has no description",
            line=record.line_start,
            path=ctx.path(TABLE),
        )
        return stratagem_text.stratagem_fields(RulesText())
    if shape.failure is not None:
        ctx.report.error(
            "stratagem-body",
            f"stratagem {name!r}: {shape.failure.message}; the whole description is kept as effect",
            line=record.line_start,
            path=ctx.path(TABLE),
            excerpt=shape.failure.excerpt,
        )
        return stratagem_text.stratagem_fields(stratagem_text.whole_effect(shape))
    fields = stratagem_text.stratagem_fields(shape)
    trigger = shape.section_text("TRIGGER")
    if trigger:
        # The Aeldari manoeuvres: TRIGGER stands where WHEN would, and the contract has no
        # trigger field; it is kept as the WHEN it plays the part of.
        ctx.report.info(
            "trigger-as-when",
            f"stratagem {name!r} has TRIGGER instead of WHEN; kept as its when",
            line=record.line_start,
            path=ctx.path(TABLE),
        )
        if fields["when"] is None:
            fields["when"] = trigger
        else:
            effect = fields["effect"]
            fields["effect"] = "\n".join(x for x in (f"TRIGGER: {trigger}", effect) if x)
    return fields


def _compare_timing(
    ctx: ExportContext,
    record: Record,
    name: str,
    when: str | None,
    timing: Timing | None,
    tally: TimingTally,
) -> None:
    columns = column_timing(ctx.text(TABLE, record, "turn"), ctx.text(TABLE, record, "phase"))
    if when is None or timing is None:
        tally.without_when += 1
        return
    if columns is None:
        return
    tally.compared += 1
    disagreement = compare(when, timing, columns)
    if disagreement is None:
        tally.agreed += 1
        return
    ctx.report.warning(
        "timing-disagrees",
        f"stratagem {name!r}: WHEN gives {show_timing(timing)}, the export's turn/phase columns "
        f"give {columns.show()}; the {_SIDE[disagreement.suspect]}: {disagreement.reason}",
        line=record.line_start,
        path=ctx.path(TABLE),
    )


_SIDE = {
    "export": "export's columns look wrong",
    "when": "WHEN looks incomplete",
    "neither": "columns cannot say it",
}


def _report_agreement(ctx: ExportContext, tally: TimingTally) -> None:
    if not tally.compared:
        return
    rate = 100 * tally.agreed / tally.compared
    ctx.report.info(
        "timing-agreement",
        f"timing derived from WHEN agrees with the export's turn/phase columns for "
        f"{tally.agreed} of {tally.compared} stratagems ({rate:.1f}%); "
        f"{tally.without_when} without a WHEN not compared",
        path=ctx.path(TABLE),
    )
