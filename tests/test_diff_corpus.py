"""The diff of the two real Wahapedia exports (November 2025 → February 2026) against a direct
comparison of their CSV rows: every points change and every weapon characteristic change the
rows show must be in the diff, in the game's terms."""

from __future__ import annotations

import csv
import io
from collections import Counter
from pathlib import Path

import pytest

from conftest import shared_path
from wahanorm import pipeline
from wahanorm.outputs.diff.engine import Snapshot, diff_snapshots
from wahanorm.outputs.diff.result import DiffReport

OLD = "wahapedia-10ed-2025-11-14-html"
NEW = "wahapedia-10ed-2026-02-14"

Row = dict[str, str]


def table(export: Path, name: str) -> list[Row]:
    """A CSV of the export by header name (``|``-separated, BOM, CRLF)."""
    text = (export / name).read_text(encoding="utf-8-sig")
    rows = list(csv.reader(io.StringIO(text), delimiter="|"))
    return [dict(zip(rows[0], r, strict=False)) for r in rows[1:] if r]


def spelled(text: str) -> str:
    """The clean stage's one spelling of a quote."""
    return text.replace("’", "'")


@pytest.fixture(scope="module")
def exports() -> tuple[Path, Path]:
    pytest.importorskip("wahanorm.readers.export", reason="the CSV export reader has not landed")
    return shared_path("corpus", OLD), shared_path("corpus", NEW)


@pytest.fixture(scope="module")
def report(exports: tuple[Path, Path]) -> DiffReport:
    """Both exports converted once, then diffed."""
    old, new = (pipeline.convert([p]).files for p in exports)
    return diff_snapshots(Snapshot(OLD, "inputs", old), Snapshot(NEW, "inputs", new))


@pytest.fixture(scope="module")
def reported(report: DiffReport) -> set[tuple[str, str]]:
    """(entity name, change) for every change; a conflicting version's changes count too."""
    return {
        (e.name, c.summary.removeprefix("Conflicting version: "))
        for e in report.entities
        for c in e.changes
    }


def unique_rows(rows: list[Row], *key: str) -> dict[tuple[str, ...], Row]:
    """Rows by key, leaving out keys that appear more than once (they pair by content)."""
    counts = Counter(tuple(r[k] for k in key) for r in rows)
    return {tuple(r[k] for k in key): r for r in rows if counts[tuple(r[k] for k in key)] == 1}


def csv_points_changes(old: Path, new: Path) -> list[tuple[str, str]]:
    """(datasheet name, ``Points (N models): a → b``) straight from Datasheets_models_cost.csv."""
    names = {r["id"]: r["name"] for r in table(new, "Datasheets.csv")}
    a = unique_rows(table(old, "Datasheets_models_cost.csv"), "datasheet_id", "description")
    b = unique_rows(table(new, "Datasheets_models_cost.csv"), "datasheet_id", "description")
    return sorted(
        (spelled(names[k[0]]), f"Points ({k[1]}): {a[k]['cost']} → {b[k]['cost']}")
        for k in a.keys() & b.keys()
        if a[k]["cost"] != b[k]["cost"]
    )


def csv_weapon_changes(old: Path, new: Path) -> list[tuple[str, str]]:
    """(datasheet name, ``weapon: A a → b``) for A, S, AP, D straight from
    Datasheets_wargear.csv, for weapons listed once per datasheet in both exports."""
    names = {r["id"]: r["name"] for r in table(new, "Datasheets.csv")}
    a = unique_rows(table(old, "Datasheets_wargear.csv"), "datasheet_id", "name")
    b = unique_rows(table(new, "Datasheets_wargear.csv"), "datasheet_id", "name")
    found = set()
    for k in a.keys() & b.keys():
        for stat in ("A", "S", "AP", "D"):
            if a[k][stat] != b[k][stat]:
                weapon = spelled(k[1]).replace(" - ", " – ")
                change = f"{weapon}: {stat} {a[k][stat]} → {b[k][stat]}"
                found.add((spelled(names[k[0]]), change))
    return sorted(found)


def test_every_points_change_of_the_rows_is_reported(
    exports: tuple[Path, Path], reported: set[tuple[str, str]]
) -> None:
    expected = csv_points_changes(*exports)
    assert len(expected) == 141
    assert [e for e in expected if e not in reported] == []
    assert ("Eradicator Squad", "Points (3 models): 100 → 90") in expected
    assert ("Grey Hunters", "Points (10 models): 180 → 165") in expected


def test_every_weapon_change_of_the_rows_is_reported(
    exports: tuple[Path, Path], reported: set[tuple[str, str]]
) -> None:
    expected = csv_weapon_changes(*exports)
    assert len(expected) == 15
    assert [e for e in expected if e not in reported] == []
    assert ("Terminator Assault Squad", "Twin lightning claws: A 5 → 6") in expected
    assert ("C'tan Shard of the Void Dragon", "Spear of the Void Dragon: A 1 → D3") in expected


def test_a_duplicated_cost_line_is_reported_as_the_rows_say(reported: set[tuple[str, str]]) -> None:
    # February prints Ynnari Reavers' second line as "3 models|120" (was "6 models|120")
    assert ("Ynnari Reavers", "Points (6 models) removed (was 120)") in reported
    assert ("Ynnari Reavers", "Points (3 models) added: 120") in reported


def test_stratagem_renamed_with_the_same_text(report: DiffReport) -> None:
    renames = {(e.old_id, e.id) for e in report.entities if e.status == "renamed"}
    assert ("khaine-s-arrow/artificer-rounds", "khaine-s-arrow/critical-capture") in renames


def test_keyword_case_alone_is_no_change(report: DiffReport) -> None:
    # November prints keywords in capitals (ADEPTA SORORITAS), February often not: no rule changed
    ids = {e.id for e in report.entities}
    assert "adepta-sororitas/immolator" not in ids
    assert report.summary.changed < 300


def test_listings_of_new_stratagems_are_not_repeated_per_datasheet(report: DiffReport) -> None:
    added = {e.id for e in report.entities if e.status == "added"}
    listed = [
        c.new
        for e in report.entities
        for c in e.changes
        if c.path.rsplit("].", 1)[-1].startswith("stratagems[") and c.op == "added"
    ]
    assert listed and not set(listed) & added
