"""The one datasheet builder that every reader of datasheets feeds.

A reader fills a ``DatasheetDraft`` with what its source gives, in the source's own terms (a
TRANSPORT section or a ``transport`` column, an ORDERS box or an ability row named ORDERS, the
keywords a label scopes to one model, the faction of a linked page); ``build_datasheet`` turns
it into a ``Datasheet`` and holds, once, the rules every source shares:

- an ability box named Orders is the datasheet's ``orders``, not one of its abilities;
- the transport capacity is a datasheet ability named ``Transport``, after the others;
- wargear options that are only "None" mean no option;
- keywords scoped to a model go on the profile the scope names exactly, else on the only
  profile whose name it holds as whole words (``SAINT CELESTINE`` → ``Celestine``); a scope
  that names no single profile stays on the unit, said aloud (``keyword-scope``);
- a cost line whose number of models is not certain is said (``cost-models``);
- a leader link is an id in the faction of the linked page (the datasheet's own when the
  source gives no link), or the id the source itself gives;
- keywords are upper case, once each and sorted; listed ids once each and sorted.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from wahanorm.blocks.parse.stats import parse_stat
from wahanorm.contract.ids import make_id
from wahanorm.contract.models import (
    Abilities,
    Ability,
    Damaged,
    Datasheet,
    Points,
    Profile,
    SourceRef,
    Stat,
    Weapon,
)
from wahanorm.contract.vocabulary import PROFILE_CHARACTERISTICS
from wahanorm.errors import Report

ORDERS = "orders"
"""The name (case aside) of the ability box that holds a datasheet's orders."""
TRANSPORT = "Transport"
"""The name of the datasheet ability that holds the transport capacity."""


@dataclass
class At:
    """Where a part of a datasheet was read, for its diagnostics: a line, and the input when it
    is not the one being read (a table of an export)."""

    line: int | None = None
    path: str | None = None


@dataclass
class UnitRef:
    """A unit a datasheet links to (LEADER, LED BY): its name as printed and the faction
    namespace of the page it links to (None: the datasheet's own), or the id the source gives."""

    name: str = ""
    namespace: str | None = None
    id: str | None = None


@dataclass
class ScopedKeywords:
    """Keywords the source gives to one model only (``Cadian Commander: CHARACTER, OFFICER``)."""

    model: str
    keywords: list[str]
    at: At = field(default_factory=At)


@dataclass
class CostLine:
    """One line of the cost table, with where it was read."""

    points: Points
    at: At = field(default_factory=At)


@dataclass
class AbilityGroups:
    """The datasheet's abilities as read, by group."""

    core: list[Ability] = field(default_factory=list)
    faction: list[Ability] = field(default_factory=list)
    datasheet: list[Ability] = field(default_factory=list)
    wargear: list[Ability] = field(default_factory=list)

    def group(self, name: str) -> list[Ability]:
        """The list of the group ``core``, ``faction`` or ``wargear``; ``datasheet`` for any
        other name (a box of its own on the datasheet)."""
        groups = {"core": self.core, "faction": self.faction, "wargear": self.wargear}
        return groups.get(name, self.datasheet)


@dataclass
class DatasheetDraft:
    """What a reader read of one datasheet, before the shared rules make it a ``Datasheet``."""

    name: str
    faction: str
    sources: list[SourceRef] = field(default_factory=list)
    id: str | None = None
    """The id the source gives (two same-name units of an export); None: from faction and name."""
    base_size: str | None = None
    profiles: list[Profile] = field(default_factory=list)
    weapons: list[Weapon] = field(default_factory=list)
    abilities: AbilityGroups = field(default_factory=AbilityGroups)
    transport: str | None = None
    orders: str | None = None
    wargear_options: list[str] = field(default_factory=list)
    unit_composition: list[str] = field(default_factory=list)
    loadout: str | None = None
    costs: list[CostLine] = field(default_factory=list)
    leader: list[UnitRef] = field(default_factory=list)
    led_by: list[UnitRef] = field(default_factory=list)
    keywords: list[str] = field(default_factory=list)
    faction_keywords: list[str] = field(default_factory=list)
    scoped_keywords: list[ScopedKeywords] = field(default_factory=list)
    damaged: Damaged | None = None
    is_support: bool | None = None
    stratagems: list[str] = field(default_factory=list)
    detachment_rules: list[str] = field(default_factory=list)
    enhancements: list[str] = field(default_factory=list)


_DAMAGED = re.compile(
    r"^\s*DAMAGED\b\W*(?P<wounds>\d.*?)\s*(?:\bWOUNDS?\s+REMAINING\b.*)?$", re.IGNORECASE
)


def damaged_wounds(heading: str) -> str | None:
    """The wounds a DAMAGED heading names, as printed: ``DAMAGED: 1-5 WOUNDS REMAINING`` →
    ``1-5`` (any case: BSData's ``Damaged: 1-5 Wounds Remaining``); None for a heading that is
    no DAMAGED heading (no number of wounds after the word)."""
    found = _DAMAGED.match(heading)
    return found.group("wounds") if found else None


_PROFILE_FIELDS = frozenset({*PROFILE_CHARACTERISTICS, "invulnerable_save"})


def build_profile(
    name: str, characteristics: Mapping[str, str], invulnerable_save: Stat | None = None
) -> Profile:
    """A model profile from the texts a source prints for its characteristics, by field
    (``vocabulary.PROFILE_CHARACTERISTICS``, and ``invulnerable_save`` for a source that prints
    it as one more characteristic), each parsed by ``parse_stat``; an empty or missing text is
    no value. ``invulnerable_save``: the save as the source gives it apart (with its condition as
    note), which wins over a text of that name."""
    unknown = set(characteristics) - _PROFILE_FIELDS
    if unknown:
        raise ValueError(f"no characteristic of a model profile: {sorted(unknown)}")
    stats = {field: parse_stat(text) for field, text in characteristics.items() if text}
    if invulnerable_save is not None:
        stats["invulnerable_save"] = invulnerable_save
    return Profile(name=name, keywords=[], **stats)


