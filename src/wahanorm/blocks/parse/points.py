"""Lines of a unit's cost table, the same in dumps, pages and the export.

11th-edition datasheets print a tier heading above the costs it governs (``YOUR UNIT COSTS``,
``YOUR 1ST TO 3RD UNITS COST``, ``YOUR 4TH + UNIT COSTS``, ``YOUR 1ST UNIT COSTS``); a cost line
is a count of models (``10 models``, ``6 models (Assigned Agent)``, ``1 Spanner and 4 Lootas``)
or an add-on to the unit's cost: a ``+`` before its cost (``Invader ATV`` / ``+60``) or its text
(``+ 1 Tidewall Defence Platform`` / ``20``), or a line under another heading
(``WARGEAR OPTIONS`` / ``per Storm Shield`` / ``5``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from wahanorm.blocks.parse.numbers import game_int
from wahanorm.contract.models import Points

_ORDINAL = r"(\d+)\s*(?:ST|ND|RD|TH)"
_TIER = re.compile(
    rf"^YOUR\s+(?:{_ORDINAL}\s*(?:(?P<plus>\+)|TO\s+{_ORDINAL})?\s*)?UNITS?\s+COSTS?:?$",
    re.IGNORECASE,
)
# "10 models", "1 Spanner and 4 Lootas", "1 Sword Brother, 9 Initiates and 10 Neophytes",
# optionally with a note in brackets ("6 models (Assigned Agent)").
_ITEM = r"\d+\s+[^\d,()]*?[^\d,()\s]"
_COUNTS = re.compile(rf"^(?P<items>{_ITEM}(?:(?:\s*,\s*|\s+and\s+){_ITEM})*)(?:\s*\([^()]*\))?$")
_NUMBER = re.compile(r"\d+")


@dataclass(frozen=True)
class Tier:
    """Which units of a datasheet in an army the costs under a tier heading apply to."""

    units_from: int
    units_to: int | None


def cost_tier(text: str) -> Tier | None:
    """``YOUR 1ST TO 3RD UNITS COST`` → Tier(1, 3); ``YOUR 4TH + UNIT COSTS`` → Tier(4, None);
    ``YOUR UNIT COSTS`` → Tier(1, None) (every unit); anything else → None."""
    match = _TIER.match(text.strip())
    if not match:
        return None
    first, plus, last = match.group(1), match.group("plus"), match.group(3)
    if first is None:
        return Tier(units_from=1, units_to=None)
    start = game_int(first)
    end = game_int(last) if last else start
    if start is None or end is None:  # a count of units no army holds: no tier heading
        return None
    if plus:
        return Tier(units_from=start, units_to=None)
    return Tier(units_from=start, units_to=end)


def model_count(text: str) -> int | None:
    """The number of models a cost line names: ``10 models`` → 10, ``1 Spanner and 4 Lootas`` →
    5, ``6 models (Assigned Agent)`` → 6; None when the line is not a list of counts (or
    counts more models than any unit holds: ``numbers.MAX_GAME_VALUE``)."""
    match = _COUNTS.match(" ".join(text.split()))
    if not match:
        return None
    counts = [game_int(n) for n in _NUMBER.findall(match.group("items"))]
    total = sum(n for n in counts if n is not None)
    return total if None not in counts and game_int(str(total)) is not None else None


def cost_line(text: str, cost: str, tier: Tier | None, add_on: bool = False) -> Points | None:
    """One cost line: ``cost`` is its printed cost (``90``, or ``+60`` for an add-on); a text
    that starts with ``+`` is an add-on too. None when the cost is not a number of points (or
    one no cost can be: ``numbers.MAX_GAME_VALUE``)."""
    cost = cost.strip()
    text = " ".join(text.split())
    signed = cost.startswith("+")
    digits = cost.removeprefix("+").strip()
    points = game_int(digits) if digits.isdigit() else None
    if points is None:
        return None
    return Points(
        models=model_count(text.removeprefix("+").strip()),
        points=points,
        # An add-on keeps its sign in the text, as the source prints it.
        text=f"{text} +{digits}" if signed else text,
        add_on=add_on or signed or text.startswith("+"),
        units_from=tier.units_from if tier else None,
        units_to=tier.units_to if tier else None,
    )


def is_heading(text: str) -> bool:
    """A heading row of a cost table: upper-case words (``YOUR UNIT COSTS``, ``WARGEAR OPTIONS``)."""
    text = text.strip()
    return any(c.isalpha() for c in text) and text == text.upper() and not text[0].isdigit()


@dataclass
class CostTable:
    """Reads a cost table row by row: a tier heading sets the units the rows under it apply to;
    another heading (``WARGEAR OPTIONS``) makes the rows under it add-ons for every unit."""

    tier: Tier | None = None
    add_ons: bool = False
    label: str | None = None
    """The label of the rows under a cost-less row that is no heading and no count (the
    export's ``AGENTS OF THE IMPERIUM Detachment`` / ``Assigned Agent`` rows), written after
    their text as the pages print it: ``6 models (Assigned Agent)``."""

    def heading(self, text: str) -> bool:
        """Take ``text`` as a heading row, if it is one."""
        tier = cost_tier(text)
        if tier is not None:
            self.tier, self.add_ons = tier, False
            return True
        if is_heading(text):
            self.tier, self.add_ons = None, True
            return True
        return False

    def labels(self, text: str) -> bool:
        """Take ``text`` (a row without a cost that is no heading) as the label of the rows
        under it, if it is no count of models (a count without a cost is a missing cost)."""
        text = " ".join(text.split())
        if not text or model_count(text.removeprefix("+").strip()) is not None:
            return False
        self.label = text
        return True

    def line(self, text: str, cost: str) -> Points | None:
        """A cost row under the current heading; None when the cost is not a number."""
        if self.label:
            text = f"{' '.join(text.split())} ({self.label})"
        return cost_line(text, cost, self.tier, self.add_ons)
