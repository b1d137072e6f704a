"""The grammars and the small parsers around them: weapon keywords and stratagem entries from the
fixture corpora of ``fixtures/grammars/``, characteristics, core abilities, segmenting."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from fixture_pairs import Pair, cases
from wahanorm.blocks.clean import Line
from wahanorm.blocks.parse.abilities import parse_core_ability
from wahanorm.blocks.parse.labelled_rule import rule_references, rule_sections, split_rule_number
from wahanorm.blocks.parse.points import CostTable, cost_line, cost_tier
from wahanorm.blocks.parse.stats import parse_dice, parse_stat, stat_from_export
from wahanorm.blocks.parse.stratagems import parse_body, parse_entry, split_source
from wahanorm.blocks.parse.weapon_abilities import (
    parse_ability_list,
    parse_weapon_abilities,
    split_profile,
    split_weapon_name,
)
from wahanorm.errors import ParseFailure
from wahanorm.readers.dump.segment import entry_kind, segment


def _abilities(items: list[Any]) -> list[dict[str, Any]]:
    return [a.model_dump(exclude_none=True) for a in items]


@pytest.mark.parametrize("pair", cases("grammars/weapon_abilities.txt"))
def test_weapon_abilities(pair: Pair) -> None:
    (text,) = pair.input
    expected = json.loads("\n".join(pair.expected))
    if text.startswith("cell: "):
        name, abilities = split_weapon_name(text.removeprefix("cell: "))
        assert {"name": name, "abilities": _abilities(abilities)} == expected
    else:
        assert _abilities(parse_weapon_abilities(text)) == expected


def test_broken_weapon_ability_list_points_at_its_column() -> None:
    with pytest.raises(ParseFailure) as caught:
        parse_weapon_abilities("[lethal hits]]", path="raw/x.txt", line=7)
    assert (caught.value.path, caught.value.line) == ("raw/x.txt", 7)
    assert caught.value.column == 14
    assert caught.value.excerpt == "[lethal hits]]\n             ^"


@pytest.mark.parametrize(
    ("name", "hyphen", "expected"),
    [
        ("Axe of Khorne – strike", False, ("Axe of Khorne", "strike", False)),
        ("Plasma pistol – supercharge", True, ("Plasma pistol", "supercharge", False)),
        ("Lash of Khorne", True, ("Lash of Khorne", None, False)),
        ("Auto-gun", True, ("Auto-gun", None, False)),
        # the export's Datasheets_wargear.csv and BSData write a hyphen for the dash
        ("Gork's Klaw - sweep", False, ("Gork's Klaw - sweep", None, False)),
        ("Gork's Klaw - sweep", True, ("Gork's Klaw", "sweep", True)),
        ("Plasma gun - standard", True, ("Plasma gun", "standard", True)),
        # BSData's Mek Gunz: "1-2 Bubblechukka - big bubble" (the roll stays in the name)
        ("1-2 Bubblechukka - big bubble", True, ("1-2 Bubblechukka", "big bubble", True)),
        # a tail that holds a dash of its own is no profile
        ("Snagga klaw - close-range", True, ("Snagga klaw - close-range", None, False)),
    ],
)
def test_split_profile(name: str, hyphen: bool, expected: tuple[str, str | None, bool]) -> None:
    assert split_profile(name, hyphen=hyphen) == expected


def _subset(actual: Any, expected: Any) -> Any:
    """``actual`` reduced to the keys ``expected`` names, recursively."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        return {k: _subset(actual.get(k), v) for k, v in expected.items()}
    return actual


@pytest.mark.parametrize("pair", cases("grammars/stratagems.txt"))
def test_stratagem_entry(pair: Pair) -> None:
    expected = json.loads("\n".join(pair.expected))
    if "error" in expected:
        with pytest.raises(ParseFailure) as caught:
            parse_entry(pair.input)
        error = caught.value
        assert {"line": error.line, "column": error.column, "excerpt": error.excerpt} == expected[
            "error"
        ]
        return
    entry = dataclasses.asdict(parse_entry(pair.input))
    assert _subset(entry, expected) == expected


def test_parse_failure_counts_lines_from_the_entry_start() -> None:
    lines = ["HEROIC INTERVENTION15.11", "WHEN: End of your opponent's Charge phase."]
    with pytest.raises(ParseFailure) as caught:
        parse_entry(lines, path="raw/000_47df9cafce3cbdb4.txt", first_line=368)
    assert caught.value.path == "raw/000_47df9cafce3cbdb4.txt"
    assert caught.value.line == 369
    assert caught.value.to_diagnostic().code == "parse-error"


