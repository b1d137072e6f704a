"""Property tests (hypothesis): for any text, the clean passes and the grammars raise nothing but
the project's documented error type, every clean pass is idempotent, and every entity a dump
yields validates against the schema ``wahanorm schema`` prints.

``jsonschema`` is not installed in the venv, so the emitted JSON is validated with pydantic's
``TypeAdapter(AnyEntity).validate_json``: the same models the printed JSON Schema is generated
from, and a round trip that must give back the same canonical bytes.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from pydantic import TypeAdapter

from wahanorm.blocks.clean import PASSES, to_lines
from wahanorm.blocks.parse.datasheet_lines import parse_core_abilities, parse_weapon_row
from wahanorm.blocks.parse.labelled_rule import rule_sections
from wahanorm.blocks.parse.points import CostTable
from wahanorm.blocks.parse.stratagems import parse_body, parse_entry
from wahanorm.blocks.parse.weapon_abilities import parse_weapon_abilities
from wahanorm.contract.ids import is_safe_id
from wahanorm.contract.models import AnyEntity
from wahanorm.errors import ParseFailure, Report
from wahanorm.outputs.canonical import canonical_json
from wahanorm.pipeline import read_text

TOKENS = [
    "WHEN:",
    "TARGET:",
    "EFFECT:",
    "RESTRICTIONS:",
    "1CP",
    "2CP",
    "Core Stratagem",
    "Orks – ",
    "|",
    "| ",
    "[",
    "]",
    "–",
    "-",
    "- ",
    "15.11",
    "01.05.01",
    "ANTI-",
    "anti-",
    "D6+",
    "D6+1",
    "4+",
    '12"',
    "SUSTAINED HITS",
    "LETHAL HITS: ",
    "BLAST 1",
    "ELIGIBLE IF:",
    "YOUR 4TH + UNIT COSTS",
    "+60",
    "Deadly Demise",
    ", ",
    " ",
    "\n",
    "\n\n",
    "\r\n",
    "Itâ€™s",
    "’",
    "\u00a0",
    "HEROIC INTERVENTION",
    "KEYWORDS:",
    "ABILITIES",
    "RANGED WEAPONS | RANGE | A | BS | S | AP | D | |",
    "Melee",
    "x",
    "Ab",
    ".",
]

tricky = st.lists(st.sampled_from(TOKENS), max_size=40).map("".join)
any_text = st.one_of(st.text(max_size=300), tricky, st.lists(tricky, max_size=8).map("\n".join))

ENTITY = TypeAdapter(AnyEntity)


# drop_repeated_runs drops "B" (line 4) as a repeat of line 3, which makes "B A" (lines 3, 5)
# follow "B A" (lines 1, 2): a second run used to drop those too.
NOT_IDEMPOTENT = "B\nA\nB\nB\nA"


@pytest.mark.parametrize("name, run", PASSES, ids=[name for name, _ in PASSES])
@example(text=NOT_IDEMPOTENT)
@given(text=any_text)
def test_clean_pass_returns_lines_and_is_idempotent(name: str, run, text: str) -> None:
    once = run(to_lines(text), Report())
    assert isinstance(once, list)
    assert all(isinstance(line.text, str) and isinstance(line.number, int) for line in once)
    twice = run(list(once), Report())
    assert twice == once, f"{name} is not idempotent"


@example(text=NOT_IDEMPOTENT)
@example(text="0|0.A|")
@example(text="0 – |\r0 – 0\rKEYWORDS:")  # a bar once made a header that trimming unmade
@example(text="0\r0 – 0|\rKEYWORDS:")  # trimming a bar made a header the first pass missed
@example(text="0.A – 0\rKEYWORDS:")  # so did splitting a glued heading (found by the long profile)
@given(text=any_text)
def test_whole_clean_chain_is_idempotent(text: str) -> None:
    lines = to_lines(text)
    for _name, run in PASSES:
        lines = run(lines, Report())
    again = lines
    for _name, run in PASSES:
        again = run(again, Report())
    assert again == lines


def _only_parse_failure(fn, *args) -> None:  # type: ignore[no-untyped-def]
    try:
        fn(*args)
    except ParseFailure as exc:
        assert exc.line is not None and exc.line >= 1
        assert exc.code == "parse-error"


@given(text=any_text)
def test_parse_weapon_abilities_raises_only_parse_failure(text: str) -> None:
    _only_parse_failure(parse_weapon_abilities, text, "x.txt", 1)


@given(text=any_text)
def test_every_text_has_labelled_sections(text: str) -> None:
    """The labelled-rule grammar reads any text: a line is a label or text."""
    for section in rule_sections(text, "x.txt", 1):
        assert section.label == section.label.upper() and section.label


@given(text=any_text)
def test_parse_cost_lines_never_raise(text: str) -> None:
    table = CostTable()
    table.heading(text)
    line = table.line(text, text)
    assert line is None or line.points >= 0


@given(text=any_text)
def test_parse_weapon_abilities_bracketed_raises_only_parse_failure(text: str) -> None:
    _only_parse_failure(parse_weapon_abilities, f"[{text}]", "x.txt", 1)


@given(lines=st.lists(any_text, max_size=10))
def test_parse_entry_raises_only_parse_failure(lines: list[str]) -> None:
    _only_parse_failure(parse_entry, lines, "x.txt", 1)


@given(text=any_text)
def test_parse_body_raises_only_parse_failure(text: str) -> None:
    _only_parse_failure(parse_body, text, "x.txt", 1)


@given(text=any_text)
def test_parse_weapon_row_raises_only_parse_failure(text: str) -> None:
    _only_parse_failure(parse_weapon_row, text, "x.txt", 1)


@given(text=any_text)
def test_parse_core_abilities_raises_only_parse_failure(text: str) -> None:
    _only_parse_failure(parse_core_abilities, text, "x.txt", 1)


DUMP_HEAD = "Orks – Ufthak Blackhawk\nRANGED WEAPONS | RANGE | A | BS | S | AP | D | |\n"
dump_text = st.one_of(any_text, any_text.map(lambda t: DUMP_HEAD + t))


@given(text=dump_text)
def test_extract_dump_never_raises_and_emits_valid_json(text: str) -> None:
    extraction = read_text(text, "x.txt", html=False)
    for entity in extraction.entities:
        assert is_safe_id(entity.id), entity.id
        emitted = canonical_json(entity)
        back = ENTITY.validate_json(emitted)
        assert canonical_json(back) == emitted
        assert json.loads(emitted)["kind"] == entity.kind
    for diagnostic in extraction.report.diagnostics:
        assert diagnostic.code != "internal-error"
