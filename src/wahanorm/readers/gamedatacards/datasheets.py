"""Datasheets of a Game-Datacards file, through the one datasheet builder.

Each entry fills a ``DatasheetDraft``: its models' characteristics (``stats``), the
invulnerable save the datasheet gives (``abilities.invul``, its ``info`` the condition) on each
model, its weapons with every profile (a weapon of several profiles is one ``Weapon`` per
profile, its profile split off its name as the other readers split it) and their typed
keywords, its abilities by group, DAMAGED, keywords and faction keywords, composition, loadout,
wargear options, costs (``points``; 11th edition's ``additionalCost`` is the tier from which a
unit costs more) and leader links (the units its LEADER text names; ``led_by`` the other way
round, over the file).
"""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Any

from wahanorm.blocks.datasheet import (
    AbilityGroups,
    At,
    CostLine,
    DatasheetDraft,
    UnitRef,
    build_datasheet,
    build_profile,
)
from wahanorm.blocks.parse.abilities import named_ability, parse_core_ability
from wahanorm.blocks.parse.points import Tier, cost_line
from wahanorm.blocks.parse.stats import parse_stat
from wahanorm.blocks.weapons import AbilityText, WeaponDraft, build_weapon
from wahanorm.contract.ids import make_id
from wahanorm.contract.models import (
    Ability,
    Damaged,
    Datasheet,
    Profile,
    Stat,
    Weapon,
)
from wahanorm.readers.gamedatacards.context import Gdc
from wahanorm.readers.gamedatacards.text import english, name_text, rules_text, text_lines

_STATS = (
    ("m", "movement"),
    ("t", "toughness"),
    ("sv", "save"),
    ("w", "wounds"),
    ("ld", "leadership"),
    ("oc", "objective_control"),
)
_WEAPON_STATS = (
    ("range", "range"),
    ("attacks", "attacks"),
    ("skill", "skill"),
    ("strength", "strength"),
    ("ap", "armour_penetration"),
    ("damage", "damage"),
)
_GROUPS = {"core": "core", "faction": "faction", "wargear": "wargear"}
"""The file's ability groups of the contract's names; ``other``, ``special`` and ``primarch``
are boxes of the datasheet's own (datasheet abilities)."""
_OWN = ("other", "special", "primarch")
_WOUNDS = re.compile(r"^\s*(\d+\s*[-–]\s*\d+|\d+\+?)")
_UPPER_WORD = re.compile(r"^[^a-z]*$")
_MAX_NAME_WORDS = 6

_READ = frozenset(
    {
        "id",
        "source",
        "name",
        "factions",
        "keywords",
        "stats",
        "rangedWeapons",
        "meleeWeapons",
        "abilities",
        "composition",
        "loadout",
        "wargear",
        "baseSize",
        "points",
        "leader",
        "leads",
        "leadBy",
        "transport",
        "additionalCost",
    }
)
_DROPPED = frozenset(
    {
        "fluff",
        "faction_id",
        "imperialArmour",
        "legends",
        "wargearOptions",
        "cardType",
        "chapter",
        "leaderHead",
        "leaderFooter",
    }
)
_DISPLAY = frozenset(
    {
        "showName",
        "showDamagedMarker",
        "showAbility",
        "showDescription",
        "showAtTop",
        "showInfo",
        "showInvulnerableSave",
        "showDamagedAbility",
    }
)
"""How the app shows a card (flags); the ones that hide a value are read."""
_ABILITY_READ = frozenset({"name", "description", "isAura", "restriction", "abilities"})
_STATS_READ = frozenset({"name", "m", "t", "sv", "w", "ld", "oc", "active"})
_PROFILE_READ = frozenset(
    {"name", "range", "attacks", "skill", "strength", "ap", "damage", "keywords", "active"}
)
_WEAPON_READ = frozenset({"profiles", "abilities", "active"})
_POINTS_READ = frozenset({"cost", "models", "keyword", "detachment", "active"})
_ABILITIES_READ = frozenset(
    {"core", "faction", "wargear", "other", "special", "primarch", "invul", "damaged"}
)


