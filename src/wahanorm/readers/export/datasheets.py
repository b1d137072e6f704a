"""Datasheets assembled from ``Datasheets.csv`` and the tables that hang off it by
``datasheet_id``: models, wargear, abilities, keywords, costs, composition, options, leader links
and the stratagems, enhancements and detachment rules a datasheet lists.

Each linked table is grouped by datasheet id once (a pass over each table), so the whole export
is assembled in time linear in its size. Each datasheet's rows fill a ``DatasheetDraft``; the
rules every source shares (ORDERS, transport, "None" options, keyword scopes, cost-line model
counts) are ``blocks.datasheet.build_datasheet``'s.
"""

from __future__ import annotations

import functools
import re
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from operator import itemgetter
from typing import cast

from wahanorm.blocks.datasheet import (
    AbilityGroups,
    At,
    CostLine,
    DatasheetDraft,
    ScopedKeywords,
    UnitRef,
    build_datasheet,
    build_profile,
)
from wahanorm.blocks.edition import link_edition
from wahanorm.blocks.parse.abilities import named_ability, parse_core_ability
from wahanorm.blocks.parse.numbers import game_int
from wahanorm.blocks.parse.points import CostTable, Tier
from wahanorm.blocks.parse.stats import export_text, parse_stat, stat_from_export
from wahanorm.blocks.weapons import AbilityText, WeaponDraft, build_weapon
from wahanorm.contract.ids import make_id
from wahanorm.contract.models import (
    Ability,
    Damaged,
    Datasheet,
    Points,
    Profile,
    Stat,
    Weapon,
)
from wahanorm.contract.vocabulary import PROFILE_LABELS, Edition, units_text
from wahanorm.readers.export.context import ExportContext
from wahanorm.readers.export.rules import Links, flag
from wahanorm.readers.export.tables import Record, cells_key

SHEETS = "Datasheets.csv"
_NO_STAT = frozenset({"", "-"})
# The export's ability groups; a group it adds later is read as datasheet abilities, reported.
_GROUPS = {
    "core": "core",
    "faction": "faction",
    "datasheet": "datasheet",
    "wargear": "wargear",
    "wargear profile": "wargear",
}
# Boxes of their own on the page, titled by the ability name; they read as datasheet abilities.
_BOXED = ("special", "fortification", "primarch", "без заголовка")


@dataclass
class LinkMaps:
    """The ids a datasheet may link to, by the export's row ids."""

    stratagems: Links
    enhancements: Links
    detachment_rules: Links


Key = Callable[[list[str]], tuple[str, ...]]
"""A row's key of the cells it is read from (``tables.cells_key``)."""


@dataclass
class _Linked:
    """The rows of every linked table, grouped by datasheet id, and what is read of each
    table the same way for every datasheet: the keys of its rows (``tables.cells_key``, made
    once per table), the position of each link column."""

    rows: dict[str, dict[str, list[Record]]] = field(default_factory=dict)
    weapon_key: Key = tuple
    ability_key: Key = tuple
    keyword_key: Key = tuple
    link_at: dict[str, int | None] = field(default_factory=dict)
    """The position of the link column of each of ``_LINK_TABLES`` (None: the table lacks it)."""

    def of(self, table: str, datasheet_id: str) -> list[Record]:
        return self.rows.get(table, {}).get(datasheet_id, [])


_LINKED_TABLES = (
    "Datasheets_abilities.csv",
    "Datasheets_keywords.csv",
    "Datasheets_models.csv",
    "Datasheets_options.csv",
    "Datasheets_wargear.csv",
    "Datasheets_unit_composition.csv",
    "Datasheets_models_cost.csv",
    "Datasheets_stratagems.csv",
    "Datasheets_enhancements.csv",
    "Datasheets_detachment_abilities.csv",
)


