"""Checks on what a text reader made, before anything is written: would-be entities that no
source holds (a name the length of a sentence, an id too long to be a name, a datasheet with
neither a profile nor a weapon) are errors and never entities; data a datasheet should have and
lacks (a profile, a characteristic of a profile or of a weapon) is a warning."""

from __future__ import annotations

from wahanorm.contract.models import Datasheet, Profile, Weapon
from wahanorm.contract.vocabulary import PROFILE_CHARACTERISTICS, WEAPON_CHARACTERISTICS
from wahanorm.errors import Report
from wahanorm.readers.base import Entity

MAX_NAME_WORDS = 10
"""More words than any unit, rule or stratagem name has (the longest are about seven)."""
MAX_NAME_CHARS = 70
MAX_ID_CHARS = 80


def implausible(entity: Entity) -> str | None:
    """Why this would-be entity cannot be one the source holds, or None when it can."""
    words = len(entity.name.split())
    if words > MAX_NAME_WORDS or len(entity.name) > MAX_NAME_CHARS:
        return f"a name of sentence length ({words} words, {len(entity.name)} characters)"
    if entity.name.rstrip().endswith(".") and words > 3:
        return "a name that ends like a sentence"
    if len(entity.id) > MAX_ID_CHARS:
        return f"an id of {len(entity.id)} characters"
    if isinstance(entity, Datasheet) and not entity.profiles and not entity.weapons:
        return "a datasheet with neither a model profile nor a weapon"
    return None


def keep_plausible(entities: list[Entity], report: Report) -> list[Entity]:
    """The entities that pass ``implausible``; each other one is an error with its line."""
    kept: list[Entity] = []
    for entity in entities:
        reason = implausible(entity)
        if reason is None:
            kept.append(entity)
            continue
        line = entity.sources[0].line_start if entity.sources else None
        report.error(
            "implausible-entity",
            f"{entity.kind} {entity.name[:60]!r} not kept: {reason}; the layout of this text "
            "was not understood here",
            line=line,
        )
    return kept


def report_missing_data(sheet: Datasheet, report: Report) -> None:
    """Warnings for what a datasheet shows without: a model profile, a characteristic of a
    profile, a characteristic of a weapon."""
    line = sheet.sources[0].line_start if sheet.sources else None
    if not sheet.profiles:
        report.warning(
            "profile-missing", f"datasheet {sheet.name!r} has no model profile", line=line
        )
    for profile in sheet.profiles:
        missing = _missing(profile, PROFILE_CHARACTERISTICS)
        if missing and len(missing) < len(PROFILE_CHARACTERISTICS):
            report.warning(
                "characteristic-missing",
                f"{sheet.name!r}, profile {profile.name!r}: no {', '.join(missing)}",
                line=line,
            )
    for weapon in sheet.weapons:
        missing = _missing(weapon, WEAPON_CHARACTERISTICS)
        if missing:
            report.warning(
                "weapon-characteristic-missing",
                f"{sheet.name!r}, weapon {weapon.name!r}: no {', '.join(missing)}",
                line=line,
            )


def _missing(model: Profile | Weapon, fields: tuple[str, ...]) -> list[str]:
    names = []
    for name in fields:
        stat = getattr(model, name)
        if stat is None or not stat.text.strip():
            names.append(name.replace("_", " "))
    return names
