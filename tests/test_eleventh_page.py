"""The one page of the 11th-edition site we have, the World Eaters faction page, read whole: its
stratagem cards, move cards (taken out of the rules that print them), detachments with their
DP and force disposition, rule numbers apart from names, FAQ and errata boxes left out and
counted; and a datasheet frame of the 11th edition, read as far as the 10th edition's pages
teach and its other boxes said.

The facts are checked against the page's text (``tests/fixtures/html/README.md`` says how the
fixture was cut); the tests on the whole page skip when ``../shared`` is absent."""

from __future__ import annotations

import re
from collections import Counter
from functools import cache
from pathlib import Path

from conftest import shared_path
from wahanorm import pipeline
from wahanorm.blocks import html as dom
from wahanorm.contract.models import (
    Datasheet,
    Detachment,
    DetachmentRule,
    Enhancement,
    Rule,
    Stratagem,
)
from wahanorm.pipeline.after_read import Extraction
from wahanorm.readers.dump.segment import NUMBERED_RULE
from wahanorm.readers.page.cards import LEADING_NUMBER, heading
from wahanorm.readers.page.read import KNOWN_BOXES, frame_edition, unknown_boxes

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "html"
TRIMMED = FIXTURES / "world_eaters_trimmed.html"
FRAME = FIXTURES / "eleventh_frame.html"
CR_CR_LF = b"\r\r\n"


@cache
def _read(path: Path) -> Extraction:
    return pipeline.read_path(path, path.name)


def _by_id(extraction: Extraction) -> dict[tuple[str, str], object]:
    return {(e.kind, e.id): e for e in extraction.entities}


def _entity(kind: str, entity_id: str, path: Path = TRIMMED) -> object:
    return _by_id(_read(path))[(kind, entity_id)]


def _line_of(marker: bytes, path: Path = TRIMMED) -> int:
    """The line ``grep -n`` gives: libxml2, and so wahanorm, counts only the LF."""
    data = path.read_bytes()
    return data[: data.index(marker)].count(b"\n") + 1


# ---- the fixture ----------------------------------------------------------------------------


def test_the_fixture_keeps_the_pages_cr_cr_lf() -> None:
    data = TRIMMED.read_bytes()
    assert data.count(CR_CR_LF) > 500
    # Every line end is CR CR LF: no checkout rewrote one (.gitattributes: -text).
    assert data.count(b"\n") == data.count(CR_CR_LF)
    assert data.replace(CR_CR_LF, b"").count(b"\r") == 0


def test_every_entity_is_of_the_11th_edition() -> None:
    extraction = _read(TRIMMED)
    assert {e.edition for e in extraction.entities} == {11}
    assert not [d for d in extraction.report.diagnostics if d.severity == "error"]


# ---- detachments ------------------------------------------------------------------------------


def test_a_detachment_has_its_dp_and_force_disposition_and_its_name_alone() -> None:
    berzerkers = _entity("detachment", "world-eaters/berzerker-warband")
    assert isinstance(berzerkers, Detachment)
    assert (berzerkers.name, berzerkers.dp, berzerkers.force_disposition, berzerkers.type) == (
        "Berzerker Warband",
        3,
        "Purge the Foe",
        None,
    )
    assert berzerkers.faction == "World Eaters"
    assert berzerkers.flavour is not None
    assert berzerkers.flavour.startswith("Comprised of insane transhuman fanatics")
    assert berzerkers.sources[0].line_start == _line_of(b'<h2 id="Berzerker-Warband"')
    engines = _entity("detachment", "world-eaters/brazen-engines")
    assert isinstance(engines, Detachment)
    assert (engines.dp, engines.force_disposition) == (1, "Disruption")
    daemonkin = _entity("detachment", "world-eaters/khorne-daemonkin")
    assert isinstance(daemonkin, Detachment)
    assert (daemonkin.dp, daemonkin.force_disposition) == (2, "Reconnaissance")


def test_a_boarding_actions_detachment_is_typed_by_the_filters_group() -> None:
    butchers = _entity("detachment", "world-eaters/boarding-butchers")
    assert isinstance(butchers, Detachment)
    assert (butchers.type, butchers.dp, butchers.force_disposition) == (
        "Boarding Actions",
        None,
        None,
    )
    # Only the detachments the fixture prints: the filter's other names head nothing here.
    names = {e.name for e in _read(TRIMMED).entities if isinstance(e, Detachment)}
    assert names == {"Berzerker Warband", "Khorne Daemonkin", "Brazen Engines", "Boarding Butchers"}


