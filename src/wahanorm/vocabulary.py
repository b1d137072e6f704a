"""Words of the output contract that code reading entity files as plain JSON needs too (the
database, ``show``), kept here so that such code loads no pydantic (``wahanorm.models``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from wahanorm.models import Turn

SCHEMA_VERSION = 2
"""Version of the output contract (``schema_version`` of ``index.json``): 2 added editions,
per-phase timing, cost tiers, labelled rules, detachments (see the README); ``migrate`` reads
version 1 outputs as version 2."""

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

TURN_WORDS: dict[Turn, str] = {
    "your": "your",
    "opponent": "your opponent's",
    "either": "either player's",
}
"""Each ``models.Turn`` in words, as they stand before a phase: ``your opponent's`` Shooting
phase."""
