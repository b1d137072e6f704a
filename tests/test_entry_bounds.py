"""Entries end where the source ends them: glossary titles that are also army-list role names,
sidebars after a SEE ALSO list, detachment rules with their sub-abilities and RESTRICTIONS, tables
announced "as shown below.". Fixtures in ``fixtures/dumps/`` and ``fixtures/detachment/`` are
excerpts of ``raw/``; the fact tests read ``raw/`` itself."""

from __future__ import annotations

import json
from typing import Any

import pytest

from fixture_pairs import FIXTURES, Pair, cases
from wahanorm import pipeline
from wahanorm.blocks.parse.detachment import split_detachment_text
from wahanorm.contract.models import DetachmentRule, Rule
from wahanorm.pipeline import read_text
from wahanorm.pipeline.after_read import Extraction


def _dump(name: str) -> Extraction:
    return read_text((FIXTURES / "dumps" / name).read_text(encoding="utf-8"), "x.txt", html=False)


def _render(text: str) -> list[str]:
    split = split_detachment_text(text)
    lines = [f"text: {x}" for x in split.text.split("\n")]
    for ability in split.abilities:
        lines.append(f"ability: {ability.name} | {ability.cost}")
        lines += [f"  {x}" for x in ability.text.split("\n")]
    if split.restrictions:
        lines += [f"restrictions: {x}" for x in split.restrictions.split("\n")]
    return lines


@pytest.mark.parametrize("pair", cases("detachment/split.txt"))
def test_split_detachment_text(pair: Pair) -> None:
    assert _render("\n".join(pair.input)) == pair.expected


def test_role_name_title_is_its_own_glossary_entry() -> None:
    rules = {e.id: e for e in _dump("glossary_role_title.txt").entities if isinstance(e, Rule)}
    voice = rules["astra-militarum/voice-of-command"]
    assert voice.text.endswith(
        "Duty and Honour! Improve the Leadership and Objective Control characteristics of models "
        "in this unit by 1."
    )
    assert "CHARACTER" not in voice.text
    assert rules["core/characters"].text.startswith("Some models have the CHARACTER keyword.")


def test_glossary_entry_after_a_keyword_usage_list_is_kept() -> None:
    rules = [e for e in _dump("glossary_after_keyword_usage.txt").entities if isinstance(e, Rule)]
    assert [r.id for r in rules] == ["core/characters"]


def test_detachment_rule_from_a_dump() -> None:
    [rule] = [
        e for e in _dump("detachment_sub_abilities.txt").entities if isinstance(e, DetachmentRule)
    ]
    assert [(a.name, a.cost) for a in rule.abilities] == [
        ("Enraged Abjuration", "2BTP"),
        ("Daemonic Rage", "3BTP"),
        ("Boon of Blood", "4BTP"),
        ("Might of Khorne", "5BTP"),
    ]
    assert rule.restrictions is not None
    assert rule.restrictions.endswith("No BLOOD LEGIONS model from your army can be your WARLORD.")
    assert "RESTRICTIONS" not in rule.text and "[3BTP]" not in rule.text


# Facts of raw/, checked by hand against the raw text.


def _entity(
    samples: pipeline.Conversion, kind: str, entity_id: str, edition: int = 10
) -> dict[str, Any]:
    found: dict[str, Any] = json.loads(samples.files[f"{edition}ed/{kind}/{entity_id}.json"])
    return found


def test_blood_tithe_sub_abilities_with_costs(samples: pipeline.Conversion) -> None:
    rule = _entity(samples, "detachment_rule", "khorne-daemonkin/blood-tithe")
    assert [(a["name"], a["cost"]) for a in rule["abilities"]] == [
        ("Enraged Abjuration", "2BTP"),
        ("Daemonic Rage", "3BTP"),
        ("Boon of Blood", "4BTP"),
        ("Might of Khorne", "5BTP"),
    ]
    assert rule["abilities"][1]["text"] == (
        "Melee weapons equipped by BLOOD LEGIONS units from your army have the [lance] ability."
    )
    assert rule["restrictions"].startswith("You can include the BLOOD LEGIONS units in your army.")
    assert rule["text"].endswith("until the end of the battle:")


def test_characters_exists_and_voice_of_command_ends_where_it_should(
    samples: pipeline.Conversion,
) -> None:
    voice = _entity(samples, "rule", "astra-militarum/voice-of-command")
    assert voice["text"].endswith("characteristics of models in this unit by 1.")
    characters = _entity(samples, "rule", "core/characters")
    assert {s["path"] for s in characters["sources"]} >= {
        "raw/002_4ce5d9c8bc5975ce.txt",
        "raw/003_3bddafab6d78ca00.txt",
        "raw/004_915fe25d03f9d2ef.txt",
    }


