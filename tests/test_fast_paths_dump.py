"""The fast paths of the dump reader (issue 20) give what the patterns and grammars they stand
for give, on every line of the committed dumps and of the shared inputs in ../shared.

- ``glued.glue_points``: the stops found by ``str.find`` and tested one by one cut a line where
  the splits of ``_GLUED_SENTENCE`` and ``_GLUED_BULLET`` cut it;
- ``datasheet_lines.parse_weapon_row``: one pattern of the grammar's terminals reads a row as
  ``grammars/datasheet.lark`` does (Lark for any row it does not match);
- ``timing.read_when``: the tokens taken with the white space before them, the words that say
  nothing skipped, read a WHEN as the plain token walk does;
- the holes after a word in capitals: a pattern without its opening ``\\b`` and the word's start
  tested apart find what the ``\\b`` pattern finds.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import wahanorm
from recorded import first_arguments
from wahanorm import pipeline
from wahanorm.blocks import edition, grammar
from wahanorm.blocks.clean import glued
from wahanorm.blocks.parse import datasheet_lines, timing
from wahanorm.errors import BatchMemo, ParseFailure
from wahanorm.readers.dump import datasheet as dump_datasheet
from wahanorm.readers.dump import read as dump_read

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
SHARED_DUMPS = [SHARED / "seeds", SHARED / "textcontent-dumps"]
needs_shared = pytest.mark.skipif(
    not SHARED.is_dir(), reason=f"the shared inputs are not here ({SHARED} is absent)"
)


def dump_lines(folders: list[Path]) -> list[str]:
    """Every line (stripped) of every text file below ``folders``."""
    lines: list[str] = []
    for folder in folders:
        for path in sorted(folder.rglob("*.txt")):
            lines.extend(x.strip() for x in path.read_text(encoding="utf-8").splitlines())
    return lines


def committed_lines() -> list[str]:
    return dump_lines([REPO / "raw", REPO / "tests" / "fixtures"])


# ---- glued headings ---------------------------------------------------------------------------


def pattern_split(text: str) -> list[str]:
    """A line cut by the two patterns' splits (the way the pass read it before)."""
    chunks = glued._GLUED_SENTENCE.split(text)
    parts = [p for chunk in chunks for p in glued._GLUED_BULLET.split(chunk)]
    return [p.strip() for p in parts if p.strip()]


def point_split(text: str) -> list[str]:
    cuts = [0, *glued.glue_points(text), len(text)]
    return [p for p in (text[a:b].strip() for a, b in itertools.pairwise(cuts)) if p]


@pytest.mark.parametrize(
    "text",
    [
        "",
        "…Fights First ability.HEROIC INTERVENTION",
        "…such as [LETHAL HITS] (24).[EXTRA ATTACKS]24.11",
        "fewer than 7YP.FIRE OVERWATCH",
        "your WARLORD.Each time",
        "the S.T.C.Each time",
        "the following conditions apply:- Each model",
        "apply:-Each",
        "apply.- (a) and.- [b] and!- C",
        ".A",
        "A.B",
        "ab?C!D",
        'a "quote".Next 50%.Then',
    ],
)
def test_glue_points_cut_where_the_patterns_split(text: str) -> None:
    assert point_split(text) == pattern_split(text)


def test_glue_points_on_committed_dumps() -> None:
    lines = committed_lines()
    assert sum(len(pattern_split(x)) > 1 for x in lines) > 50  # glue is met, not only absent
    for line in lines:
        assert point_split(line) == pattern_split(line), line


@needs_shared
def test_glue_points_on_shared_dumps() -> None:
    lines = dump_lines(SHARED_DUMPS)
    assert lines
    for line in lines:
        assert point_split(line) == pattern_split(line), line


# ---- weapon rows ------------------------------------------------------------------------------

Row = datasheet_lines.WeaponRow | tuple[str, int | None, int | None, str | None]


