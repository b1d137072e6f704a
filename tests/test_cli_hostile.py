"""Every subcommand with hostile arguments and damaged outputs, run as a user runs it (a real
process): one line on stderr that says what is wrong, exit 2 (1 where the contract says: a
stale ``--check``, changes found), never a traceback.

One output of one sample dump is converted per module; each case copies it into its own
folder and damages the copy.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from wahanorm import pipeline

REPO = Path(__file__).resolve().parents[1]
STRAKEN = REPO / "raw" / "004_915fe25d03f9d2ef.txt"
SHEET = "10ed/datasheet/astra-militarum/iron-hand-straken.json"


def run(cwd: Path, *argv: str | bytes) -> subprocess.CompletedProcess[str]:
    """``python -m wahanorm argv`` in ``cwd``; no traceback, whatever happens."""
    done = subprocess.run(
        [sys.executable, "-m", "wahanorm", *argv],
        cwd=cwd,
        capture_output=True,
        text=True,
        errors="backslashreplace",
        env={**os.environ, "NO_COLOR": "1"},
        timeout=120,
    )
    assert "Traceback" not in done.stderr, done.stderr
    assert "internal error" not in done.stderr, done.stderr
    return done


def one_line(done: subprocess.CompletedProcess[str], code: int = 2) -> str:
    """The one line a failed command printed, after checking its exit code."""
    assert done.returncode == code, (done.returncode, done.stdout, done.stderr)
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    return lines[0]


@pytest.fixture(scope="module")
def converted(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The output files of ``in/straken.txt`` (converted once, in this process)."""
    base = tmp_path_factory.mktemp("converted")
    (base / "in").mkdir()
    shutil.copy(STRAKEN, base / "in" / "straken.txt")
    here = Path.cwd()
    os.chdir(base)
    try:
        return pipeline.convert([Path("in")]).files
    finally:
        os.chdir(here)


@pytest.fixture
def work(tmp_path: Path, converted: dict[str, str]) -> Path:
    """``tmp_path`` holding ``out/`` (a fresh output), ``in/straken.txt``, ``a-file.txt`` and a
    folder named like a file, ``folder.db``."""
    for rel, text in converted.items():
        (tmp_path / "out" / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "out" / rel).write_text(text, encoding="utf-8")
    (tmp_path / "in").mkdir()
    shutil.copy(STRAKEN, tmp_path / "in" / "straken.txt")
    (tmp_path / "a-file.txt").write_text("not a folder\n")
    (tmp_path / "folder.db").mkdir()
    return tmp_path


def first_stratagem(out: Path) -> str:
    index = json.loads((out / "index.json").read_text())
    return str(next(e["path"] for e in index["entities"] if e["kind"] == "stratagem"))


def _truncate(out: Path) -> str:
    rel = first_stratagem(out)
    (out / rel).write_bytes((out / rel).read_bytes()[:100])
    return rel


def _index_not_an_object(out: Path) -> None:
    (out / "index.json").write_text("[1, 2]\n")


def _index_cut(out: Path) -> None:
    (out / "index.json").write_text('{"generator": "wahanorm 0.1.0", "entities": [\n')


def _index_entry_without_id(out: Path) -> None:
    index = json.loads((out / "index.json").read_text())
    del index["entities"][1]["id"]
    (out / "index.json").write_text(json.dumps(index))


def _index_entry_escaping(out: Path) -> None:
    index = json.loads((out / "index.json").read_text())
    index["entities"][0]["id"] = "../../a-file"
    (out / "index.json").write_text(json.dumps(index))


def _entity_is_a_folder(out: Path) -> None:
    (out / SHEET).unlink()
    (out / SHEET).mkdir()


def _entity_off_contract(out: Path) -> None:
    data = json.loads((out / SHEET).read_text())
    data["weapons"] = [5]
    (out / SHEET).write_text(json.dumps(data))


# --- db and show on damaged outputs -------------------------------------------------------

