"""Triples (``tests/fixtures/triples/``, SOURCES.md): the same unit read from its saved page,
from the textContent dump of that page and from the export rows of the same unit, each through
its reader and the after-read chain. The three give the same datasheet, field by field, where
the sources agree; ``DIFFERENCES`` lists where they really differ, with the reason."""

from __future__ import annotations

import filecmp
import importlib.util
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

from conftest import shared_path
from wahanorm.contract.models import Datasheet, Weapon
from wahanorm.outputs.canonical import canonical_json
from wahanorm.pipeline import read_path
from wahanorm.pipeline.after_read import Extraction

TRIPLES = Path(__file__).parent / "fixtures" / "triples"
UNITS = {  # the file names of the page and the dump → the datasheet's id
    "Commissar": "astra-militarum/commissar",
    "Cadian_Shock_Troops": "astra-militarum/cadian-shock-troops",
    "Valkyrie": "astra-militarum/valkyrie",
}
FORMS = ("page", "dump", "export")
FIELDS = tuple(name for name in Datasheet.model_fields if name != "sources")


@dataclass(frozen=True)
class Difference:
    """A field one form gives otherwise than the other two, which agree."""

    apart: str
    reason: str


DIFFERENCES: dict[tuple[str, str], Difference] = {
    ("astra-militarum/cadian-shock-troops", "led_by"): Difference(
        "dump",
        "a dump keeps no links, so the units it lists are named in its own faction: seven "
        "Inquisitors the page links as /factions/imperial-agents/… and the export gives in "
        "Imperial Agents are astra-militarum/… in the dump",
    ),
    ("astra-militarum/cadian-shock-troops", "loadout"): Difference(
        "dump",
        "textContent keeps no line breaks: 'Every Shock Trooper Sergeant is equipped with: …' and "
        "'Every Shock Trooper is equipped with: …' run together on one line",
    ),
    ("astra-militarum/cadian-shock-troops", "wargear_options"): Difference(
        "dump",
        "textContent runs the footnote into the last option ('… 1 close combat weapon.* You "
        "cannot select …'): one option where the page and the export print two lines",
    ),
}


@cache
def _read(form: str, unit: str) -> Extraction:
    if form == "export":
        return read_path(TRIPLES / "export", "export")
    return read_path(TRIPLES / f"{unit}.{'html' if form == 'page' else 'txt'}")


def _sheet(form: str, unit: str) -> Datasheet:
    [sheet] = [
        e for e in _read(form, unit).entities if isinstance(e, Datasheet) and e.id == UNITS[unit]
    ]
    return sheet


def _field(form: str, unit: str, name: str) -> str:
    return canonical_json({name: _sheet(form, unit).model_dump(mode="json")[name]})


@pytest.mark.parametrize("name", FIELDS)
@pytest.mark.parametrize("unit", UNITS)
def test_the_three_forms_give_the_same_field(unit: str, name: str) -> None:
    values = {form: _field(form, unit, name) for form in FORMS}
    difference = DIFFERENCES.get((UNITS[unit], name))
    if difference is None:
        assert values["page"] == values["dump"] == values["export"], f"{unit} {name}"
        return
    # A listed difference stays true: the other two agree, the one apart does not.
    agree = [values[form] for form in FORMS if form != difference.apart]
    assert agree[0] == agree[1], f"{unit} {name}: {difference.reason}"
    assert values[difference.apart] != agree[0], f"{unit} {name} agrees now: drop it from the list"


def test_orders_are_the_orders_of_every_form() -> None:
    # The page's and the dump's ORDERS box; the export's ability row 000000716|7|||ORDERS|….
    text = (
        "This OFFICER can issue 1 Order to a REGIMENT unit. This OFFICER can only issue the Duty "
        "and Honour! and Fix Bayonets! Orders."
    )
    for form in FORMS:
        sheet = _sheet(form, "Commissar")
        assert sheet.orders == text, form
        assert [a.name for a in sheet.abilities.datasheet] == [
            "Summary Execution",
            "Political Overwatch",
        ], form


def test_transport_is_the_last_datasheet_ability_of_every_form() -> None:
    for form in FORMS:
        *_, transport = _sheet(form, "Valkyrie").abilities.datasheet
        assert transport.name == "Transport", form
        assert transport.text is not None
        assert transport.text.startswith("This model has a transport capacity of 12 ASTRA"), form


def test_leader_links_name_the_faction_of_the_linked_page() -> None:
    # Datasheets_leader.csv: 000000877 (Inquisitor, faction AoI) leads 000002612.
    for form in ("page", "export"):
        led_by = _sheet(form, "Cadian_Shock_Troops").led_by
        assert len(led_by) == 16 and "imperial-agents/inquisitor" in led_by, form
        assert "astra-militarum/commissar" in led_by, form
    assert "astra-militarum/inquisitor" in _sheet("dump", "Cadian_Shock_Troops").led_by
    assert len(_sheet("page", "Commissar").leader) == 6


def test_an_aircraft_page_gives_its_characteristics() -> None:
    # The Valkyrie's boxes are dsCharWrapM; Datasheets_models 000000727: 20+" 10 2+ 14 7+ 0.
    [profile] = _sheet("page", "Valkyrie").profiles
    stats = (
        profile.movement,
        profile.toughness,
        profile.save,
        profile.wounds,
        profile.leadership,
        profile.objective_control,
    )
    assert [s.text if s else None for s in stats] == ['20+"', "10", "2+", "14", "7+", "0"]


def test_no_form_reports_an_error_or_a_lost_field() -> None:
    for unit in UNITS:
        for form in FORMS:
            codes = [
                (d.severity, d.code)
                for d in _read(form, unit).report.diagnostics
                if d.severity == "error" or d.code in ("keyword-scope", "characteristic-missing")
            ]
            assert codes == [], f"{unit} {form}"