def datasheets(gdc: Gdc, data: dict[str, Any]) -> list[Datasheet]:
    """One ``Datasheet`` per entry of ``datasheets``."""
    entries = data.get("datasheets")
    found = [e for e in entries if isinstance(e, dict)] if isinstance(entries, list) else []
    drafts: list[DatasheetDraft] = []
    for entry in found:
        gdc.keys("datasheets", entry, _READ, _DROPPED)
        draft = _draft(gdc, entry)
        if draft is not None:
            drafts.append(draft)
    _led_by(drafts)
    return [build_datasheet(draft, gdc.report) for draft in drafts]


def _led_by(drafts: list[DatasheetDraft]) -> None:
    """``led_by`` of each unit: the characters of the file whose LEADER text names it (beside
    what the unit's own entry says)."""
    by_id = {draft.id: draft for draft in drafts}
    leading: dict[str, set[str]] = defaultdict(set)
    for draft in drafts:
        for unit in draft.leader:
            target = unit.id or make_id(unit.namespace or draft.faction, unit.name)
            if draft.id:
                leading[target].add(draft.id)
    for target, leaders in leading.items():
        unit_draft = by_id.get(target)
        if unit_draft is not None:
            unit_draft.led_by.extend(UnitRef(id=leader) for leader in sorted(leaders))


def _list(value: object) -> list[Any]:
    return value if isinstance(value, list) else []


def _draft(gdc: Gdc, entry: dict[str, Any]) -> DatasheetDraft | None:
    english_name = name_text(english(entry.get("name")))
    line = gdc.line(entry)
    factions = [name_text(english(f)) for f in _list(entry.get("factions"))]
    faction = next((f for f in factions if f), "") or gdc.faction
    if not english_name or not faction:
        gdc.report.error(
            "missing-field",
            f"datasheet {english_name or entry.get('id')!r} has no "
            f"{'name' if not english_name else 'faction'}; left out",
            line=line,
        )
        return None
    given = entry.get("abilities")
    abilities: dict[str, Any] = given if isinstance(given, dict) else {}
    for key in abilities:
        if key not in _ABILITIES_READ:
            gdc.unknown[f"datasheets.abilities.{key}"] += 1
    invulnerable = _invulnerable(gdc, abilities.get("invul"))
    profiles = [
        _profile(gdc, english_name, stats, invulnerable)
        for stats in _list(entry.get("stats"))
        if isinstance(stats, dict) and stats.get("active", True) is not False
    ]
    leader, led_by = _leader_links(gdc, entry)
    return DatasheetDraft(
        id=make_id(faction, english_name),
        name=name_text(gdc.pick(entry.get("name"))) or english_name,
        faction=faction,
        sources=[gdc.source(entry)],
        base_size=_base_size(gdc, entry.get("baseSize")),
        profiles=profiles,
        weapons=[
            *_weapons(gdc, english_name, entry.get("rangedWeapons"), "ranged", line),
            *_weapons(gdc, english_name, entry.get("meleeWeapons"), "melee", line),
        ],
        abilities=_abilities(gdc, abilities, _weapon_boxes(entry)),
        transport=rules_text(gdc.pick(entry.get("transport"))) or None,
        damaged=_damaged(gdc, abilities.get("damaged")),
        wargear_options=[
            t for t in (rules_text(gdc.pick(x)) for x in _list(entry.get("wargear"))) if t
        ],
        unit_composition=[
            t for t in (rules_text(gdc.pick(x)) for x in _list(entry.get("composition"))) if t
        ],
        loadout=rules_text(gdc.pick(entry.get("loadout"))) or None,
        costs=_costs(gdc, english_name, entry, line),
        leader=leader,
        led_by=led_by,
        # in the language asked, as the file prints them (the builder makes them upper case
        # and sorts them)
        keywords=[name_text(gdc.pick(k)) for k in _list(entry.get("keywords"))],
        faction_keywords=factions,
    )