def datasheets(ctx: ExportContext, links: LinkMaps) -> tuple[list[Datasheet], dict[int, Edition]]:
    """One ``Datasheet`` per row of Datasheets.csv (virtual rows left out, reported), and the
    edition each one's own link names, by position: Wahapedia's 11th-edition site also lists
    units whose rules were not updated yet, and they are played in 11th edition."""
    linked = _group(ctx)
    ids: dict[str, str] = {}
    rows: list[tuple[Record, str, str]] = []
    for record in ctx.table(SHEETS):
        name = ctx.text(SHEETS, record, "name")
        faction = ctx.faction_name(SHEETS, record, record.get("faction_id"))
        if not name or not faction:
            ctx.report.error(
                "missing-field",
                f"datasheet row {record.get('id')!r} has no {'name' if not name else 'faction'}"
                "; left out",
                line=record.line_start,
                path=ctx.path(SHEETS),
            )
            continue
        if record.get("virtual").strip().lower() == "true":
            ctx.report.info(
                "virtual-datasheet",
                f"datasheet {name!r} is marked virtual (not a unit of its own); left out",
                line=record.line_start,
                path=ctx.path(SHEETS),
            )
            continue
        ids[record.get("id")] = make_id(faction, name)
        rows.append((record, name, faction))
    _distinct_ids(ctx, rows, ids)
    _report_orphans(ctx, linked, ids)
    leads = _leader_links(ctx, ids)
    built = [
        _datasheet(ctx, record, name, faction, ids, linked, links, leads)
        for record, name, faction in rows
    ]
    _report_dropped_columns(ctx)
    if ctx.repeated_costs:
        ctx.report.info(
            "duplicate-dropped",
            f"{ctx.repeated_costs} cost lines repeat a line of the same table exactly (the "
            "export prints some cost tables more than once); left out",
            path=ctx.path("Datasheets_models_cost.csv"),
        )
    own = {
        position: edition
        for position, (record, _, _) in enumerate(rows)
        if (edition := link_edition(record.get("link"))) is not None
    }
    return built, own


# The tables of a datasheet's links, and the column each link is in.
_LINK_TABLES = {
    "Datasheets_stratagems.csv": "stratagem_id",
    "Datasheets_detachment_abilities.csv": "detachment_ability_id",
    "Datasheets_enhancements.csv": "enhancement_id",
}


def _group(ctx: ExportContext) -> _Linked:
    linked = _Linked(
        weapon_key=cells_key(ctx.table("Datasheets_wargear.csv"), _WEAPON_COLUMNS),
        ability_key=cells_key(ctx.table("Datasheets_abilities.csv"), _ABILITY_COLUMNS),
        keyword_key=cells_key(ctx.table("Datasheets_keywords.csv"), _KEYWORD_COLUMNS),
        link_at={t: ctx.table(t).positions.get(column) for t, column in _LINK_TABLES.items()},
    )
    for table in _LINKED_TABLES:
        groups: dict[str, list[Record]] = defaultdict(list)
        found = ctx.table(table)
        at = found.positions.get("datasheet_id")
        if at is None:
            if found.records:
                groups[""] = list(found.records)
        else:
            for record in found.records:  # the cells themselves: some 150,000 rows in all
                groups[record.cells[at]].append(record)
        linked.rows[table] = groups
    return linked


_SITE_SUFFIX = re.compile(r"-\d+$")


def _distinct_ids(
    ctx: ExportContext, rows: list[tuple[Record, str, str]], ids: dict[str, str]
) -> None:
    """Two datasheets of one faction that share a name, each with its own link (Space Marines'
    and Black Templars' Terminator Squad), are two units, never variants of one: the one the
    site lists first (its link without the site's ``-1`` suffix, else the first row) keeps the
    plain id, each other one gets its source book in its id."""
    groups: dict[tuple[int, str], list[tuple[Record, str, str]]] = defaultdict(list)
    for row in rows:
        record = row[0]
        groups[(link_edition(record.get("link")) or 0, ids[record.get("id")])].append(row)
    taken = set(ids.values())
    for (_, plain), group in groups.items():
        if len({r.get("link") for r, _, _ in group}) < 2:
            continue  # one unit printed twice: merge says whether the copies agree
        group.sort(key=lambda r: (bool(_SITE_SUFFIX.search(r[0].get("link"))), r[0].line_start))
        for record, name, faction in group[1:]:
            book = ctx.books.get(record.get("source_id"), "")
            distinct = make_id(faction, f"{name} {book}") if book else ""
            if not book or distinct in taken:
                distinct = make_id(faction, f"{name} {record.get('id')}")
            ids[record.get("id")] = distinct
            taken.add(distinct)
            ctx.report.info(
                "distinct-datasheets",
                f"datasheets {plain} and {distinct} share the name {name!r} but each has its own "
                f"link and source book ({book or 'none given'}): two units, two ids",
                line=record.line_start,
                path=ctx.path(SHEETS),
            )


