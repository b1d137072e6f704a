"""The one bound on the numbers a source gives: a cost, a count of models or units, a
characteristic, a dice expression's parts. Every reader turns the digits it reads into a number
through here, so that no value reaches the writer that the writer cannot write (canonical JSON
holds whole numbers of 64 bits) and no number that no game value can be is passed on as one.

``MAX_GAME_VALUE`` is far above any value the rules print (in every source of ``../shared``, the
largest cost is 3,500 points, the largest characteristic 480, the most models on a cost line 22)
and far below what the writer can hold. A number beyond it, not finite (``inf``, ``nan``) or not a
number at all is no value: the functions say so with None, or ``OUT_OF_RANGE`` where the
reader tells "not a number" (a text it keeps) from "a number no game value can be" (the
``out-of-range`` diagnostic).
"""

from __future__ import annotations

import math
from typing import Final

MAX_GAME_VALUE: Final = 1_000_000
"""The largest magnitude of a cost, count or characteristic read as a number."""


class _OutOfRange:
    """The mark of a number that no game value can be (``OUT_OF_RANGE``)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "OUT_OF_RANGE"


OUT_OF_RANGE: Final = _OutOfRange()
"""What ``read_number`` gives for a number too large or not finite."""


def in_range(value: float) -> bool:
    """True for a finite number of magnitude at most ``MAX_GAME_VALUE``."""
    return math.isfinite(value) and -MAX_GAME_VALUE <= value <= MAX_GAME_VALUE


def game_int(digits: str) -> int | None:
    """A whole number printed in ``digits`` (an optional sign, then digits: ``12``, ``-1``,
    ``+2``), or None when it is no such number or beyond ``MAX_GAME_VALUE``. The digits are
    measured before they are converted: 4,000 digits are refused without being read."""
    if len(digits) < 7 and digits.isdigit() and digits.isascii():  # the common case
        return int(digits)
    text = digits.strip()
    body = text[1:] if text[:1] in "+-" else text
    if not body.isascii() or not body.isdigit() or len(body.lstrip("0")) > 7:
        return None
    value = int(text)
    return value if -MAX_GAME_VALUE <= value <= MAX_GAME_VALUE else None


def read_number(text: str) -> float | _OutOfRange | None:
    """A number as a structured source writes it (``10``, ``2.5``, ``1e2``): the number;
    ``OUT_OF_RANGE`` when it is one but beyond ``MAX_GAME_VALUE`` or not finite (``1e19``,
    ``inf``, ``nan``); None when it is not a number at all."""
    raw = text.strip()
    if len(raw) > 64:  # no number a source writes is longer; read only to tell which it is
        try:
            float(raw[:64])
        except ValueError:
            return None
        return OUT_OF_RANGE
    try:
        value = float(raw)
    except ValueError:
        return None
    return value if in_range(value) else OUT_OF_RANGE


def printed_int(text: str) -> int | None:
    """The whole number a printed cost is made of, its digits read together (``25 pts`` → 25,
    ``2CP`` → 2); None when it has no digit or is beyond ``MAX_GAME_VALUE``."""
    return game_int("".join(c for c in text if c.isascii() and c.isdigit()))