def test_a_detachments_rule_enhancements_and_stratagems_are_its_containers() -> None:
    extraction = _read(TRIMMED)
    rule = _entity("detachment_rule", "berzerker-warband/relentless-rage")
    assert isinstance(rule, DetachmentRule)
    assert rule.detachment == "Berzerker Warband"
    assert rule.text.startswith("Each time a WORLD EATERS unit from your army makes a Charge move")
    enhancements = Counter(e.detachment for e in extraction.entities if isinstance(e, Enhancement))
    assert enhancements == {
        "Berzerker Warband": 4,
        "Khorne Daemonkin": 4,
        "Brazen Engines": 2,
        "Boarding Butchers": 2,
    }
    stratagems = Counter(e.source for e in extraction.entities if isinstance(e, Stratagem))
    assert stratagems == {
        "Berzerker Warband": 6,
        "Khorne Daemonkin": 6,
        "Brazen Engines": 3,
        "Boarding Butchers": 4,
        "Core": 1,
    }
    # A Boarding Actions detachment's rule is the box under its "Detachment Rule" heading.
    ferocity = _entity("detachment_rule", "boarding-butchers/focused-ferocity")
    assert isinstance(ferocity, DetachmentRule)
    assert ferocity.text.startswith("Each time a WORLD EATERS unit from your army declares")
    chosen = _entity("enhancement", "boarding-butchers/chosen-of-khorne")
    assert isinstance(chosen, Enhancement)
    assert chosen.cost is None


def test_an_upgrade_is_said_and_left_out_of_the_name() -> None:
    talons = _entity("enhancement", "brazen-engines/talons-of-butchery")
    assert isinstance(talons, Enhancement)
    assert (talons.name, talons.upgrade, talons.cost) == ("Talons of Butchery", True, 20)
    glaive = _entity("enhancement", "berzerker-warband/berzerker-glaive")
    assert isinstance(glaive, Enhancement)
    assert (glaive.upgrade, glaive.cost) == (None, 35)


def test_a_rule_with_sub_abilities_reads_the_same_on_the_page_and_in_its_tooltip() -> None:
    extraction = _read(TRIMMED)
    [tithe] = [e for e in extraction.entities if e.id == "khorne-daemonkin/blood-tithe"]
    assert isinstance(tithe, DetachmentRule)
    assert [a.name for a in tithe.abilities] == [
        "Enraged Abjuration",
        "Daemonic Rage",
        "Boon of Blood",
        "Might of Khorne",
    ]
    assert tithe.restrictions is not None
    assert tithe.restrictions.endswith("No BLOOD LEGIONS model from your army can be your WARLORD.")


# ---- stratagem cards ---------------------------------------------------------------------------


def test_a_stratagem_card() -> None:
    offering = _entity("stratagem", "berzerker-warband/blood-offering")
    assert isinstance(offering, Stratagem)
    assert (offering.name, offering.cp, offering.source, offering.category) == (
        "BLOOD OFFERING",
        1,
        "Berzerker Warband",
        "Epic Deed",
    )
    assert offering.flavour == (
        "Khorne cares not from whence the blood flows, only that it does. The deaths of his "
        "own devoted are fitting offerings."
    )
    assert offering.when == "Any phase."
    assert offering.target == (
        "One WORLD EATERS unit from your army that was just destroyed while it was within range "
        "of one or more objective markers you controlled at the end of the previous phase. You "
        "can use this Stratagem on that unit even though it was just destroyed."
    )
    assert offering.effect == (
        "Select one of those objective markers. That objective marker remains under your "
        "control until your opponent's Level of Control over that objective marker is greater "
        "than yours at the end of a phase."
    )
    assert offering.restrictions is None
    assert offering.timing is not None and offering.timing.any_phase


def test_a_card_typed_without_a_category_and_a_core_card_in_a_tooltip() -> None:
    clarity = _entity("stratagem", "brazen-engines/apoplectic-clarity")
    assert isinstance(clarity, Stratagem)
    assert (clarity.source, clarity.category) == ("Brazen Engines", None)
    overwatch = _entity("stratagem", "core/fire-overwatch")
    assert isinstance(overwatch, Stratagem)
    assert (overwatch.name, overwatch.source, overwatch.category, overwatch.rule_number) == (
        "FIRE OVERWATCH",
        "Core",
        None,
        "15.08",
    )
    assert overwatch.effect == "Your unit shoots using snap shooting."


