"""Weapon rows and CORE ability lists of a dump's datasheet, through ``grammars/datasheet.lark``."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from lark import Token, Transformer, v_args

from wahanorm.blocks import grammar
from wahanorm.blocks.parse.stats import parse_stat
from wahanorm.contract.models import Ability, Stat


@dataclass
class WeaponRow:
    """A weapon row: the name cell (abilities not yet split off) and six characteristics."""

    name_cell: str
    range: Stat
    attacks: Stat
    skill: Stat
    strength: Stat
    armour_penetration: Stat
    damage: Stat

    def stats(self) -> tuple[Stat, ...]:
        """The six characteristics in the order the row prints them."""
        return (
            self.range,
            self.attacks,
            self.skill,
            self.strength,
            self.armour_penetration,
            self.damage,
        )


class _Build(Transformer[Token, object]):
    """One method per rule; characteristics keep their printed text beside the typed value."""

    @v_args(inline=True)
    def _stat(self, token: Token) -> Stat:
        return parse_stat(str(token))

    range = attacks = skill = strength = ap = damage = _stat

    def weapon_row(self, items: list[object]) -> WeaponRow:
        name, *stats = items
        return WeaponRow(str(name).strip(), *stats)  # type: ignore[arg-type]

    def core_ability(self, items: list[Token]) -> Ability:
        parameter = str(items[1]).upper() if len(items) > 1 else None
        return Ability(name=str(items[0]).strip(), parameter=parameter)

    def core_abilities(self, items: list[Ability]) -> list[Ability]:
        return list(items)


_BUILD = _Build()


def parse_weapon_row(text: str, path: str = "", line: int = 1) -> WeaponRow:
    """``| Lash of Khorne | 12" | 9 | 2+ | 8 | -1 | 2 | |`` → WeaponRow; raises ParseFailure."""
    found = _row_pattern().fullmatch(text)
    if found is not None:  # the grammar's reading without Lark (a test holds the two equal)
        name, *cells = found.groups()
        return WeaponRow(name.strip(), *(parse_stat(cell) for cell in cells))
    row = grammar.parse("datasheet", "weapon_row", text, path, line, _BUILD)
    assert isinstance(row, WeaponRow)
    return row


WEAPON_COLUMNS: tuple[tuple[str, ...], ...] = (
    ("WEAPON_NAME",),
    ("DISTANCE", "MELEE", "NA"),
    ("DICE", "NUMBER", "NA"),
    ("ROLL", "NA"),
    ("DICE", "NUMBER", "NA"),
    ("SIGNED", "NA"),
    ("DICE", "NUMBER", "NA"),
)
"""The terminals each cell of ``weapon_row`` can hold, in the order the contextual lexer tries
them (higher priority first: ``DICE.2`` before ``NUMBER``)."""


@functools.cache
def _row_pattern() -> re.Pattern[str]:
    """The ``weapon_row`` rule as one pattern made of the grammar's own terminals: a cell is the
    first of its terminals that matches (an atomic group: the lexer never takes a token back),
    white space (``%ignore``) around every bar. A row it matches, Lark reads the same way; any
    other row goes to Lark, which reads it or fails with its caret."""
    terminals = grammar.parser("datasheet", "weapon_row").terminals  # Lark's cache keeps it
    regexps = {t.name: t.pattern.to_regexp() for t in terminals}
    cells = [
        "(?>" + "|".join(f"(?:{regexps[name]})" for name in names) + ")" for names in WEAPON_COLUMNS
    ]
    return re.compile(r"\s*\|" + "".join(rf"\s*({cell})\s*\|" for cell in cells) + r"(?:\s*\|)?\s*")


def parse_core_abilities(text: str, path: str = "", line: int = 1) -> list[Ability]:
    """``Deadly Demise D6, Deep Strike`` → two abilities; raises ParseFailure."""
    abilities = grammar.parse("datasheet", "core_abilities", text, path, line, _BUILD)
    assert isinstance(abilities, list)
    return abilities