def _report_orphans(ctx: ExportContext, linked: _Linked, ids: dict[str, str]) -> None:
    """Rows that hang off a datasheet Datasheets.csv does not hold (or holds as virtual) are
    not part of any output: one warning per table and missing datasheet."""
    for table, groups in linked.rows.items():
        for key, rows in groups.items():
            if key not in ids:
                ctx.report.warning(
                    "orphan-rows",
                    f"{len(rows)} row(s) for datasheet {key!r}, which Datasheets.csv does not "
                    "hold as a unit; left out",
                    line=rows[0].line_start,
                    path=ctx.path(table),
                )


def _leader_links(ctx: ExportContext, ids: dict[str, str]) -> dict[str, list[str]]:
    """Both directions of Datasheets_leader.csv: ``leads[leader]`` holds the ids of the units
    it can lead, ``leads["led_by:" + unit]`` the ids of the units that can lead it."""
    table = "Datasheets_leader.csv"
    leads: dict[str, list[str]] = defaultdict(list)
    for record in ctx.table(table):
        leader, attached = record.get("leader_id"), record.get("attached_id")
        if attached in ids:
            leads[leader].append(ids[attached])
            if leader in ids:
                leads[f"led_by:{attached}"].append(ids[leader])
        else:
            ctx.report.warning(
                "dangling-link",
                f"leader link to datasheet {attached!r}, which Datasheets.csv does not hold",
                line=record.line_start,
                path=ctx.path(table),
            )
    return leads


def _datasheet(
    ctx: ExportContext,
    record: Record,
    name: str,
    faction: str,
    ids: dict[str, str],
    linked: _Linked,
    links: LinkMaps,
    leads: dict[str, list[str]],
) -> Datasheet:
    key = record.get("id")
    models = linked.of("Datasheets_models.csv", key)
    keywords, faction_keywords, scoped = _keywords(
        ctx, linked.of("Datasheets_keywords.csv", key), linked.keyword_key
    )
    draft = DatasheetDraft(
        id=ids[key],
        name=name,
        is_support=flag(ctx, SHEETS, record, "is_support"),
        sources=[ctx.source(SHEETS, record)],
        faction=faction,
        base_size=_base_size(ctx, models),
        profiles=[_profile(ctx, row) for row in models],
        weapons=_weapons(ctx, linked.of("Datasheets_wargear.csv", key), linked.weapon_key),
        abilities=_abilities(ctx, linked.of("Datasheets_abilities.csv", key), linked.ability_key),
        transport=ctx.text(SHEETS, record, "transport") or None,
        damaged=_damaged(ctx, record),
        wargear_options=_lines(ctx, "Datasheets_options.csv", linked, key),
        unit_composition=_lines(ctx, "Datasheets_unit_composition.csv", linked, key),
        loadout=ctx.optional(SHEETS, record, "loadout"),
        costs=_costs(ctx, linked.of("Datasheets_models_cost.csv", key)),
        leader=[UnitRef(id=unit) for unit in leads.get(key, [])],
        led_by=[UnitRef(id=unit) for unit in leads.get(f"led_by:{key}", [])],
        keywords=keywords,
        faction_keywords=faction_keywords,
        scoped_keywords=scoped,
        stratagems=_ids(ctx, "Datasheets_stratagems.csv", linked, key, links.stratagems),
        detachment_rules=_ids(
            ctx, "Datasheets_detachment_abilities.csv", linked, key, links.detachment_rules
        ),
        enhancements=_ids(ctx, "Datasheets_enhancements.csv", linked, key, links.enhancements),
    )
    return build_datasheet(draft, ctx.report)


