"""``wahanorm crosscheck A B C``: three sources of the same rules (the committed slice of the
Wahapedia export of 2026-02-14, the BSData fixture of the same day, the Game-Datacards fixture
of Orks), every pair of sides compared and joined, each difference with the sides grouped by
the value they hold and the majority named. Facts checked against the raw files:

- Ghazghkull Thraka's Makari: ``Datasheets_models.csv`` gives an invulnerable save of 2+, and
  so does the catalogue (``Makari`` profile, "Invulnerable Save" ability); Game-Datacards gives
  its datasheet one invulnerable save, ``"invul": {"value": "4+"}``, which the reader gives
  every model of the datasheet.
- Warboss: T 5 in all three (``Datasheets_models.csv``, the ``Warboss`` Unit profile, the
  ``stats`` of ``10th-orks.json``); the tests change it in one copy of the Game-Datacards file.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from wahanorm.outputs.crosscheck.many import crosscheck_many
from wahanorm.outputs.crosscheck.result import Difference, ManyEntity, ManyReport
from wahanorm.outputs.diff.sides import load_side
from wahanorm.pipeline import converted

FIXTURES = Path(__file__).parent / "fixtures"
EXPORT = FIXTURES / "export" / "wahapedia-10ed-2026-02-14"
BSDATA = FIXTURES / "bsdata" / "wh40k-10e-2026-02-14"
GDC = FIXTURES / "gamedatacards" / "10th-orks.json"
LABELS = ["wahapedia-10ed-2026-02-14", "wh40k-10e-2026-02-14", "gamedatacards"]


def check(*sides: Path) -> ManyReport:
    return crosscheck_many([load_side(str(side), converted)[0] for side in sides])


def entity(report: ManyReport, entity_id: str) -> ManyEntity:
    (found,) = [e for e in report.entities if e.id == entity_id]
    return found


def difference(found: ManyEntity, label: str) -> Difference:
    (one,) = [d for d in found.differences if d.label == label]
    return one


def values(one: Difference) -> list[tuple[str | None, list[str]]]:
    return [(v.value, v.sides) for v in one.values]


@pytest.fixture(scope="module")
def three() -> ManyReport:
    return check(EXPORT, BSDATA, GDC)


def changed_gdc(tmp_path: Path, toughness: str) -> Path:
    """The Game-Datacards fixture with the Warboss's Toughness set to ``toughness``."""
    data = json.loads(GDC.read_text(encoding="utf-8"))
    (warboss,) = [d for d in data["datasheets"] if d["name"] == "Warboss"]
    assert warboss["stats"][0]["t"] == "5"  # as the raw file gives it
    warboss["stats"][0]["t"] = toughness
    folder = tmp_path / "gamedatacards-changed"
    folder.mkdir()
    path = folder / "orks.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_each_side_is_named_and_every_pair_compared(three: ManyReport) -> None:
    assert [s.label for s in three.sides] == LABELS
    assert [(p.a, p.b) for p in three.pairs] == [
        (LABELS[0], LABELS[1]),
        (LABELS[0], LABELS[2]),
        (LABELS[1], LABELS[2]),
    ]
    # the three Ork datasheets of the Game-Datacards file are held by all three
    held = {e.id: e.held_by for e in three.entities if e.kind == "datasheet"}
    assert held["orks/ghazghkull-thraka"] == LABELS
    assert three.summary.sides == 3
    assert three.summary.held_by_all >= 3


def test_two_against_one_names_the_majority(three: ManyReport) -> None:
    said = difference(entity(three, "orks/ghazghkull-thraka"), "MAKARI: Invulnerable Save")
    assert values(said) == [("2+", LABELS[:2]), ("4+", LABELS[2:])]
    assert said.majority
    assert said.summary == (
        "MAKARI: Invulnerable Save: 2+ in wahapedia-10ed-2026-02-14 and wh40k-10e-2026-02-14 "
        "(the majority), 4+ in gamedatacards"
    )


