"""Datasheet parts compared in the game's terms: points per model count, model profiles by name,
weapons by (name, profile) never by position, abilities by name with their parameters."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable
from typing import Any

from wahanorm.contract.vocabulary import (
    CHARACTERISTIC_ABBREVIATIONS,
    WEAPON_CHARACTERISTICS,
    ability_title,
    cost_text,
    skill_abbreviation,
    weapon_title,
)
from wahanorm.outputs.diff.generic import compare_value
from wahanorm.outputs.diff.result import Change
from wahanorm.outputs.diff.values import (
    Json,
    canon,
    multiset_delta,
    prose_change,
    show,
    value_change,
)

Item = dict[str, Any]

STAT_LABELS = CHARACTERISTIC_ABBREVIATIONS
"""Characteristics as their columns head them (``contract.vocabulary``)."""

ABILITY_GROUPS = {
    "core": "Core ability",
    "faction": "Faction ability",
    "datasheet": "Ability",
    "wargear": "Wargear ability",
}


def _match(
    old: list[Item], new: list[Item], key: Callable[[Item], Hashable]
) -> tuple[list[tuple[Item, Item]], list[Item], list[Item]]:
    """Pairs of items with the same key, then the unmatched old and new items. Where a key is
    repeated (the same weapon listed twice), identical copies cancel out first, so position
    never decides which copy pairs with which."""
    by_old: dict[Hashable, list[Item]] = defaultdict(list)
    by_new: dict[Hashable, list[Item]] = defaultdict(list)
    for item in old:
        by_old[key(item)].append(item)
    for item in new:
        by_new[key(item)].append(item)
    pairs: list[tuple[Item, Item]] = []
    removed: list[Item] = []
    added: list[Item] = []
    for k in list(by_old) + [k for k in by_new if k not in by_old]:
        gone, came = multiset_delta(by_old.get(k, []), by_new.get(k, []))
        gone.sort(key=canon)
        came.sort(key=canon)
        pairs.extend(zip(gone, came, strict=False))
        removed.extend(gone[len(came) :])
        added.extend(came[len(gone) :])
    return pairs, removed, added


# --- points ------------------------------------------------------------------------------


def _points_key(row: Item) -> Hashable:
    """The model count (or the text), the tier and whether it is an add-on: the 11th edition
    prices ``10 models`` once per tier."""
    what = row.get("models") if row.get("models") is not None else row.get("text")
    tier = (row.get("units_from"), row.get("units_to"))
    # "every unit" (YOUR UNIT COSTS) is what a cost without a tier means too
    return what if tier in ((None, None), (1, None)) else (what, *tier)


def _points_label(row: Item) -> str:
    return f"Points ({cost_text(row)})"


def compare_points(path: str, label: str, old: Json, new: Json, out: list[Change]) -> None:
    """The cost table matched by model count: ``Points (10 models): 180 → 190``."""
    pairs, removed, added = _match(old or [], new or [], _points_key)
    for a, b in pairs:
        where = f"{path}[{_points_key(b)}]"
        change = value_change(where, _points_label(b), a.get("points"), b.get("points"))
        if change:
            out.append(change)
        if a.get("text") != b.get("text"):
            compare_value(
                f"{where}.text", f"{_points_label(b)} wording", a.get("text"), b.get("text"), out
            )
    for row in removed:
        out.append(
            Change(
                path=f"{path}[{_points_key(row)}]",
                op="removed",
                label=_points_label(row),
                old=show(row.get("points")),
                summary=f"{_points_label(row)} removed (was {row.get('points')})",
            )
        )
    for row in added:
        out.append(
            Change(
                path=f"{path}[{_points_key(row)}]",
                op="added",
                label=_points_label(row),
                new=show(row.get("points")),
                summary=f"{_points_label(row)} added: {row.get('points')}",
            )
        )


# --- model profiles ----------------------------------------------------------------------


def _stats_line(item: Item, keys: list[str]) -> str:
    return ", ".join(f"{STAT_LABELS.get(k, k)} {show(item[k])}" for k in keys if item.get(k))


def _compare_stats(path: str, who: str, a: Item, b: Item, skill: str, out: list[Change]) -> None:
    """Characteristics by their printed text: ``Lash of Khorne: A 9 → 8``."""
    for key in sorted(set(a) | set(b)):
        if key in {"name", "profile", "abilities", "type"} or a.get(key) == b.get(key):
            continue
        abbr = skill if key == "skill" else STAT_LABELS.get(key)
        if abbr is None:
            compare_value(f"{path}.{key}", f"{who}: {key}", a.get(key), b.get(key), out)
            continue
        change = value_change(f"{path}.{key}", f"{who}: {abbr}", a.get(key), b.get(key), sep=" ")
        if change is None or (change.old == change.new and change.op == "changed"):
            # same printed text, other parsed value: say so rather than show "2 → 2"
            compare_value(f"{path}.{key}", f"{who}: {abbr}", a.get(key), b.get(key), out)
        else:
            out.append(change)


def compare_profiles(path: str, label: str, old: Json, new: Json, out: list[Change]) -> None:
    """Model profiles matched by name: ``Khorne Berzerker: T 5 → 6``."""
    pairs, removed, added = _match(old or [], new or [], lambda p: p.get("name"))
    for a, b in pairs:
        _compare_stats(f"{path}[{b.get('name')}]", str(b.get("name")), a, b, "Skill", out)
    stat_keys = list(STAT_LABELS)[:7]
    for p in removed:
        out.append(
            Change(
                path=f"{path}[{p.get('name')}]",
                op="removed",
                label="Profile",
                old=_stats_line(p, stat_keys),
                summary=f"Profile removed: {p.get('name')}",
            )
        )
    for p in added:
        line = _stats_line(p, stat_keys)
        out.append(
            Change(
                path=f"{path}[{p.get('name')}]",
                op="added",
                label="Profile",
                new=line,
                summary=f"Profile added: {p.get('name')} ({line})",
            )
        )


# --- weapons -----------------------------------------------------------------------------


def _skill(w: Item) -> str:
    return skill_abbreviation(w.get("type"))


def weapon_line(w: Item) -> str:
    """A weapon's whole row on one line: ``melee, A 9, WS 2+, S 8, AP -2, D 2 [LETHAL HITS]``."""
    parts = [str(w.get("type"))]
    for key in WEAPON_CHARACTERISTICS:
        if w.get(key) and not (key == "range" and show(w[key]).lower() == "melee"):
            parts.append(f"{_skill(w) if key == 'skill' else STAT_LABELS[key]} {show(w[key])}")
    names = ", ".join(_shown(x) for x in w.get("abilities") or [])
    return ", ".join(parts) + (f" [{names}]" if names else "")