def _optional_stat(ctx: ExportContext, table: str, row: Record, column: str) -> str:
    """A characteristic's text as printed (``-`` kept; empty: none); a starred one is said."""
    text = ctx.text(table, row, column)
    if text and parse_stat(text).text.endswith("*"):
        ctx.report.info(
            "starred-stat",
            f"{ctx.text(table, row, 'name')!r}: {column} {parse_stat(text).text!r} is starred and "
            "the export gives no condition for it; kept as printed",
            line=row.line_start,
            path=ctx.path(table),
        )
    return text


def _invulnerable(ctx: ExportContext, row: Record) -> Stat | None:
    """The invulnerable save (``-``: none), with the condition the export gives for it
    (``* Against ranged attacks only``) as its note."""
    table = "Datasheets_models.csv"
    invulnerable = ctx.text(table, row, "inv_sv")
    note = re.sub(r"^\*+\s*", "", ctx.text(table, row, "inv_sv_descr")).strip()
    if invulnerable in _NO_STAT:
        if note:
            ctx.report.warning(
                "orphan-condition",
                f"a condition ({note!r}) for an invulnerable save the profile does not have; "
                "left out",
                line=row.line_start,
                path=ctx.path(table),
            )
        return None
    stat = stat_from_export(invulnerable, "+")
    return stat.model_copy(update={"note": note}) if note else stat


def _profile(ctx: ExportContext, row: Record) -> Profile:
    table = "Datasheets_models.csv"
    texts = {field: _optional_stat(ctx, table, row, column) for column, field in _PROFILE_COLUMNS}
    return build_profile(ctx.text(table, row, "name"), texts, _invulnerable(ctx, row))


_PROFILE_COLUMNS = tuple(
    (column, PROFILE_LABELS[column.upper()]) for column in ("M", "T", "Sv", "W", "Ld", "OC")
)
"""The columns of Datasheets_models.csv that hold a profile's characteristics, with their
fields (``vocabulary.PROFILE_LABELS``), in printed order."""


def _base_size(ctx: ExportContext, models: list[Record]) -> str | None:
    """The base size; when the models differ, each model's, as ``name: size``."""
    table = "Datasheets_models.csv"
    sizes: list[tuple[str, str]] = []
    for row in models:
        size = ctx.text(table, row, "base_size")
        extra = ctx.text(table, row, "base_size_descr")
        if extra:
            size = f"{size} ({extra})" if size else extra
        if size:
            sizes.append((ctx.text(table, row, "name"), size))
    distinct = list(dict.fromkeys(size for _, size in sizes))
    if len(distinct) <= 1:
        return distinct[0] if distinct else None
    return "; ".join(f"{name}: {size}" for name, size in sizes)


# The columns a weapon is read from: two rows that agree in all of them are the same weapon.
_WEAPON_COLUMNS = ("name", "type", "dice", "range", "A", "BS_WS", "S", "AP", "D", "description")


def _weapons(ctx: ExportContext, rows: list[Record], key_of: Key) -> list[Weapon]:
    """The weapons of a datasheet's wargear rows. The export prints the same weapon row for
    many datasheets (a bolt pistol some 200 times): a weapon whose reading said nothing is
    kept by its cells and shared (the models are immutable); a row that repeats it would say
    nothing either (each note is a function of the cells, and an unknown ability is said once
    per input), so it is not read again. A weapon that said something is read again each time."""
    weapons: list[Weapon] = []
    for row in rows:
        weapon = ctx.report.read_once(
            ctx.quiet_weapons, key_of(row.cells), functools.partial(_weapon_row, ctx, row)
        )
        if weapon is not None:
            weapons.append(weapon)
    return weapons


