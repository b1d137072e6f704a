"""Which layout a text is in decides whether it is read: the textContent layout (cells run
together) is read by the shapes of the cells; GW index-PDF text is recognised and refused;
a text of no known layout, and any would-be entity that no source could hold, is an error (exit
1), never an entity; data a datasheet lacks is a warning on the terminal. Small handmade
fixtures in ``tests/fixtures/dumps/``; the real textContent dumps are in
``test_textcontent_shared.py``."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from wahanorm.contract.models import Datasheet, Stat, Weapon
from wahanorm.pipeline import read_text
from wahanorm.pipeline.after_read import Extraction
from wahanorm.readers.dump.textcontent import _costs, is_textcontent

FIXTURES = Path(__file__).parent / "fixtures" / "dumps"


def _read(name: str) -> Extraction:
    return read_text((FIXTURES / name).read_text(encoding="utf-8"), name, html=False)


def _cells(w: Weapon) -> tuple[Stat, ...]:
    return (w.range, w.attacks, w.skill, w.strength, w.armour_penetration, w.damage)


def _codes(extraction: Extraction, severity: str) -> list[str]:
    return [d.code for d in extraction.report.diagnostics if d.severity == severity]


def test_textcontent_weapon_cells_are_cut_by_their_shapes() -> None:
    extraction = _read("textcontent_small.txt")
    [sheet] = [e for e in extraction.entities if isinstance(e, Datasheet)]
    assert (sheet.id, sheet.name, sheet.base_size) == (
        "space-marines/test-squad",
        "Test Squad",
        "32mm",
    )
    rows = [(w.name, w.profile, w.type, *(s.text for s in _cells(w))) for w in sheet.weapons]
    assert rows == [
        ("Bolt rifle", None, "ranged", '24"', "2", "3+", "4", "-1", "1"),
        ("Plasma gun", "supercharge", "ranged", '24"', "1", "4+", "8", "-3", "2"),
        ("Heavy flamer", None, "ranged", '12"', "D6", "N/A", "5", "-1", "1"),
        ("Power fist", None, "melee", "Melee", "3", "3+", "8", "-2", "2"),
    ]
    assert [a.name for a in sheet.weapons[1].abilities] == ["HAZARDOUS", "RAPID FIRE 1"]
    assert _codes(extraction, "error") == []


def test_textcontent_sections_glued_to_their_text() -> None:
    [sheet] = [e for e in _read("textcontent_small.txt").entities if isinstance(e, Datasheet)]
    assert [(p.models, p.points) for p in sheet.points] == [(5, 85), (10, 170)]
    assert [a.name for a in sheet.abilities.core] == ["Deep Strike", "Scouts"]
    assert [a.name for a in sheet.abilities.datasheet] == ["Steady Aim", "Close Support"]
    assert sheet.unit_composition == ["1 Test Sergeant", "4-9 Testers"]
    assert sheet.damaged is not None and sheet.damaged.wounds == "1-3"
    assert sheet.keywords == ["IMPERIUM", "INFANTRY", "TEST SQUAD"]
    assert sheet.faction_keywords == ["ADEPTUS ASTARTES"]
    assert sheet.led_by == [
        "space-marines/test-captain",
        "space-marines/test-librarian-in-terminator-armour",
    ]
    # The book markers ("C") are split off the next name, not glued to it.
    assert sheet.stratagems == [
        "1st-company-task-force/armour-of-contempt",
        "core/command-re-roll",
        "core/insane-bravery",
        "grizzled-company/no-retreat",
        "grizzled-company/purging-fire",
    ]


def test_cost_rows_run_together_are_cut_where_the_model_counts_grow() -> None:
    assert _costs("10 models6520 models120") == [("10 models", "65"), ("20 models", "120")]
    assert _costs("3 models956 models190") == [("3 models", "95"), ("6 models", "190")]
    assert _costs("1 model450") == [("1 model", "450")]
    assert _costs("5 models10010 models200") == [("5 models", "100"), ("10 models", "200")]


def test_other_dumps_are_not_textcontent() -> None:
    raw = Path(__file__).parents[1] / "raw"
    assert not any(is_textcontent(p.read_text(encoding="utf-8")) for p in raw.glob("*.txt"))


def test_index_pdf_text_is_recognised_and_refused() -> None:
    extraction = _read("index_pdf.txt")
    assert extraction.entities == []
    [error] = [d for d in extraction.report.diagnostics if d.severity == "error"]
    assert (error.code, error.line) == ("index-pdf-unsupported", 2)


def test_unknown_layout_is_an_error_not_no_entities() -> None:
    extraction = _read("unknown_layout.txt")
    assert extraction.entities == []
    assert _codes(extraction, "error") == ["unknown-layout"]


def test_implausible_would_be_entities_are_errors() -> None:
    extraction = _read("implausible.txt")
    assert extraction.entities == []
    errors = [d for d in extraction.report.diagnostics if d.severity == "error"]
    assert [(d.code, d.line) for d in errors] == [
        ("implausible-entity", 1),
        ("implausible-entity", 5),
    ]
    assert "neither a model profile nor a weapon" in errors[0].message
    assert "sentence length" in errors[1].message


def test_missing_profile_and_empty_table_are_warnings() -> None:
    extraction = _read("no_profile_pipe.txt")
    [sheet] = extraction.entities
    assert isinstance(sheet, Datasheet) and sheet.profiles == []
    warnings = {d.code: d for d in extraction.report.diagnostics if d.severity == "warning"}
    assert warnings["profile-missing"].line == 1
    assert (
        warnings["weapon-table-empty"].line == 5
        and "MELEE WEAPONS" in warnings["weapon-table-empty"].message
    )


def test_weapon_without_a_characteristic_on_a_page_is_a_warning() -> None:
    html = (
        '<h1 class="page_header2"><span class="page_header_span2">Test</span></h1>'
        '<div class="dsOuterFrame"><div class="dsH2Header"><div>Gunner</div></div>'
        '<table class="wTable"><tr><td class="dsHeader"></td><td><div class="dsHeader">'
        'RANGED WEAPONS</div></td></tr><tr><td></td><td>Gun</td><td>24"</td><td>1</td>'
        "<td></td><td>4</td><td>0</td><td>1</td></tr></table>"
        '<table class="wTable"><tr><td class="dsHeader"></td><td><div class="dsHeader">'
        "MELEE WEAPONS</div></td></tr></table></div>"
    )
    extraction = read_text(html, "gunner.html", html=True)
    assert extraction is not None
    warnings = {d.code: d for d in extraction.report.diagnostics if d.severity == "warning"}
    assert "skill" in warnings["characteristic-missing"].message
    assert warnings["weapon-table-empty"].line
    assert "profile-missing" in warnings


def test_terminal_shows_the_warnings_and_exit_1_on_errors(tmp_path: Path) -> None:
    inputs = tmp_path / "in"
    inputs.mkdir()
    for name in ("no_profile_pipe.txt", "index_pdf.txt"):
        shutil.copy(FIXTURES / name, inputs / name)
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "wahanorm",
            "convert",
            str(inputs),
            "--out",
            str(tmp_path / "out"),
            "--no-cache",
            "--jobs",
            "1",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 1
    assert "warning: datasheet 'Test Boss' has no model profile" in result.stderr
    assert "index_pdf.txt:2: error: plain text of a GW index PDF" in result.stderr


@pytest.mark.parametrize("page", ["two_profiles", "two_profile_boxes", "aircraft"])
def test_textcontent_of_handmade_pages_gives_the_page_datasheet(page: str) -> None:
    # The dumps are the shared tool's output on the handmade pages of tests/fixtures/html.
    html = (Path(__file__).parent / "fixtures" / "html" / f"{page}.html").read_text(
        encoding="utf-8"
    )
    from_page = read_text(html, f"{page}.html", html=True)
    assert from_page is not None
    extraction = _read(f"textcontent_{page}.txt")
    [page_sheet] = [e for e in from_page.entities if isinstance(e, Datasheet)]
    [dump_sheet] = [e for e in extraction.entities if isinstance(e, Datasheet)]
    compared = ("id", "profiles", "weapons", "points", "keywords", "faction_keywords", "abilities")
    for name in compared:
        assert getattr(dump_sheet, name) == getattr(page_sheet, name), name
    # The handmade pages carry no link of their site, so their edition is a guess, said once.
    said = [d.code for d in extraction.report.diagnostics if d.severity != "info"]
    assert said == ["edition-guessed"]


def test_textcontent_cut_short_says_where_its_faction_came_from() -> None:
    text = (FIXTURES / "textcontent_small.txt").read_text(encoding="utf-8")
    cut = text[: text.index("=== KEYWORDS ===")]
    extraction = read_text(cut, "cut.txt", html=False)
    [sheet] = [e for e in extraction.entities if isinstance(e, Datasheet)]
    assert sheet.id == "adeptus-astartes/test-squad"  # the page's title is not in the text
    [warning] = [d for d in extraction.report.diagnostics if d.code == "faction-guessed"]
    assert warning.line == 2
    before_faction = cut[: cut.index("FACTION KEYWORDS")]
    nothing = read_text(before_faction, "cut.txt", html=False)
    assert nothing.entities == []
    assert [d.code for d in nothing.report.diagnostics if d.severity == "error"] == ["no-faction"]


def test_an_unknown_weapon_ability_on_a_page_is_said_once_per_name() -> None:
    def row(name: str) -> str:
        return (
            f'<tr><td></td><td>{name}<span class="kwb2">psychic assassin</span></td><td>24"</td>'
            "<td>1</td><td>3+</td><td>4</td><td>0</td><td>1</td></tr>"
        )

    html = (
        '<h1 class="page_header2"><span class="page_header_span2">Test</span></h1>'
        '<div class="dsOuterFrame"><div class="dsH2Header"><div>Gunner</div></div>'
        '<table class="wTable"><tr><td class="dsHeader"></td><td><div class="dsHeader">'
        f"RANGED WEAPONS</div></td></tr>{row('Gun')}{row('Other gun')}</table></div>"
    )
    extraction = read_text(html, "gunner.html", html=True)
    assert extraction is not None
    [sheet] = [e for e in extraction.entities if isinstance(e, Datasheet)]
    assert [[a.name for a in w.abilities] for w in sheet.weapons] == [["PSYCHIC ASSASSIN"]] * 2
    said = [d for d in extraction.report.diagnostics if d.code == "unknown-weapon-ability"]
    assert [d.message for d in said] == [
        "weapon 'Gun': ability 'PSYCHIC ASSASSIN' is none the grammar knows; kept whole "
        "(reported once per name)"
    ]
