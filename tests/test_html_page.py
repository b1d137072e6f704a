"""The saved-page reader on committed fixtures: a trimmed real Wahapedia page (Old One Eye, built
by ``fixtures/html/make_fixture.py``) and small handmade pages for shapes the real ones lack.
These run on a fresh clone; the eight full pages are in ``test_html_pages_shared.py``."""

from __future__ import annotations

from pathlib import Path

import pytest

from wahanorm import pipeline
from wahanorm.contract.models import Datasheet, DetachmentRule, Rule, Stratagem
from wahanorm.outputs.canonical import canonical_json
from wahanorm.pipeline import read_text
from wahanorm.pipeline.after_read import Extraction
from wahanorm.readers.generic_html.flatten import html_to_text

FIXTURE = Path(__file__).parent / "fixtures" / "html" / "old_one_eye_trimmed.html"
DISPLAY = "fixtures/old_one_eye_trimmed.html"


@pytest.fixture(scope="module")
def trimmed() -> Extraction:
    extraction = read_text(FIXTURE.read_text(encoding="utf-8"), DISPLAY, html=True)
    assert extraction is not None
    return extraction


def _one(extraction: Extraction, entity_id: str) -> object:
    found = [e for e in extraction.entities if e.id == entity_id]
    assert len(found) == 1, [e.id for e in extraction.entities]
    return found[0]


def test_old_one_eye_characteristics(trimmed: Extraction) -> None:
    # Export, Datasheets_models 000000462: M 8" T 9 Sv 2+ W 9 Ld 8+ OC 3, no invulnerable
    # save, base 105 x 70mm.
    sheet = _one(trimmed, "tyranids/old-one-eye")
    assert isinstance(sheet, Datasheet)
    assert sheet.faction == "Tyranids"
    assert sheet.base_size == "105 x 70mm"
    [profile] = sheet.profiles
    stats = [
        s.text if s else None
        for s in (
            profile.movement,
            profile.toughness,
            profile.save,
            profile.wounds,
            profile.leadership,
            profile.objective_control,
        )
    ]
    assert stats == ['8"', "9", "2+", "9", "8+", "3"]
    assert profile.toughness is not None and profile.toughness.value == 9
    assert profile.invulnerable_save is None


def test_old_one_eye_weapons_read_once_each(trimmed: Extraction) -> None:
    # The page prints each weapon twice (a long and a short row); the export has two profiles.
    sheet = _one(trimmed, "tyranids/old-one-eye")
    assert isinstance(sheet, Datasheet)
    assert [(w.name, w.profile) for w in sheet.weapons] == [
        ("Old One Eye's claws and talons", "strike"),
        ("Old One Eye's claws and talons", "sweep"),
    ]
    strike = sheet.weapons[0]
    assert strike.type == "melee"
    assert (strike.range.text, strike.attacks.value, strike.skill.text) == ("Melee", 6, "3+")
    assert (strike.strength.value, strike.armour_penetration.value) == (14, -3)
    assert strike.damage.dice is not None
    assert (strike.damage.dice.sides, strike.damage.dice.modifier) == (6, 1)
    assert sheet.weapons[1].attacks.value == 12


def test_old_one_eye_sections(trimmed: Extraction) -> None:
    sheet = _one(trimmed, "tyranids/old-one-eye")
    assert isinstance(sheet, Datasheet)
    core = [(a.name, a.parameter) for a in sheet.abilities.core]
    assert core == [("Feel No Pain", "5+"), ("Leader", None)]
    assert [a.name for a in sheet.abilities.faction] == ["Synapse"]
    assert [a.name for a in sheet.abilities.datasheet] == ["Alpha Leader", "Unstoppable Monster"]
    assert sheet.abilities.datasheet[1].text == (
        "At the start of each player's Command phase, this model regains up to D3 lost wounds."
    )
    assert sheet.unit_composition == ["1 Old One Eye – EPIC HERO"]
    assert sheet.loadout == "This model is equipped with: Old One Eye's claws and talons."
    assert [(p.models, p.points) for p in sheet.points] == [(1, 150)]
    assert sheet.leader == ["tyranids/carnifexes"]
    assert sheet.keywords == ["CHARACTER", "EPIC HERO", "GREAT DEVOURER", "MONSTER", "OLD ONE EYE"]
    assert sheet.faction_keywords == ["TYRANIDS"]
    assert sheet.wargear_options == [] and sheet.damaged is None


def test_stratagem_ids_from_tooltips_and_from_the_list(trimmed: Extraction) -> None:
    sheet = _one(trimmed, "tyranids/old-one-eye")
    assert isinstance(sheet, Datasheet)
    # Two stratagems have their tooltip in the fixture; the others are named by the list alone.
    # Ids come sorted, as the dump path gives them.
    assert sheet.stratagems[:2] == [
        "assimilation-swarm/rapacious-hunger",
        "assimilation-swarm/secure-biomass",
    ]
    assert sheet.stratagems == sorted(sheet.stratagems)
    assert "core/command-re-roll" in sheet.stratagems
    assert "boarding-actions/command-re-roll" in sheet.stratagems
    assert len(sheet.stratagems) == len(set(sheet.stratagems)) == 34
    assert sheet.detachment_rules == ["invasion-fleet/hyper-adaptations"]