def lark_row(text: str) -> Row:
    """``parse_weapon_row`` through Lark alone (or its failure, as plain values)."""
    try:
        row = grammar.parse("datasheet", "weapon_row", text, "", 1, datasheet_lines._BUILD)
    except ParseFailure as failure:
        return (str(failure), failure.line, failure.column, failure.excerpt)
    assert isinstance(row, datasheet_lines.WeaponRow)
    return row


def fast_row(text: str) -> Row:
    try:
        return datasheet_lines.parse_weapon_row(text)
    except ParseFailure as failure:
        return (str(failure), failure.line, failure.column, failure.excerpt)


@pytest.mark.parametrize(
    "text",
    [
        '| Lash of Khorne | 12" | 9 | 2+ | 8 | -1 | 2 | |',
        "| Princess' jaws extra attacks | Melee | 2 | 4+ | 4 | 0 | 1 | |",
        "| x | N/A | - | - | - | - | - |",
        '|  Bolt  pistol  | 12" | D6 + 1 | 3+ | 2D6 | +1 | d3 | | |',
        '| x | 24-36" | 2D3+1 | 5+ | 10 | -4 | D6+2 ||',
        '| x | 12" | 3 D6 | 3+ | 4 | 0 | 1 |',  # a number, then no bar: both fail
        "| x | 12 | 1 | 3+ | 4 | 0 | 1 |",  # a range without its inch sign
        '|  | 12" | 1 | 3+ | 4 | 0 | 1 |',  # no name
        '| x | 12" | 1 | 3+ | 4 | 0 | 1 | | |',  # a bar too many
        '| x | 12" | 1 | 3+ | 4 | 0 |',  # a cell short
    ],
)
def test_weapon_row_fast_way_is_lark(text: str) -> None:
    assert fast_row(text) == lark_row(text)


