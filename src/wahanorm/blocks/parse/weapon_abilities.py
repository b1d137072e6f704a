"""Weapon keywords (``[ANTI-MONSTER 4+]``, ``sustained hits d3``, bare ``hazardous``) as typed
``WeaponAbility`` models, through ``grammars/weapon_abilities.lark``."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

from lark import Token, Transformer, v_args

from wahanorm.blocks import grammar
from wahanorm.blocks.parse.numbers import game_int
from wahanorm.blocks.parse.stats import canonical_stat_text
from wahanorm.contract.ids import slugify
from wahanorm.contract.models import WeaponAbility
from wahanorm.errors import BatchMemo, ParseFailure, Report

_PARAM = re.compile(r"^(?P<base>.*?)\s+(?P<value>\S+)$")
_ANTI = re.compile(r"^anti-(?P<keyword>.+?)\s*(?P<threshold>\d)\+$", re.IGNORECASE)
_HYPHEN_PROFILE = re.compile(r"^(?P<name>.+\S) - (?P<profile>[^-–]+)$")
"""A profile set off by a hyphen where the rules print an en dash (the export's ``Gork's Klaw
- sweep``, BSData's ``Plasma gun - standard``): the profile itself holds no dash."""


def _spaced(text: str) -> str:
    return re.sub(r"\s+", " ", text.strip())


@dataclass(frozen=True)
class AbilityList:
    """A parsed keyword list: its abilities, and the names of those the grammar does not know
    (a faction's own ability, or a shared one spelt in a way the grammar does not read)."""

    abilities: tuple[WeaponAbility, ...]
    unknown: tuple[str, ...] = ()


class _ToModels(Transformer[Token, object]):
    """One method per grammar alternative, each building a ``WeaponAbility`` (an item of an
    ``ability_list`` is a pair: the ability and whether the grammar knows it)."""

    @v_args(inline=True)
    def anti(self, token: Token) -> WeaponAbility:
        match = _ANTI.match(_spaced(str(token)))
        assert match, token
        keyword = _spaced(match.group("keyword")).upper()
        printed = match.group("threshold")
        threshold = game_int(printed)  # None: a roll no die gives (kept in the name only)
        return WeaponAbility(
            id="anti",
            name=f"ANTI-{keyword} {threshold if threshold is not None else printed}+",
            keyword=keyword,
            threshold=threshold,
        )

    @v_args(inline=True)
    def valued(self, token: Token) -> WeaponAbility:
        match = _PARAM.match(re.sub(r"\s*\+\s*", "+", _spaced(str(token))))
        assert match, token  # the terminal guarantees a base and a value
        value = canonical_stat_text(match.group("value").replace(" ", ""))
        base = match.group("base").upper()
        return WeaponAbility(id=slugify(base), name=f"{base} {value}", value=value)

    @v_args(inline=True)
    def flag(self, token: Token) -> WeaponAbility:
        name = re.sub(r"^CLOSE[\s-]+QUARTERS$", "CLOSE-QUARTERS", _spaced(str(token)).upper())
        return WeaponAbility(id=slugify(name), name=name)

    @v_args(inline=True)
    def condition(self, token: Token) -> str:
        return _spaced(str(token))

    @v_args(inline=True)
    def conditional(
        self, ability: WeaponAbility, condition: str | None = None
    ) -> tuple[WeaponAbility, bool]:
        if condition is None:
            return ability, True
        return ability.model_copy(update={"condition": condition}), True

    @v_args(inline=True)
    def other(self, token: Token, condition: str | None = None) -> tuple[WeaponAbility, bool]:
        name = _spaced(str(token)).upper()
        return WeaponAbility(id=slugify(name), name=name, condition=condition), False

    def ability_list(self, items: list[tuple[WeaponAbility, bool]]) -> AbilityList:
        return AbilityList(
            abilities=tuple(ability for ability, _ in items),
            unknown=tuple(dict.fromkeys(ability.name for ability, known in items if not known)),
        )

    def known_list(self, items: list[WeaponAbility | tuple[WeaponAbility, bool]]) -> AbilityList:
        return AbilityList(abilities=tuple(x[0] if isinstance(x, tuple) else x for x in items))


_TO_MODELS = _ToModels()


_KEPT_LISTS: BatchMemo[str, AbilityList] = BatchMemo(16384)
"""``parse_ability_list``'s memo: the same keyword list recurs on every datasheet of a weapon
(thousands of rows of an export, every page dump of a batch), and is parsed once. A list that
breaks the grammar is never kept: its ``ParseFailure`` carries the position of each place."""
_KEPT_KNOWN: BatchMemo[str, tuple[tuple[WeaponAbility, ...] | None]] = BatchMemo(16384)
"""``parse_known_abilities``'s memo (a weapon's name cell recurs on every page that arms it),
its value in a one-tuple: None (not a list of known abilities) is kept too."""


def parse_ability_list(text: str, path: str = "", line: int = 1) -> AbilityList:
    """All abilities of a keyword list, known or not, with the names the grammar does not know;
    a list that breaks the grammar raises ``ParseFailure`` with its position. (The result is
    shared between the places that print the same list: it is immutable.)"""
    known = _KEPT_LISTS.get(text)
    if known is not None:
        return known
    if not text.strip():
        return AbilityList(abilities=())
    items = _comma_items(text)
    if items is None:
        result = _parse_whole(text, path, line)
    else:
        result = AbilityList(
            abilities=tuple(ability for item in items for ability in item.abilities),
            unknown=tuple(dict.fromkeys(name for item in items for name in item.unknown)),
        )
    _KEPT_LISTS.keep(text, result)
    return result


def _parse_whole(text: str, path: str, line: int) -> AbilityList:
    """The list by the grammar, as one."""
    tree = grammar.parse("weapon_abilities", "ability_list", text, path, line)
    result = _TO_MODELS.transform(tree)  # type: ignore[arg-type]
    assert isinstance(result, AbilityList)
    return result


_ITEM_EDGES = ".;"
"""The grammar's separators other than the comma: an item that ends with one before a comma
("torrent., lethal hits") is two separators in a row, which the whole list does not take."""


def _comma_items(text: str) -> list[AbilityList] | None:
    """A comma list cut at its commas, each distinct item parsed by the grammar once (the
    sources repeat a few hundred items in thousands of lists); None where the cut could read
    otherwise than the whole list does, or an item breaks the grammar, and the whole list is
    parsed as one. No terminal of the grammar holds a comma, so the list's tokens are its
    items' tokens with a separator between each two; an item cannot differ from its place in the
    list but at the list's edges (brackets, the lone dash of "no abilities", an empty item, a
    second separator), and those take the whole parse."""
    if "," not in text or "[" in text or "]" in text:
        return None
    pieces = [piece.strip() for piece in text.split(",")]
    if any(not piece or piece == "-" for piece in pieces[:-1]) or pieces[-1] == "-":
        return None
    if any(piece[-1] in _ITEM_EDGES for piece in pieces[:-1]):
        return None
    items = []
    for piece in pieces:
        if not piece:  # a final comma: the grammar takes a separator at the end
            continue
        item = _item(piece)
        if item is None:
            return None
        items.append(item)
    return items


def _item(piece: str) -> AbilityList | None:
    """One item of a comma list (no comma in it: the grammar reads it whole, kept in the same
    memo as a list); None when it breaks the grammar (the whole list then says where)."""
    try:
        return parse_ability_list(piece)
    except ParseFailure:
        return None


def report_unknown(
    unknown: Iterable[str],
    weapon: str,
    report: Report,
    line: int | None,
    path: str | None = None,
) -> None:
    """An info for each ability of ``weapon`` the grammar does not know (``AbilityList.unknown``),
    once per name and input (``Report.first_time``)."""
    for name in unknown:
        if report.first_time("unknown-weapon-ability", name):
            report.info(
                "unknown-weapon-ability",
                f"weapon {weapon!r}: ability {name!r} is none the grammar knows; kept whole "
                "(reported once per name)",
                line,
                path=path,
            )


def parse_weapon_abilities(text: str, path: str = "", line: int = 1) -> list[WeaponAbility]:
    """All abilities of a keyword list, known or not; a list that breaks the grammar raises
    ``ParseFailure`` with its position."""
    return list(parse_ability_list(text, path, line).abilities)


def parse_known_abilities(text: str) -> list[WeaponAbility] | None:
    """The abilities of ``text`` when every word of it is a shared weapon ability, else None."""
    kept = _KEPT_KNOWN.get(text)
    if kept is None:
        kept = (known_abilities(text),)
        _KEPT_KNOWN.keep(text, kept)
    return None if kept[0] is None else list(kept[0])


def known_abilities(text: str) -> tuple[WeaponAbility, ...] | None:
    """``parse_known_abilities`` read by Lark, without the memo."""
    try:
        tree = grammar.parser("weapon_abilities", "known_list").parse(text)
    except Exception:  # any Lark error means: not a list of known abilities
        return None
    result = _TO_MODELS.transform(tree)
    assert isinstance(result, AbilityList)
    return result.abilities


_BRACKETS = re.compile(r"^(?P<name>.*?)\s*\[(?P<list>[^\]]*)\]\s*$")


def split_weapon_name(cell: str, path: str = "", line: int = 1) -> tuple[str, list[WeaponAbility]]:
    """A weapon-name cell to (name, abilities); see ``split_weapon_cell``."""
    name, found = split_weapon_cell(cell, path, line)
    return name, list(found.abilities)


def split_weapon_cell(cell: str, path: str = "", line: int = 1) -> tuple[str, AbilityList]:
    """A weapon-name cell to (name, abilities): ``Lash [devastating wounds]`` by its brackets,
    ``Shokk rifle devastating wounds hazardous precision`` by the longest tail of bare words that
    are all shared weapon abilities (at least one word is left for the name)."""
    cell = _spaced(cell)
    bracketed = _BRACKETS.match(cell)
    if bracketed:
        return bracketed.group("name"), parse_ability_list(
            f"[{bracketed.group('list')}]", path, line
        )
    words = cell.split(" ")
    splits = _ability_tails(words)
    for cut in range(1, len(words)):
        if splits[cut] and not _is_weapon_noun(words, cut):
            abilities = parse_known_abilities(" ".join(words[cut:]))
            if abilities is not None:
                return " ".join(words[:cut]), AbilityList(abilities=tuple(abilities))
    return cell, AbilityList(abilities=())


MAX_ABILITY_WORDS = 8
"""The longest shared weapon ability in words: ``anti-epic hero 4+``, ``sustained hits d3``,
and with a condition ``lethal hits: non-MONSTER / VEHICLE`` (room for a longer one)."""


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


def _is_one_ability(phrase: str) -> bool:
    """(``parse_known_abilities`` keeps its readings: this is not one more memo of them.)"""
    found = parse_known_abilities(phrase)
    return found is not None and len(found) == 1


# Abilities that are also the nouns weapons are named by ("Bolt pistol", "Power lance"): such a
# word stays in the name unless the name before it already holds it ("Bolt pistol pistol",
# "Laspistol pistol", "Plasma pistol – standard pistol"): then it is the ability.
_WEAPON_NOUNS = frozenset({"pistol", "lance"})


def _is_weapon_noun(words: list[str], cut: int) -> bool:
    word = words[cut].lower()
    return word in _WEAPON_NOUNS and word not in " ".join(words[:cut]).lower()


class ProfileSplit(NamedTuple):
    """A weapon's name and the profile its name ends in (None when it names none)."""

    name: str
    profile: str | None
    hyphen: bool = False
    """True when a hyphen set the profile off, not the en dash the rules print."""


def split_profile(name: str, hyphen: bool = False) -> ProfileSplit:
    """``Axe of Khorne – strike`` → (``Axe of Khorne``, ``strike``); with ``hyphen`` (a source
    that writes a hyphen for the dash) also ``Gork's Klaw - sweep`` → (``Gork's Klaw``,
    ``sweep``), when the profile holds no dash of its own."""
    head, sep, profile = name.rpartition(" – ")
    if sep and head and profile:
        return ProfileSplit(head.strip(), profile.strip())
    if hyphen and (match := _HYPHEN_PROFILE.match(name)):
        return ProfileSplit(match.group("name"), match.group("profile"), hyphen=True)
    return ProfileSplit(name, None)
