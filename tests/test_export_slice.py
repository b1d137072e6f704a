"""The committed slice of both real exports (tests/fixtures/export, cut by make_slice.py):
facts checked against its CSV rows, and snapshots of the canonical bytes wahanorm writes."""

from __future__ import annotations

from pathlib import Path

import pytest
from syrupy.assertion import SnapshotAssertion
from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode

from wahanorm.contract.models import Datasheet, Stratagem
from wahanorm.outputs.canonical import canonical_json
from wahanorm.pipeline import read_path
from wahanorm.pipeline.after_read import Extraction
from wahanorm.readers.base import Entity

SLICE = Path(__file__).parent / "fixtures" / "export"
NOV = "wahapedia-10ed-2025-11-14-html"
FEB = "wahapedia-10ed-2026-02-14"


class CanonicalJson(SingleFileSnapshotExtension):
    """One ``.json`` snapshot per entity: exactly the bytes ``wahanorm`` writes."""

    _write_mode = WriteMode.TEXT
    file_extension = "json"


@pytest.fixture(scope="module", params=[NOV, FEB])
def export(request: pytest.FixtureRequest) -> Extraction:
    name: str = request.param
    return read_path(SLICE / name, f"fixtures/{name}")


@pytest.fixture(scope="module")
def feb() -> Extraction:
    return read_path(SLICE / FEB, f"fixtures/{FEB}")


@pytest.fixture(scope="module")
def nov() -> Extraction:
    return read_path(SLICE / NOV, f"fixtures/{NOV}")


def by_id(extraction: Extraction, entity_id: str) -> Entity:
    found = [e for e in extraction.entities if e.id == entity_id]
    assert len(found) == 1, [e.id for e in found]
    return found[0]


def sheet(extraction: Extraction, entity_id: str) -> Datasheet:
    entity = by_id(extraction, entity_id)
    assert isinstance(entity, Datasheet)
    return entity


def test_counts_of_the_slice(export: Extraction) -> None:
    kinds = sorted(e.kind for e in export.entities)
    # Datasheets.csv holds 5 rows; the other counts are the rows make_slice.py kept.
    assert kinds.count("datasheet") == 5
    assert kinds.count("rule") == 6
    assert kinds.count("detachment_rule") == 3
    assert not [d for d in export.report.diagnostics if d.severity == "error"]


def test_data_version_from_last_update(nov: Extraction, feb: Extraction) -> None:
    assert nov.data_version == "2025-11-14 19:35:22"
    assert feb.data_version == "2026-02-14 02:04:28"


def test_custodian_guard_weapons_as_the_dumps_print_them(export: Extraction) -> None:
    # Datasheets_wargear.csv: 000000882|1|1||Guardian spear|assault|24|Ranged|2|2|4|-1|2|
    guard = sheet(export, "adeptus-custodes/custodian-guard")
    assert guard.faction == "Adeptus Custodes"
    spear = guard.weapons[0]
    assert (spear.name, spear.type, spear.profile) == ("Guardian spear", "ranged", None)
    stats = [spear.range, spear.attacks, spear.skill, spear.strength]
    assert [s.text for s in stats] == ['24"', "2", "2+", "4"]
    assert [spear.armour_penetration.value, spear.damage.value] == [-1, 2]
    assert [a.id for a in spear.abilities] == ["assault"]
    # 000000882|2|1||Sentinel blade|assault, pistol|12|Ranged|…
    assert [a.name for a in guard.weapons[1].abilities] == ["ASSAULT", "PISTOL"]
    # 000000882|3|1||Guardian spear||Melee|Melee|5|2|7|-2|2|
    assert (guard.weapons[2].type, guard.weapons[2].range.text) == ("melee", "Melee")


def test_custodian_guard_profile_costs_and_keywords(export: Extraction) -> None:
    guard = sheet(export, "adeptus-custodes/custodian-guard")
    # Datasheets_models.csv: Custodian Guard|6"|6|2+|4||3|6+|2|40mm
    (profile,) = guard.profiles
    assert profile.movement and profile.movement.text == '6"'
    assert profile.invulnerable_save and profile.invulnerable_save.text == "4+"
    assert guard.base_size == "40mm"
    # Datasheets_models_cost.csv: 4 models|160, 5 models|200 in November; 150 and 190 in February
    costs = {NOV: [(4, 160), (5, 200)], FEB: [(4, 150), (5, 190)]}
    assert [(p.models, p.points) for p in guard.points] == costs[export.path.split("/")[-1]]
    # Datasheets_keywords.csv: Adeptus Custodes is the faction keyword; the dumps print capitals
    assert guard.faction_keywords == ["ADEPTUS CUSTODES"]
    assert "BATTLELINE" in guard.keywords and "INFANTRY" in guard.keywords
    assert [a.name for a in guard.abilities.core] == ["Deep Strike"]
    assert [a.name for a in guard.abilities.wargear] == ["Praesidium Shield", "Vexilla"]


def test_warboss_weapon_keywords_and_leader_link(export: Extraction) -> None:
    warboss = sheet(export, "orks/warboss")
    # 000000001|1|1||Kombi-weapon|anti-infantry 4+, devastating wounds, rapid fire 1|24|…
    kombi = warboss.weapons[0].abilities
    assert [(a.id, a.keyword, a.threshold, a.value) for a in kombi] == [
        ("anti", "INFANTRY", 4, None),
        ("devastating-wounds", None, None, None),
        ("rapid-fire", None, None, "1"),
    ]
    # Datasheets_leader.csv: 000000001|000000016| (Warboss leads Boyz)
    assert warboss.leader == ["orks/boyz"]
    assert warboss.faction_keywords == ["ORKS"]
    assert "CHARACTER" in warboss.keywords
    assert [a.name for a in warboss.abilities.datasheet] == [
        "Might is Right",
        "Da Biggest and da Best",
    ]


