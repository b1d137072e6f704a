"""The one weapon assembly that every reader of datasheets calls.

A reader fills a ``WeaponDraft`` with what its source prints of one weapon profile, in the
source's own terms: the name as printed (``Axe of Khorne – strike``, ``Plasma gun - standard``),
either with the ability list in it (a text dump's name cell, ``Lash [devastating wounds]``) or
with the ability texts apart (a page's keyword spans, an export's ``description`` column, a
BSData ``Keywords`` characteristic), the six characteristic texts in printed order
(``vocabulary.WEAPON_CHARACTERISTICS``) and the type. ``build_weapon`` turns it into a
``Weapon`` and holds, once, the rules every source shares:

- the profile is split from the name at a dash (``– strike``); a source that writes a hyphen for
  the dash (``draft.hyphen``) is split at a hyphen too, said aloud (``hyphen-profile``);
- each characteristic is parsed by ``parse_stat`` (an empty text stays an empty ``Stat``: the
  after-read chain says it is missing);
- the ability list is parsed by the weapon-ability grammar; a list that does not parse is left
  out, said aloud (``weapon-abilities``), and an ability the grammar does not know is kept whole,
  said once per name (``unknown-weapon-ability``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from wahanorm.blocks.datasheet import At
from wahanorm.blocks.parse.stats import parse_stat
from wahanorm.blocks.parse.weapon_abilities import (
    AbilityList,
    parse_ability_list,
    report_unknown,
    split_profile,
    split_weapon_cell,
)
from wahanorm.contract.models import Weapon, WeaponAbility
from wahanorm.contract.vocabulary import WEAPON_CHARACTERISTICS
from wahanorm.errors import ParseFailure, Report

WeaponType = Literal["ranged", "melee"]


@dataclass
class AbilityText:
    """One ability list as the source prints it apart from the name, with where it was read
    (a page prints each ability in a span of its own, on its own line)."""

    text: str
    at: At = field(default_factory=At)


@dataclass
class WeaponDraft:
    """What a reader read of one weapon profile, before the shared rules make it a ``Weapon``."""

    name: str
    """The name as printed, with its profile (and, when ``abilities`` is None, its abilities)."""
    type: WeaponType
    characteristics: Sequence[str]
    """The six characteristic texts, in the order of ``WEAPON_CHARACTERISTICS``."""
    abilities: list[AbilityText] | None = None
    """The ability lists printed apart from the name; None: the name cell holds them."""
    hyphen: bool = False
    """The source writes a hyphen for the dash between name and profile."""
    at: At = field(default_factory=At)


def build_weapon(draft: WeaponDraft, report: Report) -> Weapon | None:
    """The weapon of a draft, by the rules every source shares; None only for a name cell whose
    ability list does not parse (said: ``weapon-abilities``)."""
    if len(draft.characteristics) != len(WEAPON_CHARACTERISTICS):
        raise ValueError(f"a weapon has {len(WEAPON_CHARACTERISTICS)} characteristics")
    at = draft.at
    found: AbilityList | None = None
    label = draft.name
    if draft.abilities is None:
        try:
            label, found = split_weapon_cell(draft.name, at.path or "", at.line or 1)
        except ParseFailure as failure:
            _not_parsed(draft.name, draft.name, failure, at, report)
            return None
    name, profile, hyphen = split_profile(label, hyphen=draft.hyphen)
    if hyphen:
        report.info(
            "hyphen-profile",
            f"weapon {label!r}: profile separated by a hyphen; read as {name!r} – {profile!r}",
            line=at.line,
            path=at.path,
        )
    if found is not None:
        abilities = _known(found, label, at, report)
    else:
        abilities = []
        for piece in draft.abilities or ():
            abilities.extend(_ability_list(piece, label, report))
    stats = dict(zip(WEAPON_CHARACTERISTICS, map(parse_stat, draft.characteristics), strict=True))
    return Weapon(name=name, profile=profile, type=draft.type, abilities=abilities, **stats)


def _ability_list(piece: AbilityText, weapon: str, report: Report) -> list[WeaponAbility]:
    at = piece.at
    try:
        found = parse_ability_list(piece.text, at.path or "", at.line or 1)
    except ParseFailure as failure:
        _not_parsed(weapon, piece.text, failure, at, report)
        return []
    return _known(found, weapon, at, report)


def _known(found: AbilityList, weapon: str, at: At, report: Report) -> list[WeaponAbility]:
    report_unknown(found.unknown, weapon, report, at.line, at.path)
    return list(found.abilities)


def _not_parsed(weapon: str, text: str, failure: ParseFailure, at: At, report: Report) -> None:
    report.error(
        "weapon-abilities",
        f"weapon {weapon!r}: abilities {text!r} do not parse ({failure.message}); left out",
        line=at.line if at.line is not None else failure.line,
        path=at.path,
        excerpt=failure.excerpt,
    )