def _weapon_row(ctx: ExportContext, row: Record) -> Weapon | None:
    """The weapon of one wargear row; None for a row without name or type, or of another type
    than ranged or melee (each said)."""
    table = "Datasheets_wargear.csv"
    name_cell = ctx.text(table, row, "name")
    kind = ctx.text(table, row, "type").lower()
    if not name_cell and not kind:
        ctx.report.info(
            "empty-row",
            "wargear row without name or type (a placeholder of the export); skipped",
            line=row.line_start,
            path=ctx.path(table),
        )
        return None
    if kind not in ("ranged", "melee"):
        ctx.report.error(
            "bad-weapon",
            f"weapon {name_cell!r} has type {kind!r}, neither Ranged nor Melee; left out",
            line=row.line_start,
            path=ctx.path(table),
        )
        return None
    return _weapon(ctx, row, name_cell, kind)


def _weapon(ctx: ExportContext, row: Record, name_cell: str, kind: str) -> Weapon | None:
    table = "Datasheets_wargear.csv"
    at = At(row.line_start, ctx.path(table))
    weapon = build_weapon(
        WeaponDraft(
            name=name_cell,
            type="melee" if kind == "melee" else "ranged",
            characteristics=[
                export_text(ctx.text(table, row, column), suffix)
                for column, suffix in _WEAPON_STATS
            ],
            abilities=[AbilityText(ctx.text(table, row, "description"), at)],
            hyphen=True,
            at=at,
        ),
        ctx.report,
    )
    dice = ctx.text(table, row, "dice")
    if dice:
        ctx.report.info(
            "dropped-field",
            f"weapon {name_cell!r}: the roll that selects this profile ({dice!r}) has no field "
            "in a weapon; left out",
            line=row.line_start,
            path=ctx.path(table),
        )
    return weapon


_WEAPON_STATS = (("range", '"'), ("A", ""), ("BS_WS", "+"), ("S", ""), ("AP", ""), ("D", ""))
"""The columns of a weapon's six characteristics, in printed order, each with the suffix the
dumps print after a bare number."""


# The columns an ability row is read from (with the glossary, the same for the whole export).
_ABILITY_COLUMNS = ("type", "name", "ability_id", "description", "parameter")


def _abilities(ctx: ExportContext, rows: list[Record], key_of: Key) -> AbilityGroups:
    """The abilities of a datasheet's ability rows; like a weapon (``_weapons``), an ability
    whose reading said nothing is kept by its cells and shared by the rows that repeat them."""
    groups = AbilityGroups()
    for row in rows:
        read = ctx.report.read_once(
            ctx.quiet_abilities, key_of(row.cells), functools.partial(_grouped_ability, ctx, row)
        )
        if read is not None:
            group, ability = read
            groups.group(group).append(ability)
    return groups


def _grouped_ability(ctx: ExportContext, row: Record) -> tuple[str, Ability] | None:
    """An ability row's group and ability; None for a row that gives none."""
    group, ability = _ability(ctx, row)
    return None if ability is None else (group, ability)


def _ability(ctx: ExportContext, row: Record) -> tuple[str, Ability | None]:
    table = "Datasheets_abilities.csv"
    raw_group = ctx.text(table, row, "type").lower()
    group = _GROUPS.get(raw_group)
    if group is None:
        group = "datasheet"
        if not raw_group.startswith(_BOXED):
            ctx.report.info(
                "ability-group",
                f"ability group {raw_group!r} not known; read as a datasheet ability",
                line=row.line_start,
                path=ctx.path(table),
            )
    name = ctx.text(table, row, "name")
    glossary_id = row.get("ability_id")
    if not name and glossary_id:
        name = _glossary_name(ctx, glossary_id)
    if not name and glossary_id:
        # A link out of the export (a sample, or a row the site removed): the unit lacks it.
        ctx.report.warning(
            "dangling-link",
            f"link to ability_id {glossary_id!r}, which the export does not hold; the "
            "datasheet is without that ability",
            line=row.line_start,
            path=ctx.path(table),
        )
        return group, None
    if (
        glossary_id
        and glossary_id not in ctx.glossary_names
        and not ctx.text(table, row, "description")
    ):
        # A row that names the ability itself (``Cabal of Sorcerers (Aspiring Sorcerer only)``)
        # and links the glossary's: the link is out of the export, only the name is read.
        ctx.report.warning(
            "dangling-link",
            f"link to ability_id {glossary_id!r}, which the export does not hold; the ability "
            f"keeps the name the row gives it, {name!r}",
            line=row.line_start,
            path=ctx.path(table),
        )
    if not name:
        ctx.report.error(
            "missing-field",
            "ability row names no ability (neither a name nor an ability id); left out",
            line=row.line_start,
            path=ctx.path(table),
        )
        return group, None
    parameter = ctx.text(table, row, "parameter")
    text = ctx.optional(table, row, "description")
    if group == "core":
        ability = parse_core_ability(f"{name} {parameter}".strip())
        return group, ability.model_copy(update={"text": text}) if text else ability
    if group == "faction":
        return group, Ability(name=name, parameter=parameter or None, text=text)
    return group, named_ability(name, text)