def test_a_card_printed_twice_is_one_entity_said_as_a_repeat() -> None:
    extraction = _read(TRIMMED)
    ids = Counter((e.kind, e.id) for e in extraction.entities)
    assert ids[("stratagem", "khorne-daemonkin/summoned-by-slaughter")] == 1
    assert ids[("rule", "core/disembark-move")] == 1
    repeats = [d.message for d in extraction.report.diagnostics if d.code == "duplicate-dropped"]
    assert any("SUMMONED BY SLAUGHTER" in m for m in repeats)
    assert any("DISEMBARK MOVE" in m for m in repeats)


# ---- move cards and numbered rules -----------------------------------------------------------


def test_a_move_card_is_a_rule_with_its_number_and_sections() -> None:
    advance = _entity("rule", "core/advance-move")
    assert isinstance(advance, Rule)
    assert (advance.name, advance.rule_number, advance.category) == (
        "ADVANCE MOVE",
        "09.06",
        "Movement Ability",
    )
    assert [(s.label, s.text) for s in advance.sections] == [
        ("MAXIMUM DISTANCE", "Advance roll + your unit's M characteristic."),
        ("ELIGIBLE IF", "Your unit is on the battlefield and unengaged."),
        ("EFFECT", "Your unit moves as described in Moving (03)."),
        ("BEFORE MOVING", "Make an advance roll by rolling one D6."),
        (
            "AFTER MOVING",
            "- Your unit must be unengaged.\n- Until the end of the turn, unless otherwise "
            "stated, your unit is not eligible to declare a charge or start an action.",
        ),
    ]
    assert advance.references == ["03"]
    snap = _entity("rule", "core/snap-shooting")
    assert isinstance(snap, Rule)
    assert (snap.rule_number, snap.category) == ("15.09", "Shooting Ability")


def test_a_card_inside_a_rule_is_taken_out_of_it() -> None:
    scouts = _entity("rule", "core/scouts")
    assert isinstance(scouts, Rule)
    assert (scouts.name, scouts.rule_number, scouts.sections) == ("SCOUTS", "24.31", [])
    assert scouts.text.endswith("that DEDICATED TRANSPORT can make a scout move.")
    assert "MAXIMUM DISTANCE" not in scouts.text
    scout_move = _entity("rule", "core/scout-move")
    assert isinstance(scout_move, Rule)
    assert (scout_move.rule_number, scout_move.category) == ("24.32", "Movement Ability")
    assert [s.label for s in scout_move.sections] == [
        "MAXIMUM DISTANCE",
        "ELIGIBLE IF",
        "EFFECT",
        "AFTER MOVING",
    ]
    # 18.03 Disembarking prints four move cards; each is its own rule, the host keeps its text.
    disembarking = _entity("rule", "core/disembarking")
    assert isinstance(disembarking, Rule)
    assert disembarking.rule_number == "18.03"
    assert disembarking.text.startswith("In the active player's Movement phase, each friendly")
    assert "SET-UP DISTANCE" not in disembarking.text and disembarking.sections == []
    numbers = {
        name: _entity("rule", f"core/{name}").rule_number  # type: ignore[attr-defined]
        for name in (
            "disembark-move",
            "emergency-disembark-move",
            "assault-disembark-move",
            "shock-disembark-move",
        )
    }
    assert numbers == {
        "disembark-move": "18.04",
        "emergency-disembark-move": "18.05",
        "assault-disembark-move": "18.06",
        "shock-disembark-move": "18.07",
    }
    # A header over a card alone is the card's: no rule of the header's own.
    surge = _entity("rule", "core/surge-move")
    assert isinstance(surge, Rule)
    assert surge.rule_number == "21.02"
    assert ("rule", "world-eaters/surge-move") not in _by_id(_read(TRIMMED))


def test_a_number_printed_before_the_name_is_apart_from_name_and_id() -> None:
    engagement = _entity("rule", "core/engagement")
    assert isinstance(engagement, Rule)
    assert (engagement.name, engagement.rule_number) == ("Engagement", "03.04")
    # Its FAQ box (a question and its answer) is no rules text.
    assert engagement.tables == []
    assert "FAQ" not in engagement.text.split("\n")
    assert "Does my model" not in engagement.text


def test_leader_support_keeps_its_first_number_and_says_the_second() -> None:
    extraction = _read(TRIMMED)
    leader = _entity("rule", "core/leader-support")
    assert isinstance(leader, Rule)
    assert (leader.name, leader.rule_number) == ("LEADER / SUPPORT", "24.22")
    assert leader.text.startswith("Mighty heroes fight at the forefront of battle.")
    [note] = [d for d in extraction.report.diagnostics if d.code == "dropped-field"]
    assert "24.23" in note.message and note.severity == "info"