def compare_weapons(path: str, label: str, old: Json, new: Json, out: list[Change]) -> None:
    """Weapons matched by (name, profile), never by position."""
    pairs, removed, added = _match(
        old or [], new or [], lambda w: (w.get("name"), w.get("profile"))
    )
    for a, b in pairs:
        who = weapon_title(b)
        where = f"{path}[{who}]"
        if a.get("type") != b.get("type"):
            out.append(
                Change(
                    path=f"{where}.type",
                    op="changed",
                    label=f"{who}: type",
                    old=show(a.get("type")),
                    new=show(b.get("type")),
                    summary=f"{who}: type {a.get('type')} → {b.get('type')}",
                )
            )
        _compare_stats(where, who, a, b, _skill(b), out)
        _compare_weapon_abilities(
            f"{where}.abilities", who, a.get("abilities") or [], b.get("abilities") or [], out
        )
    for w in removed:
        out.append(
            Change(
                path=f"{path}[{weapon_title(w)}]",
                op="removed",
                label="Weapon",
                old=weapon_line(w),
                summary=f"Weapon removed: {weapon_title(w)}",
            )
        )
    for w in added:
        out.append(
            Change(
                path=f"{path}[{weapon_title(w)}]",
                op="added",
                label="Weapon",
                new=weapon_line(w),
                summary=f"Weapon added: {weapon_title(w)} ({weapon_line(w)})",
            )
        )


def _ability_key(ability: Item) -> str:
    """``anti-infantry`` for ANTI (a weapon may carry two), else the ability's id."""
    keyword = ability.get("keyword")
    return f"{ability.get('id')}-{str(keyword).lower()}" if keyword else str(ability.get("id"))


def _shown(ability: Item) -> str:
    """An ability as printed: ``LETHAL HITS: non-MONSTER/VEHICLE``."""
    condition = ability.get("condition")
    return f"{ability.get('name')}: {condition}" if condition else str(ability.get("name"))


