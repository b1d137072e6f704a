"""Every model profile of a saved page with its characteristics, each model's own keywords, and
every rules box kept: on small handmade pages that follow the real pages' DOM (profile rows in
``dsProfileWrapLeft``, model names in ``dsModelName``, keyword lines inside ``dsLeftСolKW``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from wahanorm.contract.models import Datasheet, Profile
from wahanorm.pipeline import read_text
from wahanorm.pipeline.after_read import Extraction

FIXTURES = Path(__file__).parent / "fixtures" / "html"


def _page(name: str) -> Extraction:
    extraction = read_text((FIXTURES / name).read_text(encoding="utf-8"), name, html=True)
    assert extraction is not None
    return extraction


def _sheet(extraction: Extraction) -> Datasheet:
    [sheet] = [e for e in extraction.entities if isinstance(e, Datasheet)]
    return sheet


def _stats(profile: Profile) -> list[str | None]:
    fields = (
        profile.movement,
        profile.toughness,
        profile.save,
        profile.wounds,
        profile.leadership,
        profile.objective_control,
    )
    return [s.text if s else None for s in fields]


@pytest.mark.parametrize("page", ["two_profiles.html", "two_profile_boxes.html"])
def test_second_profile_without_characteristic_names_is_read(page: str) -> None:
    sheet = _sheet(_page(page))
    assert [(p.name, _stats(p)) for p in sheet.profiles] == [
        ("Cadian Commander", ['6"', "3", "5+", "3", "7+", "1"]),
        ("Veteran Guardsman", ['6"', "3", "5+", "1", "7+", "1"]),
    ]
    # One box for both models: its save is both's; one box each: the save after the first box
    # is the first model's only.
    saves = [p.invulnerable_save.text if p.invulnerable_save else None for p in sheet.profiles]
    assert saves == (["5+", "5+"] if page == "two_profiles.html" else ["5+", None])


@pytest.mark.parametrize("page", ["two_profiles.html", "two_profile_boxes.html"])
def test_keywords_scoped_to_one_model_stay_on_its_profile(page: str) -> None:
    sheet = _sheet(_page(page))
    assert sheet.keywords == ["COMMAND SQUAD", "GRENADES", "IMPERIUM", "INFANTRY"]
    assert [(p.name, p.keywords) for p in sheet.profiles] == [
        ("Cadian Commander", ["CHARACTER", "OFFICER"]),
        ("Veteran Guardsman", []),
    ]
    assert sheet.faction_keywords == ["ASTRA MILITARUM"]


def test_rules_boxes_are_kept_as_abilities() -> None:
    extraction = _page("two_profiles.html")
    sheet = _sheet(extraction)
    by_name = {a.name: a.text for a in sheet.abilities.datasheet}
    assert by_name["SUPREME COMMANDER"] == "If this model is in your army, it must be your Warlord."
    assert "Senior Officer" in by_name
    notes = [d for d in extraction.report.diagnostics if d.code == "ability-group"]
    assert [d.line for d in notes] == [d.line for d in notes if d.line]
    assert len(notes) == 1
    air = _sheet(_page("aircraft.html"))
    embarking = [a for a in air.abilities.datasheet if a.name == "EMBARKING"]
    assert embarking and embarking[0].text and "Hover mode" in embarking[0].text
    assert [a.name for a in air.abilities.datasheet] == ["EMBARKING", "Transport"]


def test_aircraft_characteristics_are_read() -> None:
    extraction = _page("aircraft.html")
    [profile] = _sheet(extraction).profiles
    assert (profile.name, _stats(profile)) == ("Valkyrie", ['20+"', "10", "2+", "14", "7+", "0"])
    assert profile.objective_control is not None and profile.objective_control.value == 0
    assert not [d for d in extraction.report.diagnostics if d.code.startswith("profile-")]


def _frame(chars: str, keywords: str = "KEYWORDS: <span>X</span>") -> str:
    return (
        '<h1 class="page_header2"><span class="page_header_span2">Test</span></h1>'
        '<div class="dsOuterFrame"><div class="dsH2Header"><div>Wall</div></div>'
        '<div class="dsProfileBaseWrap"><div class="dsProfileWrapLeft">'
        f'<div class="dsProfileWrap">{chars}</div></div></div>'
        f'<div class="ds2colKW"><div>{keywords}</div></div></div>'
    )


def test_a_printed_dash_is_passed_on_as_printed() -> None:
    chars = (
        '<div class="dsCharWrap"><div class="dsCharName">M</div><div class="dsCharValue">-</div>'
        '</div><div class="dsCharWrap"><div class="dsCharName">T</div>'
        '<div class="dsCharValue">10</div></div>'
    )
    extraction = read_text(_frame(chars), "wall.html", html=True)
    assert extraction is not None
    [profile] = _sheet(extraction).profiles
    assert profile.movement is not None and profile.movement.text == "-"
    assert profile.toughness is not None and profile.toughness.value == 10


def test_a_profile_without_characteristics_is_a_warning() -> None:
    extraction = read_text(_frame(""), "wall.html", html=True)
    assert extraction is not None
    [warning] = [d for d in extraction.report.diagnostics if d.code == "characteristic-missing"]
    assert warning.severity == "warning" and warning.line


def test_keywords_for_a_model_no_profile_names_stay_on_the_unit_aloud() -> None:
    keywords = "KEYWORDS: <span>INFANTRY</span><span><b>Sergeant</b>: <span>CHARACTER</span></span>"
    extraction = read_text(_frame("", keywords), "wall.html", html=True)
    assert extraction is not None
    assert _sheet(extraction).keywords == ["CHARACTER", "INFANTRY"]
    # One code for every reader: the builder holds the rule (blocks/datasheet.py).
    [scope] = [d for d in extraction.report.diagnostics if d.code == "keyword-scope"]
    assert "'SERGEANT'" in scope.message and scope.line


def test_a_box_under_the_weapons_is_kept_or_said_aloud() -> None:
    html = (
        '<h1 class="page_header2"><span class="page_header_span2">Test</span></h1>'
        '<div class="dsOuterFrame"><div class="dsH2Header"><div>Gunner</div></div>'
        '<div class="ds2col"><div class="dsLeftСol"><table class="wTable"><tr><td '
        'class="dsHeader"></td><td><div class="dsHeader">RANGED WEAPONS</div></td></tr><tr><td>'
        '</td><td>Gun</td><td>24"</td><td>1</td><td>4+</td><td>4</td><td>0</td><td>1</td></tr>'
        '</table><div class="dsAbility"><b>Loyal Protector:</b> While this model is leading a '
        'unit, it can be your Warlord.</div><div class="dsNote">A note nobody names.</div>'
        "</div></div></div>"
    )
    extraction = read_text(html, "gunner.html", html=True)
    assert extraction is not None
    sheet = _sheet(extraction)
    assert [(a.name, a.text) for a in sheet.abilities.datasheet] == [
        ("Loyal Protector", "While this model is leading a unit, it can be your Warlord.")
    ]
    [unread] = [d for d in extraction.report.diagnostics if d.code == "unparsed"]
    assert "A note nobody names." in unread.message and unread.line


def test_characteristic_boxes_without_a_profile_wrap_are_read() -> None:
    chars = "".join(
        f'<div class="dsCharWrap"><div class="dsCharName">{n}</div>'
        f'<div class="dsCharFrame"><div class="dsCharValue">{v}</div></div></div>'
        for n, v in zip(
            ["M", "T", "Sv", "W", "Ld", "OC"], ['20+"', "10", "3+", "14", "7+", "0"], strict=True
        )
    )
    html = (
        '<h1 class="page_header2"><span class="page_header_span2">Test</span></h1>'
        '<div class="dsOuterFrame"><div class="dsH2Header"><div>Flyer</div></div>'
        f'<div class="dsProfileBaseWrap"><div class="dsProfileWrapLeft">{chars}</div></div>'
        '<div class="dsAbility"><div class="dsCharWrap"><div class="dsCharName">LD</div>'
        '<div class="dsCharValue">+1</div></div></div></div>'
    )
    extraction = read_text(html, "flyer.html", html=True)
    assert extraction is not None
    [profile] = _sheet(extraction).profiles
    assert (profile.name, _stats(profile)) == ("Flyer", ['20+"', "10", "3+", "14", "7+", "0"])


def test_weapon_abilities_in_kwbw_spans_are_split_off_the_name() -> None:
    html = (
        '<h1 class="page_header2"><span class="page_header_span2">Test</span></h1>'
        '<div class="dsOuterFrame"><div class="dsH2Header"><div>Gunner</div></div>'
        '<table class="wTable"><tr><td class="dsHeader"></td><td><div class="dsHeader">'
        'RANGED WEAPONS</div></td></tr><tr><td></td><td class="wTable2_short"><span>Bolt pistol '
        '<span class="kwbw dsColorSM"><span class="tt kwbu">pistol</span></span></span></td>'
        '<td>12"</td><td>1</td><td>3+</td><td>4</td><td>0</td><td>1</td></tr></table></div>'
    )
    extraction = read_text(html, "gunner.html", html=True)
    assert extraction is not None
    [weapon] = _sheet(extraction).weapons
    assert (weapon.name, [a.id for a in weapon.abilities]) == ("Bolt pistol", ["pistol"])


# The 11th-edition export prints Kustom Shoota's list as "LETHAL HITS: non-MONSTER/VEHICLE,
# Rapid Fire 2" (Datasheets_wargear.csv); a page prints each ability in its own kwbw span after
# the name. The first form follows the 2026-09 page markup (the words in ``ttw`` spans, "non-"
# in a ``kwnon`` span); the others are the plausible places for the condition.
_CONDITIONAL_SPANS = {
    "one span, its words in spans": (
        '<span class="kwbw dsColorOR"><span class="kwb"><span class="tooltip1">'
        '<span class="ttw kwbu">LETHAL</span> <span class="ttw kwbu">HITS:</span> '
        '<span class="ttw kwbu"><span class="kwnon">non-</span>MONSTER/VEHICLE</span>'
        "</span></span></span> "
        '<span class="kwbw dsColorOR"><span class="tooltip2"><span class="ttw kwbu">Rapid</span> '
        '<span class="ttw kwbu">Fire</span> <span class="ttw kwbu">2</span></span></span>'
    ),
    "the condition in the next span": (
        '<span class="kwb2">lethal hits:</span> <span class="kwb2">non-MONSTER/VEHICLE</span> '
        '<span class="kwb2">rapid fire 2</span>'
    ),
    "the colon between two spans": (
        '<span class="kwb2">lethal hits</span>: <span class="kwb2">non-MONSTER/VEHICLE</span> '
        '<span class="kwb2">rapid fire 2</span>'
    ),
    "the condition as text after the span": (
        '<span class="kwbw">LETHAL HITS:</span> non-MONSTER/VEHICLE '
        '<span class="kwbw">Rapid Fire 2</span>'
    ),
    "one span holding the list without a comma": (
        '<span class="kwbw">LETHAL HITS: non-MONSTER/VEHICLE Rapid Fire 2</span>'
    ),
    "one span holding the bracketed list": (
        '<span class="kwbw">[LETHAL HITS: non-MONSTER/VEHICLE, Rapid Fire 2]</span>'
    ),
}


@pytest.mark.parametrize("spans", _CONDITIONAL_SPANS.values(), ids=list(_CONDITIONAL_SPANS))
def test_conditional_weapon_ability_in_spans_is_read_whole(spans: str) -> None:
    html = (
        '<h1 class="page_header2"><span class="page_header_span2">Orks</span></h1>'
        '<div class="dsOuterFrame"><div class="dsH2Header"><div>Warboss</div></div>'
        '<table class="wTable"><tr><td class="dsHeader"></td><td><div class="dsHeader">'
        'RANGED WEAPONS</div></td></tr><tr><td></td><td class="wTable2_short"><span>'
        f'<b class="dsWeaponName">Kustom Shoota</b> {spans}</span></td>'
        '<td>18"</td><td>4</td><td>5+</td><td>4</td><td>0</td><td>1</td></tr></table></div>'
    )
    extraction = read_text(html, "warboss.html", html=True)
    assert extraction is not None
    [weapon] = _sheet(extraction).weapons
    assert weapon.name == "Kustom Shoota"
    assert [a.model_dump(exclude_none=True) for a in weapon.abilities] == [
        {"id": "lethal-hits", "name": "LETHAL HITS", "condition": "non-MONSTER/VEHICLE"},
        {"id": "rapid-fire", "name": "RAPID FIRE 2", "value": "2"},
    ]
    codes = {d.code for d in extraction.report.diagnostics}
    assert not codes & {"weapon-abilities", "unknown-weapon-ability"}, codes


def _shoota_row(name: str, strength: str) -> str:
    return (
        '<tr class="wTable2_long"><td></td><td colspan="6"><span>'
        f'<b class="dsWeaponName">{name}</b></span></td></tr>'
        '<tr class="dsWeaponRow"><td></td><td class="wTable2_short"><span>'
        f'<b class="dsWeaponName">{name}</b></span></td><td><div class="ct">24"</div></td>'
        '<td><div class="ct">1</div></td><td><div class="ct">5+</div></td>'
        f'<td><div class="ct">{strength}</div></td><td><div class="ct">-2</div></td>'
        '<td><div class="ct">3</div></td></tr>'
    )


_HUNTER_ROW = (
    '<tr class="dsHunterKwRow"><td></td><td colspan="7"><div class="dsHunterKwWrap">'
    '<span class="dsHunterKw">HUNTER: <span class="kwb">MONSTER/VEHICLE</span></span></div>'
    "</td></tr>"
)


def _hunter_page(rows: str) -> Extraction:
    html = (
        '<h1 class="page_header2"><span class="page_header_span2">Orks</span></h1>'
        '<div class="dsOuterFrame"><div class="dsH2Header"><div>Tankbustas</div></div>'
        '<table class="wTable"><tbody><tr><td class="dsHeader"></td><td class="wTable_WEAPON">'
        '<div class="dsHeader">RANGED WEAPONS</div></td></tr></tbody>'
        f'<tbody class="bkg">{rows}</tbody></table></div>'
    )
    extraction = read_text(html, "tankbustas.html", html=True)
    assert extraction is not None
    return extraction


def test_a_row_holding_a_conditional_ability_belongs_to_the_weapon_after_it() -> None:
    """The 2026-09 pages print a Hunter profile's "HUNTER: MONSTER/VEHICLE" in a row of its own
    above that profile (``tr.dsHunterKwRow``)."""
    extraction = _hunter_page(
        _shoota_row("Rokkit launcha - Standard", "9")
        + _HUNTER_ROW
        + _shoota_row("Rokkit launcha - Hunter", "11")
    )
    weapons = _sheet(extraction).weapons
    assert [(w.name, [a.model_dump(exclude_none=True) for a in w.abilities]) for w in weapons] == [
        ("Rokkit launcha - Standard", []),
        (
            "Rokkit launcha - Hunter",
            [{"id": "hunter", "name": "HUNTER", "condition": "MONSTER/VEHICLE"}],
        ),
    ]
    codes = [d.code for d in extraction.report.diagnostics]
    assert "weapon-row" not in codes and "unknown-weapon-ability" in codes


def test_a_conditional_ability_row_with_no_weapon_after_it_is_said() -> None:
    extraction = _hunter_page(_shoota_row("Rokkit launcha - Standard", "9") + _HUNTER_ROW)
    [weapon] = _sheet(extraction).weapons
    assert weapon.abilities == []
    [said] = [d for d in extraction.report.diagnostics if d.code == "weapon-row"]
    assert "HUNTER" in said.message