NUMBER_IN_ID = re.compile(r"\d{2}-\d{2}")


def test_no_id_keeps_a_number() -> None:
    assert not [e.id for e in _read(TRIMMED).entities if NUMBER_IN_ID.search(e.id)]


def test_the_dumps_numbered_heading_is_the_pages() -> None:
    assert LEADING_NUMBER.pattern == NUMBERED_RULE.pattern
    root = dom.parse('<div><div class="x">01.02.01 Starting Strength</div></div>')
    assert root is not None
    head = heading(dom.select_one(root, "div", "x"))
    assert (head.name, head.numbers) == ("Starting Strength", ("01.02.01",))


# ---- FAQ and errata; the one note ------------------------------------------------------------


def test_faq_and_errata_are_no_rules_text() -> None:
    extraction = _read(TRIMMED)
    texts = [
        (e.id, t)
        for e in extraction.entities
        for t in (
            getattr(e, "text", None),
            getattr(e, "effect", None),
            getattr(e, "restrictions", None),
        )
        if t
    ]
    assert not [i for i, t in texts if t.split("\n")[-1] in ("FAQ", "Errata", "FAQ / Errata")]
    assert not [i for i, t in texts if "Change to:" in t]
    assert not [e.id for e in extraction.entities if e.name.lower() == "errata"]
    blessings = _entity("rule", "world-eaters/blessings-of-khorne")
    assert isinstance(blessings, Rule)
    assert blessings.text.endswith("that attack has the [DEVASTATING WOUNDS] ability.")


def test_what_is_not_read_is_one_note() -> None:
    [note] = [d for d in _read(TRIMMED).report.diagnostics if d.code == "section-skipped"]
    assert note.message.startswith(
        "faction page of World Eaters: sections without rules entries not read: Introduction, "
        "Boarding Actions; boxes of a detachment that are no rule of it, not read: Boarding "
        "Butchers: Mustering a Boarding Patrol, Forming Boarding Squads, Rules Adaptations, "
        "Army Rule, Slaughterers' Glory; FAQ and errata boxes left out of the rules text: 8 "
    )


# ---- a datasheet frame of the 11th edition ---------------------------------------------------


def test_an_11th_edition_frame_is_read_and_its_unknown_boxes_said() -> None:
    extraction = _read(FRAME)
    [sheet] = [e for e in extraction.entities if isinstance(e, Datasheet)]
    assert (sheet.name, sheet.edition) == ("Commissar", 11)
    assert [p.name for p in sheet.profiles] == ["Commissar"]
    [warning] = [d for d in extraction.report.diagnostics if d.code == "unread-boxes"]
    assert warning.severity == "warning"
    assert warning.message.endswith("not read: dsLoadoutBox11")


def test_a_10th_edition_frame_has_no_unknown_box() -> None:
    root = dom.parse((FIXTURES / "old_one_eye_trimmed.html").read_text(encoding="utf-8"))
    assert root is not None
    [frame] = dom.select(root, "div", "dsOuterFrame")
    assert frame_edition(frame) == 10
    assert unknown_boxes(frame) == []
    extraction = _read(FIXTURES / "old_one_eye_trimmed.html")
    assert not [d for d in extraction.report.diagnostics if d.code == "unread-boxes"]


# ---- the whole page (../shared) ----------------------------------------------------------------


def _page() -> Extraction:
    return _read(shared_path("html-pages", "world-eaters", "index.html"))