def test_the_triples_are_cut_from_the_shared_inputs(tmp_path: Path) -> None:
    """``make_triples.py`` on ``../shared`` writes the committed files, byte for byte."""
    shared = shared_path("html-pages").parent
    spec = importlib.util.spec_from_file_location("make_triples", TRIPLES / "make_triples.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.make(shared, tmp_path)
    made = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.is_file())
    committed = sorted(
        p.relative_to(TRIPLES)
        for p in TRIPLES.rglob("*")
        if p.is_file() and p.suffix not in (".py", ".md")
    )
    assert made == committed
    _, mismatch, errors = filecmp.cmpfiles(tmp_path, TRIPLES, [str(p) for p in made], shallow=False)
    assert mismatch == [] and errors == []


# ----------------------------------------------------------------------- the BSData entry
# ``bsdata/``: the three units' entries of the BSData catalogues of 2026-02-14 (SOURCES.md).
# BSData is another source, not another form of the same page: it holds every option's weapon
# (the export only the datasheet's wargear rows), no base size, loadout or wargear option
# text, and the cut holds no other unit to lead. Where it says what the three say, it says it
# the same way, through the same datasheet builder.
BSDATA_SAME = (
    "id",
    "name",
    "edition",
    "kind",
    "faction",
    "damaged",
    "unit_composition",
    "points",
    "keywords",
    "faction_keywords",
    "is_support",
)
BSDATA_WEAPON_DIFFERENCES = {
    ("astra-militarum/commissar", "Chainsword"): (
        "skill",
        "BSData's shared Chainsword profile is WS 4+, the Commissar's own is 3+ (a modifier for "
        "the bearer, which the contract holds no field for: dropped-field)",
    ),
    ("astra-militarum/valkyrie", "Hellstrike missiles"): (
        "abilities",
        "BSData writes 'Anti-Fly 2' without its '+': an ability the grammar does not know, kept "
        "whole (unknown-weapon-ability)",
    ),
}


@cache
def _bsdata() -> Extraction:
    return read_path(TRIPLES / "bsdata", "bsdata")


def _bsdata_sheet(unit: str) -> Datasheet:
    [sheet] = [e for e in _bsdata().entities if isinstance(e, Datasheet) and e.id == UNITS[unit]]
    return sheet


@pytest.mark.parametrize("name", BSDATA_SAME)
@pytest.mark.parametrize("unit", UNITS)
def test_the_bsdata_entry_gives_the_same_field(unit: str, name: str) -> None:
    bsdata = canonical_json({name: _bsdata_sheet(unit).model_dump(mode="json")[name]})
    for form in FORMS:
        assert bsdata == _field(form, unit, name), f"{unit} {name} {form}"


@pytest.mark.parametrize("unit", UNITS)
def test_the_bsdata_entry_holds_every_weapon_of_the_export(unit: str) -> None:
    bsdata = {(w.name, w.profile): w for w in _bsdata_sheet(unit).weapons}
    for weapon in _sheet("export", unit).weapons:
        theirs = bsdata[(weapon.name, weapon.profile)]
        apart = BSDATA_WEAPON_DIFFERENCES.get((UNITS[unit], weapon.name))
        for name in Weapon.model_fields:
            mine, other = getattr(weapon, name), getattr(theirs, name)
            if name == "abilities":  # the order of a list of keywords is the source's
                mine, other = sorted(a.id for a in mine), sorted(a.id for a in other)
            if apart is not None and apart[0] == name:
                assert mine != other, f"{unit} {weapon.name} {name} agrees now: drop it"
            else:
                assert mine == other, f"{unit} {weapon.name} {name}"


def test_the_bsdata_entry_places_orders_and_transport_as_the_others() -> None:
    commissar = _bsdata_sheet("Commissar")
    assert commissar.orders is not None and _sheet("export", "Commissar").orders is not None
    # BSData prints the keywords in the text in title case ("This Officer can issue …")
    assert commissar.orders.casefold() == _sheet("export", "Commissar").orders.casefold()
    assert [a.name for a in commissar.abilities.datasheet] == [
        "Summary Execution",
        "Political Overwatch",
    ]
    *_, transport = _bsdata_sheet("Valkyrie").abilities.datasheet
    assert transport.name == "Transport"
    assert transport.text is not None
    assert transport.text.startswith("This model has a transport capacity of 12 ASTRA")


def test_the_bsdata_entry_leads_and_is_led_by_what_the_cut_holds() -> None:
    # the cut holds the three units only: the Commissar leads the Cadian Shock Troops there
    assert _bsdata_sheet("Commissar").leader == ["astra-militarum/cadian-shock-troops"]
    assert _bsdata_sheet("Cadian_Shock_Troops").led_by == ["astra-militarum/commissar"]
    for unit in ("Commissar", "Cadian_Shock_Troops"):
        export = _sheet("export", unit)
        bsdata = _bsdata_sheet(unit)
        assert set(bsdata.leader) <= set(export.leader)
        assert set(bsdata.led_by) <= set(export.led_by)


def test_a_transport_profile_before_the_abilities_is_still_the_last_ability() -> None:
    # Imperium - Astra Militarum - Library.cat: the Valkyrie Sky Talon's Transport profile
    # comes before its Fire Support ability profile; the builder places it last, as the
    # Wahapedia readers do (the Valkyrie's page and export: Transport after the others)
    talon = next(
        e
        for e in _bsdata().entities
        if isinstance(e, Datasheet) and e.id == "astra-militarum/valkyrie-sky-talon"
    )
    assert [a.name for a in talon.abilities.datasheet] == ["Fire Support", "Transport"]