def test_parse_body_keeps_first_text_of_repeated_sections() -> None:
    body = parse_body(
        "WHEN: Your Command phase.\nTARGET: One unit from your army.\n"
        "EFFECT: Select one friendly BLOOD LEGIONS unit.\n"
        "RESTRICTIONS: This Stratagem cannot be used to return destroyed CHARACTER models.\n"
        "TARGET: One unit from your army.\nEFFECT: Select one friendly BLOOD LEGIONS unit.\n"
        "RESTRICTIONS: This Stratagem cannot be used to return destroyed CHARACTER models."
    )
    assert body.target == "One unit from your army."
    assert (
        body.restrictions == "This Stratagem cannot be used to return destroyed CHARACTER models."
    )
    assert body.repeated == ["target", "effect", "restrictions"]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("Khorne Daemonkin – Battle Tactic Stratagem", ("Khorne Daemonkin", "Battle Tactic")),
        ("Core – Strategic Ploy Stratagem", ("Core", "Strategic Ploy")),
        ("Speedwaaagh! – Wargear Stratagem", ("Speedwaaagh!", "Wargear")),
        ("More Dakka! Stratagem", ("More Dakka!", None)),
        ("Core Stratagem", ("Core", None)),
    ],
)
def test_split_source(line: str, expected: tuple[str, str | None]) -> None:
    assert split_source(line) == expected


@pytest.mark.parametrize(
    ("text", "canonical", "value", "dice"),
    [
        ('12"', '12"', 12, None),
        ("24”", '24"', 24, None),
        ("2+", "2+", 2, None),
        ("-1", "-1", -1, None),
        ("–2", "-2", -2, None),
        ("D6+1", "D6+1", None, (1, 6, 1)),
        ("d6 + 1", "D6+1", None, (1, 6, 1)),
        ("2D6", "2D6", None, (2, 6, 0)),
        ("D3", "D3", None, (1, 3, 0)),
        ("N/A", "N/A", None, None),
        ("Melee", "Melee", None, None),
    ],
)
def test_parse_stat(
    text: str, canonical: str, value: int | None, dice: tuple[int, int, int] | None
) -> None:
    stat = parse_stat(text)
    assert stat.text == canonical
    assert stat.value == value
    assert (
        None if stat.dice is None else (stat.dice.count, stat.dice.sides, stat.dice.modifier)
    ) == dice


def test_parse_dice_rejects_non_dice() -> None:
    assert parse_dice("6") is None
    assert parse_dice("D6-1") is not None and parse_dice("D6-1").modifier == -1  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("text", "suffix", "canonical"),
    [
        ("3", "+", "3+"),
        ("24", '"', '24"'),
        ("3+", "+", "3+"),
        ("D6", "+", "D6"),
        ("N/A", "+", "N/A"),
    ],
)
def test_stat_from_export(text: str, suffix: str, canonical: str) -> None:
    assert stat_from_export(text, suffix).text == canonical


@pytest.mark.parametrize(
    ("text", "name", "parameter"),
    [
        ("Deadly Demise D6", "Deadly Demise", "D6"),
        ('Scouts 6"', "Scouts", '6"'),
        ("Feel No Pain 5+", "Feel No Pain", "5+"),
        ("Deep Strike", "Deep Strike", None),
        ("Leader", "Leader", None),
        ("Lone Operative", "Lone Operative", None),
    ],
)
def test_parse_core_ability(text: str, name: str, parameter: str | None) -> None:
    ability = parse_core_ability(text)
    assert (ability.name, ability.parameter) == (name, parameter)


def test_parse_core_ability_parses_each_text_once() -> None:
    # every datasheet lists the same few core abilities: the grammar runs once per text
    first = parse_core_ability("Deadly Demise D3")
    hits = parse_core_ability.cache_info().hits
    assert parse_core_ability("Deadly Demise D3") is first
    assert parse_core_ability.cache_info().hits == hits + 1


def _lines(*texts: str) -> list[Line]:
    return [Line(n, t) for n, t in enumerate(texts, start=1)]


@pytest.mark.parametrize(
    ("texts", "kind"),
    [
        (("HEROIC INTERVENTION15.11", "1CP", "Core Stratagem"), "stratagem"),
        (("Blood Tithe", "Khorne Daemonkin Detachment"), "detachment_rule"),
        (("06.03 Hazard Rolls", "To make a hazard roll for a unit, roll one D6."), "rule"),
        (("[LETHAL HITS]24.23", "Many deadly weapons can inflict fatal injuries."), "rule"),
        (("EPIC CHALLENGE15.03", "1CP"), "stratagem"),
        (("NORMAL MOVE09.05", "MAXIMUM DISTANCE: Your unit's M characteristic."), "rule"),
        (("LEADER24.22 / SUPPORT24.23", "Mighty heroes fight at the forefront of battle."), "rule"),
        (
            ("The TRANSPORT keyword is used in the following Orks datasheets:", "Fortifications"),
            "keyword_usage",
        ),
        (("- Advance roll", "1CP"), None),
        (
            ("TARGET: That unit.", "EFFECT: That battle-shock roll is automatically successful."),
            None,
        ),
    ],
)
def test_entry_kind(texts: tuple[str, ...], kind: str | None) -> None:
    assert entry_kind(_lines(*texts), 0) == kind


