"""Weapon keywords (``[ANTI-MONSTER 4+]``, ``sustained hits d3``, bare ``hazardous``) as typed
``WeaponAbility`` models, through ``grammars/weapon_abilities.lark``."""

from __future__ import annotations

import re

from lark import Token, Transformer, v_args

from wahanorm import grammar
from wahanorm.ids import slugify
from wahanorm.models import WeaponAbility
from wahanorm.parse.stats import canonical_stat_text

_PARAM = re.compile(r"^(?P<base>.*?)\s+(?P<value>\S+)$")
_ANTI = re.compile(r"^anti-(?P<keyword>.+?)\s*(?P<threshold>\d)\+$", re.IGNORECASE)


def _spaced(text: str) -> str:
    return re.sub(r"\s+", " ", text.strip())


def _with_value(token: Token, ability_id: str) -> WeaponAbility:
    match = _PARAM.match(re.sub(r"\s*\+\s*", "+", _spaced(str(token))))
    assert match, token  # the terminal guarantees a base and a value
    value = canonical_stat_text(match.group("value").replace(" ", ""))
    base = match.group("base").upper()
    return WeaponAbility(id=ability_id, name=f"{base} {value}", value=value)


class _ToModels(Transformer[Token, list[WeaponAbility]]):
    """One method per grammar alternative, each building a ``WeaponAbility``."""

    @v_args(inline=True)
    def anti(self, token: Token) -> WeaponAbility:
        match = _ANTI.match(_spaced(str(token)))
        assert match, token
        keyword = _spaced(match.group("keyword")).upper()
        threshold = int(match.group("threshold"))
        return WeaponAbility(
            id="anti", name=f"ANTI-{keyword} {threshold}+", keyword=keyword, threshold=threshold
        )

    @v_args(inline=True)
    def sustained_hits(self, token: Token) -> WeaponAbility:
        return _with_value(token, "sustained-hits")

    @v_args(inline=True)
    def rapid_fire(self, token: Token) -> WeaponAbility:
        return _with_value(token, "rapid-fire")

    @v_args(inline=True)
    def melta(self, token: Token) -> WeaponAbility:
        return _with_value(token, "melta")

    @v_args(inline=True)
    def flag(self, token: Token) -> WeaponAbility:
        name = _spaced(str(token)).upper()
        return WeaponAbility(id=slugify(name), name=name)

    @v_args(inline=True)
    def other(self, token: Token) -> WeaponAbility:
        name = _spaced(str(token)).upper()
        return WeaponAbility(id=slugify(name), name=name)

    def ability_list(self, items: list[WeaponAbility]) -> list[WeaponAbility]:
        return list(items)

    known_list = ability_list


_TO_MODELS = _ToModels()


def parse_weapon_abilities(text: str, path: str = "", line: int = 1) -> list[WeaponAbility]:
    """All abilities of a keyword list, known or not; a list that breaks the grammar raises
    ``ParseFailure`` with its position."""
    if not text.strip():
        return []
    tree = grammar.parse("weapon_abilities", "ability_list", text, path, line)
    result: list[WeaponAbility] = _TO_MODELS.transform(tree)  # type: ignore[arg-type]
    return result


def parse_known_abilities(text: str) -> list[WeaponAbility] | None:
    """The abilities of ``text`` when every word of it is a shared weapon ability, else None."""
    try:
        tree = grammar.parser("weapon_abilities", "known_list").parse(text)
    except Exception:  # any Lark error means: not a list of known abilities
        return None
    result: list[WeaponAbility] = _TO_MODELS.transform(tree)
    return result


_BRACKETS = re.compile(r"^(?P<name>.*?)\s*\[(?P<list>[^\]]*)\]\s*$")


def split_weapon_name(cell: str, path: str = "", line: int = 1) -> tuple[str, list[WeaponAbility]]:
    """A weapon-name cell to (name, abilities): ``Lash [devastating wounds]`` by its brackets,
    ``Shokk rifle devastating wounds hazardous precision`` by the longest tail of bare words that
    are all shared weapon abilities (at least one word is left for the name)."""
    cell = _spaced(cell)
    bracketed = _BRACKETS.match(cell)
    if bracketed:
        return bracketed.group("name"), parse_weapon_abilities(
            f"[{bracketed.group('list')}]", path, line
        )
    words = cell.split(" ")
    for cut in range(1, len(words)):
        tail = " ".join(words[cut:])
        if _is_weapon_noun(words, cut):
            continue
        abilities = parse_known_abilities(tail)
        if abilities is not None:
            return " ".join(words[:cut]), abilities
    return cell, []


# Abilities that are also the nouns weapons are named by ("Bolt pistol", "Power lance"): such a
# word stays in the name unless the name before it already holds it ("Bolt pistol pistol",
# "Laspistol pistol", "Plasma pistol – standard pistol"): then it is the ability.
_WEAPON_NOUNS = frozenset({"pistol", "lance"})


def _is_weapon_noun(words: list[str], cut: int) -> bool:
    word = words[cut].lower()
    return word in _WEAPON_NOUNS and word not in " ".join(words[:cut]).lower()


def split_profile(name: str) -> tuple[str, str | None]:
    """``Axe of Khorne – strike`` → (``Axe of Khorne``, ``strike``)."""
    head, sep, profile = name.rpartition(" – ")
    if sep and head and profile:
        return head.strip(), profile.strip()
    return name, None
