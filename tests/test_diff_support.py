"""Builders of synthetic output folders for the diff tests: real models, canonical emit."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from wahanorm.blocks.parse.stats import parse_stat
from wahanorm.contract.models import (
    Abilities,
    Ability,
    Datasheet,
    Points,
    Profile,
    SourceRef,
    Stratagem,
    Weapon,
    WeaponAbility,
)
from wahanorm.outputs.canonical import render_outputs
from wahanorm.outputs.folder import write_outputs

EFFECT = (
    "Until the end of the phase, each time a model in your unit makes an attack, re-roll a Hit "
    "roll of 1 and, if the target is within range of an objective marker you control, add 1 to "
    "the Wound roll as well."
)


def weapon(name: str, attacks: str = "9", profile: str | None = None, **kw: Any) -> Weapon:
    """A melee weapon with plain characteristics; ``kw`` overrides any field."""
    fields: dict[str, Any] = {
        "name": name,
        "profile": profile,
        "type": "melee",
        "range": parse_stat("Melee"),
        "attacks": parse_stat(attacks),
        "skill": parse_stat("2+"),
        "strength": parse_stat("8"),
        "armour_penetration": parse_stat("-2"),
        "damage": parse_stat("2"),
        "abilities": [],
    }
    fields.update(kw)
    return Weapon(**fields)


def anti(keyword: str, threshold: int) -> WeaponAbility:
    """``[ANTI-<keyword> <threshold>+]``."""
    return WeaponAbility(
        id="anti", name=f"ANTI-{keyword} {threshold}+", keyword=keyword, threshold=threshold
    )


def bloodthirster(**kw: Any) -> Datasheet:
    """A World Eaters datasheet with two weapons, a cost table, keywords and abilities."""
    fields: dict[str, Any] = {
        "id": "world-eaters/bloodthirster",
        "name": "Bloodthirster",
        "faction": "World Eaters",
        "sources": [SourceRef(path="raw/we.txt", line_start=1, line_end=40)],
        "profiles": [
            Profile(name="Bloodthirster", movement=parse_stat('10"'), toughness=parse_stat("12"))
        ],
        "weapons": [
            weapon("Lash of Khorne", "9", abilities=[anti("INFANTRY", 4)]),
            weapon("Great axe of Khorne", "6", profile="strike"),
        ],
        "abilities": Abilities(
            core=[Ability(name="Deadly Demise", parameter="D6")],
            datasheet=[Ability(name="Relentless Rage", text=EFFECT)],
        ),
        "points": [Points(models=1, points=420, text="1 model")],
        "keywords": ["MONSTER", "CHARACTER", "DAEMON"],
        "faction_keywords": ["WORLD EATERS"],
        "stratagems": ["world-eaters/blood-offering"],
    }
    fields.update(kw)
    return Datasheet(**fields)


def berzerkers(**kw: Any) -> Datasheet:
    """A second World Eaters datasheet, with a two-line cost table."""
    fields: dict[str, Any] = {
        "id": "world-eaters/khorne-berzerkers",
        "name": "Khorne Berzerkers",
        "faction": "World Eaters",
        "weapons": [weapon("Berzerker chainblade", "4")],
        "points": [
            Points(models=5, points=90, text="5 models"),
            Points(models=10, points=180, text="10 models"),
        ],
        "keywords": ["INFANTRY"],
    }
    fields.update(kw)
    return Datasheet(**fields)


def blood_offering(**kw: Any) -> Stratagem:
    """A detachment stratagem; its faction is known only through the datasheets listing it."""
    fields: dict[str, Any] = {
        "id": "world-eaters/blood-offering",
        "name": "Blood Offering",
        "cp": 1,
        "source": "Berzerker Warband",
        "category": "Strategic Ploy",
        "when": "Your Command phase.",
        "target": "One WORLD EATERS unit from your army.",
        "effect": EFFECT,
    }
    fields.update(kw)
    return Stratagem(**fields)


def base_entities() -> list[Any]:
    """The OLD side most tests edit."""
    return [bloodthirster(), berzerkers(), blood_offering()]


def write_out(folder: Path, entities: list[Any]) -> Path:
    """An output folder holding exactly ``entities`` (and its index), as ``convert`` writes it."""
    write_outputs(folder, render_outputs(entities, []))
    return folder