DAMAGED: list[tuple[str, Callable[[Path], object], str]] = [
    ("not an object", _index_not_an_object, "out/index.json is not a wahanorm index (not a JSON object)"),
    ("cut index", _index_cut, "out/index.json is not valid JSON (unexpected end of data: line 2 column 1 (char 46))"),
    ("entry without id", _index_entry_without_id, "out/index.json: entity entry 2 has no id"),
    ("escaping id", _index_entry_escaping, "out/index.json: entity entry 1 names no file of this output (unsafe entity id datasheet '../../a-file')"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("damage", "message"), [(d, m) for _, d, m in DAMAGED], ids=[i for i, _, _ in DAMAGED]
)
def test_db_and_show_refuse_a_damaged_index_in_one_line(
    work: Path, damage: Callable[[Path], object], message: str
) -> None:  # fmt: skip
    damage(work / "out")
    assert one_line(run(work, "db", "out", "rules.db")) == f"wahanorm: error: {message}"
    assert one_line(run(work, "show", "straken")) == f"wahanorm show: {message}"
    assert not (work / "rules.db").exists()
    assert (work / "a-file.txt").read_text() == "not a folder\n"


def test_db_and_show_name_a_truncated_entity_file(work: Path) -> None:
    rel = _truncate(work / "out")
    line = one_line(run(work, "db", "out", "rules.db"))
    assert line.startswith(f"wahanorm: error: out: {rel} is not valid JSON (unexpected end")
    shown = one_line(run(work, "show", rel.split("/", 2)[2].removesuffix(".json")))
    assert shown.startswith(f"wahanorm show: out: {rel} is not valid JSON (")


def test_db_and_show_name_an_entity_file_that_is_a_folder(work: Path) -> None:
    _entity_is_a_folder(work / "out")
    message = f"out: cannot read {SHEET}, listed in the index (Is a directory)"
    assert one_line(run(work, "db", "out", "rules.db")) == f"wahanorm: error: {message}"
    assert one_line(run(work, "show", "straken")) == f"wahanorm show: {message}"


def test_db_and_show_name_the_field_an_entity_file_gets_wrong(work: Path) -> None:
    _entity_off_contract(work / "out")
    message = (
        f"out: {SHEET} does not follow the output contract "
        "(datasheet.weapons.0: Input should be a valid dictionary or instance of Weapon)"
    )
    assert one_line(run(work, "db", "out", "rules.db")) == f"wahanorm: error: {message}"
    assert one_line(run(work, "show", "straken")) == f"wahanorm show: {message}"
    diff = run(work, "diff", "in", "out")  # diff compares what it can read, as JSON
    assert diff.returncode == 1 and "Weapons added: 5" in diff.stdout, diff.stderr


# --- the database's path -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("target", "message"),
    [
        ("folder.db", "the database folder.db is a folder: give the path of a file, e.g. folder.db/rules.db"),
        ("", "the database . is a folder: give the path of a file, e.g. ./rules.db"),
        ("a-file.txt/rules.db", "cannot write the database a-file.txt/rules.db: a-file.txt is a file, not a folder"),
    ],
)  # fmt: skip
def test_a_database_path_that_cannot_be_a_file_is_refused(
    work: Path, target: str, message: str
) -> None:
    assert one_line(run(work, "db", "out", target)) == f"wahanorm: error: {message}"
    sqlite = run(work, "convert", "in", "--out", "new", "--no-cache", "-q", "--sqlite", target)
    assert one_line(sqlite) == f"wahanorm: error: {message}"


def test_a_database_in_a_missing_folder_is_written_there(work: Path) -> None:
    done = run(work, "db", "out", "missing/deeper/rules.db")
    assert done.returncode == 0, done.stderr
    with sqlite3.connect(work / "missing" / "deeper" / "rules.db") as db:
        [(count,)] = db.execute("SELECT count(*) FROM datasheets").fetchall()
    assert count == 1


# --- convert -----------------------------------------------------------------------------


def test_check_with_sqlite_is_refused_before_anything_is_read(work: Path) -> None:
    done = run(work, "convert", "in", "--check", "--sqlite", "rules.db", "--no-cache")
    assert one_line(done) == (
        "wahanorm: error: --check writes nothing, --sqlite writes a database: give one of them "
        "(check first, then 'wahanorm db OUT DB')"
    )
    assert not (work / "rules.db").exists()


def test_check_of_a_missing_out_is_stale_and_of_a_file_a_usage_error(work: Path) -> None:
    missing = run(work, "convert", "in", "--check", "--out", "nothere", "--no-cache")
    assert one_line(missing, 1) == (
        "wahanorm: nothere does not exist; 'wahanorm convert in --out nothere' writes it"
    )
    a_file = run(work, "convert", "in", "--check", "--out", "a-file.txt", "--no-cache")
    assert one_line(a_file) == "wahanorm: error: --out a-file.txt is a file, not a folder"


def test_check_names_a_truncated_entity_file_as_stale(work: Path) -> None:
    rel = _truncate(work / "out")
    done = run(work, "convert", "in", "--check", "--no-cache")
    assert done.returncode == 1
    assert done.stderr.splitlines()[0] == f"stale: out/{rel}"