def test_segment_block_kinds() -> None:
    lines = _lines(
        "Orks – Ufthak Blackhawk",
        "KEYWORDS: INFANTRY; CHARACTER",
        "FACTION KEYWORDS:",
        "ORKS",
        "STRATAGEMS",
        "COMMAND RE-ROLL",
        "1CP",
        "Core",
        "C",
        "DETACHMENT ABILITY",
        "Get Stuck In",
        "06.03 Hazard Rolls",
        "To make a hazard roll for a unit, roll one D6.",
        "HEROIC INTERVENTION15.11",
        "1CP",
        "Core Stratagem",
        "WHEN: End of your opponent's Charge phase.",
    )
    blocks = segment(lines)
    assert [(b.kind, b.first, b.last) for b in blocks] == [
        ("datasheet", 1, 4),
        ("stratagem_index", 5, 9),
        ("detachment_index", 10, 11),
        ("rule", 12, 13),
        ("stratagem", 14, 17),
    ]


@pytest.mark.parametrize("pair", cases("grammars/labelled_rule.txt"))
def test_labelled_rule_sections(pair: Pair) -> None:
    expected = json.loads("\n".join(pair.expected))
    got = rule_sections("\n".join(pair.input))
    assert [s.model_dump(include={"label", "text"}) for s in got] == expected


def test_unknown_weapon_abilities_are_named_once() -> None:
    found = parse_ability_list("Psychic Assassin, hazardous, PSYCHIC ASSASSIN, c'tan power")
    assert found.unknown == ("PSYCHIC ASSASSIN", "C'TAN POWER")
    assert [a.id for a in found.abilities] == [
        "psychic-assassin",
        "hazardous",
        "psychic-assassin",
        "c-tan-power",
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("(03.02) and Moving (03) then (03.02) again", ["03.02", "03"]),
        ("Battlefield Morale (01.07.01)", ["01.07.01"]),
        ("up to 6 (or 12) models", []),
    ],
)
def test_rule_references(text: str, expected: list[str]) -> None:
    assert rule_references(text) == expected


@pytest.mark.parametrize(
    ("heading", "expected"),
    [
        ("FIRING DECK24.14", ("FIRING DECK", "24.14")),
        ("HEROIC INTERVENTION15.11", ("HEROIC INTERVENTION", "15.11")),
        ("Battlefield Morale 01.07.01", ("Battlefield Morale", "01.07.01")),
        ("NORMAL MOVE", ("NORMAL MOVE", None)),
        ("2 BATTLE-SHOCK", ("2 BATTLE-SHOCK", None)),
    ],
)
def test_split_rule_number(heading: str, expected: tuple[str, str | None]) -> None:
    assert split_rule_number(heading) == expected


@pytest.mark.parametrize("pair", cases("points/cost_lines.txt"))
def test_cost_lines(pair: Pair) -> None:
    (text,) = pair.input
    expected = json.loads("\n".join(pair.expected))
    if text.startswith("tier: "):
        tier = cost_tier(text.removeprefix("tier: "))
        assert (dataclasses.asdict(tier) if tier else None) == expected
        return
    what, _, cost = text.rpartition(" | ")
    line = cost_line(what, cost, None)
    got = line.model_dump(exclude_defaults=True) if line else None
    if got is not None and "models" not in got:
        got["models"] = None
    assert got == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("4*", {"text": "4*", "value": 4, "dice": None, "note": None}),
        ("-", {"text": "-", "value": None, "dice": None, "note": None}),
        ("N/A", {"text": "N/A", "value": None, "dice": None, "note": None}),
        ('20+"', {"text": '20+"', "value": None, "dice": None, "note": None}),
    ],
)
def test_stats_as_printed(text: str, expected: dict[str, object]) -> None:
    assert parse_stat(text).model_dump() == expected


@pytest.mark.parametrize("pair", cases("points/cost_tables.txt"))
def test_cost_tables(pair: Pair) -> None:
    table = CostTable()
    got: list[list[object]] = []
    for row in pair.input:
        text, _, cost = row.partition("|")
        if not cost.strip() and table.heading(text):
            continue
        line = table.line(text, cost)
        assert line is not None, row
        got.append(
            [line.text, line.models, line.points, line.add_on, line.units_from, line.units_to]
        )
    assert got == json.loads("\n".join(pair.expected))