def test_missing_tooltips_are_diagnostics(trimmed: Extraction) -> None:
    missing = [d for d in trimmed.report.diagnostics if d.code == "missing-entry"]
    assert len(missing) == 4
    assert "Surprise Assault" in missing[0].message
    assert missing[0].line is not None


def test_stratagem_from_tooltip(trimmed: Extraction) -> None:
    strat = _one(trimmed, "assimilation-swarm/secure-biomass")
    assert isinstance(strat, Stratagem)
    assert (strat.name, strat.cp, strat.source, strat.category) == (
        "SECURE BIOMASS",
        1,
        "Assimilation Swarm",
        "Strategic Ploy",
    )
    assert strat.when == "Fight phase."
    # The faction keyword is printed once per detachment filter and hidden; once here.
    assert strat.target == (
        "One TYRANIDS unit from your army that has not been selected to fight this phase."
    )
    assert strat.effect is not None and strat.effect.startswith(
        "Until the end of the phase, melee weapons equipped by models in your unit have the "
        "[LETHAL HITS] ability."
    )
    assert strat.timing is not None
    assert [(p.phase, p.turn) for p in strat.timing.phases] == [("fight", "either")]


def test_detachment_rule_and_glossary(trimmed: Extraction) -> None:
    rule = _one(trimmed, "invasion-fleet/hyper-adaptations")
    assert isinstance(rule, DetachmentRule)
    assert rule.detachment == "Invasion Fleet"
    assert rule.flavour is not None and rule.flavour.startswith("Every warrior organism")
    assert "Swarming Instincts" in rule.text and "[SUSTAINED HITS 1]" in rule.text
    fnp = _one(trimmed, "core/feel-no-pain")
    assert isinstance(fnp, Rule) and "'Feel No Pain x+'" in fnp.text
    synapse = _one(trimmed, "tyranids/synapse")
    assert isinstance(synapse, Rule) and "Synapse Range" in synapse.text
    # The keyword index tooltip is site furniture: no entity.
    assert not [e for e in trimmed.entities if "monster" in e.id]


def test_sources_point_into_the_page(trimmed: Extraction) -> None:
    lines = FIXTURE.read_text(encoding="utf-8").splitlines()
    for entity in trimmed.entities:
        [source] = entity.sources
        assert source.path == DISPLAY
        assert 1 <= source.line_start <= source.line_end <= len(lines)
    sheet = _one(trimmed, "tyranids/old-one-eye")
    assert isinstance(sheet, Datasheet)
    assert "dsOuterFrame" in lines[sheet.sources[0].line_start - 1]


def test_chrome_leaves_no_trace(trimmed: Extraction) -> None:
    text = "".join(canonical_json(e) for e in trimmed.entities)
    for chrome in ("cookie", "ezTcfConsent", "Accept", "Search for model", "google"):
        assert chrome not in text


HANDMADE = """<!DOCTYPE html><html><head><script>var ad = 1;</script></head><body>
<h1 class="page_header2"><span class="page_header_span2">Test Faction</span>
<span class="page_header_span2"> – Twin Walkers</span></h1>
<div class="dsOuterFrame datasheet">
<div class="dsH2Header"><div>Twin Walkers</div><span class="dsModelBase2">(⌀60mm)</span></div>
<div class="dsProfileBaseWrap"><div class="dsModelName">Walker Alpha</div>
<div class="dsProfileWrap">
<div class="dsCharWrap"><div class="dsCharName">M</div><div class="dsCharValue">8"</div></div>
<div class="dsCharWrap"><div class="dsCharName">T</div><div class="dsCharValue">10</div></div>
</div>
<div class="dsInvulWrap"><div class="dsCharInvulValue">4+</div></div></div>
<div class="dsProfileBaseWrap"><div class="dsModelName">Walker Beta</div>
<div class="dsProfileWrap">
<div class="dsCharWrap"><div class="dsCharName">M</div><div class="dsCharValue">10"</div></div>
<div class="dsCharWrap"><div class="dsCharName">T</div><div class="dsCharValue">9</div></div>
<div class="dsCharWrap"><div class="dsCharName">XP</div><div class="dsCharValue">3</div></div>
</div></div>
<table class="wTable">
<tr><td class="dsHeader"></td><td><div class="dsHeader">RANGED WEAPONS</div></td></tr>
<tr class="wTable2_long"><td></td><td colspan="6"><span>Arc gun</span></td></tr>
<tr><td></td><td class="wTable2_short"><span>Arc gun <span class="kwb2">anti-vehicle 4+</span>
<span class="kwb2">rapid fire d3</span></span></td><td>24"</td><td>2D6</td><td>3+</td>
<td>9</td><td>-2</td><td>D3+1</td></tr>
<tr><td colspan="8">A note the reader does not know</td></tr>
</table>
<div><div class="dsHeader">ABILITIES</div>
<div class="dsAbility"><b>Storm Field (Aura, Psychic):</b> Enemy units within 6" subtract 1.</div>
<div class="dsHeader">STRANGE SECTION</div><div class="dsAbility">Something new.</div>
<div class="dsHeader">DAMAGED: 1-5 WOUNDS REMAINING</div>
<div class="dsAbility">Subtract 1 from the Hit roll.</div></div>
<div class="ds2colKW"><div>KEYWORDS: Vehicle, Walker</div><div>FACTION KEYWORDS: Test</div></div>
</div></body></html>
"""