def test_a_name_in_another_letter_case_is_one_difference(three: ManyReport) -> None:
    # the pairs key Makari's profile as each pair's first side names it (MAKARI, Makari)
    ghaz = entity(three, "orks/ghazghkull-thraka")
    assert (
        len([d for d in ghaz.differences if d.path.casefold().startswith("profiles[makari]")]) == 1
    )


def test_one_value_changed_in_one_source(three: ManyReport, tmp_path: Path) -> None:
    assert not [
        d
        for e in three.entities
        if e.id == "orks/warboss"
        for d in e.differences
        if d.field == "profiles"
    ]
    report = check(EXPORT, BSDATA, changed_gdc(tmp_path, "9"))
    said = difference(entity(report, "orks/warboss"), "Warboss: Toughness")
    sides = [s.label for s in report.sides]
    assert values(said) == [("5", sides[:2]), ("9", sides[2:])]
    assert said.majority
    assert "Toughness: 5 in wahapedia-10ed-2026-02-14 and wh40k-10e-2026-02-14 (the majority)" in (
        said.summary
    )
    assert report.headline.characteristics >= 2  # Ghazghkull Thraka and the Warboss


def run(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "wahanorm", "crosscheck", *argv],
        capture_output=True,
        text=True,
        env={**os.environ, "NO_COLOR": "1"},
        check=False,
    )


def test_exit_1_and_json_of_the_schema() -> None:
    done = run(str(EXPORT), str(BSDATA), str(GDC), "--format", "json")
    assert done.returncode == 1, done.stderr
    report = ManyReport.model_validate_json(done.stdout)
    assert [s.label for s in report.sides] == LABELS
    first = json.loads(done.stdout)["entities"][0]["differences"][0]
    assert set(first) >= {"path", "field", "label", "values", "majority", "summary"}


def test_exit_0_when_all_agree(tmp_path: Path) -> None:
    out = tmp_path / "one"
    done = subprocess.run(
        [sys.executable, "-m", "wahanorm", "convert", str(GDC), "--out", str(out), "-q"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    for name in ("two", "three"):
        shutil.copytree(out, tmp_path / name)
    done = run(str(out), str(tmp_path / "two"), str(tmp_path / "three"))
    assert done.returncode == 0, done.stderr
    assert "all sides agree on every entity compared" in done.stdout
    # three sides that read alike are told apart by their arguments
    assert "1: one  " in done.stdout and "3: three  " in done.stdout


def test_text_opens_with_what_all_agree_on() -> None:
    done = run(str(EXPORT), str(BSDATA), str(GDC))
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert lines[0].startswith("wahanorm crosscheck ")
    assert lines[1].startswith("1: wahapedia-10ed-2026-02-14")
    assert lines[4].startswith("5 entities held by all 3 sources: 1 agree on every field")
    # characteristics, points and weapons come before abilities and texts
    numbers = lines.index("== Characteristics, points and weapons")
    others = lines.index("== Abilities, keywords, leaders and texts")
    assert numbers < others
    assert any("MAKARI: Invulnerable Save" in line for line in lines[numbers:others])


def test_markdown_is_cut_saying_what_it_left_out() -> None:
    whole = run(str(EXPORT), str(BSDATA), str(GDC), "--format", "markdown")
    assert whole.stdout.startswith("## Crosscheck of 3 sources")
    cut = run(str(EXPORT), str(BSDATA), str(GDC), "--format", "markdown", "--max-chars", "2500")
    assert cut.returncode == 1
    assert len(cut.stdout) <= 2500
    assert "**Cut to fit 2500 characters:**" in cut.stdout
    assert "differences are not shown here" in cut.stdout


def test_two_sides_are_the_two_way_report() -> None:
    # two sides keep the two-way report (its own tests and snapshots hold its bytes)
    done = run(str(EXPORT), str(BSDATA))
    assert done.stdout.splitlines()[1].startswith("A: wahapedia-10ed-2026-02-14")
