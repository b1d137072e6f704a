"""A BSData set resolved as BattleScribe resolves it: a library linked by two catalogues, a root
``model`` entry, leader links (issue 34, items 1, 3, 5), on the fixture cut from the whole
10th-edition repository (``tests/fixtures/bsdata/wh40k-10e-2026-02-14-links``, see SOURCES.md);
and on the whole shared sets, when ``../shared`` is there."""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import pytest

from wahanorm.contract.models import Datasheet
from wahanorm.pipeline import read_path
from wahanorm.pipeline.after_read import Extraction
from wahanorm.readers.bsdata.leaders import attached_unit, leader_targets

LINKS = Path(__file__).parent / "fixtures" / "bsdata" / "wh40k-10e-2026-02-14-links"
SHARED = Path(__file__).resolve().parents[2] / "shared" / "bsdata"
TENTH_ALL = SHARED / "wh40k-10e-2026-02-14-all"
ELEVENTH = SHARED / "wh40k-11e-2026-07-08"
AM_UNITS = [
    "astra-militarum/armoured-sentinels",
    "astra-militarum/cadian-castellan",
    "astra-militarum/cadian-shock-troops",
    "astra-militarum/kasrkin",
]


def read(folder: Path) -> Extraction:
    return read_path(folder, folder.name)


def sheets(extraction: Extraction) -> dict[str, Datasheet]:
    found = [e for e in extraction.entities if isinstance(e, Datasheet)]
    assert len({s.id for s in found}) == len(found)  # each once
    return {s.id: s for s in found}


def codes(extraction: Extraction) -> Counter[str]:
    return Counter(d.code for d in extraction.report.diagnostics)


@pytest.fixture(scope="module")
def links() -> Extraction:
    return read(LINKS)


def test_a_library_linked_by_two_catalogues_gives_each_unit_once_whole(links: Extraction) -> None:
    # Genestealer Cults.cat (read first) links the four Astra Militarum units of the library,
    # each hidden unless the Brood Brother Auxilia detachment is taken (a set hidden modifier);
    # Imperium - Astra Militarum.cat offers them plainly: they are read through that offer
    found = sheets(links)
    assert [i for i in sorted(found) if i.startswith("astra-militarum/")] == AM_UNITS
    assert not [i for i in found if i.startswith("genestealer-cults/")]
    assert "implausible-entity" not in codes(links)
    sentinels = found["astra-militarum/armoured-sentinels"]
    assert sentinels.faction == "Astra Militarum"
    assert sentinels.sources[0].path.endswith("Imperium - Astra Militarum - Library.cat")
    (profile,) = sentinels.profiles  # the library's line 50: M 8", T 8, SV 2+, W 7
    assert profile.name == "Armoured Sentinel"
    assert profile.movement and profile.movement.text == '8"'
    assert profile.toughness and profile.toughness.text == "8"
    assert profile.save and profile.save.text == "2+"
    assert profile.wounds and profile.wounds.text == "7"
    assert sentinels.weapons and sentinels.points


def test_the_library_read_with_the_other_catalogue_alone(tmp_path: Path) -> None:
    # without the Astra Militarum catalogue, the units are offered only under a condition: the
    # library's entries are still their datasheets, in their own faction
    for name in ("Genestealer Cults.cat", "Imperium - Astra Militarum - Library.cat"):
        shutil.copy(LINKS / name, tmp_path / name)
    shutil.copy(LINKS / "Warhammer 40,000.gst", tmp_path / "Warhammer 40,000.gst")
    found = sheets(read(tmp_path))
    assert sorted(found) == AM_UNITS
    assert all(s.profiles and s.weapons for s in found.values())


def test_a_root_model_entry_is_a_datasheet(links: Extraction) -> None:
    # Asurmen is a selectionEntry of type model at the root of Aeldari - Aeldari Library.cat
    # (line 4), linked by Aeldari - Craftworlds.cat; a hidden modifier the default roster does
    # not decide does not empty it
    asurmen = sheets(links)["aeldari/asurmen"]
    (profile,) = asurmen.profiles
    assert (profile.name, profile.movement and profile.movement.text) == ("Asurmen", '7"')
    assert profile.toughness and profile.toughness.text == "3"
    assert asurmen.weapons
    assert asurmen.sources[0].line_start == 4
    assert asurmen.leader == ["aeldari/dire-avengers"]  # "This model can be attached to ..."
    assert sheets(links)["aeldari/dire-avengers"].led_by == ["aeldari/asurmen"]


def test_a_leader_text_with_a_trailing_sentence(links: Extraction) -> None:
    found = sheets(links)
    # "... the following units: PLAGUE MARINES, POXWALKERS" then "You can attach this model
    # to a PLAGUE MARINES or POXWALKERS unit, even if ... and that Bodyguard unit is destroyed"
    blightbringer = found["death-guard/noxious-blightbringer"]
    assert blightbringer.leader == ["death-guard/plague-marines", "death-guard/poxwalkers"]
    assert found["death-guard/poxwalkers"].led_by == ["death-guard/noxious-blightbringer"]
    castellan = found["astra-militarum/cadian-castellan"]  # inline: two names, commas
    assert castellan.leader == ["astra-militarum/cadian-shock-troops", "astra-militarum/kasrkin"]
    assert "missing-entry" not in codes(links)
    every = set(found)
    assert all(set(s.leader) <= every and set(s.led_by) <= every for s in found.values())


