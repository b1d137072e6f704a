"""The writer's own files read back as hostile input (issue 33, item 1): a journal, a staging
folder and an ``index.json`` planted in ``--out`` (a pull request can commit them) never move,
remove or read anything outside it.

Real processes (``python -m wahanorm``) on folders the tests build: a previous run of a sample
dump, then the planted file; every case checks the exact exit code and one line, and that
nothing changed, inside ``--out`` or beside it.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from test_safety import STRAKEN, wahanorm

JOURNAL = ".wahanorm-journal.json"
STAGING = ".wahanorm-staging"
SHEET = "10ed/datasheet/astra-militarum/iron-hand-straken.json"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``in/`` with a sample dump, ``out/`` a run of it, and ``victim/`` beside them: the file
    a planted journal reaches for."""
    (tmp_path / "in").mkdir()
    shutil.copy(STRAKEN, tmp_path / "in" / "straken.txt")
    monkeypatch.chdir(tmp_path)
    done = wahanorm(tmp_path, "convert", "in", "--out", "out", "-q", "--no-cache")
    assert done.returncode == 0, done.stderr
    (tmp_path / "victim").mkdir()
    (tmp_path / "victim" / "p.txt").write_text("DATA\n")
    (tmp_path / "victim" / "0").write_text("STAGED ELSEWHERE\n")
    return tmp_path


def tree(root: Path) -> dict[str, bytes | str]:
    """Everything under ``root``: file bytes (a sparse file by its size), ``<dir>``, ``<link>
    target`` and ``<fifo>``, links not followed and FIFOs never opened."""
    found: dict[str, bytes | str] = {}
    for folder, dirs, names in os.walk(root):
        for name in dirs + names:
            path = Path(folder) / name
            rel, mode = path.relative_to(root).as_posix(), os.lstat(path)
            if stat.S_ISLNK(mode.st_mode):
                found[rel] = f"<link> {os.readlink(path)}"
            elif stat.S_ISDIR(mode.st_mode):
                found[rel] = "<dir>"
            elif stat.S_ISFIFO(mode.st_mode):
                found[rel] = "<fifo>"
            elif mode.st_size > 1 << 20:
                found[rel] = f"<{mode.st_size} bytes>"
            else:
                found[rel] = path.read_bytes()
    return found


def journal(out: Path, write: object = (), remove: object = (), **more: object) -> None:
    """Plant ``out/.wahanorm-journal.json`` and a staging folder holding a file ``0``."""
    (out / STAGING).mkdir(exist_ok=True)
    if not (out / STAGING / "0").is_symlink():
        (out / STAGING / "0").write_text("{}\n")
    data = {
        "generator": "wahanorm 0.1.0",
        "schema_version": 1,
        "write": list(write) if isinstance(write, tuple) else write,
        "remove": list(remove) if isinstance(remove, tuple) else remove,
        **more,
    }
    (out / JOURNAL).write_text(json.dumps(data))


def _staged_up(out: Path) -> str:
    journal(out, [["../../victim/p.txt", "index.json"]])
    return (
        "its write entry 1 stages '../../victim/p.txt', not a plain file name of the staging folder"
    )


def _staged_absolute(out: Path) -> str:
    victim = str(out.parent / "victim" / "p.txt")
    journal(out, [[victim, "index.json"]])
    return (
        f"its write entry 1 stages {victim!r}, not a plain file name of the staging folder"
        if len(repr(victim)) <= 60
        else f"its write entry 1 stages {repr(victim)[:57]}..., not a plain file name of the "
        "staging folder"
    )


def _target_up(out: Path) -> str:
    journal(out, [["0", "../victim/p.txt"]])
    return (
        "its write entry 1 names '../victim/p.txt': the path holds a name that is empty, "
        "hidden, '..' or of other characters"
    )


def _target_absolute(out: Path) -> str:
    journal(out, [["0", "/etc/passwd"]])
    return (
        "its write entry 1 names '/etc/passwd': the path holds a name that is empty, hidden, "
        "'..' or of other characters"
    )


def _target_with_nul(out: Path) -> str:
    journal(out, [["0", "index.json\u0000.x"]])
    return (
        "its write entry 1 names 'index.json\\x00.x': the path holds a name that is empty, "
        "hidden, '..' or of other characters"
    )


def _target_not_an_output(out: Path) -> str:
    (out / "README.md").write_text("mine\n")
    journal(out, [["0", "README.md"]])
    return (
        "its write entry 1 names 'README.md': the path is no file wahanorm writes (index.json "
        "or an entity's file)"
    )


def _remove_up(out: Path) -> str:
    journal(out, remove=["../victim/p.txt"])
    return (
        "its remove entry 1 names '../victim/p.txt': the path holds a name that is empty, "
        "hidden, '..' or of other characters"
    )


