"""The one weapon assembly (``blocks/weapons.py``): every reader hands it a draft and gets the
same rules and the same words (the texts are the real ones of the sources named)."""

from __future__ import annotations

import re
from pathlib import Path

from wahanorm.blocks.datasheet import At, build_profile
from wahanorm.blocks.weapons import AbilityText, WeaponDraft, build_weapon
from wahanorm.contract.vocabulary import PROFILE_CHARACTERISTICS
from wahanorm.errors import Report
from wahanorm.pipeline import read_path

SRC = Path(__file__).parent.parent / "src" / "wahanorm"
BSDATA = Path(__file__).parent / "fixtures" / "bsdata" / "wh40k-10e-2026-02-14"

# Orks.cat line 952: <profile name="➤ Gork’s Klaw - sweep" … typeName="Melee Weapons">
KLAW = ("Melee", "5", "3+", "14", "-3", "D6+1")


def test_a_hyphen_profile_is_split_and_said() -> None:
    report = Report(path="Orks.cat")
    draft = WeaponDraft(
        name="Gork’s Klaw - sweep",
        type="melee",
        characteristics=KLAW,
        abilities=[AbilityText("Devastating Wounds", At(952))],
        hyphen=True,
        at=At(952),
    )
    weapon = build_weapon(draft, report)
    assert weapon is not None
    assert (weapon.name, weapon.profile) == ("Gork’s Klaw", "sweep")
    assert [a.name for a in weapon.abilities] == ["DEVASTATING WOUNDS"]
    assert weapon.damage.dice is not None and weapon.damage.dice.sides == 6
    said = [(d.code, d.line) for d in report.diagnostics]
    assert said == [("hyphen-profile", 952)]


def test_a_source_that_prints_the_dash_splits_on_no_hyphen() -> None:
    # a dump or page prints "–": "Gork's Klaw - sweep" stays one name there
    report = Report()
    draft = WeaponDraft(name="1-2 Bubblechukka", type="ranged", characteristics=KLAW)
    weapon = build_weapon(draft, report)
    assert weapon is not None and weapon.profile is None and not report.diagnostics


def test_one_message_for_an_ability_list_that_does_not_parse() -> None:
    # the same broken list, in a name cell (a text dump) and apart (page, export, BSData)
    apart, cell = Report(), Report()
    bad = "[LETHAL HITS:]"  # a condition cut off (a hostile variant of a dump's list)
    build_weapon(
        WeaponDraft(
            name="Bolt rifle",
            type="ranged",
            characteristics=KLAW,
            abilities=[AbilityText(bad, At(7))],
            at=At(7),
        ),
        apart,
    )
    missing = build_weapon(
        WeaponDraft(name=f"Bolt rifle {bad}", type="ranged", characteristics=KLAW, at=At(7)),
        cell,
    )
    assert missing is None
    for report in (apart, cell):
        (said,) = report.diagnostics
        assert said.code == "weapon-abilities"
        assert said.line == 7
        assert re.fullmatch(
            r"weapon '.*': abilities '.*' do not parse \(.*\); left out", said.message
        )


def test_bsdata_says_its_hyphen_profiles() -> None:
    extraction = read_path(BSDATA, BSDATA.name)
    said = [d for d in extraction.report.diagnostics if d.code == "hyphen-profile"]
    assert any(
        d.line == 952 and d.path.endswith("Orks.cat") and "\"Gork's Klaw\" – 'sweep'" in d.message
        for d in said
    )


def test_no_reader_builds_a_weapon_itself() -> None:
    readers = SRC / "readers"
    builds = [
        f"{path.relative_to(SRC)}:{number}"
        for path in sorted(readers.rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"\bWeapon\(", line)
    ]
    assert builds == []


def test_no_reader_builds_a_model_profile_itself() -> None:
    readers = SRC / "readers"
    builds = [
        f"{path.relative_to(SRC)}:{number}"
        for path in sorted(readers.rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"\bProfile\(", line)
    ]
    assert builds == []


def test_a_profile_is_built_from_the_texts_by_field() -> None:
    # Datasheets_models.csv of the Valkyrie (000000727): 20+" 10 2+ 14 7+ 0, no invulnerable save
    texts = dict(zip(PROFILE_CHARACTERISTICS, ('20+"', "10", "2+", "14", "7+", "0"), strict=True))
    profile = build_profile("Valkyrie", {**texts, "objective_control": "0"})
    assert profile.movement is not None and profile.movement.text == '20+"'
    assert profile.objective_control is not None and profile.objective_control.value == 0
    assert profile.invulnerable_save is None
    assert build_profile("Valkyrie", {"movement": ""}).movement is None