def _weapon_boxes(entry: dict[str, Any]) -> list[Any]:
    """The abilities the file gives weapons (``rangedWeapons[].abilities``)."""
    found: list[Any] = []
    for key in ("rangedWeapons", "meleeWeapons"):
        for weapon in _list(entry.get(key)):
            if isinstance(weapon, dict):
                found.extend(_list(weapon.get("abilities")))
    return found


def _stat(text: object) -> Stat | None:
    if isinstance(text, (int, str)) and not isinstance(text, bool) and str(text).strip():
        return parse_stat(str(text))
    return None


def _profile(gdc: Gdc, unit: str, stats: dict[str, Any], invulnerable: Stat | None) -> Profile:
    gdc.keys("datasheets.stats", stats, _STATS_READ, _DISPLAY)
    values = {field: _stat(stats.get(key)) for key, field in _STATS}
    missing = [key.upper() for key, field in _STATS if values[field] is None]
    name = name_text(gdc.pick(stats.get("name"))) or unit
    if missing:
        gdc.report.warning(
            "characteristic-missing",
            f"datasheet {unit!r}, model {name!r}: no {', '.join(missing)}",
            line=gdc.line(stats) or None,
        )
    texts = {field: str(stats[key]).strip() for key, field in _STATS if values[field] is not None}
    return build_profile(name, texts, invulnerable)


def _invulnerable(gdc: Gdc, invul: object) -> Stat | None:
    """The datasheet's invulnerable save, its ``info`` (``* Against ranged attacks only``) its
    note; None where the file gives none (10th edition: an empty value or one not shown)."""
    if not isinstance(invul, dict):
        return None
    gdc.keys("datasheets.abilities.invul", invul, frozenset({"value", "info"}), _DISPLAY)
    value = invul.get("value")
    if (
        invul.get("showInvulnerableSave") is False
        or not isinstance(value, str)
        or not value.strip()
    ):
        return None
    stat = parse_stat(value)
    note = re.sub(r"^\*+\s*", "", name_text(gdc.pick(invul.get("info")))).strip()
    return stat.model_copy(update={"note": note}) if note else stat


def _base_size(gdc: Gdc, value: object) -> str | None:
    """The base size; each model's on a line of its own becomes ``name: size; name: size``,
    as the export prints it."""
    lines = [line.text for line in text_lines(gdc.pick(value))]
    return "; ".join(lines) or None


def _weapons(gdc: Gdc, unit: str, weapons: object, kind: str, line: int | None) -> list[Weapon]:
    found: list[Weapon] = []
    for weapon in _list(weapons):
        if not isinstance(weapon, dict) or weapon.get("active", True) is False:
            continue
        gdc.keys("datasheets.weapons", weapon, _WEAPON_READ, _DISPLAY)
        profiles = [p for p in _list(weapon.get("profiles")) if isinstance(p, dict)]
        for profile in profiles:
            if profile.get("active", True) is False:
                continue
            made = _weapon(gdc, unit, profile, kind, len(profiles) > 1, line)
            if made is not None:
                found.append(made)
    return found