def test_sidebar_after_see_also_is_its_own_entry() -> None:
    rules = [e for e in _dump("sidebar_after_see_also.txt").entities if isinstance(e, Rule)]
    shock = next(r for r in rules if r.id == "core/battle-shock-rolls")
    assert shock.text.endswith("- Battle-shock Test 01.07.02")
    sidebar = next(r for r in rules if r.name == "BATTLEFIELD MORALE")
    assert sidebar.text.startswith("The morale and organisation of troops can waver")
    assert (sidebar.sources[0].line_start, sidebar.sources[0].line_end) == (13, 14)


def test_battle_shock_rolls_ends_at_its_see_also(samples: pipeline.Conversion) -> None:
    shock = _entity(samples, "rule", "core/battle-shock-rolls", 11)
    assert "BATTLEFIELD MORALE" not in shock["text"]
    morale = _entity(samples, "rule", "core/battlefield-morale", 11)
    # the rule (raw/000, line 311) and the heading of its page (line 323, BATTLEFIELD MORALE):
    # one name in two notations, kept in its plainer spelling on both (pipeline.merge)
    assert [v["name"] for v in [morale, *morale["variants"]]] == [
        "Battlefield Morale",
        "Battlefield Morale",
    ]


def test_announced_table_kept_as_rows() -> None:
    extraction = _dump("table_one_cell_per_line.txt")
    [rule] = [e for e in extraction.entities if isinstance(e, Rule)]
    [table] = rule.tables
    assert table[0] == ["WOUND ROLL"]
    assert table[2] == ["Strength is TWICE (or more than twice) the Toughness.", "+"]
    assert len(table) == 7
    assert "Strength is GREATER" not in rule.text
    # The values (2+ … 6+) are not in the dump: only their "+" is.
    assert [
        (d.code, d.line) for d in extraction.report.diagnostics if d.code.startswith("table")
    ] == [("table-partial", 2)]


def test_announced_table_without_rows_is_a_warning() -> None:
    extraction = _dump("table_rows_gone.txt")
    [rule] = [e for e in extraction.entities if isinstance(e, Rule)]
    assert rule.tables == []
    [missing] = [d for d in extraction.report.diagnostics if d.code == "table-missing"]
    assert (missing.severity, missing.line) == ("warning", 2)


def test_heading_glued_after_capitals_is_not_a_stratagem_name() -> None:
    extraction = _dump("glued_heading_after_capitals.txt")
    assert [(e.kind, e.name) for e in extraction.entities] == [("stratagem", "FIRE OVERWATCH")]
    [unparsed] = [d for d in extraction.report.diagnostics if d.code == "unparsed"]
    assert "fewer than 7YP." in unparsed.message


@pytest.mark.parametrize(
    ("entity_id", "phases"),
    [
        # raw/002 line 386 and raw/004 line 534: "Your opponent's Shooting phase or the Fight phase"
        (
            "khorne-daemonkin/blessing-of-burning-blood",
            [("shooting", "opponent"), ("fight", "either")],
        ),
        ("embarked-regiment/duck-and-cover", [("shooting", "opponent"), ("fight", "either")]),
        # raw/004 line 525: "Your Shooting phase or the Fight phase."
        ("embarked-regiment/against-the-odds", [("shooting", "your"), ("fight", "either")]),
        # raw/002 line 399: "Start of your Fight phase."
        ("khorne-daemonkin/daemonic-fury", [("fight", "your")]),
    ],
)
def test_raw_stratagem_timing_per_phase(
    samples: pipeline.Conversion, entity_id: str, phases: list[tuple[str, str]]
) -> None:
    timing = _entity(samples, "stratagem", entity_id)["timing"]
    assert [(p["phase"], p["turn"]) for p in timing["phases"]] == phases
    assert timing["any_phase"] is False


def test_raw_any_phase_timing(samples: pipeline.Conversion) -> None:
    # raw/000 line 754: "Start or end of any phase."
    timing = _entity(samples, "stratagem", "boarding-actions/battlefield-command")["timing"]
    assert timing["any_phase"] is True and timing["excluded_phases"] == []
    assert [p["phase"] for p in timing["phases"]] == [
        "command",
        "movement",
        "shooting",
        "charge",
        "fight",
    ]