def _glossary_name(ctx: ExportContext, ability_id: str) -> str:
    return ctx.glossary_names.get(ability_id, "")


def _damaged(ctx: ExportContext, record: Record) -> Damaged | None:
    wounds = ctx.text(SHEETS, record, "damaged_w")
    text = ctx.text(SHEETS, record, "damaged_description")
    if not wounds and not text:
        return None
    return Damaged(wounds=wounds, text=text)


def _lines(ctx: ExportContext, table: str, linked: _Linked, key: str) -> list[str]:
    rows = sorted(linked.of(table, key), key=_line_number)
    return [text for row in rows if (text := ctx.text(table, row, "description"))]


def _line_number(row: Record) -> int:
    raw = row.get("line")
    return (game_int(raw) or 0) if raw.isdigit() else 0


def _costs(ctx: ExportContext, rows: list[Record]) -> list[CostLine]:
    """The cost lines in order; a tier heading (``YOUR 4TH + UNIT COSTS``, no cost) says which
    units the lines under it apply to, another heading (``WARGEAR OPTIONS``) makes the lines
    under it add-ons."""
    table = "Datasheets_models_cost.csv"
    points: list[CostLine] = []
    state: _CostState = (None, False, None)
    for row in sorted(rows, key=_line_number):
        text = ctx.text(table, row, "description")
        cost = row.get("cost").strip()
        state, heading, line = _cost_row(state, text, cost)
        if heading:
            continue
        if line is None:
            ctx.report.warning(
                "bad-cost",
                f"cost {cost!r} of {text!r} is not a number of points; left out",
                line=row.line_start,
                path=ctx.path(table),
            )
            continue
        points.append(CostLine(line, At(row.line_start, ctx.path(table))))
    return _repeats_out(ctx, points)


_CostState = tuple[Tier | None, bool, str | None]
"""A ``CostTable`` between two rows: its tier, whether its rows are add-ons, its label."""


@functools.lru_cache(maxsize=4096)
def _cost_row(state: _CostState, text: str, cost: str) -> tuple[_CostState, bool, Points | None]:
    """One row of a cost table read by a ``CostTable`` in ``state``: the state after it,
    whether it is a heading or label row (no cost line), and its cost line (None for a cost
    that is no number). A function of its arguments alone, so each distinct row is read once (the export
    prints some 2,100 cost rows, 400 distinct); ``Points`` are immutable, safe to share."""
    reader = CostTable(*state)
    if not cost and (reader.heading(text) or reader.labels(text)):
        return (reader.tier, reader.add_ons, reader.label), True, None
    return state, False, reader.line(text, cost)


def _repeats_out(ctx: ExportContext, points: list[CostLine]) -> list[CostLine]:
    """The export prints some cost tables two or three times over (``YOUR UNIT COSTS`` /
    ``YOUR UNIT COSTS`` / ``1 model|70`` / ``1 model|70`` …): a line that repeats an earlier one
    exactly is left out (counted for one note of the whole export); two lines for the same models
    and units at different costs are both kept and said aloud."""
    kept: list[CostLine] = []
    seen: dict[tuple[str, int | None, int | None, bool], int] = {}
    for cost in points:
        line = cost.points
        key = (line.text, line.units_from, line.units_to, line.add_on)
        if key not in seen:
            seen[key] = line.points
            kept.append(cost)
        elif seen[key] == line.points:
            ctx.repeated_costs += 1
        else:
            ctx.report.warning(
                "cost-conflict",
                f"cost line {line.text!r} ({units_text(line.model_dump()) or 'every unit'}) costs {seen[key]} and "
                f"{line.points} in the same table; both kept",
                line=cost.at.line,
                path=cost.at.path,
            )
            kept.append(cost)
    return kept


