"""A unit's abilities from its tree: core, faction, datasheet and wargear, and the profiles that
are fields of their own (DAMAGED, transport capacity, orders, the units a leader can lead).

- A rule linked from the unit or one of its models is a core ability when the game system
  holds it (``Deadly Demise``, its parameter appended to the link's name by a modifier:
  ``Deadly Demise D6``), a faction ability when a catalogue does (``Waaagh!``). Rules linked
  from weapons explain the weapon's keywords and are no abilities of the unit; so are a
  weapon ability's rule (one with an ``alias``, such as ``SUSTAINED HITS``) and a core ability
  that takes a parameter linked without one (``Feel No Pain``): links that explain the text of
  another ability (``… gains the Feel No Pain 5+ ability``).
- An ``Abilities`` profile of the unit or a model is a datasheet ability, of an upgrade a
  wargear ability. Three of them are fields instead: ``Invulnerable Save …`` (the profiles'
  save, ``profiles.py``), ``Damaged: 1-5 Wounds Remaining`` (``Datasheet.damaged``) and
  ``Leader`` (``This model can be attached to the following units: - BOYZ …``, the unit's
  ``leader`` ids).
- A ``Transport`` profile is the datasheet ability ``Transport`` (as the export reader keeps
  it); an ``Orders`` profile is ``Datasheet.orders``. A profile of another type (a faction's
  own table, such as a D6 roll) is a datasheet ability named after it, said once per type.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

from wahanorm.blocks.parse.abilities import CORE_ABILITIES, named_ability, parse_core_ability
from wahanorm.contract.models import Abilities, Ability, Damaged
from wahanorm.errors import Report
from wahanorm.readers.bsdata.dataset import DataSet, modifiers
from wahanorm.readers.bsdata.leaders import leader_targets
from wahanorm.readers.bsdata.profiles import (
    UNIT_TYPE,
    WEAPON_TYPES,
    is_invulnerable,
    profile_key,
)
from wahanorm.readers.bsdata.text import clean_name, clean_text
from wahanorm.readers.bsdata.walk import Part

ABILITIES_TYPE = "abilities"
TRANSPORT_TYPE = "transport"
ORDERS_TYPE = "orders"
LEADER = "leader"
_DAMAGED = re.compile(r"^damaged\b\W*(?P<wounds>\d+\s*[-–]\s*\d+)", re.IGNORECASE)

_named = functools.lru_cache(maxsize=16384)(named_ability)
"""``named_ability`` once per name and text (models are immutable: sharing them is safe)."""


@dataclass
class UnitAbilities:
    """What a unit's rules and ability profiles give its datasheet."""

    abilities: Abilities = field(default_factory=Abilities)
    damaged: Damaged | None = None
    orders: str | None = None
    leads: list[str] = field(default_factory=list)
    """The names of the units the leader can lead, as printed (``BOYZ``)."""


def part_name(data: DataSet, part: Part) -> str:
    """The name the unit shows for ``part``: the link's (else the target's), changed by the
    modifiers of the link that always apply (``append`` ``D6`` → ``Deadly Demise D6``)."""
    name = part.link.name if part.link is not None and part.link.name else part.node.name
    for holder in (part.link, part.node):
        if holder is None or not holder.children:
            continue
        for modifier, guards in modifiers(holder):
            if modifier.get("field") != "name" or not data.always(modifier, guards):
                continue
            value = modifier.get("value")
            if modifier.get("type") == "append":
                name = f"{name} {value}"
            elif modifier.get("type") == "set":
                name = value
    return clean_name(name)


def unit_abilities(
    data: DataSet, rules: list[Part], profiles: list[Part], path: str
) -> UnitAbilities:
    """The abilities of a unit tree and the fields its special profiles fill."""
    found = UnitAbilities()
    groups: dict[str, list[Ability]] = {"core": [], "faction": [], "datasheet": [], "wargear": []}
    for part in rules:
        group, ability = _rule_ability(data, part)
        if ability is not None:
            groups[group].append(ability)
    for part in profiles:
        _profile_ability(data, part, groups, found, path)
    found.abilities = Abilities(**{k: _distinct(v) for k, v in groups.items()})
    return found


def _rule_ability(data: DataSet, part: Part) -> tuple[str, Ability | None]:
    if part.level == "wargear":
        return "wargear", None
    name = part_name(data, part)
    if part.link is None:  # a rule written into the unit's own entry
        return "datasheet", _named(name, clean_text(part.node.child_text("description")) or None)
    if data.document(part.node).kind != "gameSystem":
        return "faction", Ability(name=name)
    if any(child.tag == "alias" for child in part.node.children):
        return "core", None  # a weapon ability's rule, linked to explain an ability's text
    ability = parse_core_ability(name)
    if ability.parameter is None and CORE_ABILITIES.get(ability.name.lower()):
        return "core", None  # ``Feel No Pain`` without its X+: linked to explain a text
    return "core", ability


def _profile_ability(
    data: DataSet, part: Part, groups: dict[str, list[Ability]], found: UnitAbilities, path: str
) -> None:
    kind = part.node.get("typeName").lower()
    if kind == UNIT_TYPE or kind in WEAPON_TYPES:
        return
    name = part_name(data, part)
    text = clean_text("\n".join(value for _, value in profile_key(data, part.node)[1]))
    group = "wargear" if part.level == "wargear" else "datasheet"
    if kind == TRANSPORT_TYPE:
        groups["datasheet"].append(Ability(name="Transport", text=text or None))
    elif kind == ORDERS_TYPE:
        found.orders = "\n".join(filter(None, [found.orders, text])) or None
    elif kind != ABILITIES_TYPE:
        _other_type(part, data.report, path)
        groups[group].append(_named(name, text or None))  # an aura there too
    elif group == "datasheet" and is_invulnerable(part.node):
        return  # the profiles' invulnerable save
    elif group == "datasheet" and (damaged := _DAMAGED.match(name)):
        found.damaged = Damaged(
            wounds=re.sub(r"\s*[-–]\s*", "-", damaged.group("wounds")), text=text
        )
    elif group == "datasheet" and name.lower() == LEADER:
        found.leads.extend(leader_targets(text))
    else:
        groups[group].append(_named(name, text or None))


def _other_type(part: Part, report: Report, path: str) -> None:
    kind = part.node.get("typeName")
    if report.first_time("ability-group", kind):
        report.info(
            "ability-group",
            f"profiles of type {kind!r} (such as {part.node.name!r}) have no field of their own; "
            "read as abilities named after them (reported once per type)",
            line=part.node.line,
            path=path,
        )


def _distinct(abilities: list[Ability]) -> list[Ability]:
    """Each ability once (the same profile reached from several models), in order."""
    seen: set[tuple[str, str | None, str | None]] = set()
    kept: list[Ability] = []
    for ability in abilities:
        key = (ability.name, ability.parameter, ability.text)
        if key not in seen:
            seen.add(key)
            kept.append(ability)
    return kept