def test_the_whole_page() -> None:
    extraction = _page()
    entities = extraction.entities
    kinds = Counter(e.kind for e in entities)
    assert {e.edition for e in entities} == {11}
    assert not [d for d in extraction.report.diagnostics if d.severity == "error"]
    # 49 stratagem cards, one printed twice: 48 stratagems.
    assert kinds["stratagem"] == 48
    stratagems = Counter(e.source for e in entities if isinstance(e, Stratagem))
    assert stratagems == {
        **dict.fromkeys(
            [
                "Berzerker Warband",
                "Cult of Blood",
                "Khorne Daemonkin",
                "Possessed Slaughterband",
                "Goretrack Onslaught",
            ],
            6,
        ),
        **dict.fromkeys(["Brazen Engines", "Butchers of Khorne", "Vessels of Wrath"], 3),
        "Boarding Butchers": 4,
        "Skullsworn": 4,
        "Core": 1,
    }
    # 17 move cards, four printed twice: 13 rules, each with its number and kind.
    moves = [e for e in entities if isinstance(e, Rule) and e.category]
    assert len(moves) == 13
    assert Counter(e.category for e in moves) == {"Movement Ability": 12, "Shooting Ability": 1}
    assert all(e.rule_number for e in moves)
    detachments = [e for e in entities if isinstance(e, Detachment)]
    assert len(detachments) == 10
    assert {(d.name, d.dp, d.force_disposition) for d in detachments if d.dp is not None} == {
        ("Berzerker Warband", 3, "Purge the Foe"),
        ("Cult of Blood", 2, "Priority Assets"),
        ("Khorne Daemonkin", 2, "Reconnaissance"),
        ("Possessed Slaughterband", 2, "Purge the Foe"),
        ("Goretrack Onslaught", 2, "Take and Hold"),
        ("Brazen Engines", 1, "Disruption"),
        ("Butchers of Khorne", 1, "Take and Hold"),
        ("Vessels of Wrath", 1, "Priority Assets"),
    }
    assert {d.name for d in detachments if d.type == "Boarding Actions"} == {
        "Boarding Butchers",
        "Skullsworn",
    }
    rules = Counter(e.detachment for e in entities if isinstance(e, DetachmentRule))
    assert rules == dict.fromkeys([d.name for d in detachments], 1)
    enhancements = Counter(e.detachment for e in entities if isinstance(e, Enhancement))
    assert sum(enhancements.values()) == 30
    # The one card that prints RESTRICTION: (singular) keeps it apart from its effect.
    fury = next(e for e in entities if e.id == "goretrack-onslaught/fury-unleashed")
    assert isinstance(fury, Stratagem)
    assert fury.effect is not None and "RESTRICTION" not in fury.effect
    assert fury.restrictions == (
        "A unit cannot be targeted by this Stratagem and the Unrelenting Advance Stratagem in "
        "the same phase."
    )
    assert sum(1 for e in entities if isinstance(e, Enhancement) and e.upgrade) == 4


def test_the_whole_page_keeps_no_number_no_faq_and_no_errata() -> None:
    extraction = _page()
    entities = extraction.entities
    assert not [e.id for e in entities if NUMBER_IN_ID.search(e.id)]
    engagement = next(e for e in entities if e.id == "core/engagement")
    assert isinstance(engagement, Rule) and engagement.rule_number == "03.04"
    assert not [e.id for e in entities if isinstance(e, Rule) and e.text.endswith("FAQ")]
    assert not [e.id for e in entities if e.id.endswith("/errata")]
    assert not [e.id for e in entities if "Change to:" in (getattr(e, "text", None) or "")]
    # The 18 tables of questions are gone; the rules' own 4 tables stay.
    assert sum(len(e.tables) for e in entities if isinstance(e, Rule | DetachmentRule)) == 4
    # One id, one entity: the page's boxes and its tooltips agree.
    assert len({(e.kind, e.id) for e in entities}) == len(entities)
    [note] = [d for d in extraction.report.diagnostics if d.code == "section-skipped"]
    assert (
        "Crusade Rules" in note.message
        and "Skullsworn: Mustering a Boarding Patrol" in note.message
    )
    assert "FAQ and errata boxes left out of the rules text: 25 " in note.message


def test_the_fixture_is_pieces_of_the_page_byte_for_byte() -> None:
    page = shared_path("html-pages", "world-eaters", "index.html").read_bytes()
    lines = TRIMMED.read_bytes().split(CR_CR_LF)
    assert all(line in page for line in lines)


def test_the_known_boxes_are_those_of_the_10th_edition_pages() -> None:
    pages = sorted(shared_path("html-pages").glob("*/*.html"))
    frames = 0
    met: set[str] = set()
    for path in pages:
        root = dom.parse(path.read_text(encoding="utf-8"))
        assert root is not None
        for frame in dom.select(root, "div", "dsOuterFrame"):
            frames += 1
            assert frame_edition(frame) in (10, None)
            assert unknown_boxes(frame) == [], path.name
            met |= {c for child in dom.children(frame) for c in dom.classes(child)}
            met |= {c for el in frame.iter() for c in dom.classes(el) if c.startswith("ds")}
    assert frames == 9
    # Every known box is met there, but for the colours of the pages' factions.
    assert {c for c in met if not c.startswith("dsColor")} == KNOWN_BOXES