def _remove_through_a_link(out: Path) -> str:
    (out / "11ed").symlink_to(out.parent / "victim")
    (out.parent / "victim" / "rule" / "a").mkdir(parents=True)
    (out.parent / "victim" / "rule" / "a" / "b.json").write_text("{}\n")
    journal(out, remove=["11ed/rule/a/b.json"])
    return (
        "its remove entry 1: OUT/11ed is a symbolic link: wahanorm never writes through links "
        "(remove it and run again)"
    )


def _staging_a_link(out: Path) -> str:
    journal(out, [["0", "index.json"]])
    shutil.rmtree(out / STAGING)
    (out / STAGING).symlink_to(out.parent / "victim")
    return "OUT/.wahanorm-staging is not a folder (a link, or a file)"


def _staged_file_a_link(out: Path) -> str:
    (out / STAGING).mkdir()
    (out / STAGING / "0").symlink_to(out.parent / "victim" / "p.txt")
    journal(out, [["0", SHEET]])
    return "its staged file '0' is not a regular file"


def _staged_file_a_fifo(out: Path) -> str:
    (out / STAGING).mkdir()
    os.mkfifo(out / STAGING / "1")
    journal(out, [["1", SHEET]])
    return "its staged file '1' is not a regular file"


def _staged_twice(out: Path) -> str:
    journal(out, [["0", SHEET], ["0", "index.json"]])
    return "its write entry 2 stages '0' a second time"


def _huge(out: Path) -> str:
    journal(out)
    os.truncate(out / JOURNAL, 65 * 1024 * 1024)  # sparse: never read
    return (
        f"it holds {65 * 1024 * 1024} bytes, more than the {64 * 1024 * 1024} bytes wahanorm reads"
    )


def _a_link(out: Path) -> str:
    journal(out)
    os.replace(out / JOURNAL, out.parent / "victim" / "journal.json")
    (out / JOURNAL).symlink_to(out.parent / "victim" / "journal.json")
    return "it is a symbolic link"


def _a_fifo(out: Path) -> str:
    journal(out)
    (out / JOURNAL).unlink()
    os.mkfifo(out / JOURNAL)
    return "it is not a regular file"


def _write_not_a_list(out: Path) -> str:
    journal(out, write={"0": "index.json"})
    return "its 'write' and 'remove' are not both lists"


def _entry_of_numbers(out: Path) -> str:
    journal(out, [[0, 1]])
    return "its write entry 1 is not [staged name, target]"


def _remove_a_number(out: Path) -> str:
    journal(out, remove=[5])
    return "its remove entry 1 is not a path"


def _schema_a_string(out: Path) -> str:
    journal(out, schema_version="1")
    return "it has no schema_version"


def _not_json(out: Path) -> str:
    (out / STAGING).mkdir()
    (out / JOURNAL).write_text('{"write": [')
    return "it is not valid JSON (unexpected end of data)"


PLANTED: dict[str, Callable[[Path], str]] = {
    "staged name with ../": _staged_up,
    "staged name absolute": _staged_absolute,
    "target with ../": _target_up,
    "target absolute": _target_absolute,
    "target with NUL": _target_with_nul,
    "target no output file": _target_not_an_output,
    "remove with ../": _remove_up,
    "remove through a link": _remove_through_a_link,
    "staging a link": _staging_a_link,
    "staged file a link": _staged_file_a_link,
    "staged file a FIFO": _staged_file_a_fifo,
    "staged file twice": _staged_twice,
    "journal of 65 MiB": _huge,
    "journal a link": _a_link,
    "journal a FIFO": _a_fifo,
    "write not a list": _write_not_a_list,
    "entry of numbers": _entry_of_numbers,
    "remove a number": _remove_a_number,
    "schema_version a string": _schema_a_string,
    "not JSON": _not_json,
}


def refused(what: str, out: str = "out") -> str:
    """The one line of a refused journal (``OUT`` in ``what`` stands for the folder)."""
    return (
        f"{out}/{JOURNAL} is not a journal wahanorm wrote: {what.replace('OUT/', out + '/')}; "
        f"nothing was moved or removed (look at it, then remove it and {out}/{STAGING} and run "
        "again)"
    )


