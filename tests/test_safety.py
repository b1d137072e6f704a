"""What ``convert`` may touch (issue 9): only what it wrote, one run at a time, whole runs.

Real folders and real processes (``python -m wahanorm`` in a subprocess): a user's folder, a
project as ``--out .``, two converts at once, ``kill -9`` at fixed points of a run
(``WAHANORM_CRASH_AT``), planted and bit-flipped cache entries, a link inside ``--out``, hostile
names, and the diff's identity checks.
"""

from __future__ import annotations

import fcntl
import json
import os
import pickle
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from wahanorm import pipeline
from wahanorm.contract.ids import slugify
from wahanorm.contract.layout import entity_relpath
from wahanorm.contract.models import Rule, SourceRef
from wahanorm.errors import Report
from wahanorm.outputs.canonical import canonical_json
from wahanorm.pipeline.merge import merge_entities

REPO = Path(__file__).resolve().parents[1]
ORKS = REPO / "raw" / "000_47df9cafce3cbdb4.txt"  # datasheet orks/ufthak-blackhawk
STRAKEN = REPO / "raw" / "004_915fe25d03f9d2ef.txt"  # datasheet astra-militarum/…
ORKS_SHEET = "11ed/datasheet/orks/ufthak-blackhawk.json"


def wahanorm(cwd: Path, *argv: str, **env: str) -> subprocess.CompletedProcess[str]:
    """``python -m wahanorm argv`` in ``cwd``, as a user runs it."""
    done = subprocess.run(
        [sys.executable, "-m", "wahanorm", *argv],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_COLOR": "1", **env},
        timeout=120,
    )
    assert "Traceback" not in done.stderr, done.stderr
    return done


