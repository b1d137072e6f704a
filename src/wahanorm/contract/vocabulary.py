"""Words of the output contract that code reading entity files as plain JSON needs too (the
database, ``show``), kept here so that such code loads no pydantic (``wahanorm.models``)."""

from __future__ import annotations

from typing import Any, Literal, get_args

SCHEMA_VERSION = 3
"""Version of the output contract (``schema_version`` of ``index.json``): 2 added editions,
per-phase timing, cost tiers, labelled rules, detachments; 3 added the shape of rules text
(paragraphs and nested lists, modes with their extra cost, commentary apart, a stratagem's
sections) (see the README); ``migrate`` reads version 1 and 2 outputs as version 3."""

PROFILE_CHARACTERISTICS = (
    "movement",
    "toughness",
    "save",
    "wounds",
    "leadership",
    "objective_control",
)
"""The characteristics every model profile prints (fields of ``models.Profile``), in printed
order; the invulnerable save, which not every model has, is not among them."""

WEAPON_CHARACTERISTICS = ("range", "attacks", "skill", "strength", "armour_penetration", "damage")
"""The characteristics of a weapon (fields of ``models.Weapon``), in printed order."""

Kind = Literal["datasheet", "stratagem", "detachment", "detachment_rule", "enhancement", "rule"]
"""The kinds of entity, one folder of ``out/<edition>ed/`` each."""

KINDS: tuple[Kind, ...] = get_args(Kind)
"""The kinds, in this order (the order of ``index.json``, of reports and of the schema)."""

Edition = Literal[10, 11]
"""The game's edition a rules text belongs to: 10th (2023) or 11th (June 2026)."""

Phase = Literal["command", "movement", "shooting", "charge", "fight"]
"""A phase of a battle round, in the order of the game."""

Turn = Literal["your", "opponent", "either"]
"""Whose turn: the player's own, the opponent's, or either."""


def kind_words(kind: str, count: int | None = None) -> str:
    """A kind as a player reads it, with a count when given: ``detachment rule``,
    ``1 datasheet``, ``10 detachment rules``."""
    words = kind.replace("_", " ")
    if count is None:
        return words
    return f"{count} {words}" if count == 1 else f"{count} {words}s"


EDITIONS: tuple[Edition, ...] = get_args(Edition)
"""The editions of the game the contract knows."""

CURRENT_EDITION = 11
"""The game's current edition (June 2026): what a view shows when an id is in both editions and
the user does not say which."""


def edition_name(edition: int) -> str:
    """An edition in words: ``10th edition``."""
    return f"{edition}th edition"


def ability_title(ability: dict[str, Any]) -> str:
    """An ability with its parameter, as a datasheet prints it: ``Deadly Demise D6``."""
    return " ".join(str(p) for p in (ability.get("name"), ability.get("parameter")) if p)


CHARACTERISTIC_ABBREVIATIONS = {
    "movement": "M",
    "toughness": "T",
    "save": "Sv",
    "wounds": "W",
    "leadership": "Ld",
    "objective_control": "OC",
    "invulnerable_save": "Invuln",
    "range": "Range",
    "attacks": "A",
    "strength": "S",
    "armour_penetration": "AP",
    "damage": "D",
}
"""Each characteristic as a datasheet's column heads it (a weapon's skill: ``skill_abbreviation``)."""

CHARACTERISTIC_NAMES = {
    "movement": "Movement",
    "toughness": "Toughness",
    "save": "Save",
    "wounds": "Wounds",
    "leadership": "Leadership",
    "objective_control": "Objective Control",
    "invulnerable_save": "Invulnerable Save",
    "range": "Range",
    "attacks": "Attacks",
    "strength": "Strength",
    "armour_penetration": "Armour Penetration",
    "damage": "Damage",
}
"""Each characteristic by its whole name, as the rules name it in a sentence (a weapon's skill:
``skill_name``)."""

