"""Tables in HTML rules text (the export's Abilities.csv and Detachment_abilities.csv, a saved
page's tooltips) kept as rows of cells in ``Rule.tables`` / ``DetachmentRule.tables``, out of
``text``; a table whose rows are gone is a warning. Then the same tables in the database, on
the card and in the diff.

Fixtures: ``tests/fixtures/export_tables`` holds eight rows of the February 2026 export, byte
for byte (Abilities.csv lines 43, 46, 48, 53; Detachment_abilities.csv lines 25, 30, 73, 77)
its Factions.csv, and the headers of Datasheets.csv and Stratagems.csv (what makes a
folder an export); ``tests/fixtures/html/tooltip_tables.html`` two tooltips cut from the
saved Baneblade page."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest

import wahanorm
from wahanorm import cli
from wahanorm.blocks import html as dom
from wahanorm.blocks.clean.characters import normalize_text
from wahanorm.blocks.html_tables import with_die_faces
from wahanorm.blocks.html_text import TABLE, parse_fragment, walk
from wahanorm.contract.models import DetachmentRule, Rule
from wahanorm.errors import Report
from wahanorm.outputs.database import build_database
from wahanorm.outputs.diff.compare import compare_entities
from wahanorm.outputs.output import Output
from wahanorm.pipeline import read_path
from wahanorm.pipeline.after_read import Extraction
from wahanorm.readers.export.markup import field_parts
from wahanorm.readers.page.context import TooltipContext
from wahanorm.readers.page.tooltips import read_tooltips

REPO = Path(__file__).resolve().parents[1]
EXPORT = REPO / "tests" / "fixtures" / "export_tables"
PAGE = REPO / "tests" / "fixtures" / "html" / "tooltip_tables.html"


@pytest.fixture(scope="module")
def export() -> Extraction:
    return read_path(EXPORT, "export_tables")


def _entity(extraction: Extraction, entity_id: str) -> Rule | DetachmentRule:
    [found] = [e for e in extraction.entities if e.id == entity_id]
    assert isinstance(found, Rule | DetachmentRule)
    return found


def _description(table: str, line: int) -> str:
    """The description field of a fixture row (``line`` as in the real export)."""
    text = (EXPORT / table).read_text(encoding="utf-8-sig")
    rows = {r.split("|", 1)[0]: r for r in text.splitlines()[1:]}
    ids = {"Abilities.csv": {43: "000008434", 46: "000008452", 48: "000008458"},
           "Detachment_abilities.csv": {25: "000009902"}}  # fmt: skip
    return rows[ids[table][line]].split("|")[4]


def test_a_rule_keeps_its_table_as_rows_out_of_its_text(export: Extraction) -> None:
    agents = _entity(export, "space-marines/assigned-agents")
    [table] = agents.tables
    assert table == [
        ["BATTLE SIZE", "RETINUE UNITS", "CHARACTER UNITS", "REQUISITIONED UNITS"],
        ["Incursion", "1", "1", "1"],
        ["Strike Force", "2", "2", "1"],
        ["Onslaught", "3", "3", "2"],
    ]  # the site's spacer row (four empty cells) is no row
    assert "depends on the battle size, as shown below.\nNote that" in agents.text
    assert "Strike Force" not in agents.text


def test_a_detachment_rule_keeps_its_tables(export: Extraction) -> None:
    ride = _entity(export, "windrider-host/ride-the-wind")
    assert ride.tables == [[["BATTLE SIZE", "NUMBER OF UNITS"], ["Incursion", "1"],
                            ["Strike Force", "2"], ["Onslaught", "3"]]]  # fmt: skip
    assert ride.text.endswith(
        "KEYWORDS\nWindriders units from your army gain the BATTLELINE keyword."
    )
    fate = _entity(export, "seer-council/strands-of-fate")
    assert [len(t) for t in fate.tables] == [4, 7]
    # Cells in the clean stage's spelling: the export's ’ is an apostrophe, NFC.
    assert fate.tables[1][5] == ["Isha's Fury", "5"]
    # A header over two rows (rowspan, colspan) as printed, one row per <tr>.
    misdirection = _entity(export, "deceptors/masters-of-misdirection")
    assert misdirection.tables[0][:3] == [
        ["BATTLE SIZE", "NUMBER OF UNITS"],
        ["LEGIONARIES", "CULTIST MOBS"],
        ["Incursion", "Up to 2 units", "Up to 2 units"],
    ]


def test_captions_are_rows_of_one_cell_and_lists_stay_in_the_text(export: Extraction) -> None:
    ambush = _entity(export, "genestealer-cults/cult-ambush")
    [table] = ambush.tables
    assert len(table) == 15
    assert table[:3] == [["Aberrants"], ["5 models", "4 Resurgence points"],
                         ["10 models", "8 Resurgence points"]]  # fmt: skip
    assert [row[0] for row in table if len(row) == 1][-1] == "Purestrain Genestealers"
    # "as shown below." followed by a list: the list is what is shown, and stays in the text.
    assert "as shown below.\n- Incursion: 6 Resurgence points" in ambush.text
    pact = _entity(export, "chaos-daemons/daemonic-pact")
    assert pact.tables == [[["Incursion", "Up to 250 pts"], ["Strike Force", "Up to 500 pts"],
                            ["Onslaught", "Up to 750 pts"]]]  # fmt: skip
    assert "- Slaanesh" in pact.text
    thralls = _entity(export, "shadow-legion/thralls-of-the-first-prince")
    assert thralls.tables == []
    assert "as shown below.\n- Incursion: Up to 500 pts" in thralls.text


def test_a_die_picture_reads_as_its_number(export: Extraction) -> None:
    chivalric = _entity(export, "imperial-knights/code-chivalric")
    assert [len(t) for t in chivalric.tables] == [4, 4]
    deeds = chivalric.tables[0]
    assert deeds[0] == ["Deed", "D6"]
    assert [row[1] for row in deeds[1:]] == ["1 2", "3 4", "5 6"]  # <img src=".../d1.png"> …


def test_no_table_warning_where_every_row_is_there(export: Extraction) -> None:
    assert [d for d in export.report.diagnostics if d.code.startswith("table")] == []


def test_an_announced_table_without_rows_is_a_warning() -> None:
    raw = _description("Detachment_abilities.csv", 25)
    cut = re.sub(r"<table.*</table>", "", raw)  # the real row with its table gone
    text, tables, notes = field_parts(cut)
    assert tables == ()
    assert "as shown below.\nKEYWORDS" in text
    assert [n.split(":")[0] for n in notes] == ["table-missing"]
    assert notes[0].endswith("depends on the battle size, as shown below.")
    emptied = re.sub(r"(<td[^>]*>)(?:<b>)?[^<]*(?:</b>)?(</td>)", r"\1\2", raw)
    assert field_parts(emptied)[1:] == ((), ("table-empty",))


def test_a_table_whose_values_are_gone_is_a_warning() -> None:
    raw = _description("Detachment_abilities.csv", 25)
    plus = re.sub(r"<b>(\d)</b>", "<b>+</b>", raw)  # as a text dump prints 2+ without its 2
    _, tables, notes = field_parts(plus)
    assert tables[0][1] == ("Incursion", "+")
    assert notes == ("table-partial",)


def test_the_export_reports_a_missing_table_at_its_line(tmp_path: Path) -> None:
    text = (EXPORT / "Detachment_abilities.csv").read_bytes()
    start = text.index(b"<table")
    end = text.index(b"</table></td></tr></tbody></table>", start) + len(
        b"</table></td></tr></tbody></table>"
    )
    (tmp_path / "Detachment_abilities.csv").write_bytes(text[:start] + text[end:])
    (tmp_path / "Factions.csv").write_bytes((EXPORT / "Factions.csv").read_bytes())
    (tmp_path / "Stratagems.csv").write_bytes((EXPORT / "Stratagems.csv").read_bytes())
    extraction = read_path(tmp_path, "cut")
    [missing] = [d for d in extraction.report.diagnostics if d.code == "table-missing"]
    assert (missing.severity, missing.line) == ("warning", 2)
    assert _entity(extraction, "windrider-host/ride-the-wind").tables == []


def test_the_text_and_the_tables_hold_every_character_of_the_field() -> None:
    # Each table of rows is the inner one of a wrapper table: the eight rows print 18
    # <table>s (`grep -o '<table' | wc -l`), 9 tables of rows, none in Thralls of the First
    # Prince (its sizes are a list).
    found = 0
    for table in ("Abilities.csv", "Detachment_abilities.csv"):
        for row in (EXPORT / table).read_text(encoding="utf-8-sig").splitlines()[1:]:
            field = row.split("|")[4]
            root = parse_fragment(field)
            tables: list[list[list[str]]] = []
            lines = walk(root, tables=tables)
            cells = iter(tables)
            read = "".join(
                "".join(c for r in next(cells) for c in r) if line.mark == TABLE else line.text
                for line in lines
            )
            printed, _ = with_die_faces(root)  # a die's picture reads as its number
            assert _chars(read) == _chars("".join(printed.itertext())), row[:40]
            assert field_parts(field)[1] == tuple(tuple(map(tuple, t)) for t in tables)
            found += len(tables)
    assert found == 9


def _chars(text: str) -> str:
    return "".join(normalize_text(text).split())


def test_a_saved_page_keeps_its_tooltips_tables() -> None:
    root = dom.parse(PAGE.read_text(encoding="utf-8"))
    assert root is not None
    report = Report()
    found = read_tooltips(root, TooltipContext("astra-militarum", "Baneblade.html", report)).by_id
    wound = found["tooltip_content00017"]
    assert isinstance(wound, Rule)
    [table] = wound.tables
    assert table[0] == ["WOUND ROLL"]
    assert table[1] == ["ATTACK'S STRENGTH VS TARGET'S TOUGHNESS", "D6 RESULT REQUIRED"]
    # The page prints each roll as a die's picture and a "+": read as the player reads it.
    assert [row[1] for row in table[2:]] == ["2+", "3+", "4+", "5+", "6+"]
    assert "Strength is GREATER" not in wound.text
    artillery = found["tooltip_content00057"]
    assert isinstance(artillery, DetachmentRule)
    assert artillery.tables == [[["BATTLE SIZE", "MAXIMUM NUMBER OF UNITS"], ["Incursion", "2"],
                                 ["Strike Force", "3"], ["Onslaught", "4"]]]  # fmt: skip
    assert report.diagnostics == []


def test_the_database_holds_every_cell(tmp_path: Path) -> None:
    output = Output.from_files(wahanorm.convert(EXPORT).files())
    db = sqlite3.connect(build_database(output, tmp_path / "rules.db"))
    cells = db.execute(
        "SELECT table_no, row_no, cell_no, text FROM rule_tables WHERE kind = 'rule' "
        "AND entity_id = 'space-marines/assigned-agents' ORDER BY 1, 2, 3"
    ).fetchall()
    assert len(cells) == 16 and cells[9] == (0, 2, 1, "2")
    per_kind = dict(db.execute("SELECT kind, count(*) FROM rule_tables GROUP BY kind"))
    entities = [e for e in output.entities() if e.get("tables")]
    for kind in ("rule", "detachment_rule"):
        assert per_kind[kind] == sum(
            len(row) for e in entities if e["kind"] == kind for t in e["tables"] for row in t
        )
    [found] = db.execute(
        "SELECT entity_id FROM rules_text WHERE rules_text MATCH 'Resurgence' AND field = 'table:0'"
    ).fetchall()
    assert found == ("genestealer-cults/cult-ambush",)


def test_the_card_prints_the_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    wahanorm.write(tmp_path / "out", wahanorm.convert(EXPORT))
    assert cli.main(["show", "ride-the-wind", "--out", str(tmp_path / "out")]) == 0
    lines = capsys.readouterr().out.splitlines()
    at = lines.index("  BATTLE SIZE   NUMBER OF UNITS")
    assert lines[at + 1 : at + 4] == ["  Incursion     1", "  Strike Force  2", "  Onslaught     3"]


def test_the_diff_names_the_changed_row(export: Extraction) -> None:
    agents = _entity(export, "space-marines/assigned-agents").model_dump(mode="json")
    changed = {**agents, "tables": [[*agents["tables"][0][:2], ["Strike Force", "3", "2", "1"],
                                     agents["tables"][0][3]]]}  # fmt: skip
    [change] = compare_entities(agents, changed)
    assert change.summary == (
        "Table BATTLE SIZE | RETINUE UNITS | CHARACTER UNITS | REQUISITIONED UNITS, "
        "row Strike Force: Strike Force | 2 | 2 | 1 → Strike Force | 3 | 2 | 1"
    )
    ambush = _entity(export, "genestealer-cults/cult-ambush").model_dump(mode="json")
    rows = [list(r) for r in ambush["tables"][0]]
    rows[5][1] = "5 Resurgence points"  # Acolyte Hybrids …, 10 models: 4 → 5
    [change] = compare_entities(ambush, {**ambush, "tables": [rows]})
    assert change.label.endswith("Hybrid Metamorphs / 10 models")
    assert (change.old, change.new) == (
        "10 models | 4 Resurgence points",
        "10 models | 5 Resurgence points",
    )
