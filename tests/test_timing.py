"""Timing read from WHEN (``fixtures/timing/when.txt``: real WHEN texts of the exports) and its
comparison with an export's own turn/phase columns."""

from __future__ import annotations

import pytest

from fixture_pairs import FIXTURES, Pair, cases
from wahanorm.blocks.parse.timing import derive_timing
from wahanorm.contract.models import Timing
from wahanorm.pipeline import read_path
from wahanorm.readers.export.timing import column_timing, compare


def _render(timing: Timing) -> list[str]:
    lines = [f"turn {timing.turn}"] + [f"{p.phase} {p.turn}" for p in timing.phases]
    if timing.any_phase:
        lines.append("any phase")
    if timing.excluded_phases:
        lines.append("excluding " + " ".join(timing.excluded_phases))
    return lines


@pytest.mark.parametrize("pair", cases("timing/when.txt"))
def test_timing_of_when(pair: Pair) -> None:
    timing = derive_timing("\n".join(pair.input))
    assert timing is not None
    assert _render(timing) == pair.expected


@pytest.mark.parametrize("when", [None, ""])
def test_no_when_no_timing(when: str | None) -> None:
    assert derive_timing(when) is None


def test_excluded_phase_is_not_a_phase() -> None:
    timing = derive_timing("Start of any phase (excluding the Command phase).")
    assert timing is not None
    assert "command" not in [p.phase for p in timing.phases]
    assert timing.excluded_phases == ["command"]


# (WHEN, export turn column, export phase column, side that looks wrong or None when they agree);
# every row is a real row of an export in ../shared/corpus, except the last two, whose columns
# are changed to show the other verdicts.
COMPARED = [
    (
        "Your opponent's Shooting phase or the Fight phase, just after an enemy unit has "
        "selected its targets.",
        "Either player's turn",
        "Shooting or Fight phase",
        None,
    ),
    ("Start of your opponents Charge phase.", "Opponent's turn", "Charge phase", None),
    ("Your Movement phase or Charge phase.", "Your turn", "Movement or Charge phase", None),
    ("Start of your opponent's Reinforcements step.", "Opponent's turn", "Movement phase", None),
    (
        "Start of any phase (excluding the Command phase).",
        "Either player's turn",
        "Any phase",
        None,
    ),
    # 10th 2025-11 export: the turn column says opponent's, the WHEN plainly says yours.
    ("Your Movement phase.", "Opponent's turn", "Movement phase", "export"),
    ("End of any of your phases, if units …", "Either player's turn", "Any phase", "export"),
    ("End of your opponent's Fight phase.", "Opponent's turn", "Charge phase", "export"),
    ("End of your opponent's turn.", "Opponent's turn", "Any phase", "neither"),
    (
        "Your opponent's Shooting phase or the Fight phase, just after an enemy unit has "
        "selected its targets.",
        "Opponent's turn",
        "Shooting or Fight phase",
        "neither",
    ),
    ("Fight phase, just after an enemy unit has fought.", "Your turn", "Fight phase", "when"),
    ("Any phase.", "Opponent's turn", "Any phase", "when"),
]


@pytest.mark.parametrize(("when", "turn", "phase", "suspect"), COMPARED)
def test_compare_with_export_columns(when: str, turn: str, phase: str, suspect: str | None) -> None:
    timing = derive_timing(when)
    columns = column_timing(turn, phase)
    assert timing is not None and columns is not None
    found = compare(when, timing, columns)
    assert (found.suspect if found else None) == suspect


def test_disagreement_names_what_the_when_says() -> None:
    when = "Your Movement phase."
    timing = derive_timing(when)
    columns = column_timing("Opponent's turn", "Movement phase")
    assert timing is not None and columns is not None
    found = compare(when, timing, columns)
    assert found is not None
    assert found.reason == "the turn column says opponent but the WHEN says your"


def test_column_without_a_turn_is_not_compared() -> None:
    assert column_timing("", 'Ability "Move"') is None


def test_export_disagreement_names_the_side() -> None:
    folder = FIXTURES / "export" / "wahapedia-10ed-2026-02-14"
    extraction = read_path(folder, folder.name)
    [found] = [d for d in extraction.report.diagnostics if d.code == "timing-disagrees"]
    assert found.message == (
        "stratagem 'SELFLESS BODYGUARD': WHEN gives your opponent's shooting, either player's "
        "fight, the export's turn/phase columns give opponent turn, shooting or fight; the "
        "columns cannot say it: one turn column cannot hold turns that differ per phase; it "
        "gives opponent"
    )
