"""The ways out of wahanorm never overwrite, mix or fold what is the user's (issue 16).

Real processes (``python -m wahanorm``) on real files, links, pipes and devices: the database
file is wahanorm's only when new or written by wahanorm; the readers of an output folder hold
its lock and refuse a run cut short; two units of one name stay two; standard input and
devices are read up to the size limit; ``index.json`` holds every diagnostic; a run that gives
nothing says so and writes nothing.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import signal
import sqlite3
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

import wahanorm
from wahanorm.errors import InputError

REPO = Path(__file__).resolve().parents[1]
ORKS = REPO / "raw" / "000_47df9cafce3cbdb4.txt"  # datasheet orks/ufthak-blackhawk
STRAKEN = REPO / "raw" / "004_915fe25d03f9d2ef.txt"
SAME_NAME = REPO / "tests" / "fixtures" / "export" / "wahapedia-10ed-2026-02-14-same-name"


def run(
    cwd: Path, *argv: str, stdin: bytes | None = None, **env: str
) -> subprocess.CompletedProcess[str]:
    """``python -m wahanorm argv`` in ``cwd``, as a user runs it."""
    done = subprocess.run(
        [sys.executable, "-m", "wahanorm", *argv],
        cwd=cwd,
        input=stdin.decode() if stdin is not None else None,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_COLOR": "1", **env},
        timeout=180,
    )
    assert "Traceback" not in done.stderr, done.stderr
    return done


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """``in/`` with two sample dumps, converted into ``out/``."""
    (tmp_path / "in").mkdir()
    shutil.copy(ORKS, tmp_path / "in" / "orks.txt")
    shutil.copy(STRAKEN, tmp_path / "in" / "straken.txt")
    assert run(tmp_path, "convert", "in", "--out", "out", "--no-cache", "-q").returncode == 0
    return tmp_path


def error_line(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 2, (done.stdout, done.stderr)
    lines = done.stderr.splitlines()
    assert len(lines) == 1, lines
    return lines[0]


# --- the database file is wahanorm's only when new or written by it -------------------------


def test_db_refuses_a_text_file_and_leaves_it(project: Path) -> None:
    notes = project / "notes.txt"
    notes.write_text("my notes\n")
    line = error_line(run(project, "db", "out", "notes.txt"))
    assert line == (
        "wahanorm: error: notes.txt already exists and is not a database wahanorm wrote; "
        "give the path of a new file, or of a database wahanorm wrote"
    )
    assert notes.read_text() == "my notes\n"


def test_db_refuses_another_programs_database(project: Path) -> None:
    theirs = project / "theirs.db"
    db = sqlite3.connect(theirs)
    db.execute("CREATE TABLE meta (key TEXT, value TEXT)")
    db.execute("INSERT INTO meta VALUES ('generator', 'someone else')")
    db.commit()
    db.close()
    before = theirs.read_bytes()
    assert "is not a database wahanorm wrote" in error_line(run(project, "db", "out", "theirs.db"))
    assert theirs.read_bytes() == before


def test_db_refuses_a_symbolic_link_and_what_it_points_to_stays(project: Path) -> None:
    target = project / "target.db"
    assert run(project, "db", "out", "target.db").returncode == 0  # a database of ours
    before = target.read_bytes()
    (project / "link.db").symlink_to(target)
    line = error_line(run(project, "db", "out", "link.db"))
    assert "link.db is a symbolic link" in line
    assert (project / "link.db").is_symlink() and target.read_bytes() == before


def test_db_refuses_a_pipe_and_a_device(project: Path, tmp_path: Path) -> None:
    fifo = project / "pipe.db"
    os.mkfifo(fifo)
    assert "is not a regular file" in error_line(run(project, "db", "out", "pipe.db"))
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    # /dev/full as a target (the case, run as root): refused before any write
    assert "is not a regular file" in error_line(run(project, "db", "out", "/dev/full"))
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)


def test_db_refuses_a_file_inside_the_output_folder(project: Path) -> None:
    index = (project / "out" / "index.json").read_bytes()
    line = error_line(run(project, "db", "out", "out/index.json"))
    assert "lies inside the output folder out" in line
    assert (project / "out" / "index.json").read_bytes() == index
    assert run(project, "show", "ufthak blackhawk").returncode == 0  # out/ still reads


def test_convert_sqlite_refuses_an_input_of_the_run_before_writing(project: Path) -> None:
    page = project / "in" / "orks.txt"
    before = page.read_bytes()
    shutil.rmtree(project / "out")
    done = run(project, "convert", "in", "--out", "out", "--no-cache", "--sqlite", "in/orks.txt")
    assert "lies inside the input folder in" in error_line(done)
    done = run(
        project, "convert", "in/orks.txt", "--out", "out", "--no-cache", "--sqlite", "in/orks.txt"
    )
    assert "is an input of this run" in error_line(done)
    assert page.read_bytes() == before
    assert not (project / "out").exists()  # refused before anything was written


def test_a_database_of_wahanorm_is_replaced_whole(project: Path) -> None:
    assert run(project, "db", "out", "rules.db").returncode == 0
    first = (project / "rules.db").read_bytes()
    assert run(project, "db", "out", "rules.db").returncode == 0
    assert (project / "rules.db").read_bytes() == first
    assert sorted(p.name for p in project.iterdir()) == ["in", "out", "rules.db"]


def test_the_database_file_is_readable_as_the_json_files_are(project: Path) -> None:
    """A database is made as a file written with open() is (the user's umask), not 0600 as a
    temporary file: a service of another user can read it as it reads out/."""
    assert run(project, "db", "out", "rules.db").returncode == 0
    json_mode = stat.S_IMODE((project / "out" / "index.json").stat().st_mode)
    assert stat.S_IMODE((project / "rules.db").stat().st_mode) == json_mode
    assert json_mode & stat.S_IROTH


# --- readers of an output folder see one whole run ------------------------------------------


def test_db_waits_for_a_writer_holding_the_folder(project: Path) -> None:
    fd = os.open(project / "out", os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # a writer at work
        reader = subprocess.Popen(
            [sys.executable, "-m", "wahanorm", "db", "out", "rules.db"],
            cwd=project,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={**os.environ, "WAHANORM_LOCK_WAIT": "30"},
        )
        time.sleep(1.5)
        assert reader.poll() is None and not (project / "rules.db").exists()  # it waits
    finally:
        os.close(fd)  # the writer is done
    assert reader.wait(timeout=60) == 0
    assert (project / "rules.db").is_file()


@pytest.mark.parametrize("point", ["journal", "commit"])
def test_readers_refuse_a_run_cut_short(project: Path, point: str) -> None:
    (project / "in" / "orks.txt").unlink()  # the next run changes out/
    crashed = run(
        project, "convert", "in", "--out", "out", "--no-cache", "-q", WAHANORM_CRASH_AT=point
    )
    assert crashed.returncode == -signal.SIGKILL
    said = "out holds a run cut short; run 'wahanorm convert' to finish it"
    assert error_line(run(project, "db", "out", "rules.db")).endswith(said)
    assert not (project / "rules.db").exists()
    assert error_line(run(project, "show", "straken")).endswith(said)
    with pytest.raises(InputError, match="holds a run cut short"):
        wahanorm.load(project / "out")
    assert run(project, "convert", "in", "--out", "out", "--no-cache", "-q").returncode == 0
    assert run(project, "db", "out", "rules.db").returncode == 0


# --- two units of one name are two entities -------------------------------------------------


def test_two_datasheets_of_one_name_are_two_entities(tmp_path: Path) -> None:
    # Datasheets.csv: Space Marines' Sternguard Veteran Squad (000002255, 100/200 points) and
    # Black Templars' (000004137, link …-1, source book Black Templars, 85/170 points).
    done = run(
        tmp_path, "convert", str(SAME_NAME), "--out", "out", "--no-cache", "--sqlite", "r.db"
    )
    assert done.returncode == 0, done.stderr
    sheets = tmp_path / "out" / "10ed" / "datasheet" / "space-marines"
    found = {p.stem: json.loads(p.read_text()) for p in sheets.iterdir()}
    assert {k: [p["points"] for p in v["points"]] for k, v in found.items()} == {
        "sternguard-veteran-squad": [100, 200],
        "sternguard-veteran-squad-black-templars": [85, 170],
    }
    assert all(not v["variants"] for v in found.values())
    db = sqlite3.connect(tmp_path / "r.db")
    assert db.execute("SELECT id FROM datasheets ORDER BY id").fetchall() == [
        ("space-marines/sternguard-veteran-squad",),
        ("space-marines/sternguard-veteran-squad-black-templars",),
    ]
    db.close()
    shown = run(tmp_path, "show", "sternguard veteran squad")
    assert shown.returncode == 2
    assert "space-marines/sternguard-veteran-squad-black-templars" in shown.stderr
    assert "space-marines/sternguard-veteran-squad  (" in shown.stderr


# --- standard input, pipes and devices -------------------------------------------------------


def test_dash_reads_standard_input(tmp_path: Path) -> None:
    done = run(
        tmp_path, "convert", "-", "--out", "out", "--no-cache", "-q", stdin=ORKS.read_bytes()
    )
    assert done.returncode == 0, done.stderr
    sheet = json.loads(
        (tmp_path / "out" / "11ed" / "datasheet" / "orks" / "ufthak-blackhawk.json").read_text()
    )
    assert sheet["sources"][0]["path"] == "<stdin>"


def test_dev_stdin_and_a_pipe_are_read_once(tmp_path: Path) -> None:
    done = run(
        tmp_path, "convert", "/dev/stdin", "--out", "a", "--no-cache", "-q", stdin=ORKS.read_bytes()
    )
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "a" / "11ed" / "datasheet" / "orks" / "ufthak-blackhawk.json").is_file()
    fifo = tmp_path / "dump.fifo"
    os.mkfifo(fifo)
    feeder = subprocess.Popen(["sh", "-c", f"cat '{ORKS}' > '{fifo}'"])
    done = run(tmp_path, "convert", "dump.fifo", "--out", "b", "--no-cache", "-q")
    feeder.wait(timeout=30)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "b" / "11ed" / "datasheet" / "orks" / "ufthak-blackhawk.json").is_file()


def test_dev_zero_is_read_up_to_the_limit_then_refused(tmp_path: Path) -> None:
    done = run(tmp_path, "convert", "/dev/zero", "--out", "out", "--no-cache")
    assert done.returncode == 1
    assert "/dev/zero: error: more than 67108864 bytes, the limit for one input" in done.stderr
    assert "wahanorm: no input gave an entity" in done.stderr


# --- every diagnostic in index.json; a run that gives nothing -------------------------------


def test_index_json_holds_every_diagnostic(tmp_path: Path) -> None:
    # 300 lines each missing a keyword before "," ("is ,"): 300 hole warnings, all kept.
    holes = "\n".join(f"- Line {n}: this unit is , as printed." for n in range(300))
    (tmp_path / "dump.txt").write_text(ORKS.read_text(encoding="utf-8") + "\nABILITIES\n" + holes)
    run(tmp_path, "convert", "dump.txt", "--out", "out", "--no-cache", "-q")
    index = json.loads((tmp_path / "out" / "index.json").read_text())
    listed = [d for d in index["diagnostics"] if d["code"] == "hole"]
    assert len(listed) >= 300
    assert not any("not listed" in d["message"] for d in index["diagnostics"])


def test_a_run_that_gives_no_entity_exits_1_and_writes_nothing(project: Path) -> None:
    (project / "junk").mkdir()
    for n in range(3):
        (project / "junk" / f"table{n}.csv").write_text("a,b\n")
    before = sorted(p.relative_to(project) for p in (project / "out").rglob("*"))
    done = run(project, "convert", "junk", "--out", "out", "--no-cache", "-q")
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        "wahanorm: no input gave an entity (0 inputs read, 3 files skipped (no reader knows "
        "them)); nothing written to out"
    ]
    (project / "junk" / "table1.csv").unlink()
    (project / "junk" / "table2.csv").unlink()
    done = run(project, "convert", "junk", "--out", "out", "--no-cache", "-q")
    assert done.stderr.splitlines() == [
        "wahanorm: no input gave an entity (0 inputs read, 1 file skipped (no reader knows "
        "it)); nothing written to out"
    ]
    assert sorted(p.relative_to(project) for p in (project / "out").rglob("*")) == before