def _keywords(
    ctx: ExportContext, rows: list[Record], key_of: Key
) -> tuple[list[str], list[str], list[ScopedKeywords]]:
    """Keywords, faction keywords apart, and the keywords whose ``model`` column names one
    model (``ASPIRING SORCERER ONLY``; ``ALL MODELS`` and an empty cell are the whole unit's),
    each row with its line."""
    table = "Datasheets_keywords.csv"
    plain: list[str] = []
    faction: list[str] = []
    scoped: list[ScopedKeywords] = []
    for row in rows:
        keyword, is_faction, model = ctx.report.read_once(
            ctx.quiet_keywords, key_of(row.cells), functools.partial(_keyword, ctx, row)
        )
        if not keyword:
            continue
        if model and not is_faction:
            scoped.append(ScopedKeywords(model, [keyword], At(row.line_start, ctx.path(table))))
            continue
        (faction if is_faction else plain).append(keyword)
    return plain, faction, scoped


# The columns a keyword row is read from: the export repeats each keyword on many datasheets
# (15,700 rows, 1,500 distinct), read once when its reading says nothing (as ``_weapons``).
_KEYWORD_COLUMNS = ("keyword", "is_faction_keyword", "model")


def _keyword(ctx: ExportContext, row: Record) -> tuple[str, bool, str]:
    """A keyword row: the keyword (empty: no keyword), whether it is a faction keyword, the
    model it is scoped to (``_model_scope``)."""
    table = "Datasheets_keywords.csv"
    keyword = ctx.text(table, row, "keyword")
    if not keyword:
        return "", False, ""
    is_faction = row.get("is_faction_keyword").strip().lower() == "true"
    return keyword, is_faction, _model_scope(ctx.text(table, row, "model"))


_ONLY = re.compile(r"\s+ONLY$")


def _model_scope(cell: str) -> str:
    """The model a keyword row is scoped to, in upper case (``Aspiring Sorcerer only`` →
    ``ASPIRING SORCERER``); empty for the whole unit (an empty cell, ``ALL MODELS``)."""
    scope = _ONLY.sub("", " ".join(cell.split()).upper())
    return "" if scope in ("", "ALL MODELS") else scope


def _ids(ctx: ExportContext, table: str, linked: _Linked, key: str, known: Links) -> list[str]:
    """The ids a datasheet's rows of a link table name, once each (``build_datasheet`` sorts
    them); each row whose link the export does not hold is said, in order."""
    rows = linked.of(table, key)
    if not rows:
        return []
    at = linked.link_at[table]
    if at is None:
        found = {known.get("")}
    else:  # a map over the cells: the stratagem links alone are some 85,000 rows
        found = set(map(known.get, map(itemgetter(at), map(itemgetter(0), rows))))
    if None in found:
        found.discard(None)
        column = _LINK_TABLES[table]
        for row in rows:
            target = row.get(column)
            if target not in known:
                ctx.report.warning(
                    "dangling-link",
                    f"link to {column} {target!r}, which the export does not hold",
                    line=row.line_start,
                    path=ctx.path(table),
                )
    return list(cast("set[str]", found))  # None is out


def _report_dropped_columns(ctx: ExportContext) -> None:
    counts = {
        column: sum(1 for r in ctx.table(SHEETS) if r.get(column).strip())
        for column in ("legend", "role", "leader_head", "leader_footer", "source_id")
    }
    dropped = ", ".join(f"{column} ({n} rows)" for column, n in counts.items() if n)
    if dropped:
        ctx.report.info(
            "dropped-field",
            f"Datasheets.csv columns with no field in a datasheet, left out: {dropped}",
            path=ctx.path(SHEETS),
        )
