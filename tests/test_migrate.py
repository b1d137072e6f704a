"""Outputs written by older wahanorm versions are read as the current contract (``migrate.py``)
by every reader: ``db``, ``show``, ``diff`` and ``wahanorm.load``.

The fixture ``tests/fixtures/outputs/before-editions`` is five entity files and a cut index of
the ``out/`` committed at 5999c04 (before editions and Timing v2): files at
``<kind>/<ns>/<name>.json``, no ``edition``, a stratagem's ``timing`` ``{turn, phases: [str]}``.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import wahanorm
from wahanorm.contract.layout import INDEX_NAME, entity_relpath
from wahanorm.contract.migrate import current_entity, current_index
from wahanorm.contract.models import Stratagem
from wahanorm.outputs.canonical import canonical_json

REPO = Path(__file__).resolve().parents[1]
BEFORE = REPO / "tests" / "fixtures" / "outputs" / "before-editions"
DUCK = "stratagem/embarked-regiment/duck-and-cover.json"


def run(cwd: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    """``python -m wahanorm argv`` in ``cwd``, as a user runs it."""
    done = subprocess.run(
        [sys.executable, "-m", "wahanorm", *argv],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_COLOR": "1"},
        timeout=120,
    )
    assert "Traceback" not in done.stderr, done.stderr
    return done


def old(rel: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((BEFORE / rel).read_text(encoding="utf-8"))
    return data


def test_timing_v1_becomes_v2_with_the_overall_turn_where_it_is_exact() -> None:
    duck = old(DUCK)  # "Your opponent's Shooting phase or the Fight phase": v1 said only either
    assert duck["timing"] == {"phases": ["shooting", "fight"], "turn": "either"}
    assert current_entity(duck)["timing"] == {
        "any_phase": False,
        "excluded_phases": [],
        "phases": [{"phase": "shooting", "turn": "either"}, {"phase": "fight", "turn": "either"}],
        "turn": "either",
    }
    bravery = current_entity(old("stratagem/core/insane-bravery.json"))
    assert bravery["timing"]["phases"] == [{"phase": "command", "turn": "your"}]
    [variant] = bravery["variants"]  # a conflicting version is migrated as well
    assert variant["timing"]["phases"] == [{"phase": "command", "turn": "your"}]
    assert variant["edition"] == bravery["edition"] == 10
    Stratagem.model_validate(bravery)  # the current contract reads it


def test_an_entity_without_edition_is_10th_edition_and_nothing_else_changes() -> None:
    sheet = old("datasheet/astra-militarum/iron-hand-straken.json")
    assert "edition" not in sheet
    assert current_entity(sheet) == {**sheet, "edition": 10}
    assert "edition" not in sheet  # the input is not changed in place


def test_a_current_entity_is_passed_on_as_it_is(samples: Any) -> None:
    files = samples.files
    entities = [json.loads(text) for rel, text in files.items() if rel != INDEX_NAME]
    assert len(entities) > 100
    assert all(current_entity(e) is e for e in entities)


def test_load_reads_an_output_written_before_editions() -> None:
    loaded = wahanorm.load(BEFORE)
    assert [(e.kind, e.id, e.edition) for e in loaded.entities] == [
        ("datasheet", "astra-militarum/iron-hand-straken", 10),
        ("detachment_rule", "khorne-daemonkin/blood-tithe", 10),
        ("stratagem", "core/command-re-roll", 10),
        ("stratagem", "core/insane-bravery", 10),
        ("stratagem", "embarked-regiment/duck-and-cover", 10),
    ]
    # Its index.json says schema version 1: read as version 3, each entry 10th edition.
    assert loaded.index.schema_version == 3
    assert {e.edition for e in loaded.index.entities} == {10}


def test_db_builds_the_database_of_an_output_written_before_editions(tmp_path: Path) -> None:
    done = run(tmp_path, "db", str(BEFORE), "old.db")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("wahanorm: old.db: 5 entities, ")
    with sqlite3.connect(tmp_path / "old.db") as db:
        phases = db.execute(
            "SELECT edition, phase, turn FROM stratagem_phases "
            "WHERE stratagem_id = 'embarked-regiment/duck-and-cover' ORDER BY phase"
        ).fetchall()
        timing = db.execute(
            "SELECT turn, any_phase FROM stratagems WHERE id = 'core/insane-bravery'"
        ).fetchall()
    assert phases == [(10, "fight", "either"), (10, "shooting", "either")]
    assert timing == [("your", 0)]


def test_show_prints_a_stratagem_of_an_output_written_before_editions(tmp_path: Path) -> None:
    done = run(tmp_path, "show", "core/insane-bravery", "--out", str(BEFORE))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[:3] == [
        "INSANE BRAVERY" + " " * 82 + "1 CP",
        "Core – Epic Deed · stratagem · core/insane-bravery · 10th edition",
        "Timing: your Command phase",
    ]


def test_diff_of_an_old_output_against_itself_rewritten_today_is_empty(tmp_path: Path) -> None:
    """The same rules written by the old and by the current writer: no change at all (before
    the migration, each stratagem showed ``Timing any phase added: no`` and more)."""
    new = tmp_path / "new"
    index = old(INDEX_NAME)
    for entry in index["entities"]:
        data = current_entity(old(f"{entry['kind']}/{entry['id']}.json"))
        entry.update(edition=10, path=entity_relpath(data))
        (new / entry["path"]).parent.mkdir(parents=True, exist_ok=True)
        (new / entry["path"]).write_text(canonical_json(data), encoding="utf-8")
    (new / INDEX_NAME).write_text(canonical_json(index), encoding="utf-8")
    done = run(tmp_path, "diff", str(BEFORE), "new")
    assert done.returncode == 0, done.stdout
    assert done.stdout.splitlines()[1:] == ["editions: - → 10th", "no rules changes"]


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_diff_of_an_old_output_against_the_committed_out_shows_real_changes(
    fmt: str,
) -> None:
    done = run(REPO, "diff", str(BEFORE), "out", "--format", fmt)
    assert done.returncode == 1, done.stderr
    assert "any phase added" not in done.stdout.lower()
    assert "excluded phases added" not in done.stdout.lower()
    if fmt == "json":
        return
    changed = [line for line in done.stdout.splitlines() if not line.startswith("  + ")]
    assert "4 changed" in changed[2]  # the Straken datasheet is the same, the rest is new
    # "Your opponent's Shooting phase or the Fight phase": v1 could only say either turn
    assert "\n".join(changed[5:7]) == (
        "  ~ stratagem DUCK AND COVER  (embarked-regiment/duck-and-cover, 10th edition)\n"
        "      Timing: either player's Shooting phase or either player's Fight phase"
        " → your opponent's Shooting phase or either player's Fight phase"
    )
    # "Any phase, just after you make an Advance roll …": v1 did not tell any phase
    any_phase = changed[changed.index("Core rules") + 2]
    assert any_phase.startswith("      Timing: either player's Command phase or ")
    assert any_phase.endswith(" → either player's turn: any phase")


def test_an_index_of_version_1_or_2_becomes_version_3_and_others_pass_unchanged() -> None:
    old = {"schema_version": 1, "entities": [{"id": "core/x", "kind": "rule"}]}
    assert current_index(old) == {
        "schema_version": 3,
        "entities": [{"edition": 10, "id": "core/x", "kind": "rule"}],
    }
    assert old["entities"] == [{"id": "core/x", "kind": "rule"}]  # never changed in place
    two = {"schema_version": 2, "entities": [{"edition": 11, "id": "core/x", "kind": "rule"}]}
    assert current_index(two) == {**two, "schema_version": 3}
    current = {"schema_version": 3, "entities": [{"edition": 11, "id": "core/x"}]}
    assert current_index(current) is current
    newer = {"schema_version": 4, "entities": []}
    assert current_index(newer) is newer
