"""Which edition each entity is, told from the input: page dumps, saved pages, --edition, and a
diff against an output written before editions."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import shared_path
from test_export_slice import FEB, SLICE
from wahanorm import pipeline
from wahanorm.blocks.edition import Edition, page_edition, settle_edition
from wahanorm.outputs.diff.engine import Snapshot, diff_snapshots
from wahanorm.pipeline import read_text

RAW = Path(__file__).parent.parent / "raw"
SEED_11TH = RAW / "000_47df9cafce3cbdb4.txt"
DUMPS = Path(__file__).parent / "fixtures" / "dumps"


def lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


@pytest.mark.parametrize(
    ("name", "edition"),
    [
        ("000_47df9cafce3cbdb4.txt", 11),  # "| YOUR UNIT COSTS | |", index "Core"
        ("002_4ce5d9c8bc5975ce.txt", 10),  # index "Core – Battle Tactic"
        ("003_3bddafab6d78ca00.txt", 10),
        ("004_915fe25d03f9d2ef.txt", 10),
    ],
)
def test_each_sample_page_tells_its_edition(name: str, edition: int) -> None:
    assert page_edition(lines(RAW / name)) == (edition, "the cost table and stratagem index")


def test_a_textcontent_dump_tells_it_by_its_glued_index() -> None:
    # "FIRE OVERWATCH1CPCore – Strategic PloyCRAPID INGRESS1CPCore – Strategic PloyC…"
    dump = shared_path("textcontent-dumps", "tyranids__Termagants.txt")
    assert page_edition(lines(dump))[0] == 10


def test_every_entity_of_the_11th_edition_page_is_11th_edition() -> None:
    extraction = read_text(SEED_11TH.read_text(encoding="utf-8"), "raw/000.txt", html=False)
    assert len(extraction.entities) > 80
    assert {e.edition for e in extraction.entities} == {11}
    assert not [d for d in extraction.report.diagnostics if d.code.startswith("edition")]


def test_a_numbered_rule_is_11th_edition_on_a_10th_edition_page() -> None:
    page = (RAW / "002_4ce5d9c8bc5975ce.txt").read_text(encoding="utf-8")
    numbered = "\n".join(lines(SEED_11TH)[405:419])  # COMMAND RE-ROLL15.02 … its EFFECT
    assert numbered.startswith("COMMAND RE-ROLL15.02\n1CP\nCore Stratagem")
    extraction = read_text(page + "\n" + numbered + "\n", "mixed.txt", html=False)
    rerolls = {
        (e.edition, e.rule_number)  # type: ignore[union-attr]
        for e in extraction.entities
        if e.id == "core/command-re-roll"
    }
    assert rerolls == {(10, None), (11, "15.02")}
    sheet = next(e for e in extraction.entities if e.kind == "datasheet")
    assert sheet.edition == 10


def test_a_page_that_does_not_tell_is_guessed_or_said() -> None:
    text = (DUMPS / "transport.txt").read_text(encoding="utf-8")
    guessed = read_text(text, "transport.txt", html=False)
    assert {e.edition for e in guessed.entities} == {10}
    assert [d.code for d in guessed.report.diagnostics].count("edition-guessed") == 1
    said = read_text(text, "transport.txt", edition=11, html=False)
    assert {e.edition for e in said.entities} == {11}
    assert "edition-guessed" not in [d.code for d in said.report.diagnostics]


def test_what_a_page_tells_wins_over_what_is_said() -> None:
    extraction = read_text(
        SEED_11TH.read_text(encoding="utf-8"), "raw/000.txt", edition=10, html=False
    )
    assert {e.edition for e in extraction.entities} == {11}
    [note] = [d for d in extraction.report.diagnostics if d.code == "edition-disagrees"]
    assert "--edition 10" in note.message and "11th" in note.message


def test_edition_option_of_the_command_line(tmp_path: Path) -> None:
    out = tmp_path / "out"
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "wahanorm",
            "convert",
            str(DUMPS / "transport.txt"),
            "--out",
            str(out),
            "--edition",
            "11",
            "--no-cache",
            "-q",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    index = json.loads((out / "index.json").read_text(encoding="utf-8"))
    assert [(e["edition"], e["kind"]) for e in index["entities"]] == [(11, "datasheet")]
    assert [p.relative_to(out).parts[0] for p in out.rglob("*.json") if p.parent != out] == ["11ed"]
    bad = subprocess.run(
        [sys.executable, "-m", "wahanorm", "convert", "--edition", "12"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode == 2 and "--edition" in bad.stderr


def test_a_saved_page_tells_its_edition_by_its_links() -> None:
    page = shared_path("html-pages", "tyranids", "Termagants.html")
    result = pipeline.convert([page], jobs=1)
    assert {e.edition for e in result.entities} == {10}
    assert not [d for d in result.diagnostics if d.code.startswith("edition")]


def test_an_output_written_before_editions_diffs_without_a_change_per_entity(
    repo_cwd: Path,
) -> None:
    files = pipeline.convert([SLICE / FEB], jobs=1).files
    before: dict[str, str] = {}
    for rel, text in files.items():
        data = json.loads(text)
        if rel != "index.json":
            data.pop("edition")
            rel = rel.split("/", 1)[1]  # 10ed/<kind>/… → <kind>/…
        before[rel] = json.dumps(data)
    report = diff_snapshots(Snapshot("old", "output", before), Snapshot("new", "output", files))
    assert (report.old.editions, report.new.editions) == ([], [10])
    assert report.entities == []


def test_settle_edition_prefers_the_told_edition_then_the_said_one_then_guesses_10th() -> None:
    warned: list[tuple[str, str]] = []

    def settle(found: Edition | None, said: Edition | None) -> Edition:
        return settle_edition(found, said, "its links say", "nothing tells", warn)

    def warn(code: str, message: str) -> None:
        warned.append((code, message))

    assert settle(11, None) == 11 and settle(11, 11) == 11 and settle(None, 11) == 11
    assert warned == []
    assert settle(11, 10) == 11
    assert warned == [
        (
            "edition-disagrees",
            "--edition 10 was given, but its links say 11th edition; read as 11th",
        )
    ]
    assert settle(None, None) == 10
    assert warned[1] == (
        "edition-guessed",
        "nothing tells; read as 10th edition: say it with --edition 10 or --edition 11",
    )


def test_an_input_that_gives_nothing_has_no_edition_guessed() -> None:
    """A text in which no entity is found is an error (unknown-layout); guessing its edition
    would only add a warning about nothing."""
    dump = Path(__file__).parent / "fixtures" / "dumps" / "unknown_layout.txt"
    codes = {d.code for d in pipeline.read_path(dump).report.diagnostics}
    assert "unknown-layout" in codes
    assert "edition-guessed" not in codes
    # an input that gives entities and tells nothing still says the guess
    transport = Path(__file__).parent / "fixtures" / "dumps" / "transport.txt"
    assert "edition-guessed" in {d.code for d in pipeline.read_path(transport).report.diagnostics}