@pytest.mark.parametrize("plant", PLANTED.values(), ids=PLANTED.keys())
def test_a_planted_journal_is_refused_and_nothing_is_touched(
    project: Path, plant: Callable[[Path], str]
) -> None:
    what = plant(project / "out")
    before = tree(project)
    done = wahanorm(project, "convert", "in", "--out", "out", "-q", "--no-cache")
    assert (done.returncode, done.stderr.splitlines()) == (
        2,
        [f"wahanorm: error: {refused(what)}"],
    )
    assert tree(project) == before  # nothing moved, removed or written, in out/ or beside it
    # the readers say the same, and never tell the user to run convert on it
    check = wahanorm(project, "convert", "in", "--out", "out", "--check", "--no-cache")
    assert (check.returncode, check.stderr.splitlines()) == (
        2,
        [f"wahanorm: error: {refused(what)}"],
    )
    diff = wahanorm(project, "diff", "out", "in")
    assert diff.returncode == 2
    # (diff names the folder as it resolved it)
    assert diff.stderr.splitlines() == [f"wahanorm diff: {refused(what, str(project / 'out'))}"]
    db = wahanorm(project, "db", "out", "x.db")
    assert (db.returncode, db.stderr.splitlines()) == (2, [f"wahanorm: error: {refused(what)}"])
    assert tree(project) == before


def test_the_issue_s_journal_no_longer_reaches_outside(tmp_path: Path) -> None:
    """Issue 33's own commands: a folder of nothing but the planted journal and staging."""
    (tmp_path / "victim").mkdir()
    (tmp_path / "victim" / "p.txt").write_text("DATA\n")
    (tmp_path / "out" / STAGING).mkdir(parents=True)
    (tmp_path / "out" / JOURNAL).write_text(
        '{"generator":"wahanorm 0.1.0","schema_version":1,'
        '"write":[["../../victim/p.txt","index.json"]],"remove":[]}'
    )
    shutil.copy(STRAKEN, tmp_path / "straken.txt")
    before = tree(tmp_path)
    done = wahanorm(tmp_path, "convert", "straken.txt", "--out", "out", "--no-cache")
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "wahanorm: error: "
        + refused(
            "its write entry 1 stages '../../victim/p.txt', not a plain file name of the "
            "staging folder"
        )
    ]
    assert tree(tmp_path) == before


def test_a_journal_removed_as_the_line_says_lets_the_next_run_write(project: Path) -> None:
    _staged_up(project / "out")
    (project / "out" / JOURNAL).unlink()
    shutil.rmtree(project / "out" / STAGING)
    done = wahanorm(project, "convert", "in", "--out", "out", "-q", "--no-cache")
    assert done.returncode == 0, done.stderr
    assert (project / "victim" / "p.txt").read_text() == "DATA\n"


def test_a_planted_index_makes_a_run_remove_only_its_own_files(project: Path) -> None:
    """``index.json`` lists what the previous run wrote, and a run removes what it lists and no
    longer writes: a planted list naming files outside, a user's file inside, or a file behind
    a link inside, removes none of them."""
    out = project / "out"
    (out / "README.md").write_text("mine\n")
    (project / "victim" / "rule" / "x").mkdir(parents=True)
    (project / "victim" / "rule" / "x" / "y.json").write_text("{}\n")
    (out / "11ed").symlink_to(project / "victim")
    index = json.loads((out / "index.json").read_text())
    for path in (
        "../victim/p.txt",
        str(project / "victim" / "p.txt"),
        "README.md",
        "11ed/rule/x/y.json",
        "index.json/../../victim/p.txt",
    ):
        index["entities"].append({**index["entities"][0], "path": path})
    (out / "index.json").write_text(json.dumps(index))
    victim = tree(project / "victim")
    done = wahanorm(project, "convert", "in", "--out", "out", "-q", "--no-cache")
    assert done.returncode == 0, done.stderr
    assert tree(project / "victim") == victim
    assert (out / "README.md").read_text() == "mine\n"
    assert (out / "11ed").is_symlink()


