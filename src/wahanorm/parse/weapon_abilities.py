"""Weapon keywords (``[ANTI-MONSTER 4+]``, ``sustained hits d3``, bare ``hazardous``) as typed
``WeaponAbility`` models, through ``grammars/weapon_abilities.lark``."""

from __future__ import annotations

import functools
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
    splits = _ability_tails(words)
    for cut in range(1, len(words)):
        if splits[cut] and not _is_weapon_noun(words, cut):
            abilities = parse_known_abilities(" ".join(words[cut:]))
            if abilities is not None:
                return " ".join(words[:cut]), abilities
    return cell, []


MAX_ABILITY_WORDS = 4
"""The longest shared weapon ability in words: ``anti-epic hero 4+``, ``sustained hits d3``."""


def _ability_tails(words: list[str]) -> list[bool]:
    """``tails[i]``: the words from ``i`` on are all shared weapon abilities. Worked out from the
    end, each ability a phrase of at most ``MAX_ABILITY_WORDS`` words, so a cell of n words
    costs n short parses, not n long ones (a name cell of thousands of words stays linear)."""
    tails = [False] * (len(words) + 1)
    tails[len(words)] = True
    for start in range(len(words) - 1, -1, -1):
        for end in range(start + 1, min(start + MAX_ABILITY_WORDS, len(words)) + 1):
            if tails[end] and _is_one_ability(" ".join(words[start:end])):
                tails[start] = True
                break
    return tails


@functools.lru_cache(maxsize=4096)
def _is_one_ability(phrase: str) -> bool:
    found = parse_known_abilities(phrase)
    return found is not None and len(found) == 1


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
