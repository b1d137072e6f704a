"""What the commands that answer at once load: ``wahanorm --help``, ``show`` and ``explain``
load none of the parsers, the models or the database (measured in a real process)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
HEAVY = ("pydantic", "lark", "lxml", "sqlite3", "tqdm")
PROBE = """
import contextlib, io, json, sys
from wahanorm import cli
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    try:
        code = cli.main(json.loads(sys.argv[1]))
    except SystemExit as exc:
        code = exc.code
loaded = sorted({m.split(".")[0] for m in sys.modules} & set(json.loads(sys.argv[2])))
print(json.dumps([code, loaded]))
"""


@pytest.mark.parametrize(
    "argv",
    [
        ["--help"],
        ["explain", "keyword-scope"],
        ["explain", "--list"],
        ["show", "iron-hand-straken"],
    ],
)
def test_quick_commands_load_no_parser_model_or_database(argv: list[str]) -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(argv), json.dumps(HEAVY)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )
    code, loaded = json.loads(done.stdout)
    assert code == 0
    assert loaded == []
