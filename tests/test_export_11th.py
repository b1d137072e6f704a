"""The 11th-edition export sample (tests/fixtures/export, copied from ../shared/corpus with its
SOURCES.md), in both forms: Wahapedia's own and re-saved by a spreadsheet. Facts are checked
against the CSV rows quoted beside them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from syrupy.assertion import SnapshotAssertion

from test_export_slice import FEB, SLICE, CanonicalJson
from wahanorm import pipeline
from wahanorm.contract.models import Datasheet, Detachment, Enhancement
from wahanorm.outputs.canonical import canonical_json
from wahanorm.outputs.diff.engine import Snapshot, diff_snapshots
from wahanorm.outputs.diff.render_text import render_text
from wahanorm.pipeline import read_path
from wahanorm.pipeline.after_read import Extraction
from wahanorm.readers.base import Entity
from wahanorm.readers.export.tables import header_form, undo_resave

SAMPLE = "wahapedia-11ed-2026-09-13-sample"
RESAVED = "wahapedia-11ed-2026-09-13-sample-resaved"


@pytest.fixture(scope="module")
def eleventh() -> Extraction:
    return read_path(SLICE / SAMPLE, f"fixtures/{SAMPLE}")


@pytest.fixture(scope="module")
def resaved() -> Extraction:
    return read_path(SLICE / RESAVED, f"fixtures/{RESAVED}")


def find(extraction: Extraction, kind: str, entity_id: str, edition: int) -> Entity:
    found = [
        e for e in extraction.entities if (e.kind, e.id, e.edition) == (kind, entity_id, edition)
    ]
    assert len(found) == 1, [(e.kind, e.id, e.edition) for e in extraction.entities]
    return found[0]


# --- edition -------------------------------------------------------------------------------


def test_core_stratagems_of_both_editions_are_two_entities(eleventh: Extraction) -> None:
    # |COMMAND RE-ROLL|000008335002|Core – Battle Tactic Stratagem|1|…
    # |COMMAND RE-ROLL|000010810002|Core Stratagem|1|…
    older = find(eleventh, "stratagem", "core/command-re-roll", 10)
    newer = find(eleventh, "stratagem", "core/command-re-roll", 11)
    assert (older.category, newer.category) == ("Battle Tactic", None)  # type: ignore[union-attr]
    assert older.sources[0].line_start != newer.sources[0].line_start


def test_editions_of_books_detachments_and_datasheets(eleventh: Extraction) -> None:
    # Source.csv dates Boarding Actions to 10th edition (000000285|Boarding Actions|Expansion|10|)
    # but the 11th-edition Warboss lists its stratagems (Datasheets_stratagems.csv
    # 000000001|000009218002|): they are the ones of the 11th-edition site, as on page 000
    assert find(eleventh, "stratagem", "boarding-actions/command-re-roll", 11)
    warboss = find(eleventh, "datasheet", "orks/warboss", 11)
    assert "boarding-actions/command-re-roll" in warboss.stratagems  # type: ignore[union-attr]
    # Detachments.csv: 000000909|AC|Voyagers in Darkness|<b>…</b>|Boarding Actions|||
    voyagers = find(eleventh, "detachment", "adeptus-custodes/voyagers-in-darkness", 11)
    assert isinstance(voyagers, Detachment) and voyagers.type == "Boarding Actions"
    assert voyagers.dp is None
    # |NEW ORDERS|000008539002|Core Stratagem – Strategic Ploy Stratagem|…: a category, 10th
    assert find(eleventh, "stratagem", "core/new-orders", 10)
    # Datasheets.csv: links https://wahapedia.ru/wh40k11ed/…; the Warbike's source has edition 0
    sheets = [e for e in eleventh.entities if isinstance(e, Datasheet)]
    assert len(sheets) == 6 and {s.edition for s in sheets} == {11}
    # a detachment's stratagem takes its detachment's edition
    assert find(eleventh, "stratagem", "auric-champions/slayer-of-champions", 11)
    assert not [d for d in eleventh.report.diagnostics if d.code.startswith("edition")]


def test_a_datasheet_listing_only_the_other_editions_version_is_reported(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "linked"
    folder.mkdir()
    for table in (SLICE / SAMPLE).glob("*.csv"):
        (folder / table.name).write_bytes(table.read_bytes())
    links = folder / "Datasheets_stratagems.csv"
    # the Warboss lists the 10th-edition GO TO GROUND (|GO TO GROUND|000008335010|Core – …)
    links.write_bytes(links.read_bytes() + b"000000001|000008335010|\r\n")
    extraction = read_path(folder, "linked")
    [warning] = [d for d in extraction.report.diagnostics if d.code == "edition-link"]
    assert "orks/warboss (11th edition) lists stratagem core/go-to-ground" in warning.message


def test_an_export_that_does_not_tell_its_edition(tmp_path: Path) -> None:
    folder = tmp_path / "bare"
    folder.mkdir()
    (folder / "Factions.csv").write_text("id|name|link|\r\nORK|Orks||\r\n", "utf-8")
    (folder / "Datasheets.csv").write_text("id|name|faction_id|\r\n1|Boyz|ORK|\r\n", "utf-8")
    (folder / "Stratagems.csv").write_text("faction_id|name|id|\r\n", "utf-8")
    (folder / "Datasheets_models.csv").write_text(
        'datasheet_id|line|name|M|T|Sv|W|Ld|OC|\r\n1|1|Boy|6"|5|5+|1|7+|2|\r\n', "utf-8"
    )
    guessed = read_path(folder, "bare")
    assert [e.edition for e in guessed.entities] == [10]
    assert [d.code for d in guessed.report.diagnostics].count("edition-guessed") == 1
    said = read_path(folder, "bare", edition=11)
    assert [e.edition for e in said.entities] == [11]
    assert "edition-guessed" not in [d.code for d in said.report.diagnostics]


# --- new fields ------------------------------------------------------------------------------


def test_detachments_carry_dp_and_force_disposition(eleventh: Extraction) -> None:
    # Detachments.csv: 000000765|AC|Shield Host|||2|Purge the Foe|
    host = find(eleventh, "detachment", "adeptus-custodes/shield-host", 11)
    assert isinstance(host, Detachment)
    assert (host.name, host.faction, host.dp, host.force_disposition, host.type) == (
        "Shield Host",
        "Adeptus Custodes",
        2,
        "Purge the Foe",
        None,
    )
    # 000001166|AC|Tharanatoi Hammerblow|<p …>TERMINATOR-ARMOURED WARRIORS …</p>||1|Disruption|
    hammer = find(eleventh, "detachment", "adeptus-custodes/tharanatoi-hammerblow", 11)
    assert isinstance(hammer, Detachment)
    assert (hammer.dp, hammer.force_disposition) == (1, "Disruption")
    assert hammer.flavour is not None and hammer.flavour.startswith("TERMINATOR-ARMOURED")
    detachments = [e for e in eleventh.entities if isinstance(e, Detachment)]
    assert len(detachments) == 11


def test_enhancements_read_by_header_upgrade_and_support_leader(eleventh: Extraction) -> None:
    # faction_id|name|id|cost|detachment|detachment_id|upgrade|legend|description|support_leader|
    # AC|Interred Expertise|000010992002|25|Might of the Moritoi|000001164|true|…||
    expertise = find(eleventh, "enhancement", "might-of-the-moritoi/interred-expertise", 11)
    assert isinstance(expertise, Enhancement)
    assert (expertise.name, expertise.cost, expertise.upgrade) == ("Interred Expertise", 25, True)
    assert expertise.support_leader is None
    # AC|Aegis Projector|000008921002|20|Talons Of The Emperor|000000861|false|…
    aegis = find(eleventh, "enhancement", "talons-of-the-emperor/aegis-projector", 11)
    assert isinstance(aegis, Enhancement)
    assert (aegis.cost, aegis.upgrade, aegis.detachment) == (20, False, "Talons Of The Emperor")


def test_support_flag_of_datasheets(eleventh: Extraction) -> None:
    # Datasheets.csv is_support: Weirdboy true, the others false
    support = {e.id: e.is_support for e in eleventh.entities if isinstance(e, Datasheet)}
    assert support == {
        "orks/warboss": False,
        "orks/warboss-in-mega-armour": False,
        "orks/warboss-on-warbike": False,
        "orks/weirdboy": True,
        "orks/boyz": False,
        "orks/trukk": False,
    }


def test_new_columns_are_read_not_reported(eleventh: Extraction) -> None:
    unknown = [d.message for d in eleventh.report.diagnostics if d.code == "unknown-column"]
    for column in ("is_support", "dp", "force_disposition", "upgrade", "support_leader"):
        assert not [m for m in unknown if repr(column) in m], unknown


def test_a_tenth_edition_export_does_not_miss_the_new_columns() -> None:
    feb = read_path(SLICE / FEB, f"fixtures/{FEB}")
    assert not [d for d in feb.report.diagnostics if d.code == "missing-column"]
    assert {e.edition for e in feb.entities} == {10}
    detachments = [e for e in feb.entities if isinstance(e, Detachment)]
    assert detachments and all(d.dp is None for d in detachments)


# --- the re-saved export ----------------------------------------------------------------------


def test_resave_is_undone_to_the_exports_own_text() -> None:
    for table in sorted((SLICE / RESAVED).glob("*.csv")):
        stored = table.read_bytes().decode("utf-8-sig")
        original = (SLICE / SAMPLE / table.name).read_bytes().decode("utf-8-sig")
        assert header_form(stored, ("id",)) != "export"
        assert undo_resave(stored) == original, table.name


def test_resaved_export_gives_the_same_entities_with_one_warning(
    eleventh: Extraction, resaved: Extraction
) -> None:
    def said(extraction: Extraction) -> list[str]:
        return [
            canonical_json(e.model_copy(update={"sources": []}))
            for e in sorted(extraction.entities, key=lambda e: (e.edition, e.kind, e.id))
        ]

    assert said(resaved) == said(eleventh)
    assert len(resaved.entities) == 61
    warnings = [d for d in resaved.report.diagnostics if d.code == "resaved-export"]
    assert len(warnings) == 1 and "19 of 19 tables" in warnings[0].message
    own = sorted((d.code, d.line, d.message) for d in eleventh.report.diagnostics)
    undone = sorted(
        (d.code, d.line, d.message.replace(RESAVED, SAMPLE))
        for d in resaved.report.diagnostics
        if d.code != "resaved-export"
    )
    assert undone == own


def test_a_folder_of_other_tables_is_refused_with_one_error(tmp_path: Path) -> None:
    folder = tmp_path / "spreadsheet"
    folder.mkdir()
    (folder / "Datasheets.csv").write_text("id,name,faction_id\n1,Boyz,ORK\n", "utf-8")
    (folder / "Stratagems.csv").write_text("faction_id|name|id|\r\n", "utf-8")
    refused = read_path(folder, "spreadsheet")
    assert refused.entities == []
    errors = [d for d in refused.report.diagnostics if d.severity == "error"]
    assert [d.code for d in errors] == ["not-an-export"]
    assert errors[0].path == "spreadsheet/Datasheets.csv" and errors[0].line == 1


def test_a_resave_that_cannot_be_undone_exactly_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "broken"
    folder.mkdir()
    for table in (SLICE / RESAVED).glob("*.csv"):
        (folder / table.name).write_bytes(table.read_bytes())
    stratagems = folder / "Stratagems.csv"
    # a quote opened and never closed: no line-by-line reading gives this line back
    stratagems.write_bytes(stratagems.read_bytes() + b'"AC|"broken\n')
    refused = read_path(folder, "broken")
    assert refused.entities == []
    assert [d.code for d in refused.report.diagnostics if d.severity == "error"] == [
        "not-an-export"
    ]


# --- end to end, snapshots, and the 10th → 11th diff ----------------------------------------


@pytest.mark.parametrize("form", [SAMPLE, RESAVED])
def test_both_forms_end_to_end(form: str, repo_cwd: Path) -> None:
    result = pipeline.convert([SLICE / form], jobs=1)
    files = result.files
    assert "11ed/detachment/adeptus-custodes/shield-host.json" in files
    assert "10ed/stratagem/core/command-re-roll.json" in files
    assert "11ed/stratagem/core/command-re-roll.json" in files
    index = json.loads(files["index.json"])
    editions = {(e["kind"], e["id"], e["edition"]) for e in index["entities"]}
    assert ("detachment", "adeptus-custodes/voyagers-in-darkness", 11) in editions
    assert ("stratagem", "core/go-to-ground", 10) in editions
    assert index["data_version"] == "2026-09-13 03:43:55"
    codes = [d["code"] for d in index["diagnostics"]]
    assert codes.count("resaved-export") == (1 if form == RESAVED else 0)


def test_snapshots_of_the_eleventh_edition(
    eleventh: Extraction, snapshot: SnapshotAssertion
) -> None:
    keep = {
        ("detachment", "adeptus-custodes/shield-host", 11),
        ("enhancement", "might-of-the-moritoi/interred-expertise", 11),
        ("stratagem", "core/command-re-roll", 11),
        ("stratagem", "core/command-re-roll", 10),
    }
    chosen = sorted(
        (e for e in eleventh.entities if (e.kind, e.id, e.edition) in keep),
        key=lambda e: (e.edition, e.kind, e.id),
    )
    assert len(chosen) == len(keep)
    for entity in chosen:
        name = f"{entity.edition}ed-{entity.kind}-{entity.id.replace('/', '--')}"
        assert canonical_json(entity) == snapshot(extension_class=CanonicalJson, name=name)


def test_tenth_to_eleventh_diff_names_changes_unit_by_unit(repo_cwd: Path) -> None:
    tenth = pipeline.convert([SLICE / FEB], jobs=1).files
    eleventh = pipeline.convert([SLICE / SAMPLE], jobs=1).files
    report = diff_snapshots(Snapshot("10th", "output", tenth), Snapshot("11th", "output", eleventh))
    assert (report.old.editions, report.new.editions) == ([10], [10, 11])
    by = {(d.kind, d.id, d.edition): d for d in report.entities}
    # Datasheets_models.csv: 10th 000000001|1|Warboss|6"|5|4+|… ; 11th …|Warboss|6"|6|4+|5||6|…
    warboss = by[("datasheet", "orks/warboss", 11)]
    assert warboss.status == "changed"
    summaries = [c.summary for c in warboss.changes]
    assert "Warboss: T 5 → 6" in summaries and "Edition: 10 → 11" in summaries
    # the 10th-edition core stratagem is the same in both exports (so not listed); the
    # 11th-edition one is new
    assert ("stratagem", "core/command-re-roll", 10) not in by
    assert by[("stratagem", "core/command-re-roll", 11)].status == "added"
    text = render_text(report)
    assert "  ~ datasheet Warboss  (orks/warboss, 11th edition)" in text
    assert "editions: 10th → 10th and 11th" in text


def test_diff_between_one_edition_and_the_other_says_the_edition_once(repo_cwd: Path) -> None:
    tenth = pipeline.convert([SLICE / FEB], jobs=1).files
    eleventh = {
        rel: text
        for rel, text in pipeline.convert([SLICE / SAMPLE], jobs=1).files.items()
        if not rel.startswith("10ed/")
    }
    report = diff_snapshots(Snapshot("10th", "output", tenth), Snapshot("11th", "output", eleventh))
    assert (report.old.editions, report.new.editions) == ([10], [11])
    warboss = next(d for d in report.entities if d.id == "orks/warboss")
    summaries = [c.summary for c in warboss.changes]
    assert warboss.status == "changed" and "Warboss: T 5 → 6" in summaries
    assert not [s for s in summaries if s.startswith("Edition")]
    assert "editions: 10th → 11th" in render_text(report)


def test_the_new_fields_in_the_diff(repo_cwd: Path) -> None:
    files = pipeline.convert([SLICE / SAMPLE], jobs=1).files
    changed = dict(files)
    host = "11ed/detachment/adeptus-custodes/shield-host.json"
    changed[host] = (
        files[host]
        .replace('"dp": 2', '"dp": 3')
        .replace('"force_disposition": "Purge the Foe"', '"force_disposition": "Take and Hold"')
    )
    mantle = "11ed/enhancement/shield-host/auric-mantle.json"
    changed[mantle] = files[mantle].replace('"upgrade": false', '"upgrade": true')
    weirdboy = "11ed/datasheet/orks/weirdboy.json"
    changed[weirdboy] = files[weirdboy].replace('"is_support": true', '"is_support": false')
    report = diff_snapshots(Snapshot("a", "output", files), Snapshot("b", "output", changed))
    summaries = {d.id: [c.summary for c in d.changes] for d in report.entities}
    assert summaries == {
        "adeptus-custodes/shield-host": [
            "DP 2 → 3",
            "Force disposition: Purge the Foe → Take and Hold",
        ],
        "shield-host/auric-mantle": ["Upgrade: no → yes"],
        "orks/weirdboy": ["Support character: yes → no"],
    }