PROFILE_LABELS: dict[str, str] = {
    CHARACTERISTIC_ABBREVIATIONS[name].upper(): name for name in PROFILE_CHARACTERISTICS
}
"""Each model characteristic by the label a source prints for it, in capitals and in printed
order (``M T SV W LD OC``): the one map every reader looks a label up in (its text upper-cased;
BSData's ``Sv`` of 11th edition is ``SV``)."""

INVULNERABLE_LABELS: dict[str, str] = {
    label: "invulnerable_save" for label in ("INV", "INVULNERABLE SAVE", "INSV")
}
"""The labels of a model's invulnerable save, in capitals: a dump's ``INV`` or ``INVULNERABLE
SAVE``, BSData's 11th-edition ``InSv``."""

WEAPON_LABELS: dict[str, str] = {
    **{
        CHARACTERISTIC_ABBREVIATIONS[name].upper(): name
        for name in WEAPON_CHARACTERISTICS
        if name != "skill"
    },
    "BS": "skill",
    "WS": "skill",
}
"""Each weapon characteristic by the label a source prints for it, in capitals (``RANGE A BS S
AP D``; a melee weapon's ``WS``): its skill by either (``skill_abbreviation``)."""


def skill_abbreviation(weapon_type: object) -> str:
    """A weapon's skill as its column heads it: ``WS`` for a melee weapon, else ``BS``."""
    return "WS" if weapon_type == "melee" else "BS"


def skill_name(weapon_type: object) -> str:
    """A weapon's skill by its whole name: Weapon Skill (melee) or Ballistic Skill."""
    return "Weapon Skill" if weapon_type == "melee" else "Ballistic Skill"


TURN_WORDS: dict[Turn, str] = {
    "your": "your",
    "opponent": "your opponent's",
    "either": "either player's",
}
"""Each ``models.Turn`` in words, as they stand before a phase: ``your opponent's`` Shooting
phase."""


def timing_text(timing: dict[str, Any] | None) -> str:
    """A stratagem's timing as words, whose turn for each phase: ``your opponent's Shooting
    phase or either player's Fight phase``; ``any phase (excluding Command)``."""
    if not timing:
        return ""
    turn = TURN_WORDS.get(timing["turn"], timing["turn"])
    if timing.get("any_phase"):
        excluded = ", ".join(p.title() for p in timing.get("excluded_phases", []))
        return f"{turn} turn: any phase" + (f" (excluding {excluded})" if excluded else "")
    named = [
        f"{TURN_WORDS.get(p['turn'], p['turn'])} {p['phase'].title()} phase"
        for p in timing["phases"]
    ]
    return " or ".join(named) or f"{turn} turn"


def weapon_title(weapon: dict[str, Any]) -> str:
    """A weapon with its profile, as the rules print it: ``Axe of Khorne – strike``."""
    name = str(weapon.get("name"))
    return f"{name} – {weapon['profile']}" if weapon.get("profile") else name


def units_text(points: dict[str, Any]) -> str:
    """Which units of a datasheet a cost line is for: ``units 1-3``, ``units 4+``, ``unit 2``;
    empty for a line without a tier or for every unit (``YOUR UNIT COSTS``)."""
    first, last = points.get("units_from"), points.get("units_to")
    if first is None or (first == 1 and last is None):
        return ""
    if last is None:
        return f"units {first}+"
    return f"unit {first}" if first == last else f"units {first}-{last}"


def cost_text(points: dict[str, Any]) -> str:
    """A cost line as a player names it: ``10 models``, ``10 models, units 4+``."""
    what = str(points.get("text") or points.get("models"))
    units = units_text(points)
    return f"{what}, {units}" if units else what


def mode_title(mode: dict[str, Any]) -> str:
    """A mode with its extra cost, as the rules text prints it: ``Into the Fray [+1CP]``."""
    name = str(mode.get("name"))
    return f"{name} [{mode['cost']}]" if mode.get("cost") else name
