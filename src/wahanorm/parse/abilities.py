"""Datasheet abilities: core abilities with their parameter (``Deadly Demise D6``,
``Feel No Pain 5+``, ``Scouts 6"``), and ``Name: text`` abilities with the aura flag."""

from __future__ import annotations

import re

from wahanorm.models import Ability

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
_PARAMETER = re.compile(r"^(?P<name>.+?)\s+(?P<param>\d*D\d+(?:[+-]\d+)?|\d+\+|\d+\"|\d+)$", re.I)
_AURA = re.compile(r"\s*\(Aura\)\s*$", re.I)


def parse_core_ability(text: str) -> Ability:
    """``Deadly Demise D6`` → Ability(name="Deadly Demise", parameter="D6")."""
    cleaned = re.sub(r"\s+", " ", text.strip())
    match = _PARAMETER.match(cleaned)
    if match:
        return Ability(name=match.group("name"), parameter=match.group("param").upper())
    return Ability(name=cleaned)


def split_core_list(text: str) -> list[Ability]:
    """``Deadly Demise D6, Deep Strike`` → two abilities."""
    return [parse_core_ability(part) for part in re.split(r"\s*[,;]\s*", text) if part.strip()]


def named_ability(name: str, text: str | None) -> Ability:
    """A ``Name: text`` ability; ``Name (Aura)`` sets the aura flag and drops the marker."""
    aura = bool(_AURA.search(name))
    return Ability(name=_AURA.sub("", name).strip(), text=text, aura=aura)