@pytest.fixture(scope="module")
def handmade() -> Extraction:
    extraction = read_text(HANDMADE, "handmade.html", html=True)
    assert extraction is not None
    return extraction


def test_several_profiles_each_named(handmade: Extraction) -> None:
    sheet = _one(handmade, "test-faction/twin-walkers")
    assert isinstance(sheet, Datasheet)
    profiles = [(p.name, p.movement.text if p.movement else None) for p in sheet.profiles]
    assert profiles == [("Walker Alpha", '8"'), ("Walker Beta", '10"')]
    # The invulnerable save sits in the first profile's box only.
    assert [p.invulnerable_save.text if p.invulnerable_save else None for p in sheet.profiles] == [
        "4+",
        None,
    ]
    assert sheet.base_size == "60mm"


def test_bare_word_weapon_abilities_typed(handmade: Extraction) -> None:
    sheet = _one(handmade, "test-faction/twin-walkers")
    assert isinstance(sheet, Datasheet)
    [gun] = sheet.weapons
    assert (gun.name, gun.type, gun.attacks.text, gun.damage.text) == (
        "Arc gun",
        "ranged",
        "2D6",
        "D3+1",
    )
    anti, rapid = gun.abilities
    assert (anti.id, anti.keyword, anti.threshold) == ("anti", "VEHICLE", 4)
    assert (rapid.id, rapid.value) == ("rapid-fire", "D3")


def test_aura_in_a_group_and_damaged(handmade: Extraction) -> None:
    sheet = _one(handmade, "test-faction/twin-walkers")
    assert isinstance(sheet, Datasheet)
    field, strange = sheet.abilities.datasheet
    assert field.aura is True
    assert (strange.name, strange.text) == ("STRANGE SECTION", "Something new.")
    assert sheet.damaged is not None and sheet.damaged.wounds == "1-5"
    assert sheet.keywords == ["VEHICLE", "WALKER"] and sheet.faction_keywords == ["TEST"]


def test_what_cannot_be_read_is_a_diagnostic(handmade: Extraction) -> None:
    codes = {d.code: d for d in handmade.report.diagnostics}
    assert "STRANGE SECTION" in codes["ability-group"].message
    assert "XP" in codes["unknown-characteristic"].message
    assert "A note the reader" in codes["weapon-row"].message
    assert all(d.line for d in handmade.report.diagnostics)


@pytest.mark.parametrize(
    "html",
    [
        '<div class="dsOuterFrame"></div>',
        '<h1 class="page_header2"><span class="page_header_span2">X</span></h1>'
        '<div class="dsOuterFrame"><div class="dsH2Header"></div></div>',
        '<h1 class="page_header2"><span class="page_header_span2">X</span></h1>'
        '<div class="dsOuterFrame"><div class="dsH2Header"><div>U</div></div>'
        '<table class="wTable"><tr><td></td><td class="wTable2_short">Gun [</td>'
        "<td>1</td><td>1</td><td>1</td><td>1</td><td>1</td><td>1</td></tr></table></div>",
        "\x00<<<dsOuterFrame>>>",
    ],
)
def test_broken_pages_never_raise(html: str) -> None:
    extraction = read_text(html, "broken.html", html=True)
    assert extraction.report.diagnostics or extraction.entities


def test_other_html_is_not_a_datasheet_page() -> None:
    extraction = read_text("<html><body><p>Hello</p></body></html>", "x.html", html=True)
    assert "generic-html" in [d.code for d in extraction.report.diagnostics]
    assert extraction.entities == []


def test_other_html_goes_through_the_text_path_with_a_diagnostic() -> None:
    html = (
        "<html><head><style>p{}</style><script>track()</script></head><body>"
        '<div class="cookie-banner">We use cookies</div><nav>Home | Factions</nav>'
        "<h2>Notes</h2><p>First <b>line</b></p><ul><li>one</li><li>two</li></ul></body></html>"
    )
    assert html_to_text(html) == "Notes\nFirst line\n- one\n- two\n"
    extraction = pipeline.read_text(html, "notes.html", html=True)
    [generic] = [d for d in extraction.report.diagnostics if d.code == "generic-html"]
    assert "not a Wahapedia datasheet page" in generic.message
    assert extraction.entities == []


def test_html_text_keeps_one_copy_of_hidden_alternatives() -> None:
    html = (
        '<p>One <span style="display:none">ORKS</span><span style="display:none">ORKS</span> '
        "unit.</p>"
    )
    assert html_to_text(html) == "One ORKS unit.\n"
