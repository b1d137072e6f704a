"""The differences of form a crosscheck takes out (``outputs.crosscheck.form.NORMALISATIONS``),
each on a real pair: one entity as the Wahapedia export of 2026-02-14 and the BSData of the same
day give it, cut to the part where the two differ (``fixtures/crosscheck_form``, SOURCES.md).
A pair that differs in form only gives no finding; a pair that differs in substance gives the
finding it should, named."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import TypeAdapter

from test_diff_support import write_out
from wahanorm.contract.models import AnyEntity
from wahanorm.outputs.crosscheck import form
from wahanorm.outputs.crosscheck.engine import crosscheck
from wahanorm.outputs.crosscheck.result import CrosscheckReport
from wahanorm.outputs.diff.sides import load_side
from wahanorm.pipeline import converted

PAIRS = json.loads(
    (Path(__file__).parent / "fixtures" / "crosscheck_form" / "pairs.json").read_text("utf-8")
)
BY_NAME = {p["what"]: p for p in PAIRS}
ENTITY: TypeAdapter[Any] = TypeAdapter(AnyEntity)


def check_pair(tmp_path: Path, what: str) -> CrosscheckReport:
    pair = BY_NAME[what]
    also = [ENTITY.validate_python(e) for e in pair.get("a_also", [])]
    a = write_out(tmp_path / "a", [ENTITY.validate_python(pair["a"]), *also])
    more = [ENTITY.validate_python(e) for e in pair.get("b_also", [])]
    b = write_out(tmp_path / "b", [ENTITY.validate_python(pair["b"]), *more])
    return crosscheck(load_side(str(a), converted)[0], load_side(str(b), converted)[0])


def summaries(report: CrosscheckReport, entity_id: str | None = None) -> list[str]:
    """The findings (of the entity ``entity_id`` alone, when given)."""
    return [
        d.summary
        for e in report.entities
        if entity_id is None or e.id == entity_id
        for d in e.disagreements
    ]


FORM = [p["what"] for p in PAIRS if p["how"] == "form"]


@pytest.mark.parametrize("what", FORM)
def test_a_difference_of_form_is_no_finding(tmp_path: Path, what: str) -> None:
    pair = BY_NAME[what]
    assert pair["a"] != {**pair["b"], "sources": pair["a"]["sources"]}  # they do differ
    report = check_pair(tmp_path, what)
    assert report.summary.compared == 1 + len(pair.get("b_also", []))
    assert summaries(report, pair["a"]["id"]) == []


def test_each_normalisation_is_listed_once_with_its_example() -> None:
    names = [n.name for n in form.NORMALISATIONS]
    assert len(names) == len(set(names))
    assert all(n.example for n in form.NORMALISATIONS)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("… of 6 and the [HAZARDOUS] ability.", "… of 6 and the HAZARDOUS ability."),
        ("re-roll up to two of the D6 rolled.", "re-roll up to 2 of the D6 rolled."),
        ('within ½" of it', 'within 1/2" of it'),
        ('20+"', '20"+'),
        ("TWIN-LINKED", "TWIN LINKED"),
        ("while Battle- shocked, except", "while Battle-shocked, except"),
        ("must be set up wholly within", "must be setup wholly within"),
        (
            "characteristics of the bearers melee weapons",
            "characteristics of the bearer's melee weapons",
        ),
        (
            "subtract 5 from this model's Objective Control",
            "subtract 5 from this models Objective Control",
        ),
    ],
)
def test_texts_in_one_form(a: str, b: str) -> None:
    assert form.text_form(a) == form.text_form(b)


def test_names_in_one_form() -> None:
    assert form.name_form("2 Eliminators") == form.name_form("2 Eliminator")
    assert form.name_form("1 Aestred Thurga – EPIC HERO") == form.name_form("1 Aestred Thurga")
    assert form.name_form("Spiked ram") != form.name_form("Spiked wheels")


def test_a_range_they_disagree_on(tmp_path: Path) -> None:
    # Sanctifiers: Datasheets_wargear.csv prints the plasma gun's range 24", the catalogue 12"
    said = summaries(check_pair(tmp_path, "range"))
    assert (
        'Plasma gun – standard: Range 24" (wahapedia-10ed-2026-02-14) vs 12" '
        "(wh40k-10e-2026-02-14-all)"
    ) in said


def test_points_they_disagree_on(tmp_path: Path) -> None:
    assert summaries(check_pair(tmp_path, "points")) == [
        "Points (1 model): 95 (wahapedia-10ed-2026-02-14) vs 100 (wh40k-10e-2026-02-14-all)"
    ]


def test_a_movement_they_disagree_on(tmp_path: Path) -> None:
    assert summaries(check_pair(tmp_path, "movement")) == [
        'Furioso Dreadnought: Movement 8" (wahapedia-10ed-2026-02-14) vs 6" '
        "(wh40k-10e-2026-02-14-all)"
    ]


def test_a_penetration_they_disagree_on_beside_a_keyword_in_two_spellings(
    tmp_path: Path,
) -> None:
    # Firestorm: the export's twin shuriken catapult AP -3 [TWIN-LINKED], BSData's AP -1
    # [TWIN LINKED]: the keyword is one, the penetration two
    assert summaries(check_pair(tmp_path, "penetration-beside-twin-linked")) == [
        "Twin shuriken catapult: Armour Penetration -3 (wahapedia-10ed-2026-02-14) vs -1 "
        "(wh40k-10e-2026-02-14-all)"
    ]


def test_a_table_printed_inline_is_one_table_and_the_wording_left_a_finding(
    tmp_path: Path,
) -> None:
    # Strands of Fate: the export's two tables (BATTLE SIZE | NUMBER OF D6, STRATAGEM | FATE
    # DICE VALUE), BSData's rows inline ("- Incursion - 3"); the one real difference left is
    # the wording "the Stratagems below" / "the detachment Stratagems"
    said = summaries(check_pair(tmp_path, "inline-table"), "seer-council/strands-of-fate")
    assert said == [
        "Text: … use one of the [-Stratagems below,-] {+detachment Stratagems,+} if your Fate "
        "dice …"
    ]


def test_a_word_diff_shows_only_what_the_texts_say_otherwise() -> None:
    # Aegis Defence Line, DEPLOYMENT (Datasheets_abilities.csv against the Astra Militarum
    # library): "the two broken shield sections … within 1/2" … All the sections" /
    # "the 2 broken shield sections … within ½" … All of the sections"
    from wahanorm.outputs.diff.result import WordOp

    words = [
        WordOp(op="equal", text="the"),
        WordOp(op="delete", text="two"),
        WordOp(op="insert", text="2"),
        WordOp(op="equal", text="broken shield sections are within"),
        WordOp(op="delete", text='1/2"'),
        WordOp(op="insert", text='½"'),
        WordOp(op="equal", text="of each other. All"),
        WordOp(op="insert", text="of"),
        WordOp(op="equal", text="the sections"),
    ]
    assert form.words_in_one_form(words) == [
        WordOp(
            op="equal", text='the two broken shield sections are within 1/2" of each other. All'
        ),
        WordOp(op="insert", text="of"),
        WordOp(op="equal", text="the sections"),
    ]
    assert form.only_form(form.words_in_one_form(words[:7]))


@pytest.mark.parametrize(
    "damage",
    [
        {"weapons": 3},
        {"weapons": [{"name": ["x"], "abilities": "ONE SHOT"}]},
        {"abilities": {"datasheet": "x", "wargear": [{"name": None}]}},
        {"profiles": [{"name": {}}, {"name": None}], "keywords": [None, 1]},
        {"cost": [0], "text": None, "tables": [[1], ["a"]]},
        {"leader": [{"id": 1}, None, "x"]},
    ],
)
def test_a_damaged_file_is_compared_without_a_traceback(damage: dict[str, Any]) -> None:
    # an output folder written by hand or by another program: its fields of any shape
    pair = BY_NAME["weapon-keyword-rows"]
    for a, b in ((pair["a"], {**pair["b"], **damage}), ({**pair["a"], **damage}, pair["b"])):
        context = form.Context("datasheet", ({"x"}, {"y"}))
        form.in_one_form(json.loads(json.dumps(a)), json.loads(json.dumps(b)), None, context)


def test_restrictions_both_sources_print_are_still_compared(tmp_path: Path) -> None:
    # Marks of Chaos: the export's "… share the same keyword from the list above", BSData's
    # "… from the list below" (beside the pair one-sided-restrictions)
    report = check_pair(tmp_path, "one-sided-restrictions")
    found = summaries(report, "pactbound-zealots/marks-of-chaos")
    assert any(s.startswith("Restrictions:") and "above" in s for s in found), found


def test_an_oval_base_is_a_base_of_two_dimensions() -> None:
    # Carnifexes: the export's 105 x 70mm, Game-Datacards' "105 x 70mm Oval Base" (the pair
    # ``oval-base``); another size, or a round base, stays a difference
    for x, y, alike in [
        ("105 x 70mm", "105 x 70mm Oval Base", True),
        ("105 x 70mm", "120 x 92mm Oval Base", False),
        ("60mm", "60mm Oval Base", False),
    ]:
        a, b = {"base_size": x}, {"base_size": y}
        form._oval_base(a, b, form.Context())
        assert (b["base_size"] == x) is alike, (x, y)


def test_a_faction_named_twice_stays_a_difference_where_the_other_lacks_both() -> None:
    # the shorter name goes only where the other source names the faction by the longer one
    a = {"faction_keywords": ["UNALIGNED", "UNALIGNED FORCES"]}
    b = {"faction_keywords": ["UNALIGNED FORCES"]}
    form._faction_named_twice(a, b, form.Context())
    assert a["faction_keywords"] == b["faction_keywords"] == ["UNALIGNED FORCES"]
    a, b = {"faction_keywords": ["UNALIGNED", "UNALIGNED FORCES"]}, {"faction_keywords": []}
    form._faction_named_twice(a, b, form.Context())
    assert a["faction_keywords"] == ["UNALIGNED", "UNALIGNED FORCES"]