def test_random_profiles_and_hyphenated_profile_names(feb: Extraction) -> None:
    # 000000038|1|1|1-2 |Bubblechukka – big bubble|bubblechukka, blast|48|Ranged|2D6|4|6|-1|1|
    gunz = sheet(feb, "orks/mek-gunz")
    big = gunz.weapons[0]
    assert (big.name, big.profile, big.range.text) == ("Bubblechukka", "big bubble", '48"')
    assert big.attacks.dice and (big.attacks.dice.count, big.attacks.dice.sides) == (2, 6)
    assert [a.id for a in big.abilities] == ["bubblechukka", "blast"]
    # 000000008|3|2||Gork’s Klaw - sweep||Melee|… : a hyphen where the rules print an en dash
    ghaz = sheet(feb, "orks/ghazghkull-thraka")
    assert ("Gork's Klaw", "sweep") in [(w.name, w.profile) for w in ghaz.weapons]
    codes = {d.code for d in feb.report.diagnostics if d.line in (20, 21, 22)}
    assert "dropped-field" in codes  # the 1-2 / 3-4 / 5-6 roll has no field: reported


def test_core_and_boarding_actions_stratagems(export: Extraction) -> None:
    # |GO TO GROUND|000008335010|Core – Battle Tactic Stratagem|1|…|Opponent’s turn|Shooting phase
    go = by_id(export, "core/go-to-ground")
    assert isinstance(go, Stratagem)
    assert (go.source, go.category, go.cp) == ("Core", "Battle Tactic", 1)
    assert (
        go.when
        == "Your opponent's Shooting phase, just after an enemy unit has selected its targets."
    )
    assert go.target and go.target.startswith("One INFANTRY unit from your army")
    assert go.timing and go.timing.turn == "opponent"
    assert [(p.phase, p.turn) for p in go.timing.phases] == [("shooting", "opponent")]
    clearance = by_id(export, "boarding-actions/explosive-clearance")
    assert isinstance(clearance, Stratagem)
    assert (clearance.source, clearance.category) == ("Boarding Actions", "Battle Tactic")
    assert clearance.sources[0].path.endswith("/Stratagems.csv")


def test_detachment_stratagem_with_broken_casing_and_unbolded_labels(feb: Extraction) -> None:
    # AoI|MASTERS OF THE VOID|…|Imperialis Fleet|…|WHEN: Your Movement phase.<br><br>TARGET: …
    # EFFECT: … each AGENTS OF THE IMpERIUM unit …
    void = by_id(feb, "imperialis-fleet/masters-of-the-void")
    assert isinstance(void, Stratagem)
    assert (void.source, void.category) == ("Imperialis Fleet", "Epic Deed")
    assert void.when == "Your Movement phase."
    assert void.effect and "AGENTS OF THE IMPERIUM unit" in void.effect
    assert any(d.code == "broken-caps" and "IMpERIUM" in d.message for d in feb.report.diagnostics)


def test_aeldari_manoeuvre_trigger_without_cost(export: Extraction) -> None:
    # AE|FADE BACK|…|||||Shooting phase|Army Rules|…|…TRIGGER: In your opponent’s Shooting phase…
    fade = by_id(export, "army-rules/fade-back")
    assert isinstance(fade, Stratagem)
    assert fade.cp is None
    assert fade.when and fade.when.startswith("In your opponent's Shooting phase")
    lines = {d.line for d in export.report.diagnostics if d.code in ("no-cp", "trigger-as-when")}
    assert fade.sources[0].line_start in lines


def test_timing_agreement_is_reported(feb: Extraction) -> None:
    (agreement,) = [d for d in feb.report.diagnostics if d.code == "timing-agreement"]
    assert agreement.message.startswith(
        "timing derived from WHEN agrees with the export's turn/phase columns for 45 of 46"
    )
    disagreements = [d.line for d in feb.report.diagnostics if d.code == "timing-disagrees"]
    assert len(disagreements) == 1


def test_enhancement_and_detachment_rule(export: Extraction) -> None:
    rule = by_id(export, "shield-host/martial-mastery")
    assert rule.kind == "detachment_rule"
    # …bullet point's effects apply.<br><ul><li>Each time an … model from your army with the …
    lines = getattr(rule, "text", "").split("\n")
    assert lines[0].startswith("At the start of the battle round, you can select one")
    assert lines[1].startswith("- Each time an ")
    assert lines[2].startswith("- Improve the Armour Penetration characteristic")
    guard = sheet(export, "adeptus-custodes/custodian-guard")
    assert guard.detachment_rules == ["shield-host/martial-mastery"]
    assert "shield-host/avenge-the-fallen" in guard.stratagems


def test_no_markup_left_in_any_string(export: Extraction) -> None:
    for entity in export.entities:
        text = canonical_json(entity)
        assert "<span" not in text and "<b>" not in text and "&nbsp;" not in text, entity.id


def test_snapshots(export: Extraction, snapshot: SnapshotAssertion) -> None:
    keep = {
        "adeptus-custodes/custodian-guard",
        "orks/warboss",
        "core/go-to-ground",
        "army-rules/flitting-shadows",
        "shield-host/martial-mastery",
    }
    chosen = sorted((e for e in export.entities if e.id in keep), key=lambda e: (e.kind, e.id))
    assert len(chosen) == len(keep)
    for entity in chosen:
        name = f"{entity.kind}-{entity.id.replace('/', '--')}"
        assert canonical_json(entity) == snapshot(extension_class=CanonicalJson, name=name)