def tree(root: Path) -> dict[str, bytes | str]:
    """Everything under ``root``: file bytes, ``<dir>`` and ``<link> target``, links not
    followed."""
    found: dict[str, bytes | str] = {}
    for folder, dirs, names in os.walk(root):
        base = Path(folder)
        for name in dirs + names:
            path = base / name
            rel = path.relative_to(root).as_posix()
            if path.is_symlink():
                found[rel] = f"<link> {os.readlink(path)}"
            elif path.is_dir():
                found[rel] = "<dir>"
            else:
                found[rel] = path.read_bytes()
    return found


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder with ``in/`` holding two sample dumps (also the working folder of the test)."""
    (tmp_path / "in").mkdir()
    shutil.copy(ORKS, tmp_path / "in" / "orks.txt")
    shutil.copy(STRAKEN, tmp_path / "in" / "straken.txt")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def expected(project: Path) -> dict[str, bytes | str]:
    """What ``convert in`` must leave in ``out/`` (converted in this process, to save time)."""
    files = pipeline.convert([Path("in")]).files
    return {**{rel: text.encode() for rel, text in files.items()}, **_folders(files)}


def _folders(files: dict[str, str]) -> dict[str, bytes | str]:
    return {
        "/".join(rel.split("/")[:n]): "<dir>" for rel in files for n in range(1, rel.count("/") + 1)
    }


def convert(cwd: Path, *extra: str, **env: str) -> subprocess.CompletedProcess[str]:
    return wahanorm(cwd, "convert", "in", "--out", "out", "--no-cache", "-q", *extra, **env)


# --- whose folder ----------------------------------------------------------------------------


def test_a_users_folder_is_refused_untouched(project: Path) -> None:
    user = project / "out"
    (user / "notes").mkdir(parents=True)
    (user / "package.json").write_text('{"name": "mine"}\n')
    (user / "notes" / "x.json").write_text("{}\n")
    (user / ".git" / "refs" / "tags").mkdir(parents=True)
    (user / ".git" / "objects" / "pack").mkdir(parents=True)
    before = tree(project)
    done = convert(project)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "wahanorm: error: --out out already holds files and no wahanorm index.json: wahanorm "
        "writes only into a new or empty folder or one it wrote before; give another --out"
    ]
    assert tree(project) == before


def test_out_dot_in_a_project_is_refused_untouched(project: Path) -> None:
    (project / "tsconfig.json").write_text("{}\n")
    (project / ".vscode").mkdir()
    (project / ".vscode" / "launch.json").write_text("{}\n")
    before = tree(project)
    done = wahanorm(project, "convert", "in", "--out", ".", "-q")  # the cache folder too: none
    assert done.returncode == 2
    assert "--out . holds the input in" in done.stderr
    assert tree(project) == before
    elsewhere = project / "in" / "dumps"
    elsewhere.mkdir()
    done = wahanorm(project / "in", "convert", "dumps", "--out", ".", "--no-cache")
    assert done.returncode == 2 and "holds the input dumps" in done.stderr


@pytest.mark.parametrize("out", ["in", "in/out"])
def test_out_equal_to_or_inside_an_input_folder_is_refused(project: Path, out: str) -> None:
    before = tree(project)
    done = convert_to(project, out)
    assert done.returncode == 2 and len(done.stderr.splitlines()) == 1
    assert tree(project) == before


def convert_to(cwd: Path, out: str) -> subprocess.CompletedProcess[str]:
    return wahanorm(cwd, "convert", "in", "--out", out, "--no-cache", "-q")


def test_a_run_removes_only_what_the_previous_index_lists(project: Path) -> None:
    assert convert(project).returncode == 0
    out = project / "out"
    (out / "README.md").write_text("mine\n")
    (out / "11ed" / "datasheet" / "orks" / "mine.json").write_text("{}\n")
    (out / ".git").mkdir()
    (out / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (project / "in" / "orks.txt").unlink()
    done = convert(project)
    assert done.returncode == 0
    assert not (out / ORKS_SHEET).exists()
    assert (out / "README.md").read_text() == "mine\n"
    assert (out / "11ed" / "datasheet" / "orks" / "mine.json").read_text() == "{}\n"  # kept
    assert (out / ".git" / "HEAD").is_file()
    check = convert(project, "--check")
    assert check.returncode == 1
    for rel in ("README.md", ".git/HEAD", "11ed/datasheet/orks/mine.json"):
        assert f"not wahanorm's: out/{rel} (convert leaves it; remove it)" in check.stderr


# --- one writer ------------------------------------------------------------------------------


def test_two_converts_at_once_give_one_whole_run(project: Path) -> None:
    argv = [sys.executable, "-m", "wahanorm", "convert", "in", "--out", "out", "--no-cache", "-q"]
    runs = [
        subprocess.Popen(argv, cwd=project, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for _ in range(2)
    ]
    results = [(run.wait(timeout=120), run.stderr.read().decode()) for run in runs if run.stderr]
    assert [code for code, _ in results] == [0, 0], results
    assert all("Traceback" not in err and "No such file" not in err for _, err in results)
    assert tree(project / "out") == expected(project)  # one run whole, nothing else


def test_a_second_writer_waits_then_exits_2(project: Path) -> None:
    (project / "out").mkdir()
    fd = os.open(project / "out", os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        done = convert(project, WAHANORM_LOCK_WAIT="0.3")
    finally:
        os.close(fd)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "wahanorm: waiting for another wahanorm writing out (up to 0.3 s)",
        "wahanorm: error: another wahanorm is writing out; run again when it is done",
    ]


# --- whole runs ------------------------------------------------------------------------------


def _outputs(out: Path) -> dict[str, bytes | str]:
    return {rel: v for rel, v in tree(out).items() if not rel.startswith(".")}


@pytest.mark.parametrize("point", ["staged", "journal", "commit"])
def test_kill_9_mid_run_then_a_rerun_recovers(project: Path, point: str) -> None:
    shutil.copy(STRAKEN, project / "straken.txt")
    (project / "in" / "straken.txt").unlink()
    assert convert(project).returncode == 0  # the old tree: Orks only
    old = _outputs(project / "out")
    (project / "in" / "orks.txt").unlink()
    shutil.copy(project / "straken.txt", project / "in" / "straken.txt")
    new = expected(project)  # the new tree: Straken only
    (project / "out" / "11ed" / "rule" / ".index.json.4242.tmp").write_text(
        "{"
    )  # an older writer's
    crashed = convert(project, WAHANORM_CRASH_AT=point)
    assert crashed.returncode == -signal.SIGKILL
    out = project / "out"
    if point == "staged":  # nothing decided: the old tree whole, the staging beside it
        assert {k: v for k, v in _outputs(out).items() if ".tmp" not in k} == old
    else:  # decided: wahanorm's readers refuse the folder until a run finishes it
        diff = wahanorm(project, "diff", "out", "in")
        assert diff.returncode == 2 and "holds a run cut short" in diff.stderr
    check = convert(project, "--check")
    assert check.returncode == 1
    assert convert(project).returncode == 0
    assert tree(out) == new  # no staging, journal or temporary file left either


def test_check_reports_leftover_temporary_files(project: Path) -> None:
    assert convert(project).returncode == 0
    (project / "out" / "11ed" / "datasheet" / ".x.json.77.tmp").write_text("half")
    check = wahanorm(project, "convert", "in", "--out", "out", "--no-cache", "--check")
    assert check.returncode == 1
    assert "not written any more: out/11ed/datasheet/.x.json.77.tmp" in check.stderr
    quiet = convert(project, "--check")  # -q: the one line, since convert mends it
    assert quiet.stderr.splitlines() == [
        "wahanorm: out is not what 'wahanorm convert in' writes now (1 extra); run it"
    ]
    assert convert(project).returncode == 0
    assert not (project / "out" / "11ed" / "datasheet" / ".x.json.77.tmp").exists()


# --- the cache -------------------------------------------------------------------------------


def cached(cwd: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return wahanorm(cwd, "convert", "in", "--out", "out", "--cache", "cache", "-q", *extra)


def test_bit_flipped_cache_entries_are_dropped_and_converted_again(project: Path) -> None:
    assert cached(project).returncode == 0
    good = _outputs(project / "out")
    shutil.rmtree(project / "out")
    entries = sorted((project / "cache").rglob("*.json"))
    assert entries
    for entry in entries:
        data = bytearray(entry.read_bytes())
        data[len(data) // 2] ^= 0x04  # one bit, in the middle of the body
        entry.write_bytes(bytes(data))
    done = cached(project)
    assert done.returncode == 0
    assert "does not match its hash" in done.stderr and "dropped, converted again" in done.stderr
    assert _outputs(project / "out") == good == expected(project)


def test_a_planted_pickle_never_runs(project: Path) -> None:
    assert cached(project).returncode == 0
    marker = project / "PWNED"

    class Payload:
        def __reduce__(self) -> tuple[object, tuple[str]]:
            return (os.system, (f"touch {marker}",))

    for entry in (project / "cache").rglob("*.json"):
        entry.write_bytes(pickle.dumps(Payload()))
        entry.with_suffix(".pickle").write_bytes(pickle.dumps(Payload()))
    done = cached(project)
    assert done.returncode == 0
    assert not marker.exists()
    assert "not a wahanorm cache entry" in done.stderr
    assert tree(project / "out") == expected(project)


def test_a_cached_path_outside_out_is_refused(project: Path) -> None:
    import hashlib

    assert cached(project).returncode == 0
    [entry] = (project / "cache" / "run-files").rglob("*.json")
    files = json.loads(entry.read_bytes().split(b"\n", 1)[1])
    files["../escaped.json"] = "{}\n"
    body = json.dumps(files).encode()
    entry.write_bytes(
        b"wahanorm-cache 1 " + hashlib.sha256(body).hexdigest().encode() + b"\n" + body
    )
    for stamp in (project / "cache" / "stamps").rglob("*.json"):
        stamp.unlink()  # so that the run writes again, from the planted files
    done = cached(project)
    assert done.returncode == 0
    assert (
        "the path '../escaped.json' holds a name that is empty, hidden, '..' or of other "
        "characters" in done.stderr
    )
    assert not (project / "escaped.json").exists()
    assert tree(project / "out") == expected(project)


def test_cache_max_keeps_the_cache_under_its_cap(project: Path) -> None:
    (project / "cache" / "inputs" / "ab").mkdir(parents=True)
    (project / "cache" / "inputs" / "ab" / "mine.json").write_text("{}\n")  # not an entry
    (project / "cache" / "notes.json").write_text("{}\n")
    assert cached(project, "--cache-max", "40K").returncode == 0
    entries = [p for p in (project / "cache").rglob("*.json") if len(p.stem) == 64]
    assert entries and sum(p.stat().st_size for p in entries) <= 40 * 1024
    assert (project / "cache" / "inputs" / "ab" / "mine.json").is_file()
    assert (project / "cache" / "notes.json").is_file()
    assert cached(project, "--cache-max", "nonsense").returncode == 2


# --- paths -----------------------------------------------------------------------------------


def test_a_symlink_inside_out_is_never_written_through(project: Path) -> None:
    assert convert(project).returncode == 0
    elsewhere = project / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "keep.txt").write_text("mine\n")
    shutil.rmtree(project / "out" / "11ed" / "datasheet")
    (project / "out" / "11ed" / "datasheet").symlink_to(elsewhere, target_is_directory=True)
    before = tree(project)
    done = convert(project)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "wahanorm: error: out/11ed/datasheet is a symbolic link: wahanorm never writes through "
        "links (remove it and run again)"
    ]
    assert tree(project) == before


def _dump_named(name: str) -> str:
    return ORKS.read_text(encoding="utf-8").replace("Orks – Ufthak Blackhawk", f"Orks – {name}", 1)


def test_a_300_character_name_is_an_error_and_no_file(project: Path) -> None:
    long_name = " ".join(["Waaagh"] * 43)  # 300 characters: no source names a unit so
    assert len(long_name) == 300
    (project / "in" / "orks.txt").write_text(_dump_named(long_name), encoding="utf-8")
    done = convert(project)
    assert done.returncode == 1  # an error diagnostic; the rest of the batch is written
    index = json.loads((project / "out" / "index.json").read_text())
    [error] = [d for d in index["diagnostics"] if d["code"] == "implausible-entity"]
    assert (error["path"], error["line"]) == ("in/orks.txt", 1)
    assert "43 words, 300 characters" in error["message"]
    assert not (project / "out" / "11ed" / "datasheet" / "orks").exists()
    assert (project / "out" / "10ed" / "datasheet" / "astra-militarum").is_dir()
    slug = slugify(long_name)  # the writer's names stay short all the same
    assert len(slug) <= 100 and slug[-9] == "-" and slug.startswith("waaagh-waaagh-")
    assert slugify(long_name + " Boyz") != slug


def test_escape_characters_leave_names_and_never_reach_the_terminal(project: Path) -> None:
    (project / "in" / "orks.txt").write_text(
        _dump_named("Ufthak\x1b]0;owned\x07\u202e Blackhawk"), encoding="utf-8"
    )
    done = wahanorm(project, "convert", "in", "--out", "out", "--no-cache")
    assert done.returncode == 0
    assert "\x1b" not in done.stderr and "\u202e" not in done.stderr
    assert "unsafe-characters" in done.stderr and "\\x1b]0;owned\\x07\\u202e" in done.stderr
    sheet = json.loads(
        (
            project / "out" / "11ed" / "datasheet" / "orks" / "ufthak-0-owned-blackhawk.json"
        ).read_text()
    )
    assert sheet["name"] == "Ufthak]0;owned Blackhawk"
    # text (not names) keeps what the source says; the diff escapes it on a terminal
    shutil.copytree(project / "out", project / "old")
    rule = next((project / "out" / "11ed" / "rule").rglob("*.json"))
    data = json.loads(rule.read_text())
    data["text"] = "\x1b[2J\x1b]0;owned\x07" + data["text"] + "\u202e"
    rule.write_text(canonical_json(data))
    for fmt in ("text", "markdown"):
        diff = wahanorm(project, "diff", "old", "out", "--format", fmt, "--color", "always")
        assert diff.returncode == 1
        shown = diff.stdout.replace("\\\\", "\\").replace("\\[", "[").replace("\\]", "]")
        assert "\\x1b[2J\\x1b]0;owned\\x07" in shown and "\\u202e" in shown
        assert "\u202e" not in diff.stdout and "\x07" not in diff.stdout
        assert "\x1b[2J" not in diff.stdout and "\x1b]" not in diff.stdout


def test_reserved_names_and_colliding_names() -> None:
    assert slugify("CON") == "con-x" and slugify("Lpt9") == "lpt9-x"
    assert slugify("Console") == "console"

    def rule(name: str, path: str) -> Rule:
        return Rule(
            kind="rule",
            id=f"core/{slugify(name)}",
            name=name,
            text=f"Text of {path}.",
            sources=[SourceRef(path=path, line_start=1, line_end=2)],
        )

    report = Report()
    merged = merge_entities([rule("🔥", "a.txt"), rule("💧", "b.txt")], report)
    assert len(merged) == 1 and len(merged[0].variants) == 1  # both kept
    [collision] = [d for d in report.diagnostics if d.code == "id-collision"]
    assert collision.severity == "error"
    assert "'🔥' (a.txt:1) and '💧' (b.txt:1) give one id" in collision.message
    report = Report()
    merge_entities([rule("BloodThirster", "a.txt"), rule("Bloodthirster", "b.txt")], report)
    assert [d.code for d in report.diagnostics] == ["conflict"]  # one name in two spellings


def test_conflict_diagnostics_cap_the_sources_they_name() -> None:
    same = [
        Rule(
            kind="rule",
            id="core/x",
            name="X",
            text="One.",
            sources=[SourceRef(path=f"{n:03d}.txt", line_start=1, line_end=1)],
        )
        for n in range(143)
    ]
    other = same[0].model_copy(
        update={"text": "Two.", "sources": [SourceRef(path="z.txt", line_start=5, line_end=5)]}
    )
    report = Report()
    [merged] = merge_entities([*same, other], report)
    [conflict] = report.diagnostics
    assert "000.txt:1, 001.txt:1, 002.txt:1, 003.txt:1, 004.txt:1 … and 138 more sources" in (
        conflict.message
    )
    assert len(conflict.message) < 300
    assert len(merged.sources) == 143  # the full list stays in the entity and index.json


# --- outputs written before editions -------------------------------------------------------


def _before_editions(out: Path, old: Path) -> None:
    """``out`` as wahanorm wrote it before editions (as at 5999c04): entities at
    ``<kind>/<ns>/<name>.json`` without ``edition``, index entries without edition or path,
    detachment rules without the sub-abilities and restrictions that came later."""
    index = json.loads((out / "index.json").read_text())
    for entry in index["entities"]:
        data = json.loads((out / entry.pop("path")).read_text())
        del entry["edition"], data["edition"]
        if data["kind"] == "detachment_rule":
            del data["abilities"], data["restrictions"]
        target = old / entity_relpath(data)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(canonical_json(data))
    (old / "index.json").write_text(canonical_json(index))


def test_an_output_written_before_editions_is_read_diffed_and_replaced(project: Path) -> None:
    assert convert(project).returncode == 0
    _before_editions(project / "out", project / "old")
    assert (project / "old" / "datasheet" / "orks" / "ufthak-blackhawk.json").is_file()
    shown = wahanorm(project, "show", "orks/ufthak-blackhawk", "--out", "old")
    assert shown.returncode == 0 and shown.stdout.startswith("UFTHAK BLACKHAWK\n"), shown.stderr
    diff = wahanorm(project, "diff", "old", "out")
    assert diff.returncode == 1, diff.stderr  # compared, not refused as a stray copy
    assert "editions: - → 10th and 11th" in diff.stdout
    assert "Abilities added" not in diff.stdout  # Straken's only detachment rule lists none
    done = convert_to(project, "old")  # the old layout's files and emptied folders go
    assert done.returncode == 0, done.stderr
    assert tree(project / "old") == expected(project)


# --- diff identity ---------------------------------------------------------------------------


def test_diff_refuses_a_stray_copy_and_a_file_of_another_id(project: Path) -> None:
    assert convert(project).returncode == 0
    shutil.copytree(project / "out", project / "old")
    sheet = project / "out" / ORKS_SHEET
    shutil.copy(sheet, project / "out" / "11ed" / "datasheet" / "orks" / "copy.json")
    done = wahanorm(project, "diff", "old", "out")
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "wahanorm diff: out: 11ed/datasheet/orks/copy.json holds datasheet orks/ufthak-blackhawk, "
        f"whose file is {ORKS_SHEET}: a stray copy? remove it or run wahanorm convert again"
    ]
    (project / "out" / "11ed" / "datasheet" / "orks" / "copy.json").unlink()
    sheet.rename(project / "out" / "11ed" / "datasheet" / "orks" / "moved.json")
    assert wahanorm(project, "diff", "old", "out").returncode == 2


def test_diff_refuses_a_git_tree_path_with_dot_dot(tmp_path: Path) -> None:
    def git(*args: str, stdin: bytes | None = None) -> str:
        return (
            subprocess.run(
                ["git", *args], cwd=tmp_path, input=stdin, capture_output=True, check=True
            )
            .stdout.decode()
            .strip()
        )

    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    git("init", "-q")
    blob = git("hash-object", "-w", "--stdin", stdin=STRAKEN.read_bytes())
    up = git("mktree", stdin=f"100644 blob {blob}\tescaped.txt\n".encode())
    inner = git("mktree", stdin=f"040000 tree {up}\t..\n".encode())
    top = git("mktree", stdin=f"040000 tree {inner}\tx\n".encode())
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t"}
    env["GIT_COMMITTER_EMAIL"] = "t@t"
    commit = (
        subprocess.run(
            ["git", "commit-tree", top, "-m", "crafted"],
            cwd=tmp_path,
            capture_output=True,
            check=True,
            env={**os.environ, **env},
        )
        .stdout.decode()
        .strip()
    )
    done = wahanorm(tmp_path, "diff", f"{commit}:x", f"{commit}:x")
    assert done.returncode == 2
    assert "the tree holds an unsafe path 'x/../escaped.txt': refused" in done.stderr
    assert not (tmp_path.parent / "escaped.txt").exists()