def _weapon(
    gdc: Gdc, unit: str, profile: dict[str, Any], kind: str, several: bool, line: int | None
) -> Weapon | None:
    gdc.keys("datasheets.weapons.profiles", profile, _PROFILE_READ, _DISPLAY)
    english_full = name_text(english(profile.get("name")))
    full = name_text(gdc.pick(profile.get("name"))) or english_full
    if not english_full:
        gdc.report.error(
            "bad-weapon", f"datasheet {unit!r}: a weapon without a name; left out", line=line
        )
        return None
    texts: list[str] = []
    for key, _field in _WEAPON_STATS:
        if _stat(profile.get(key)) is None:
            gdc.report.warning(
                "characteristic-missing",
                f"datasheet {unit!r}: weapon {full!r} has no {key}; read as '-'",
                line=line,
            )
            texts.append("-")
        else:
            texts.append(str(profile.get(key)).strip())
    keywords = ", ".join(n for k in _list(profile.get("keywords")) if (n := name_text(english(k))))
    draft = WeaponDraft(
        name=full,
        type="ranged" if kind == "ranged" else "melee",
        characteristics=texts,
        abilities=[AbilityText(keywords, At(line=line))] if keywords else [],
        hyphen=True,
        at=At(line=line),
    )
    weapon = build_weapon(draft, gdc.report)
    if weapon is not None and several and weapon.profile is None:
        gdc.report.warning(
            "profile-name",
            f"datasheet {unit!r}: weapon {full!r} is one of several profiles but names none",
            line=line,
        )
    return weapon


def _abilities(gdc: Gdc, abilities: dict[str, Any], weapon_abilities: list[Any]) -> AbilityGroups:
    """The abilities by group; a box's own sub-abilities (``abilities`` of a primarch's box)
    after it in its group; the abilities the file gives a weapon (``One Shot``) as wargear
    abilities."""
    groups = AbilityGroups()
    given = [(key, item) for key in ("core", "faction", *_OWN, "wargear")
             for item in _list(abilities.get(key))]  # fmt: skip
    given.extend(("wargear", item) for item in weapon_abilities)
    for key, item in given:
        into = groups.group(_GROUPS.get(key, "datasheet"))
        heads_only = (
            isinstance(item, dict) and item.get("abilities") and not item.get("description")
        )
        ability = None if heads_only else _ability(gdc, key, item)
        if ability is not None:
            into.append(ability)
        if isinstance(item, dict):
            for sub_item in _list(item.get("abilities")):
                found = _ability(gdc, key, sub_item)
                if found is not None:
                    into.append(found)
    return groups


def _ability(gdc: Gdc, group: str, item: object) -> Ability | None:
    """One ability: a core one by its name and parameter (``Deadly Demise D6``), a faction one
    by its name, the others with their text (``isAura`` its aura flag)."""
    if isinstance(item, dict):
        gdc.keys("datasheets.abilities", item, _ABILITY_READ, _DISPLAY | {"isPsychic"})
        if item.get("showAbility") is False:
            gdc.dropped[f"datasheets.abilities.{group}[hidden]"] += 1
        name = name_text(gdc.pick(item.get("name")))
        restriction = name_text(gdc.pick(item.get("restriction")))
        if name and restriction:
            name = f"{name} ({restriction})"  # as the pages print it: ``… (Ravener Prime only)``
        text = rules_text(gdc.pick(item.get("description"))) or None
        aura = item.get("isAura") is True
    else:
        name, text, aura = name_text(gdc.pick(item)), None, False
    if not name:
        if text:
            gdc.report.warning(
                "ability-name", f"a {group} ability without a name: {text[:40]!r}…; left out"
            )
        return None
    if group == "core" and text is None:
        return parse_core_ability(name)
    ability = named_ability(name, text)
    return ability.model_copy(update={"aura": True}) if aura and not ability.aura else ability


def _damaged(gdc: Gdc, damaged: object) -> Damaged | None:
    """DAMAGED: the wounds of its range (``1-5 WOUNDS REMAINING`` → ``1-5``) and its text."""
    if not isinstance(damaged, dict):
        return None
    gdc.keys("datasheets.abilities.damaged", damaged, frozenset({"range", "description"}), _DISPLAY)
    if damaged.get("showDamagedAbility") is False:
        return None
    wounds_text = name_text(gdc.pick(damaged.get("range")))
    text = rules_text(gdc.pick(damaged.get("description")))
    if not wounds_text and not text:
        return None
    match = _WOUNDS.match(english(damaged.get("range")) or wounds_text)
    if match is None:
        gdc.report.warning(
            "bad-value", f"DAMAGED range {wounds_text!r} names no wounds; kept as printed"
        )
    wounds = re.sub(r"\s*[-–]\s*", "-", match.group(1)) if match else wounds_text
    return Damaged(wounds=wounds, text=text)


