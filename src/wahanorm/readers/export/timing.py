"""The export's own ``turn`` and ``phase`` columns against the timing read from WHEN.

The columns hold one turn and a list of phases (``Either player's turn`` / ``Shooting or Fight
phase``), so they cannot say "your opponent's Shooting phase or either player's Fight phase".
``compare`` says whether the two agree and, when they do not, which side looks wrong:

- ``export``: the WHEN says whose turn or which phase plainly and the columns say otherwise
  (the turn column says "Your turn", the WHEN "your opponent's Movement phase");
- ``when``: the WHEN leaves unsaid what the columns state (a bare "Fight phase" whose turn the
  column gives as "Your turn");
- ``neither``: the columns cannot hold what the WHEN says (turns that differ per phase, a WHEN
  that names a turn and no phase).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Literal

from wahanorm.blocks.parse.timing import PHASES, read_when
from wahanorm.contract.models import Timing
from wahanorm.contract.vocabulary import TURN_WORDS, Phase, Turn

_EXPORT_TURNS: dict[str, Turn] = {
    "your turn": "your",
    "opponent's turn": "opponent",
    "either player's turn": "either",
}
Suspect = Literal["export", "when", "neither"]


@dataclass(frozen=True)
class ColumnTiming:
    """The export's turn and phase columns, read: one turn, the phases or "Any phase"."""

    turn: Turn
    phases: tuple[Phase, ...]
    any_phase: bool = False

    def show(self) -> str:
        """``your turn, shooting or fight``."""
        phases = "any phase" if self.any_phase else " or ".join(self.phases) or "no phase"
        return f"{self.turn} turn, {phases}"


@dataclass(frozen=True)
class Disagreement:
    """Why the WHEN and the columns differ, and which side looks wrong."""

    suspect: Suspect
    reason: str


@functools.lru_cache(maxsize=1024)
def column_timing(turn: str, phase: str) -> ColumnTiming | None:
    """The export's ``turn`` and ``phase`` columns: ``Either player's turn``, ``Shooting or Fight
    phase`` → either, (shooting, fight); None when the turn column is not one of the three.
    (Cached: an export's 1,400 stratagems hold some 30 distinct pairs.)"""
    key = turn.strip().lower()
    if key not in _EXPORT_TURNS:
        return None
    lowered = phase.lower()
    if "any phase" in lowered:
        return ColumnTiming(_EXPORT_TURNS[key], (), any_phase=True)
    named = tuple(p for p in PHASES if re.search(rf"\b{p}\b", lowered))
    return ColumnTiming(_EXPORT_TURNS[key], named)


def show_timing(timing: Timing) -> str:
    """``your opponent's shooting, either player's fight``; ``your turn, any phase``."""
    if timing.any_phase:
        excluded = f" (excluding {', '.join(timing.excluded_phases)})"
        return f"{timing.turn} turn, any phase{excluded if timing.excluded_phases else ''}"
    if not timing.phases:
        return f"{timing.turn} turn, no phase"
    return ", ".join(f"{TURN_WORDS[p.turn]} {p.phase}" for p in timing.phases)


def compare(when: str, timing: Timing, columns: ColumnTiming) -> Disagreement | None:
    """None when the timing read from ``when`` agrees with the columns, else why not."""
    ours = tuple(p.phase for p in timing.phases)
    if timing.any_phase != columns.any_phase or (
        not timing.any_phase and set(ours) != set(columns.phases)
    ):
        return _phase_disagreement(when, timing, columns)
    if timing.turn == columns.turn:
        return None
    return _turn_disagreement(when, timing, columns)


def _phase_disagreement(when: str, timing: Timing, columns: ColumnTiming) -> Disagreement:
    if timing.any_phase:
        return Disagreement("export", f"the WHEN says any phase, the phase column {columns.show()}")
    if not timing.phases:
        named = "a turn" if read_when(when).turns else "no turn"
        return Disagreement(
            "neither", f"the WHEN names no phase (it names {named}); the columns add one"
        )
    ours = " or ".join(p.phase for p in timing.phases)
    theirs = "any phase" if columns.any_phase else " or ".join(columns.phases) or "no phase"
    return Disagreement(
        "export", f"the phase column says {theirs} but the WHEN names the {ours} phase"
    )


def _turn_disagreement(when: str, timing: Timing, columns: ColumnTiming) -> Disagreement:
    said = read_when(when)
    owners = said.phase_turns()
    per_phase = {p.turn for p in timing.phases}
    if len(per_phase) > 1 and columns.turn in per_phase:
        return Disagreement(
            "neither",
            f"one turn column cannot hold turns that differ per phase; it gives {columns.turn}",
        )
    unsaid: list[str] = [p.phase for p in timing.phases if owners.get(p.phase) is None]
    if timing.any_phase:
        unsaid = ["any"] if said.any_phase is None else []
    if unsaid:
        return Disagreement(
            "when",
            f"the WHEN does not say whose {' or '.join(unsaid)} phase; "
            f"the turn column says {columns.turn}",
        )
    return Disagreement(
        "export",
        f"the turn column says {columns.turn} but the WHEN says {TURN_WORDS[timing.turn]}",
    )