@pytest.mark.parametrize(
    ("text", "names"),
    [
        # Chaos - Death Guard.cat (Noxious Blightbringer), as text.clean_text gives it
        (
            "This model can be attached to the following units: PLAGUE MARINES, POXWALKERS\n"
            "You can attach this model to a PLAGUE MARINES or POXWALKERS unit, even if one "
            "other Leader unit has already been attached to it (you cannot attach more than "
            "one of the same Leader to the same unit). If you do, and that Bodyguard unit is "
            "destroyed, the Leader units attached to it become separate units, with their "
            "original Starting Strengths.",
            ["PLAGUE MARINES", "POXWALKERS"],
        ),
        # Genestealer Cults.cat (Biophagus): a list, a blank line in it, a paragraph after it
        (
            "This model can be attached to the following units:\n- ABERRANTS\n"
            "- ACOLYTE HYBRIDS WITH AUTOPISTOLS\n- NEOPHYTE HYBRIDS\n"
            "You can attach this model to an ACOLYTE HYBRIDS or NEOPHYTE HYBRID unit, even if "
            "a PRIMUS, MAGUS, or ACOLYTE ICONWARD model has already been attached to it.",
            ["ABERRANTS", "ACOLYTE HYBRIDS WITH AUTOPISTOLS", "NEOPHYTE HYBRIDS"],
        ),
        # Chaos - Emperor's Children.cat (Lord Exultant): a semicolon
        (
            "This model can be attached to the following units: INFRACTORS; TORMENTORS",
            ["INFRACTORS", "TORMENTORS"],
        ),
    ],
)
def test_leader_targets_are_the_list_only(text: str, names: list[str]) -> None:
    assert leader_targets(text) == names


def test_an_attached_unit_ability_is_read() -> None:
    # Imperium - Adepta Sororitas.cat (Celestian Insidiants), Imperium - Space Marines.cat
    assert attached_unit(
        "If a model from your army with the Leader ability can be attached to a BATTLE "
        "SISTERS SQUAD, it can be attached to this unit instead."
    ) == ("CHARACTER", ["BATTLE SISTERS SQUAD"])
    assert attached_unit(
        "If a CHARACTER unit from your army with the Leader ability can be attached to an "
        "STERNGUARD VETERAN SQUAD or VANGUARD VETERAN SQUAD, it can instead be attached to "
        "this unit."
    ) == ("CHARACTER", ["STERNGUARD VETERAN SQUAD", "VANGUARD VETERAN SQUAD"])
    # Imperium - Space Marines.cat (Fortis Kill Team): no "unit" or "model" after the kind
    assert attached_unit(
        "If a CHARACTER from your army with the Leader ability can be attached to an "
        "INTERCESSOR SQUAD, it can be attached to this unit instead."
    ) == ("CHARACTER", ["INTERCESSOR SQUAD"])
    assert attached_unit(
        "If a Captain or Chapter Master unit from your army can be attached to a Company "
        "Heroes unit, it can be attached to this unit instead."
    ) == ("Captain or Chapter Master", ["Company Heroes"])
    assert attached_unit("This unit can be attached to the following unit: BOYZ") is None


def test_an_entry_with_a_unit_profile_offered_nowhere_is_said(tmp_path: Path) -> None:
    # the library alone, its Armoured Sentinels made an upgrade (as X-101 [Legends] is in the
    # Adeptus Mechanicus catalogue) and no catalogue to offer it: no datasheet, said
    library = "Imperium - Astra Militarum - Library.cat"
    text = (LINKS / library).read_text(encoding="utf-8")
    start = '<selectionEntry type="unit" import="true" name="Armoured Sentinels"'
    assert start in text
    (tmp_path / library).write_text(
        text.replace(start, start.replace('"unit"', '"upgrade"')), encoding="utf-8"
    )
    shutil.copy(LINKS / "Warhammer 40,000.gst", tmp_path / "Warhammer 40,000.gst")
    extraction = read(tmp_path)
    assert "astra-militarum/armoured-sentinels" not in sheets(extraction)
    (said,) = [d for d in extraction.report.diagnostics if d.code == "unoffered-entry"]
    assert "'Armoured Sentinels'" in said.message and said.line == 4


# ------------------------------------------------------------------------ the whole sets


@pytest.fixture(scope="module")
def tenth_all() -> Extraction:
    if not TENTH_ALL.is_dir():
        pytest.skip(f"{TENTH_ALL} is absent (the team's shared data)")
    return read(TENTH_ALL)