def test_check_tells_stale_from_missing_names_its_folder_and_the_command_that_mends_it(
    work: Path,
) -> None:
    rel = _truncate(work / "out")
    (work / "out" / SHEET).unlink()  # Straken's datasheet: missing, not stale
    done = run(work, "convert", "in", "--check", "--out", "out", "--no-cache", "-q")
    # under --quiet, the one line: the folder, the counts, the command with its inputs
    said = one_line(done, 1)
    assert said.startswith("wahanorm: out is not what 'wahanorm convert in' writes now (1 stale")
    assert said.endswith("; run it")
    loud = run(work, "convert", "in", "--check", "--out", "out", "--no-cache")
    lines = loud.stderr.splitlines()
    assert f"stale: out/{rel}" in lines
    assert all(
        (work / line.split(": ", 1)[1]).exists() for line in lines if line.startswith("stale:")
    )
    assert not any(
        (work / line.split(": ", 1)[1]).exists() for line in lines if line.startswith("missing:")
    )
    fixed = run(work, *said.split("'")[1].split()[1:], "--no-cache", "-q")
    assert fixed.returncode == 0
    assert run(work, "convert", "in", "--check", "--no-cache").returncode == 0


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--cache-max", ""], "argument --cache-max: not a size: '' (give e.g. 200M or 2G)"),
        (["--cache-max", "12Q"], "argument --cache-max: not a size: '12Q' (give e.g. 200M or 2G)"),
        (["--jobs", "x"], "argument --jobs/-j: invalid int value: 'x'"),
        (["--edition", "9"], "argument --edition: invalid choice: 9 (choose from 10, 11)"),
    ],
)
def test_bad_option_values_are_usage_errors(work: Path, argv: list[str], message: str) -> None:
    done = run(work, "convert", "in", "--out", "new", *argv)
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1] == f"wahanorm convert: error: {message}"
    assert not (work / "new").exists()


def test_out_that_is_a_file_and_input_that_is_missing(work: Path) -> None:
    a_file = run(work, "convert", "in", "--out", "a-file.txt", "--no-cache")
    assert (
        one_line(a_file)
        == "wahanorm: error: cannot write to a-file.txt: it is a file, not a folder"
    )
    missing = run(work, "convert", "nothere", "--out", "new", "--no-cache")
    assert one_line(missing) == "wahanorm: error: no such input: nothere (give a file or folder)"


def test_a_file_name_that_is_not_utf8_is_escaped_and_said(work: Path) -> None:
    """A name of bytes that are not UTF-8 (Latin-1 ``é``): convert and diff crashed on it."""
    bad = os.fsdecode(b"in/caf\xe9.txt")
    shutil.copy(STRAKEN, work / bad)
    (work / "in" / "straken.txt").unlink()
    done = run(work, "convert", "in", "--out", "new", "--no-cache")
    assert done.returncode == 0, done.stderr
    assert (
        "in/caf\\xe9.txt: warning: the file's name is not UTF-8: it is named here with those "
        "bytes escaped (\\xNN); rename the file to keep its name [path-not-utf8]"
    ) in done.stderr.splitlines()
    sheet = json.loads((work / "new" / SHEET).read_text(encoding="utf-8"))
    assert sheet["sources"][0]["path"] == "in/caf\\xe9.txt"
    diff = run(work, "diff", "in", "new")
    assert (diff.returncode, diff.stdout.splitlines()[-1]) == (0, "no rules changes")


def test_arguments_that_are_not_utf8_are_named_escaped(work: Path) -> None:
    argument = os.fsdecode(b"\xff.txt")
    done = run(work, "convert", argument, "--out", "new")
    assert one_line(done) == "wahanorm: error: no such input: \\udcff.txt (give a file or folder)"
    shown = run(work, "show", os.fsdecode(b"\xff"))
    assert one_line(shown) == "wahanorm show: nothing is named '\\udcff'"


# --- show, schema, diff ------------------------------------------------------------------


@pytest.mark.parametrize("query", ["", "   "])
def test_show_with_an_empty_query_asks_for_one(work: Path, query: str) -> None:
    done = run(work, "show", query)
    assert one_line(done) == "wahanorm show: give a name or an id to show (e.g. 'command re-roll')"


def test_show_and_db_of_a_folder_that_is_no_output(work: Path) -> None:
    message = "{}: not an output folder (no index.json); run 'wahanorm convert' first or give --out"
    for folder in ("nothere", "a-file.txt", "in"):
        assert one_line(run(work, "show", "x", "--out", folder)) == (
            "wahanorm show: " + message.format(folder)
        )
        assert one_line(run(work, "db", folder, "rules.db")) == (
            "wahanorm: error: " + message.format(folder)
        )