def build_datasheet(draft: DatasheetDraft, report: Report) -> Datasheet:
    """The datasheet of a draft, by the rules every source shares; what a rule cannot place is
    reported, never dropped."""
    abilities, orders = _orders_out(draft.abilities.datasheet, draft.orders)
    if draft.transport:
        abilities.append(Ability(name=TRANSPORT, text=draft.transport))
    keywords = _keyword_set(draft.keywords)
    profiles = _scope_keywords(draft.profiles, draft.scoped_keywords, keywords, report)
    return Datasheet(
        id=draft.id or make_id(draft.faction, draft.name),
        name=draft.name,
        sources=draft.sources,
        faction=draft.faction,
        base_size=draft.base_size,
        profiles=profiles,
        weapons=draft.weapons,
        abilities=Abilities(
            core=draft.abilities.core,
            faction=draft.abilities.faction,
            datasheet=abilities,
            wargear=draft.abilities.wargear,
        ),
        damaged=draft.damaged,
        wargear_options=_options(draft.wargear_options),
        unit_composition=draft.unit_composition,
        loadout=draft.loadout,
        points=_points(draft.costs, report),
        leader=unit_ids(draft.leader, draft.faction),
        led_by=unit_ids(draft.led_by, draft.faction),
        orders=orders,
        keywords=sorted(keywords),
        faction_keywords=sorted(_keyword_set(draft.faction_keywords)),
        stratagems=sorted(set(draft.stratagems)),
        detachment_rules=sorted(set(draft.detachment_rules)),
        enhancements=sorted(set(draft.enhancements)),
        is_support=draft.is_support,
        variants=[],  # given: pydantic deep-copies a list default for each model
    )


def _orders_out(abilities: list[Ability], orders: str | None) -> tuple[list[Ability], str | None]:
    """The datasheet abilities without the boxes named Orders, and the orders with their text
    (after the orders the source gives apart, if it gives both)."""
    boxes = [a for a in abilities if a.name.strip().casefold() == ORDERS]
    texts = [orders, *(a.text for a in boxes)]
    kept = [a for a in abilities if not any(a is box for box in boxes)]
    return kept, "\n".join(t for t in texts if t) or None


def _options(options: list[str]) -> list[str]:
    """The wargear options; the one option "None" is none."""
    return [] if [x.strip().casefold() for x in options] == ["none"] else options


def _keyword_set(keywords: list[str]) -> set[str]:
    found = {k.strip().upper() for k in keywords}
    found.discard("")  # a blank keyword (no upper-case form of a character is empty)
    return found


def _scope_keywords(
    profiles: list[Profile], scoped: list[ScopedKeywords], unit: set[str], report: Report
) -> list[Profile]:
    """Each model's own keywords on its profile; a scope that names no single profile leaves
    its keywords on the unit (added to ``unit``), said aloud."""
    names = [profile.name.upper() for profile in profiles]
    own: dict[int, set[str]] = {}
    for model, words, at in _by_model(scoped):
        index = _profile_index(model, names)
        if index is None:
            report.warning(
                "keyword-scope",
                f"keywords {', '.join(words)} are scoped to {model!r}, which names no single "
                f"model profile of the datasheet ({', '.join(names) or 'none'}); kept on the unit",
                line=at.line,
                path=at.path,
            )
            unit.update(words)
            continue
        own.setdefault(index, set()).update(words)
    return [
        profile.model_copy(update={"keywords": sorted(_keyword_set(profile.keywords) | own[i])})
        if i in own
        else profile
        for i, profile in enumerate(profiles)
    ]


def _by_model(scoped: list[ScopedKeywords]) -> list[tuple[str, list[str], At]]:
    """The scopes by model (upper case), each keyword once in the order read, with where the
    first of them was read."""
    merged: dict[str, tuple[list[str], At]] = {}
    for scope in scoped:
        model = " ".join(scope.model.split()).upper()
        words, _ = merged.setdefault(model, ([], scope.at))
        words.extend(w for w in _upper(scope.keywords) if w not in words)
    return [(model, words, at) for model, (words, at) in merged.items()]


def _upper(keywords: list[str]) -> list[str]:
    return [k.strip().upper() for k in keywords if k.strip()]


def _profile_index(model: str, names: list[str]) -> int | None:
    """The profile a scope names: exactly, else the only one whose name it holds as whole words."""
    if model in names:
        return names.index(model)
    padded = f" {model} "
    holding = [i for i, name in enumerate(names) if name and f" {name} " in padded]
    return holding[0] if len(holding) == 1 else None


def _points(costs: list[CostLine], report: Report) -> list[Points]:
    """The cost lines; a count of models that is not certain is said."""
    for cost in costs:
        if cost.points.models is None:
            report.info(
                "cost-models",
                f"cost line {cost.points.text!r}: the number of models is not certain; models "
                "left empty",
                line=cost.at.line,
                path=cost.at.path,
            )
    return [cost.points for cost in costs]


def unit_ids(units: list[UnitRef], faction: str) -> list[str]:
    """The ids of linked units, once each and sorted: the source's own id, else the unit's name
    in the namespace of the page it links to, else in the datasheet's faction."""
    return sorted({unit.id or make_id(unit.namespace or faction, unit.name) for unit in units})
