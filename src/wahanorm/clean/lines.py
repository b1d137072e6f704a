"""A numbered line of input text."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Line:
    """One line of text and the 1-based number of the input line it came from."""

    number: int
    text: str
