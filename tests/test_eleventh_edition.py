"""Facts of the 11th edition read from real inputs: the 2026-09-13 sample export in
``../shared/corpus`` (weapons with typed abilities, cost tiers, moves with their sections, rule
numbers), seed 000 (an 11th-edition page dump), the 10th-edition export's cost lines and starred
characteristics, and small dump fixtures of both layouts with 11th-edition cost tables."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from conftest import shared_path
from wahanorm import pipeline
from wahanorm.blocks.parse.weapon_abilities import parse_ability_list
from wahanorm.contract.models import Datasheet, Points, Rule, Stratagem, Weapon
from wahanorm.pipeline import read_path, read_text
from wahanorm.pipeline.after_read import Extraction

SAMPLE = "wahapedia-11ed-2026-09-13-sample"
DUMPS = Path(__file__).parent / "fixtures" / "dumps"


@pytest.fixture(scope="module")
def sample() -> Extraction:
    folder = shared_path("corpus", SAMPLE)
    return read_path(folder, f"corpus/{SAMPLE}")


def _sheet(extraction: Extraction, entity_id: str) -> Datasheet:
    [sheet] = [e for e in extraction.entities if isinstance(e, Datasheet) and e.id == entity_id]
    return sheet


def _rule(extraction: Extraction, entity_id: str) -> Rule:
    [rule] = [e for e in extraction.entities if isinstance(e, Rule) and e.id == entity_id]
    return rule


def _weapon(sheet: Datasheet, name: str, profile: str | None = None) -> Weapon:
    [weapon] = [w for w in sheet.weapons if w.name == name and w.profile == profile]
    return weapon


def _tiers(points: list[Points]) -> list[tuple[int | None, int, int | None, int | None]]:
    return [(p.models, p.points, p.units_from, p.units_to) for p in points]


# ---- weapons ----------------------------------------------------------------------------------


def test_every_weapon_row_of_the_sample_has_its_abilities_typed() -> None:
    """All 36 wargear rows parse, and none holds an ability the grammar does not know."""
    path = shared_path("corpus", SAMPLE, "Datasheets_wargear.csv")
    with path.open(encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.DictReader(handle, delimiter="|"))
    parsed = [parse_ability_list(row["description"]) for row in rows]
    assert len(rows) == 36
    assert sum(1 for p in parsed if p.abilities) == 25
    assert [p.unknown for p in parsed if p.unknown] == []


def test_boyz_weapons_carry_conditions_values_and_new_flags(sample: Extraction) -> None:
    boyz = _sheet(sample, "orks/boyz")
    slugga = _weapon(boyz, "Slugga")
    assert [(a.id, a.name, a.condition) for a in slugga.abilities] == [
        ("close-quarters", "CLOSE-QUARTERS", None),
        ("lethal-hits", "LETHAL HITS", "non-MONSTER/VEHICLE"),
    ]
    shoota = _weapon(boyz, "Shoota")
    assert [(a.id, a.value, a.condition) for a in shoota.abilities] == [
        ("lethal-hits", None, "non-MONSTER/VEHICLE"),
        ("rapid-fire", "1", None),
    ]
    burna = _weapon(boyz, "Burna")
    assert [(a.id, a.name, a.value) for a in burna.abilities] == [
        ("blast", "BLAST 1", "1"),
        ("torrent", "TORRENT", None),
    ]
    # a torrent weapon prints "-" for its skill: kept as printed, no value
    assert (burna.skill.text, burna.skill.value) == ("-", None)
    assert [(a.id, a.value) for a in _weapon(boyz, "Big Choppa").abilities] == [("cleave", "2")]
    assert [(a.id, a.value) for a in _weapon(boyz, "Rokkit Launcha", "Blasta").abilities] == [
        ("blast", "2")
    ]


def test_sample_export_reports_no_weapon_ability_error(sample: Extraction) -> None:
    codes = {d.code for d in sample.report.diagnostics}
    assert "weapon-abilities" not in codes and "unknown-weapon-ability" not in codes


# ---- points -----------------------------------------------------------------------------------


def test_boyz_cost_tiers(sample: Extraction) -> None:
    """Boyz: 10 or 20 models for the 1st to 3rd units, dearer from the 4th on."""
    assert _tiers(_sheet(sample, "orks/boyz").points) == [
        (10, 90, 1, 3),
        (20, 180, 1, 3),
        (10, 100, 4, None),
        (20, 190, 4, None),
    ]


def test_single_tier_and_two_tier_costs(sample: Extraction) -> None:
    assert _tiers(_sheet(sample, "orks/warboss").points) == [(1, 100, 1, None)]
    assert _tiers(_sheet(sample, "orks/warboss-in-mega-armour").points) == [
        (1, 125, 1, 2),
        (1, 140, 3, None),
    ]
    assert "bad-cost" not in {d.code for d in sample.report.diagnostics}


# ---- labelled rules ---------------------------------------------------------------------------


def test_ability_rows_become_rules_with_sections(sample: Extraction) -> None:
    disembark = _rule(sample, "core/shock-disembark-move")
    assert disembark.category == "Movement Ability"
    assert [s.label for s in disembark.sections] == [
        "SET-UP DISTANCE",
        "ELIGIBLE IF",
        "EFFECT",
        "WHILE MOVING",
        "AFTER MOVING",
    ]
    assert disembark.sections[0].text == '3"'
    assert disembark.sections[1].text.startswith("- Embarked within a TRANSPORT")
    assert disembark.references == ["03.02"]
    charge = _rule(sample, "core/charge-move")
    assert [s.label for s in charge.sections] == [
        "MAXIMUM DISTANCE",
        "ELIGIBLE IF",
        "EFFECT",
        "BEFORE MOVING",
        "WHILE MOVING",
        "AFTER MOVING",
    ]
    assert charge.references == ["03", "24.13"]
    snap = _rule(sample, "core/snap-shooting")
    assert snap.category == "Shooting Ability"
    assert [s.label for s in snap.sections][-1] == "AFTER SHOOTING"


def test_ability_rows_are_not_stratagems(sample: Extraction) -> None:
    names = {e.name for e in sample.entities if isinstance(e, Stratagem)}
    assert not names & {"SHOCK DISEMBARK MOVE", "CHARGE MOVE", "SNAP SHOOTING"}


def test_rule_number_split_off_the_glossary_heading(sample: Extraction) -> None:
    deck = _rule(sample, "core/firing-deck")
    assert (deck.name, deck.rule_number) == ("Firing Deck", "24.14")
    assert deck.text.startswith("Some transports have dedicated platforms")


# ---- seed 000, an 11th-edition dump -----------------------------------------------------------


@pytest.fixture(scope="module")
def seed() -> pipeline.Conversion:
    return pipeline.convert([shared_path("seeds", "000_47df9cafce3cbdb4.txt")])


def _seed_entity(seed: pipeline.Conversion, path: str) -> dict[str, object]:
    import json

    [text] = [t for rel, t in seed.files.items() if rel.endswith(path)]
    found: dict[str, object] = json.loads(text)
    return found


def test_seed_000_unit_cost_tier(seed: pipeline.Conversion) -> None:
    sheet = _seed_entity(seed, "datasheet/orks/ufthak-blackhawk.json")
    assert sheet["points"] == [
        {
            "add_on": False,
            "models": 1,
            "points": 70,
            "text": "1 model",
            "units_from": 1,
            "units_to": None,
        }
    ]


def test_seed_000_ingress_move_sections(seed: pipeline.Conversion) -> None:
    rule = _seed_entity(seed, "rule/core/ingress-move.json")
    assert rule["name"] == "INGRESS MOVE" and rule["rule_number"] == "20.04"
    sections = rule["sections"]
    assert isinstance(sections, list)
    assert [s["label"] for s in sections] == [
        "SET-UP DISTANCE",
        "ELIGIBLE IF",
        "EFFECT",
        "BEFORE MOVING",
        "WHILE MOVING",
    ]
    assert sections[1]["text"].startswith("Your unit is in strategic reserves")
    assert rule["references"] == ["03.02"]


def test_seed_000_numbered_names(seed: pipeline.Conversion) -> None:
    intervention = _seed_entity(seed, "stratagem/core/heroic-intervention.json")
    assert (intervention["name"], intervention["rule_number"]) == (
        "HEROIC INTERVENTION",
        "15.11",
    )


# ---- dump fixtures of both layouts ------------------------------------------------------------


def _dump_sheet(name: str) -> tuple[Datasheet, Extraction]:
    extraction = read_text((DUMPS / name).read_text(encoding="utf-8"), name, html=False)
    [sheet] = [e for e in extraction.entities if isinstance(e, Datasheet)]
    return sheet, extraction


def test_pipe_layout_cost_tiers_and_weapon_abilities() -> None:
    sheet, extraction = _dump_sheet("cost_tiers_pipe.txt")
    assert _tiers(sheet.points) == [
        (10, 90, 1, 3),
        (20, 180, 1, 3),
        (10, 100, 4, None),
        (20, 190, 4, None),
    ]
    assert sheet.unit_composition == ["9-19 Boyz", "1 Boss Nob"]
    assert [a.condition for a in _weapon(sheet, "Slugga").abilities] == [
        None,
        "non-MONSTER/VEHICLE",
    ]
    assert [a.name for a in _weapon(sheet, "Psychic hand").abilities] == ["PSYCHIC ASSASSIN"]
    unknown = [d for d in extraction.report.diagnostics if d.code == "unknown-weapon-ability"]
    assert [(d.line, "PSYCHIC ASSASSIN" in d.message) for d in unknown] == [(9, True)]


def test_line_layout_cost_lines_with_counts_and_an_add_on() -> None:
    sheet, extraction = _dump_sheet("cost_tiers_lines.txt")
    assert [(p.text, p.models, p.points, p.add_on, p.units_from) for p in sheet.points] == [
        ("1 Spanner and 4 Lootas", 5, 55, False, 1),
        ("2 Spanners and 8 Lootas", 10, 110, False, 1),
        ("Invader ATV +60", None, 60, True, 1),
    ]
    uncertain = [d for d in extraction.report.diagnostics if d.code == "cost-models"]
    assert [d.line for d in uncertain] == [24]


# ---- the 10th-edition export: cost lines and starred characteristics ---------------------------


@pytest.fixture(scope="module")
def tenth() -> Extraction:
    name = "wahapedia-10ed-2026-02-14"
    return read_path(shared_path("corpus", name), f"corpus/{name}")


def test_export_cost_lines_count_models_and_add_ons(tenth: Extraction) -> None:
    lines = {p.text: p for e in tenth.entities if isinstance(e, Datasheet) for p in e.points}
    assert lines["1 Spanner and 4 Lootas"].models == 5
    assert lines["6 models (Assigned Agent)"].models == 6
    assert lines["1 Sword Brother, 9 Initiates and 10 Neophytes"].models == 20
    atv = lines["Invader ATV +60"]
    assert (atv.add_on, atv.points, atv.models) == (True, 60, None)
    unread = [d for d in tenth.report.diagnostics if d.code == "cost-models"]
    assert len(unread) == 4  # the four add-ons, which print no count


def test_starred_and_dashed_characteristics_keep_their_text(tenth: Extraction) -> None:
    profiles = {p.name: p for e in tenth.entities if isinstance(e, Datasheet) for p in e.profiles}
    raider = profiles["Vampire Raider"].invulnerable_save
    assert raider is not None
    assert (raider.text, raider.value, raider.note) == ("4*", 4, "Against ranged attacks only")
    rangers = profiles["Rangers"].invulnerable_save
    assert rangers is not None
    assert (rangers.text, rangers.note) == ("5+", "Against ranged attacks only")
    runtherd = profiles["RUNTHERD"].toughness
    assert runtherd is not None and (runtherd.text, runtherd.note) == ("5*", None)
    pod = profiles["Drop Pod"].movement
    assert pod is not None and (pod.text, pod.value) == ("-", None)


# ---- a saved page: cost tiers, an add-on and a dashed characteristic ---------------------------

PAGE = """<!DOCTYPE html><html><body>
<h1 class="page_header2"><span class="page_header_span2">Test Faction</span>
<span class="page_header_span2"> – Test Pod</span></h1>
<div class="dsOuterFrame datasheet">
<div class="dsH2Header"><div>Test Pod</div></div>
<div class="dsProfileWrap">
<div class="dsCharWrap"><div class="dsCharName">M</div><div class="dsCharValue">-</div></div>
<div class="dsCharWrap"><div class="dsCharName">T</div><div class="dsCharValue">7</div></div>
</div>
<div><div class="dsHeader">UNIT COMPOSITION</div>
<div class="dsAbility"><ul class="dsUl"><li><b>1 Test Pod</b></li></ul></div>
<div class="dsAbility"><table><tbody>
<tr><td>YOUR 1ST TO 3RD UNITS COST</td><td></td></tr>
<tr><td>1 model</td><td><div class="PriceTag">70</div></td></tr>
<tr><td>Test ATV</td><td><div class="PriceTag">+60</div></td></tr>
<tr><td>YOUR 4TH + UNIT COSTS</td><td></td></tr>
<tr><td>1 model</td><td><div class="PriceTag">80</div></td></tr>
</tbody></table></div></div>
<div class="ds2colKW"><div>KEYWORDS: Vehicle</div><div>FACTION KEYWORDS: Test</div></div>
</div>
<div class="tooltip_templates"><span id="tooltip_content00001"><div class="abWrap BreakInsideAvoid">
<div class="abNameWrap"><div class="abName">FIRING DECK<span class="h_number">24.14</span></div>
</div><p class="ShowFluff abLegend">Some transports have dedicated platforms.</p>This ability
always takes the form <b>Firing Deck X</b>, as in Shooting (04).</div></span></div>
</body></html>
"""


def test_saved_page_cost_tiers_add_on_and_dash() -> None:
    from wahanorm.pipeline import read_text

    extraction = read_text(PAGE, "pod.html", html=True)
    assert extraction is not None
    [sheet] = [e for e in extraction.entities if isinstance(e, Datasheet)]
    assert [
        (p.text, p.models, p.points, p.add_on, p.units_from, p.units_to) for p in sheet.points
    ] == [
        ("1 model", 1, 70, False, 1, 3),
        ("Test ATV +60", None, 60, True, 1, 3),
        ("1 model", 1, 80, False, 4, None),
    ]
    [profile] = sheet.profiles
    assert profile.movement is not None and profile.movement.text == "-"


def test_saved_page_rule_number_split_off_a_tooltip_heading() -> None:
    """The 11th-edition glossary box (as the export's Abilities.csv holds it) in a tooltip."""
    from wahanorm.pipeline import read_text

    extraction = read_text(PAGE, "pod.html", html=True)
    assert extraction is not None
    [deck] = [e for e in extraction.entities if isinstance(e, Rule)]
    assert (deck.id, deck.name, deck.rule_number) == ("core/firing-deck", "FIRING DECK", "24.14")
    assert deck.text.startswith("Some transports have dedicated platforms.")
    assert deck.references == ["04"]