def test_schema_of_an_unknown_file_kind_is_said_in_the_programs_words(work: Path) -> None:
    done = run(work, "schema", "bogus")
    assert one_line(done) == (
        "wahanorm schema: error: no schema named 'bogus': give 'entity' (an entity file of any "
        "kind, the default) or 'index' (index.json)"
    )


@pytest.mark.parametrize("fmt", ["text", "markdown", "json"])
def test_diff_of_damaged_outputs_in_each_format(work: Path, fmt: str) -> None:
    shutil.copytree(work / "out", work / "cut")
    rel = _truncate(work / "cut")
    done = run(work, "diff", "cut", "out", "--format", fmt)
    assert one_line(done).startswith(f"wahanorm diff: cut: {rel} is not valid JSON (")
    shutil.copytree(work / "out", work / "cut-index")
    _index_cut(work / "cut-index")
    done = run(work, "diff", "out", "cut-index", "--format", fmt)
    assert one_line(done).startswith("wahanorm diff: cut-index: index.json is not valid JSON (")
    missing = run(work, "diff", "nothere", "out", "--format", fmt)
    assert one_line(missing) == "wahanorm diff: nothere: no such file or folder"
    same = run(work, "diff", "in", "out", "--format", fmt)
    assert (same.returncode, same.stderr) == (0, "")


def test_diff_says_what_a_damaged_index_does_not_bear_out(work: Path) -> None:
    shutil.copytree(work / "out", work / "gone")
    (work / "gone" / SHEET).unlink()
    done = run(work, "diff", "gone", "out")
    assert one_line(done, 1) == (
        f"wahanorm diff: note: gone: index.json lists 1 entity files not there ({SHEET}); "
        "compared as absent"
    )
    assert "+ datasheet 'Iron Hand' Straken" in done.stdout
    _index_not_an_object(work / "gone")
    (work / "gone" / SHEET).write_text((work / "out" / SHEET).read_text())
    done = run(work, "diff", "gone", "out")
    assert one_line(done, 0) == (
        "wahanorm diff: note: gone/index.json is not a wahanorm index (not a JSON object); "
        "compared by the entity files found"
    )


@pytest.mark.parametrize("chars", ["-5", "0", "x"])
def test_diff_max_chars_takes_a_whole_number_of_1_or_more(work: Path, chars: str) -> None:
    done = run(work, "diff", "in", "out", "--format", "markdown", "--max-chars", chars)
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1] == (
        f"wahanorm diff: error: argument --max-chars: not a whole number of 1 or more: {chars!r}"
    )


def _closed_reader(cwd: Path, *argv: str) -> tuple[int, str]:
    """Run ``wahanorm argv`` with a standard output whose reader is gone before it writes (as
    ``| head`` does once it has its lines): (exit status, stderr)."""
    read, write = os.pipe()
    os.close(read)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "wahanorm", *argv],
            cwd=cwd,
            stdout=write,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
        )
    finally:
        os.close(write)
    return done.returncode, done.stderr


@pytest.mark.parametrize(
    "argv",
    [
        ("explain", "--list"),
        ("explain", "hole"),
        ("schema", "entity"),
        ("show", "straken", "--out", "out"),
        ("diff", "out", "out"),
        ("diff", "out", "out", "--format", "markdown"),
        ("diff", "out", "out", "--format", "json"),
        ("crosscheck", "out", "out"),
        ("crosscheck", "out", "out", "--format", "markdown"),
        ("db", "out", "rules.db"),
        ("--help",),
        ("--version",),
        ("diff", "--help"),
    ],
    ids=" ".join,
)
def test_a_reader_that_closes_the_pipe_ends_every_command_quietly_with_141(
    work: Path, argv: tuple[str, ...]
) -> None:
    code, err = _closed_reader(work, *argv)
    assert (code, err) == (141, "")


def test_convert_into_a_closed_pipe_writes_out_whole_and_says_no_write_error(
    tmp_path: Path,
) -> None:
    code, err = _closed_reader(tmp_path, "convert", str(STRAKEN), "--out", "out", "--no-cache")
    assert code == 141
    assert "cannot write" not in err and "internal error" not in err
    check = run(tmp_path, "convert", str(STRAKEN), "--out", "out", "--check", "--no-cache")
    assert check.returncode == 0 and "is up to date" in check.stdout
