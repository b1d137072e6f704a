"""Words of the output contract that code reading entity files as plain JSON needs too (the
database, ``show``), kept here so that such code loads no pydantic (``wahanorm.models``)."""

from __future__ import annotations

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