def _costs(gdc: Gdc, unit: str, entry: dict[str, Any], line: int | None) -> list[CostLine]:
    """The cost lines. With ``additionalCost`` (``{cost: 10, afterSelections: 3}``: from the
    4th unit on, each costs 10 more) the lines are two tiers, as the 11th-edition datasheets
    print them (``YOUR 1ST TO 3RD UNITS COST`` / ``YOUR 4TH + UNIT COSTS``)."""
    rows = [p for p in _list(entry.get("points")) if isinstance(p, dict)]
    extra = entry.get("additionalCost")
    step: tuple[int, int] | None = None
    if isinstance(extra, dict):
        add, after = extra.get("cost"), extra.get("afterSelections")
        if (
            isinstance(add, (str, int))
            and str(add).strip().isdigit()
            and isinstance(after, int)
            and after >= 1
        ):
            step = (int(str(add).strip()), after)
        else:
            gdc.report.warning(
                "bad-cost", f"datasheet {unit!r}: additionalCost {extra!r} is not read", line=line
            )
    lines: list[CostLine] = []
    tiers = [(Tier(1, step[1]), 0), (Tier(step[1] + 1, None), step[0])] if step else [(None, 0)]
    for tier, more in tiers:
        for row in rows:
            if row.get("active", True) is False:
                gdc.dropped["datasheets.points[inactive]"] += 1
                continue
            made = _cost(gdc, unit, row, tier, more, line)
            if made is not None:
                lines.append(made)
    return lines


def _cost(
    gdc: Gdc, unit: str, row: dict[str, Any], tier: Tier | None, more: int, line: int | None
) -> CostLine | None:
    gdc.keys("datasheets.points", row, _POINTS_READ, _DISPLAY)
    raw_cost = str(row.get("cost", "")).strip()
    models = str(row.get("models", "")).strip()
    label = f"{models} model{'' if models == '1' else 's'}" if models.isdigit() else models
    for key in ("keyword", "detachment"):
        said = name_text(english(row.get(key)))
        if said:
            label = f"{label} ({said})"
    if not raw_cost.isdigit():
        gdc.report.warning(
            "bad-cost",
            f"datasheet {unit!r}: cost {raw_cost!r} is not a number of points; left out",
            line=line,
        )
        return None
    points = cost_line(label, str(int(raw_cost) + more), tier)
    if points is None:
        return None
    return CostLine(points)


def _leader_links(gdc: Gdc, entry: dict[str, Any]) -> tuple[list[UnitRef], list[UnitRef]]:
    """The units the LEADER text names (each item's leading words in capitals: the unit's
    keyword name), and the characters the entry says lead it (10th edition's ``leadBy``)."""
    leader: list[UnitRef] = []
    text = english(entry.get("leader"))
    leads = entry.get("leads")
    if isinstance(leads, dict) and not text:
        text = " ".join(f"■ {u}" for u in _list(leads.get("units")) if isinstance(u, str))
    for line in text_lines(text):
        if not line.item:
            continue
        words: list[str] = []
        for word in line.text.split():
            if not _UPPER_WORD.match(word) or not any(c.isalpha() for c in word):
                break
            words.append(word)
        if not words and len(line.text.split()) <= _MAX_NAME_WORDS and "." not in line.text:
            words = line.text.split()  # a name not in capitals (10th edition: ``Gretchin``)
        if words:
            leader.append(UnitRef(name=" ".join(words)))
        else:
            gdc.report.warning(
                "leader-empty", f"a LEADER item names no unit: {line.text!r}", line=gdc.line(entry)
            )
    led_by = [UnitRef(name=name_text(english(n))) for n in _list(entry.get("leadBy")) if english(n)]
    return leader, led_by
