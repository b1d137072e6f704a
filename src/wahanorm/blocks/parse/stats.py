"""Characteristics and dice expressions: ``12"``, ``2+``, ``D6+1``, ``2D6``, ``-1``, ``N/A``."""

from __future__ import annotations

import functools
import re

from wahanorm.blocks.parse.numbers import game_int
from wahanorm.contract.models import Dice, Stat

_DICE = re.compile(r"^(\d*)D(\d+)(?:\s*([+-])\s*(\d+))?$", re.IGNORECASE)
_NUMBER = re.compile(r"^([+-]?\d+)(\+|\"|”)?$")
_STARRED = re.compile(r"^(.*[^*\s])\s*\*+$")


def parse_dice(text: str) -> Dice | None:
    """``D6+1`` → Dice(1, 6, 1); ``2D3`` → Dice(2, 3, 0); anything else → None (a part beyond
    any game value too: ``numbers.MAX_GAME_VALUE``)."""
    match = _DICE.match(text.strip())
    if not match:
        return None
    count = game_int(match.group(1) or "1")
    sides = game_int(match.group(2))
    modifier = game_int(match.group(4) or "0")
    if count is None or sides is None or modifier is None:
        return None
    return Dice(count=count, sides=sides, modifier=-modifier if match.group(3) == "-" else modifier)


def canonical_stat_text(text: str) -> str:
    """One spelling of a characteristic: ``d6 + 1`` → ``D6+1``, ``–1`` → ``-1``, ``24”`` → ``24"``."""
    t = text.strip().replace("”", '"').replace("″", '"').replace("–", "-").replace("−", "-")
    if _DICE.match(t):
        return re.sub(r"\s+", "", t).upper()
    return t


@functools.lru_cache(maxsize=16384)
def parse_stat(text: str) -> Stat:
    """A characteristic with its typed value: a fixed number, a dice expression, or text only
    (``-``, ``N/A``, and a number beyond any game value, ``numbers.MAX_GAME_VALUE``: the
    after-read chain says so); a starred value (``4*``) keeps its star in the text.
    (Cached: an export holds 65,000 characteristics and a few hundred distinct ones; a ``Stat``
    is immutable, so one object can serve them all.)"""
    canonical = canonical_stat_text(text)
    starred = _STARRED.match(canonical)
    if starred:
        # "4*": the value holds under a condition the source prints apart (see Stat.note); the
        # printed number is still the value.
        inner = parse_stat(starred.group(1))
        return inner.model_copy(update={"text": canonical})
    dice = parse_dice(canonical)
    if dice:
        return Stat(text=canonical, dice=dice)
    number = _NUMBER.match(canonical)
    if number:
        return Stat(text=canonical, value=game_int(number.group(1)))
    return Stat(text=canonical)


def out_of_range(stat: Stat) -> bool:
    """True for a characteristic printed as a number (or dice) that no game value can be: it
    kept its text and has no typed value (``parse_stat``)."""
    if stat.value is not None or stat.dice is not None:
        return False
    text = stat.text.rstrip("*").strip()
    number = _NUMBER.match(text)
    if number:
        return game_int(number.group(1)) is None
    return _DICE.match(text) is not None


def export_text(text: str, suffix: str = "") -> str:
    """An export cell in the form the dumps print: BS_WS ``3`` → ``3+``, range ``24`` → ``24"``.
    Cells that already carry their suffix, or are not numbers, are kept as they are."""
    t = text.strip()
    if suffix and re.fullmatch(r"\d+", t):
        t += suffix
    return t


def stat_from_export(text: str, suffix: str = "") -> Stat:
    """An export cell read as a characteristic (``export_text``)."""
    return parse_stat(export_text(text, suffix))
