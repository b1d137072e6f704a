"""Datasheet abilities: core abilities with their parameter (``Deadly Demise D6``,
``Feel No Pain 5+``, ``Scouts 6"``), and ``Name: text`` abilities with the aura flag."""

from __future__ import annotations

import functools
import re

from wahanorm.contract.models import Ability
from wahanorm.errors import ParseFailure

# The core abilities a datasheet may list, with the kind of parameter each takes.
CORE_ABILITIES: dict[str, str | None] = {
    "deadly demise": "dice",
    "deep strike": None,
    "feel no pain": "roll",
    "fights first": None,
    "firing deck": "number",
    "hover": None,
    "infiltrators": None,
    "leader": None,
    "lone operative": None,
    "scouts": "distance",
    "stealth": None,
    "support": None,
}
_AURA = re.compile(r"\s*(?:\(Aura\)|\[Aura\])\s*$", re.I)
_AURA_GROUP = re.compile(
    r"(?:\((?:[^)]*,\s*)?Aura\b[^)]*\)|\[(?:[^\]]*,\s*)?Aura\b[^\]]*\])\s*$", re.I
)


@functools.lru_cache(maxsize=4096)
def parse_core_ability(text: str) -> Ability:
    """``Deadly Demise D6`` → Ability(name="Deadly Demise", parameter="D6"); once per text (the
    same few names recur on every datasheet, and models are immutable: sharing them is safe)."""
    abilities = split_core_list(text)
    return abilities[0] if len(abilities) == 1 else Ability(name=re.sub(r"\s+", " ", text.strip()))


def split_core_list(text: str) -> list[Ability]:
    """``Deadly Demise D6, Deep Strike`` → two abilities, through the datasheet grammar. A list
    the grammar cannot read (an ability name of an unexpected shape) keeps each item whole as a
    name, so no ability is lost; ``parse_core_abilities`` raises instead, for callers that report."""
    from wahanorm.blocks.parse.datasheet_lines import parse_core_abilities

    try:
        return parse_core_abilities(text)
    except ParseFailure:
        return [Ability(name=p.strip()) for p in re.split(r"\s*[,;]\s*", text) if p.strip()]


def named_ability(name: str, text: str | None) -> Ability:
    """A ``Name: text`` ability. ``Name (Aura)`` (BSData also ``Name [Aura]``) sets the aura
    flag and drops the marker; a group such as ``Onslaught (Aura, Psychic)`` sets it too and
    keeps the name as printed."""
    aura = bool(_AURA_GROUP.search(name))
    return Ability(name=_AURA.sub("", name).strip(), text=text, aura=aura)
