"""Characteristics and dice expressions: ``12"``, ``2+``, ``D6+1``, ``2D6``, ``-1``, ``N/A``."""

from __future__ import annotations

import functools
import re

from wahanorm.contract.models import Dice, Stat

_DICE = re.compile(r"^(\d*)D(\d+)(?:\s*([+-])\s*(\d+))?$", re.IGNORECASE)
_NUMBER = re.compile(r"^([+-]?\d+)(\+|\"|”)?$")
_STARRED = re.compile(r"^(.*[^*\s])\s*\*+$")


def parse_dice(text: str) -> Dice | None:
    """``D6+1`` → Dice(1, 6, 1); ``2D3`` → Dice(2, 3, 0); anything else → None."""
    match = _DICE.match(text.strip())
    if not match:
        return None
    count = int(match.group(1) or 1)
    modifier = int(match.group(4) or 0) * (-1 if match.group(3) == "-" else 1)
    return Dice(count=count, sides=int(match.group(2)), modifier=modifier)


def canonical_stat_text(text: str) -> str:
    """One spelling of a characteristic: ``d6 + 1`` → ``D6+1``, ``–1`` → ``-1``, ``24”`` → ``24"``."""
    t = text.strip().replace("”", '"').replace("″", '"').replace("–", "-").replace("−", "-")
    if _DICE.match(t):
        return re.sub(r"\s+", "", t).upper()
    return t


@functools.lru_cache(maxsize=16384)
def parse_stat(text: str) -> Stat:
    """A characteristic with its typed value: a fixed number, a dice expression, or text only
    (``-``, ``N/A``); a starred value (``4*``) keeps its star in the text.
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
        return Stat(text=canonical, value=int(number.group(1)))
    return Stat(text=canonical)


def stat_from_export(text: str, suffix: str = "") -> Stat:
    """An export cell to the form the dumps print: BS_WS ``3`` → ``3+``, range ``24`` → ``24"``.
    Cells that already carry their suffix, or are not numbers, are kept as they are."""
    t = text.strip()
    if suffix and re.fullmatch(r"\d+", t):
        t += suffix
    return parse_stat(t)
