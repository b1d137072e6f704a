"""A numbered line of input text."""

from __future__ import annotations

from typing import NamedTuple


class Line(NamedTuple):
    """One line of text and the 1-based number of the input line it came from. (A named tuple:
    the clean passes make hundreds of thousands of them, and a tuple is the cheapest to make.)"""

    number: int
    text: str