def weapon_rows(paths: list[Path], monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every weapon row the dump reader parses while converting ``paths``."""
    return first_arguments(paths, dump_datasheet, "parse_weapon_row", monkeypatch)


def test_weapon_row_fast_way_on_committed_dumps(
    repo_cwd: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rows = weapon_rows([Path("raw")], monkeypatch)
    assert len(rows) > 10
    for text in rows:
        assert fast_row(text) == lark_row(text), text


@needs_shared
def test_weapon_row_fast_way_on_shared_dumps(monkeypatch: pytest.MonkeyPatch) -> None:
    rows = weapon_rows(SHARED_DUMPS, monkeypatch)
    assert rows
    for text in rows:
        assert fast_row(text) == lark_row(text), text


# ---- a WHEN's timing --------------------------------------------------------------------------


def plain_reading(when: str) -> timing.Reading:
    """``read_when`` the plain way: every token of ``_TOKEN`` stepped."""
    state = timing._State()
    for match in timing._TOKEN.finditer(when):
        kind = match.lastgroup or "other"
        timing._step(state, kind, match.group(kind).lower())
    return state.reading


@pytest.mark.parametrize(
    "when",
    [
        "",
        "Your opponent's Shooting phase or the Fight phase.",
        "Your Movement phase or Charge phase, just after an enemy unit ends a move.",
        "Any phase, excluding the Command phase and the Fight phase.",
        "End of any of your phases  except\tyour Movement phase.",
        "Battle-shock step of your Command phase.",
        "The Reinforcements step of your opponent\u2019s Movement phase.",
        "End of your opponent's turn, or the start of either player's turn",
        "EXCEPT the of MOVEMENT PHASE or andthe other  than shooting phases",
    ],
)
def test_when_reading_fast_way_is_the_token_walk(when: str) -> None:
    assert timing.read_when(when) == plain_reading(when)


def test_when_reading_fast_way_on_committed_and_shared_dumps(repo_cwd: Path) -> None:
    paths = [Path("raw"), *(p for p in SHARED_DUMPS if p.is_dir())]
    whens = {e.when for e in wahanorm.convert(paths).entities if getattr(e, "when", None)}
    assert len(whens) > 20
    for when in whens:
        assert timing.read_when(when) == plain_reading(when), when


# ---- holes after a word in capitals -----------------------------------------------------------


def word_holes() -> list[tuple[re.Pattern[str], re.Pattern[str]]]:
    """Each hole pattern found at a word's start, with the ``\\b`` pattern it stands for."""
    lead = "[A-Z][A-Z]{2,}"
    pairs = []
    for _needle, pattern, _message, word in dump_read.HOLES:
        if word:
            assert pattern.pattern.startswith(lead)
            pairs.append((pattern, re.compile(r"\b[A-Z]{3,}" + pattern.pattern[len(lead) :])))
    assert len(pairs) == 4
    return pairs


def word_starts(pattern: re.Pattern[str], text: str) -> list[int]:
    return [m.start() for m in pattern.finditer(text) if dump_read._opens_word(text, m.start())]


@pytest.mark.parametrize(
    "text",
    [
        "a CHARACTER or unit, an INFANTRY and units",
        "xABC or unit, 5ABC or unit, _ABC or unit, ÉABC or units",
        "AB or unit; ABCD or model; VEHICLE and models;MONSTER or models",
        "ABC or unitary ABC or units",
    ],
)
def test_word_holes_find_what_the_word_boundary_finds(text: str) -> None:
    for fast, slow in word_holes():
        assert word_starts(fast, text) == [m.start() for m in slow.finditer(text)], slow.pattern


def test_word_holes_on_committed_dumps() -> None:
    lines = committed_lines()
    pairs = word_holes()
    assert any(slow.search(line) for line in lines for _, slow in pairs)
    for line in lines:
        for fast, slow in pairs:
            assert word_starts(fast, line) == [m.start() for m in slow.finditer(line)], line


# ---- stratagems and rules read once per batch -------------------------------------------------


def committed_dumps() -> list[Path]:
    return sorted([*(REPO / "raw").glob("*.txt"), *(REPO / "tests/fixtures/dumps").glob("*.txt")])


def shared_dumps() -> list[Path]:
    return sorted(path for folder in SHARED_DUMPS for path in folder.rglob("*.txt"))


Said = tuple[list[dict[str, object]], list[dict[str, object]]]


def said(text: str, display: str) -> Said:
    """What one dump gives through the chain: its entities and its diagnostics, as JSON."""
    got = pipeline.read_text(text, display, html=False)
    return (
        [e.model_dump(mode="json") for e in got.entities],
        [d._asdict() for d in got.report.diagnostics],
    )


def first_reading(text: str, display: str) -> Said:
    """What a dump gives read first in its batch (every batch memo empty)."""
    BatchMemo.clear_all()
    return said(text, display)


def check_batch(paths: list[Path]) -> None:
    """Each dump read after all the others (twice, the second time two lines lower and under
    another name) gives what it gives read first."""
    texts = [(path.as_posix(), path.read_text(encoding="utf-8")) for path in paths]
    inputs = [*texts, *((f"again/{d}", f"\n\n{t}") for d, t in texts)]
    first = {display: first_reading(text, display) for display, text in inputs}
    BatchMemo.clear_all()
    for display, text in inputs:
        said(text, display)  # every text seen once
    for display, text in reversed(inputs):
        assert said(text, display) == first[display], display


def test_a_dump_read_after_others_gives_what_it_gives_read_first() -> None:
    check_batch(committed_dumps())


@needs_shared
def test_a_shared_dump_read_after_others_gives_what_it_gives_read_first() -> None:
    check_batch(shared_dumps())


def test_the_stratagems_and_rules_of_a_batch_are_read_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # The four sample dumps print the same core stratagems and rules: each text is read once,
    # the rest taken from the memo (and placed at their own lines: the tests above).
    readings: list[str] = []
    for name in ("_read_stratagem", "_read_rule"):
        real = getattr(dump_read, name)

        def noted(*args: Any, real: Any = real, name: str = name) -> Any:
            readings.append(name)
            return real(*args)

        monkeypatch.setattr(dump_read, name, noted)
    BatchMemo.clear_all()
    kinds: list[str] = []
    for path in sorted((REPO / "raw").glob("*.txt")):
        entities, _ = said(path.read_text(encoding="utf-8"), path.as_posix())
        kinds.extend(str(e["kind"]) for e in entities)
    assert 0 < readings.count("_read_stratagem") < kinds.count("stratagem")
    assert 0 < readings.count("_read_rule") < kinds.count("rule")


@settings(max_examples=25)
@given(
    st.lists(st.sampled_from(committed_dumps()), min_size=1, max_size=4),
    st.integers(min_value=0, max_value=3),
)
def test_any_order_of_dumps_gives_each_what_it_gives_read_first(
    paths: list[Path], shift: int
) -> None:
    texts = [
        (f"{i}/{p.name}", "\n" * shift + p.read_text(encoding="utf-8")) for i, p in enumerate(paths)
    ]
    first = [first_reading(text, display) for display, text in texts]
    BatchMemo.clear_all()
    assert [said(text, display) for display, text in texts] == first


def test_a_rule_read_without_its_faction_is_a_core_rule_still(tmp_path: Path) -> None:
    # The same rule text is the faction's under a datasheet of that faction ("If your Army
    # Faction is"), a core rule in a dump without one: the memo keeps the two apart.
    whole = (REPO / "tests/fixtures/dumps/glossary_role_title.txt").read_text(encoding="utf-8")
    rule_only = "\n".join(whole.splitlines()[9:18])
    assert rule_only.startswith("Voice of Command\n")
    alone = tmp_path / "rule_only.txt"
    alone.write_text(rule_only, encoding="utf-8")
    ids = [e["id"] for e in first_reading(rule_only, "rule_only.txt")[0]]
    assert ids == ["core/voice-of-command"]
    check_batch([REPO / "tests/fixtures/dumps/glossary_role_title.txt", alone])


# ---- the edition signs of a page --------------------------------------------------------------


def every_line_counts(texts: list[str]) -> object:
    return edition.sign_counts(texts, range(len(texts)))


def sign_line_counts(texts: list[str]) -> object:
    return edition.sign_counts(texts, edition.sign_lines(texts))


@pytest.mark.parametrize(
    "texts",
    [
        [],
        ["Core"],
        ["Core Stratagem", "Core – Battle Tactic Stratagem", "Core – Epic Deed"],
        ["x", "Core Stratagem", "Cores", "a Core"],
        ["HEROIC INTERVENTION15.11", "Heroic INTERVENTION15.11", "x", "STEALTH24.33 / X24.01"],
        ["see https://wahapedia.ru/wh40k11ed/the-rules/", "/wh40k10ed/ and /wh40k11ed/"],
        ["| YOUR UNIT COSTS | |", "| YOUR 2ND UNIT COSTS |", "YOUR UNIT COSTSx"],
        ["FIRE OVERWATCH1CPCore – Strategic PloyCRAPID INGRESS1CPCore – Strategic PloyC"],
        ["", "Core", "", "A'B15.02"],
    ],
)
def test_sign_lines_count_what_every_line_counts(texts: list[str]) -> None:
    assert sign_line_counts(texts) == every_line_counts(texts)


@given(
    st.lists(
        st.lists(
            st.sampled_from(
                [
                    "Core",
                    " – Battle Tactic",
                    " Stratagem",
                    "A",
                    "B15.02",
                    "YOUR ",
                    "UNIT COSTS",
                    "1CPCore",
                    "/wh40k11ed/",
                    "| ",
                    " ",
                    "x",
                    "'",
                    "-",
                ]
            ),
            max_size=6,
        ).map("".join),
        max_size=8,
    )
)
def test_sign_lines_count_what_every_line_counts_on_any_lines(texts: list[str]) -> None:
    assert sign_line_counts(texts) == every_line_counts(texts)


def test_sign_lines_on_committed_and_shared_dumps() -> None:
    paths = committed_dumps() + (shared_dumps() if SHARED.is_dir() else [])
    counted = 0
    for path in paths:
        texts = [x.strip() for x in path.read_text(encoding="utf-8").splitlines()]
        assert sign_line_counts(texts) == every_line_counts(texts), path
        counted += sum(sum(c.values()) for c in edition.sign_counts(texts, range(len(texts))))
    assert counted > 50