def _parameter(ability: Item) -> str:
    if ability.get("threshold") is not None:
        return f"{ability['threshold']}+"
    return str(ability.get("value") or "")


def _compare_weapon_abilities(
    path: str, who: str, old: list[Item], new: list[Item], out: list[Change]
) -> None:
    """Weapon keywords by id (and ANTI's keyword): ``Lash of Khorne: ANTI-INFANTRY 4+ → 3+``."""
    pairs, removed, added = _match(old, new, lambda x: (x.get("id"), x.get("keyword")))
    for a, b in pairs:
        name = _shown(a)
        summary = f"{who}: {name} → {_parameter(b) or _shown(b)}"
        if _parameter(a) == _parameter(b) or a.get("condition") != b.get("condition"):
            summary = f"{who}: {name} → {_shown(b)}"
        out.append(
            Change(
                path=f"{path}[{_ability_key(b)}]",
                op="changed",
                label=f"{who}: {name}",
                old=_shown(a),
                new=_shown(b),
                summary=summary,
            )
        )
    for x in removed:
        out.append(
            Change(
                path=f"{path}[{_ability_key(x)}]",
                op="removed",
                label=f"{who}: ability",
                old=_shown(x),
                summary=f"{who}: loses [{_shown(x)}]",
            )
        )
    for x in added:
        out.append(
            Change(
                path=f"{path}[{_ability_key(x)}]",
                op="added",
                label=f"{who}: ability",
                new=_shown(x),
                summary=f"{who}: gains [{_shown(x)}]",
            )
        )


# --- abilities ---------------------------------------------------------------------------


def compare_abilities(path: str, label: str, old: Json, new: Json, out: list[Change]) -> None:
    """Abilities by group and name: added, removed, parameter or text changed. A list (a
    detachment rule's sub-abilities) is compared by name the same way."""
    if isinstance(old, list | None) and isinstance(new, list | None):
        _compare_ability_list(path, label, old or [], new or [], out)
        return
    if not isinstance(old, dict | None) or not isinstance(new, dict | None):
        compare_value(path, label, old, new, out)  # a shape this contract does not write
        return
    old, new = old or {}, new or {}
    for group in sorted(set(old) | set(new)):
        glabel = ABILITY_GROUPS.get(group, f"{group.capitalize()} ability")
        a, b = old.get(group) or [], new.get(group) or []
        if not isinstance(a, list) or not isinstance(b, list):
            compare_value(f"{path}.{group}", glabel, a, b, out)
            continue
        _compare_ability_list(f"{path}.{group}", glabel, a, b, out)


def _compare_ability_list(
    path: str, glabel: str, old: list[Item], new: list[Item], out: list[Change]
) -> None:
    pairs, removed, added = _match(old, new, lambda x: x.get("name"))
    for a, b in pairs:
        _compare_ability(f"{path}[{b.get('name')}]", str(b.get("name")), a, b, out)
    for x in removed:
        out.append(
            Change(
                path=f"{path}[{x.get('name')}]",
                op="removed",
                label=glabel,
                old=ability_title(x),
                summary=f"{glabel} removed: {ability_title(x)}",
            )
        )
    for x in added:
        out.append(
            Change(
                path=f"{path}[{x.get('name')}]",
                op="added",
                label=glabel,
                new=ability_title(x),
                words=None,
                summary=f"{glabel} added: {ability_title(x)}",
            )
        )


def _compare_ability(path: str, name: str, a: Item, b: Item, out: list[Change]) -> None:
    """One ability: ``Deadly Demise D3 → D6``, its text word by word, aura or not."""
    if a.get("parameter") != b.get("parameter"):
        change = value_change(
            f"{path}.parameter", name, a.get("parameter"), b.get("parameter"), sep=" "
        )
        if change:
            out.append(change)
    if a.get("text") != b.get("text"):
        old_text, new_text = a.get("text"), b.get("text")
        if isinstance(old_text, str) and isinstance(new_text, str):
            change = prose_change(f"{path}.text", name, old_text, new_text)
            if change:
                out.append(change)
        else:
            compare_value(f"{path}.text", f"{name} text", old_text, new_text, out)
    for key in sorted((set(a) | set(b)) - {"name", "parameter", "text"}):
        if a.get(key) != b.get(key):
            compare_value(f"{path}.{key}", f"{name} {key}", a.get(key), b.get(key), out)
