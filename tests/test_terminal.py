"""The terminal cannot be forged (issue 33, item 8): what comes from the outside world (a file
name, an argument, an excerpt, a name in a planted ``out/``) is printed escaped by every
command, so that no input starts a line of its own or colours the screen.

Real processes (``python -m wahanorm``) on files the tests build.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from test_safety import STRAKEN

FORGED = "\x1b[31mX\nwahanorm: FAKE\u2028Y\u202e"
SHOWN = "\\x1b[31mX\\nwahanorm: FAKE\\u2028Y\\u202e"


def run(cwd: Path, *argv: str) -> subprocess.CompletedProcess[str]:
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


def unforged(done: subprocess.CompletedProcess[str]) -> list[str]:
    """The lines a process printed, checked: none raw of what ``FORGED`` holds."""
    printed = done.stdout + done.stderr
    for raw in ("\x1b", "\u2028", "\u202e", "\r"):
        assert raw not in printed
    lines = printed.split("\n")
    assert not [line for line in lines if line.startswith("wahanorm: FAKE")]
    return lines


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """``in/`` with a sample dump under a forged name, ``out/`` a run of a plain copy of it."""
    (tmp_path / "in").mkdir()
    shutil.copy(STRAKEN, tmp_path / "in" / f"{FORGED}.txt")
    (tmp_path / "plain").mkdir()
    shutil.copy(STRAKEN, tmp_path / "plain" / "straken.txt")
    done = run(tmp_path, "convert", "plain", "--out", "out", "-q", "--no-cache")
    assert done.returncode == 0, done.stderr
    return tmp_path


def test_a_file_name_with_a_newline_and_esc_is_one_escaped_line(folder: Path) -> None:
    done = run(folder, "convert", "in", "--out", "forged-out", "--no-cache")
    assert done.returncode == 0, done.stderr
    lines = unforged(done)
    said = [line for line in lines if line.startswith(f"in/{SHOWN}.txt:")]
    first = "in/" + SHOWN + ".txt:150:1: warning: the keyword of this list is missing [hole]"
    assert any(line.startswith(first) for line in said)
    # index.json keeps the name's exact text: the escaping is the terminal's only
    index = json.loads((folder / "forged-out" / "index.json").read_text())
    assert {d["path"] for d in index["diagnostics"]} == {f"in/{FORGED}.txt"}


@pytest.mark.parametrize(
    ("argv", "line"),
    [
        (
            ("convert", f"/nonexist/{FORGED}"),
            f"wahanorm: error: no such input: /nonexist/{SHOWN} (give a file or folder)",
        ),
        (("crosscheck", "out", FORGED), None),  # taken as a git REV:PATH (it holds a colon)
        (
            ("explain", FORGED),
            f"wahanorm explain: no diagnostic code '{SHOWN}' ('wahanorm explain --list' lists them)",
        ),
        (
            ("convert", "--jobs", FORGED),
            f"wahanorm convert: error: argument --jobs/-j: invalid int value: '{SHOWN}'",
        ),
        (("db", "out", "x.db", FORGED), f"wahanorm: error: unrecognized arguments: {SHOWN}"),
        (("schema", FORGED), None),
        (("show", "--out", "out", FORGED), None),
        (("diff", "out", FORGED), None),
        (("convert", "plain", "--out", f"{FORGED}/x", "--check"), None),
    ],
    ids=[
        "convert",
        "crosscheck",
        "explain",
        "argparse",
        "unrecognized",
        "schema",
        "show",
        "diff",
        "check",
    ],
)
def test_an_argument_with_esc_and_a_newline_is_printed_escaped(
    folder: Path, argv: tuple[str, ...], line: str | None
) -> None:
    done = run(folder, *argv)
    lines = unforged(done)
    assert done.returncode in (1, 2)
    if line is not None:
        assert done.returncode == 2
        assert line in lines


def test_a_planted_name_in_an_output_is_printed_escaped(folder: Path) -> None:
    """A name read back from an ``out/`` someone committed: diff, crosscheck and show print it
    on its line, escaped (the text reports put each name and change on one line)."""
    shutil.copytree(folder / "out", folder / "planted")
    rule = folder / "planted" / "10ed" / "rule" / "astra-militarum" / "voice-of-command.json"
    data = json.loads(rule.read_text())
    data["name"] = f"Voice{FORGED}"
    rule.write_text(json.dumps(data))
    diff = run(folder, "diff", "out", "planted")
    assert diff.returncode == 1
    assert f"  ~ rule Voice{SHOWN}  (astra-militarum/voice-of-command)" in unforged(diff)
    crosscheck = run(folder, "crosscheck", "out", "planted")
    assert f"Voice{SHOWN}" in "".join(unforged(crosscheck))
    show = run(folder, "show", "--out", "planted", "voice-of-command")
    assert show.returncode == 0
    unforged(show)
