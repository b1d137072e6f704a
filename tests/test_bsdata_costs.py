"""The BSData reader prices every unit size the source prices (issue 34, rest): a cost modifier
whose condition counts the selections of the group that holds all of a unit's models is a
count of models; a counted group of models that holds a sergeant gives the sergeant a line of
its own; an aura is one in square brackets or in a profile of another type; on a fixture cut from the whole 10th-edition repository of ``../shared``
(``tests/fixtures/bsdata/wh40k-10e-2026-02-14-costs``, see SOURCES.md). Facts checked against
the XML of the fixture and the Wahapedia export of the same day (``Datasheets_models_cost``:
Intercessor Squad 5 models 80, 10 models 160; Aggressor Squad 3 models 95, 6 models 190)."""

from __future__ import annotations

from pathlib import Path

import pytest

from wahanorm.contract.models import Datasheet
from wahanorm.pipeline import read_path
from wahanorm.pipeline.after_read import Extraction

FOLDER = Path(__file__).parent / "fixtures" / "bsdata" / "wh40k-10e-2026-02-14-costs"


@pytest.fixture(scope="module")
def data_set() -> Extraction:
    return read_path(FOLDER, FOLDER.name)


def sheet(extraction: Extraction, entity_id: str) -> Datasheet:
    found = [e for e in extraction.entities if e.id == entity_id and e.kind == "datasheet"]
    assert len(found) == 1, [e.id for e in extraction.entities]
    assert isinstance(found[0], Datasheet)
    return found[0]


def test_a_cost_set_by_the_count_of_a_group_of_models_prices_the_larger_unit(
    data_set: Extraction,
) -> None:
    # Intercessor Squad: cost 80; ``set 160`` when at least 6 selections of the group
    # "Intercessors" (e371-90b3-5640-949), which holds the sergeant and the Intercessors (5-10)
    intercessors = sheet(data_set, "space-marines/intercessor-squad")
    assert [(p.models, p.points) for p in intercessors.points] == [(5, 80), (10, 160)]
    # Aggressor Squad: cost 95; ``set 190`` when at least 4 selections of the group
    # "Aggressors" (72d4-ff18-9328-2bce: Aggressor Sergeant 1, Aggressors 2-5)
    aggressors = sheet(data_set, "space-marines/aggressor-squad")
    assert [(p.models, p.points) for p in aggressors.points] == [(3, 95), (6, 190)]


def test_no_cost_modifier_of_these_units_is_left_unread(data_set: Extraction) -> None:
    notes = [d for d in data_set.report.diagnostics if d.code == "dropped-field"]
    assert not [d for d in notes if "cost" in d.message], [d.message for d in notes]


def test_a_counted_group_that_holds_a_sergeant_gives_the_sergeant_a_line_of_its_own(
    data_set: Extraction,
) -> None:
    # "Intercessors" (5-10): Intercessor Sergeant 1, Intercessor 4-9, Intercessor w/ Grenade
    # Launcher 0-2; the export: "1 Intercessor Sergeant", "4-9 Intercessors"
    intercessors = sheet(data_set, "space-marines/intercessor-squad")
    assert intercessors.unit_composition == ["1 Intercessor Sergeant", "4-9 Intercessors"]


def test_models_with_their_wargear_in_a_counted_group_stay_in_its_count(
    data_set: Extraction,
) -> None:
    # "9 Armsmen" (9): Navis Armsman w/ heavy shotgun 1, w/ special weapon 1, Navis Armsman;
    # the export: "1 Navis Sergeant-at-Arms", "9 Navis Armsmen"
    breachers = sheet(data_set, "agents-of-the-imperium/imperial-navy-breachers")
    assert breachers.unit_composition == ["1 Navis Sergeant-at-Arms", "9 Armsmen"]


def test_an_aura_in_square_brackets_is_an_aura(data_set: Extraction) -> None:
    # Imperium - Space Marines.cat, Dreadnought: the profile "Wisdom of the Ancients [Aura]"
    dreadnought = sheet(data_set, "space-marines/dreadnought")
    ability = {a.name: a for a in dreadnought.abilities.datasheet}["Wisdom of the Ancients"]
    assert ability.aura is True


def test_an_aura_in_a_profile_of_another_type_is_an_aura(data_set: Extraction) -> None:
    # Chaos - Chaos Daemons Library.cat, Be'lakor: three profiles of type "Shadow Form" named
    # "… (Aura, Psychic)" (read as abilities, said once: ability-group)
    belakor = sheet(data_set, "daemons/be-lakor")
    auras = {a.name: a.aura for a in belakor.abilities.datasheet if "(Aura, Psychic)" in a.name}
    assert auras == {
        "Wreathed in Shadows (Aura, Psychic)": True,
        "Pall of Despair (Aura, Psychic)": True,
        "Shadow Lord (Aura, Psychic)": True,
    }


def test_a_leader_list_the_source_wraps_is_read_to_its_end(data_set: Extraction) -> None:
    # Imperium - Ultramarines.cat, Marneus Calgar in Armour of Antilochus: "This model can be
    # attached to the following units: Aggressor Squad, Assault Intercessor Squad,⏎Bladeguard
    # Veteran Squad, …, Infernus Squad, Intercessor Squad, …, Terminator⏎Assault Squad, …"
    calgar = sheet(data_set, "space-marines/marneus-calgar-in-armour-of-antilochus")
    assert calgar.leader == ["space-marines/aggressor-squad", "space-marines/intercessor-squad"]
    named = [d.message for d in data_set.report.diagnostics if d.code == "missing-entry"]
    # the other eleven are named, none cut at a line break ('Terminator' alone)
    assert len(named) == 11, named
    assert any("'Terminator Assault Squad'" in m for m in named)
    assert any("'Victrix Honour Guard'" in m for m in named)