def test_the_whole_tenth_set_loses_no_library(tenth_all: Extraction) -> None:
    found = sheets_by_faction(tenth_all)
    # Wahapedia's export of the same day: 128 Astra Militarum datasheets (95 of them also
    # under Genestealer Cults, which BSData offers only with a detachment: read once here)
    assert found["Astra Militarum"] == 128
    ids = {e.id for e in tenth_all.entities if isinstance(e, Datasheet)}
    for unit in (
        "astra-militarum/baneblade",
        "chaos-space-marines/chaos-lord",
        "chaos-space-marines/possessed",
        "chaos-space-marines/havocs",
        "aeldari/asurmen",
        "aeldari/avatar-of-khaine",
        "death-guard/great-unclean-one",  # Faction: Plague Legions, in the Death Guard file
        "adeptus-mechanicus/x-101",  # an upgrade at the catalogue's root with a Unit profile
    ):
        assert unit in ids, unit
    implausible = [d for d in tenth_all.report.diagnostics if d.code == "implausible-entity"]
    assert [d.message.split("'")[1] for d in implausible] == ["Searchlight"]  # a terrain piece
    assert "unoffered-entry" not in codes(tenth_all)


def test_two_units_of_one_name_are_two_ids(tenth_all: Extraction) -> None:
    found = {e.id: e for e in tenth_all.entities if isinstance(e, Datasheet)}
    # Imperium - Space Marines.cat and Imperium - Black Templars.cat each hold a Sternguard
    # Veteran Squad (Faction: Adeptus Astartes): two units; the export's ids for them
    plain = found["space-marines/sternguard-veteran-squad"]
    templars = found["space-marines/sternguard-veteran-squad-black-templars"]
    assert plain.sources[0].path.endswith("Imperium - Space Marines.cat")
    assert templars.sources[0].path.endswith("Imperium - Black Templars.cat")
    # one file, one name, one entry tagged: Aeldari - Aeldari Library.cat's two Prince Yriel
    assert {"aeldari/prince-yriel", "aeldari/prince-yriel-legends"} <= set(found)
    # the Space Wolves' Crusade variant of Wolf Guard Headtakers (hidden unless the force is a
    # Crusade force) is no datasheet of its own
    assert not [i for i in found if i.startswith("space-marines/wolf-guard-headtakers-")]
    assert any(
        d.code == "hidden-entry" and "'Wolf Guard Headtakers'" in d.message
        for d in tenth_all.report.diagnostics
    )
    assert "conflict" not in codes(tenth_all)
    # hidden from the default roster on conditions of forces alone: Crusade, Boarding Actions
    # content; Asurmen, hidden only until a detachment is chosen, is a datasheet
    assert "space-marines/emperor-s-champion-anointed" not in found
    assert "thousand-sons/chaos-spawn-flesh-change" not in found
    assert "aeldari/asurmen" in found


def test_the_whole_tenth_set_leader_links(tenth_all: Extraction) -> None:
    found = {e.id: e for e in tenth_all.entities if isinstance(e, Datasheet)}
    assert all(set(s.leader) <= set(found) for s in found.values())
    # "EXACTION SQUAD, IMPERIUM BATTLELINE INFANTRY, ...": a keyword class
    draxus = found["agents-of-the-imperium/inquisitor-draxus"].leader
    assert {"space-marines/intercessor-squad", "adepta-sororitas/battle-sisters-squad"} <= set(
        draxus
    )
    # Celestian Insidiants' Attached Unit: a leader that can lead a Battle Sisters Squad
    canoness = found["adepta-sororitas/canoness"]
    assert {"adepta-sororitas/battle-sisters-squad", "adepta-sororitas/celestian-insidiants"} <= (
        set(canoness.leader)
    )
    # a chain: the Decimus Kill Team opens to those who can lead a Fortis Kill Team, which
    # opens to those who can lead an Intercessor Squad (the Apothecary's Leader text names it)
    apothecary = set(found["space-marines/apothecary"].leader)
    assert {
        "space-marines/intercessor-squad",
        "space-marines/fortis-kill-team",
        "space-marines/decimus-kill-team",
    } <= apothecary


def test_a_catalogue_the_set_lacks_is_said_once(tmp_path: Path) -> None:
    if not ELEVENTH.is_dir():
        pytest.skip(f"{ELEVENTH} is absent (the team's shared data)")
    extraction = read(ELEVENTH)
    missing = [d for d in extraction.report.diagnostics if d.code == "missing-import"]
    # the four libraries absent from every public copy (../shared/bsdata/README.md)
    assert sorted(d.message.split("'")[1] for d in missing) == [
        "Aeldari - Aeldari Library",
        "Chaos - Chaos Space Marines",
        "Imperium - Astra Militarum - Library",
        "Imperium - Space Marines",
    ]
    assert "dangling-link" not in codes(extraction)  # counted in those four, not one by one
    library = next(d for d in missing if "'Imperium - Astra Militarum - Library'" in d.message)
    assert "2 import it ('Xenos - Genestealer Cults', 'Imperium - Astra Militarum')" in (
        library.message
    )


def sheets_by_faction(extraction: Extraction) -> Counter[str]:
    return Counter(e.faction for e in extraction.entities if isinstance(e, Datasheet))