def test_a_huge_file_where_the_run_writes_is_replaced_unread(project: Path) -> None:
    """A run compares what a file holds with what it writes only when their sizes match: a
    planted sparse file of 8 GiB is replaced, not read."""
    sheet = project / "out" / SHEET
    expected = sheet.read_bytes()
    os.truncate(sheet, 8 * 1024**3)

    def bounded() -> None:  # 2 GiB of address space: reading the file whole would fail
        resource.setrlimit(resource.RLIMIT_AS, (2 * 1024**3, 2 * 1024**3))

    done = subprocess.run(
        [sys.executable, "-m", "wahanorm", "convert", "in", "--out", "out", "-q", "--no-cache"],
        cwd=project,
        capture_output=True,
        text=True,
        preexec_fn=bounded,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert sheet.read_bytes() == expected


# --- deep JSON in a read-back output (issue 33, item 9) --------------------------------------

RULE = "10ed/rule/astra-militarum/voice-of-command.json"


def _plant_in_rule(out: Path, value: str) -> None:
    """Put the JSON text ``value`` into the rule's file as a field of its own."""
    path = out / RULE
    path.write_text(path.read_text().replace('"name":', f'"planted": {value}, "name":', 1))


def test_a_1000_deep_array_in_an_output_is_one_line_in_every_reader(project: Path) -> None:
    shutil.copytree(project / "out", project / "new")
    _plant_in_rule(project / "new", "[" * 1000 + "]" * 1000)
    said = (
        f"new: {RULE} nests arrays or objects deeper than 64 levels (no output wahanorm writes "
        "does): not read"
    )
    for argv, prefix in (
        (("diff", "out", "new"), "wahanorm diff: "),
        (("crosscheck", "out", "new"), "wahanorm crosscheck: "),
        (("db", "new", "x.db"), "wahanorm: error: "),
        (("show", "--out", "new", "voice-of-command"), "wahanorm show: "),
    ):
        done = wahanorm(project, *argv)
        assert (done.returncode, done.stderr.splitlines()) == (2, [prefix + said]), argv


def test_brackets_inside_strings_are_no_depth(project: Path) -> None:
    """The fast check counts brackets; those inside a string send it to the exact walk, which
    reads the file (two levels deep) as it is."""
    shutil.copytree(project / "out", project / "new")
    _plant_in_rule(project / "new", json.dumps(["[" * 500]))
    done = wahanorm(project, "diff", "out", "new")
    assert done.returncode == 1, done.stderr  # a change found, nothing refused
    assert done.stderr == ""


def test_a_huge_planted_index_is_refused_unread(project: Path) -> None:
    """A sparse ``index.json`` of 600 MiB in an output that db, show and diff read: one line,
    exit 2, in 1 GiB of address space (reading it would not fit)."""
    shutil.copytree(project / "out", project / "huge")
    os.truncate(project / "huge" / "index.json", 600 * 1024**2)

    def bounded() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1024**3, 1024**3))

    limit = 512 * 1024**2
    for argv, line in (
        (
            ("db", "huge", "x.db"),
            f"wahanorm: error: huge/index.json: more than {limit} bytes, more than wahanorm "
            "reads of an index (an export's is 2.3 MB): not read",
        ),
        (
            ("show", "--out", "huge", "voice-of-command"),
            f"wahanorm show: huge/index.json: more than {limit} bytes, more than wahanorm reads "
            "of an index (an export's is 2.3 MB): not read",
        ),
        (
            ("diff", "out", "huge"),
            f"wahanorm diff: {project / 'huge' / 'index.json'}: more than {limit} bytes, more "
            "than wahanorm reads of one file of an output: not read",
        ),
    ):
        done = subprocess.run(
            [sys.executable, "-m", "wahanorm", *argv],
            cwd=project,
            capture_output=True,
            text=True,
            preexec_fn=bounded,
            timeout=120,
        )
        assert (done.returncode, done.stderr.splitlines()) == (2, [line]), argv


def test_an_entity_file_that_links_out_of_the_folder_is_not_read(project: Path) -> None:
    """A committed ``out/`` whose entity file is a link to a file of the user's (or whose folder
    on the way is a link out): ``db`` and ``show`` refuse it in one line and never read it."""
    secret = project / "victim" / "secret.json"
    secret.parent.mkdir(exist_ok=True)
    secret.write_text('{"kind": "rule", "id": "x", "name": "SECRET", "text": "SECRET"}\n')
    shutil.copytree(project / "out", project / "linked")
    (project / "linked" / RULE).unlink()
    (project / "linked" / RULE).symlink_to(secret)
    for argv, prefix in (
        (("db", "linked", "x.db"), "wahanorm: error: "),
        (("show", "--out", "linked", "voice-of-command"), "wahanorm show: "),
    ):
        done = wahanorm(project, *argv)
        assert done.returncode == 2, argv
        assert done.stderr.splitlines() == [
            f"{prefix}linked: {RULE} lies outside the folder (a link): not read"
        ], argv
        assert "SECRET" not in done.stdout + done.stderr
    shutil.copytree(project / "out", project / "via")
    folder = project / "via" / Path(RULE).parent
    shutil.copytree(folder, project / "victim" / "rules")
    shutil.rmtree(folder)
    folder.symlink_to(project / "victim" / "rules")
    done = wahanorm(project, "show", "--out", "via", "voice-of-command")
    assert (done.returncode, done.stderr.splitlines()) == (
        2,
        [f"wahanorm show: via: {RULE} lies outside the folder (a link): not read"],
    )


def test_a_linked_index_is_not_read(project: Path) -> None:
    shutil.copytree(project / "out", project / "linked")
    (project / "victim").mkdir(exist_ok=True)
    shutil.move(project / "linked" / "index.json", project / "victim" / "index.json")
    (project / "linked" / "index.json").symlink_to(project / "victim" / "index.json")
    done = wahanorm(project, "show", "--out", "linked", "voice-of-command")
    assert (done.returncode, done.stderr.splitlines()) == (
        2,
        ["wahanorm show: linked/index.json: cannot read it (a symbolic link: not followed)"],
    )
