"""Dump layouts beyond the four samples, each a small fixture in ``tests/fixtures/dumps/``:
several model profiles, a profile as pipe rows, pasted dumps, a weapon profile line that looks
like a datasheet header."""

from __future__ import annotations

from pathlib import Path

import pytest

from wahanorm.contract.models import Datasheet
from wahanorm.pipeline import read_text

FIXTURES = Path(__file__).parent / "fixtures" / "dumps"
RAW = Path(__file__).parents[1] / "raw"


def sheets(text: str) -> list[Datasheet]:
    return [e for e in read_text(text, "x.txt", html=False).entities if isinstance(e, Datasheet)]


def test_each_model_keeps_its_own_profile() -> None:
    [sheet] = sheets((FIXTURES / "two_profiles_cells.txt").read_text(encoding="utf-8"))
    got = [(p.name, p.save and p.save.text, p.wounds and p.wounds.text) for p in sheet.profiles]
    assert got == [("Test Sergeant", "5+", "1"), ("Test Trooper", "4+", "2")]
    assert [w.name for w in sheet.weapons] == ["Lasgun"]
    assert sheet.weapons[0].abilities[0].name == "RAPID FIRE 1"


def test_profile_as_pipe_rows() -> None:
    [sheet] = sheets((FIXTURES / "profile_pipe_row.txt").read_text(encoding="utf-8"))
    [profile] = sheet.profiles
    assert profile.name == "Test Boyz"
    assert (
        profile.movement and profile.movement.text,
        profile.objective_control and profile.objective_control.value,
    ) == ('6"', 2)
    assert sheet.keywords == ["INFANTRY", "MOB"] and sheet.faction_keywords == ["ORKS"]
    assert sheet.weapons[0].name == "Slugga pistol" and sheet.weapons[0].abilities == []


def test_two_dumps_pasted_into_one_file_give_both_datasheets() -> None:
    text = (RAW / "002_4ce5d9c8bc5975ce.txt").read_text(encoding="utf-8")
    text += (RAW / "004_915fe25d03f9d2ef.txt").read_text(encoding="utf-8")
    found = sheets(text)
    assert [s.id for s in found] == [
        "world-eaters/bloodthirster",
        "astra-militarum/iron-hand-straken",
    ]
    assert "khorne-daemonkin/daemontide" in found[0].stratagems
    assert "bridgehead-strike/bellicosa-drop" in found[1].stratagems


def test_weapon_profile_line_is_not_a_new_datasheet() -> None:
    text = """Tyranids – Test Beast
RANGED WEAPONS
RANGE
A
BS
S
AP
D
Test Beast's claws – sweep
Test Beast's claws – sweep
Melee
12
3+
6
-1
1
ABILITIES
CORE: Deadly Demise D3
KEYWORDS: MONSTER
FACTION KEYWORDS:
TYRANIDS
"""
    [sheet] = sheets(text)
    assert [(w.name, w.profile) for w in sheet.weapons] == [("Test Beast's claws", "sweep")]
    assert sheet.abilities.core[0].parameter == "D3"


def test_transport_capacity_is_a_datasheet_ability() -> None:
    [sheet] = sheets((FIXTURES / "transport.txt").read_text(encoding="utf-8"))
    [transport] = sheet.abilities.datasheet
    assert transport.name == "Transport"
    assert (
        transport.text
        == "This model has a transport capacity of 12 ASTRA MILITARUM INFANTRY models."
    )
    assert sheet.points[0].points == 70 and sheet.keywords == [
        "DEDICATED TRANSPORT",
        "TRANSPORT",
        "VEHICLE",
    ]


def test_conditional_weapon_abilities_are_split_off_the_name() -> None:
    """The 11th-edition export's rows (Datasheets_wargear.csv lines 3, 17, 26, 27: "LETHAL HITS:
    non-MONSTER/VEHICLE, Rapid Fire 1") as a dump prints them, as bare words after the name in
    the page's lower case or the export's spelling, bracketed, or with the export's commas."""
    [sheet] = sheets((FIXTURES / "conditional_weapon_abilities.txt").read_text(encoding="utf-8"))
    lethal = {"id": "lethal-hits", "name": "LETHAL HITS", "condition": "non-MONSTER/VEHICLE"}
    got = [
        (w.name, w.profile, [a.model_dump(exclude_none=True) for a in w.abilities])
        for w in sheet.weapons
    ]
    assert got == [
        ("Shoota", None, [lethal, {"id": "rapid-fire", "name": "RAPID FIRE 1", "value": "1"}]),
        ("Big Shoota", None, [lethal, {"id": "rapid-fire", "name": "RAPID FIRE 2", "value": "2"}]),
        ("Slugga", None, [{"id": "close-quarters", "name": "CLOSE-QUARTERS"}, lethal]),
        # the export's hyphen is not the pages' profile dash ("Plasma pistol – standard")
        (
            "Kombi-rokkit - Shoota",
            None,
            [lethal, {"id": "rapid-fire", "name": "RAPID FIRE 1", "value": "1"}],
        ),
        (
            "Kombi-skorcha - Shoota",
            None,
            [lethal, {"id": "rapid-fire", "name": "RAPID FIRE 1", "value": "1"}],
        ),
    ]


@pytest.mark.parametrize(
    ("fixture", "weapon", "skill"),
    [
        ("starred_weapon_pipe.txt", "Slugga pistol", "5+*"),
        ("starred_weapon_cells.txt", "Lasgun", "4+*"),
        ("starred_weapon_textcontent.txt", "Bolt rifle", "3+*"),
    ],
)
def test_a_starred_weapon_characteristic_reads_in_every_dump_layout(
    fixture: str, weapon: str, skill: str
) -> None:
    """``BS 5+*``, as a user types it editing a dump: the weapon is kept, its skill is 5 with the
    star in the text, and an info says the dump gives no condition (as the export reader says)."""
    reading = read_text((FIXTURES / fixture).read_text(encoding="utf-8"), "x.txt", html=False)
    [sheet] = [e for e in reading.entities if isinstance(e, Datasheet)]
    [found] = [w for w in sheet.weapons if w.name == weapon]
    assert (found.skill.text, found.skill.value) == (skill, int(skill[0]))
    rows = reading.report.diagnostics
    codes = [d.code for d in rows]
    assert "weapon-row" not in codes and "textcontent-uncut" not in codes
    [starred] = [d for d in rows if d.code == "starred-stat"]
    assert repr(skill) in starred.message and starred.severity == "info"
