"""Lark's cache keeps every parser of ``blocks.grammar`` analysed between processes, those with an
inline transformer too (Lark leaves the transformer out of the cache and gives it on loading):
two real processes, the second reading what the first saved, parse alike."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

CHILD = """
import json
from wahanorm.blocks import grammar
from wahanorm.blocks.parse import datasheet_lines, stratagems
built = [
    grammar.parser("datasheet", "core_abilities", datasheet_lines._BUILD),
    grammar.parser("stratagem", "entry", stratagems._BUILD),
]
abilities = datasheet_lines.parse_core_abilities("Deadly Demise D6, Deep Strike")
lines = ["HEROIC INTERVENTION15.11", "1CP", "Core Stratagem", "WHEN: x", "EFFECT: It acts."]
body = grammar.parse("stratagem", "entry", stratagems._text(lines), "", 1, stratagems._BUILD)
print(json.dumps([[a.model_dump() for a in abilities], repr(body)]))
"""


def _child(temp: Path) -> str:
    environment = {**os.environ, "TMPDIR": str(temp)}  # Lark's cache is in the temp folder
    done = subprocess.run(
        [sys.executable, "-c", CHILD], env=environment, capture_output=True, text=True, check=True
    )
    return done.stdout


def test_a_parser_with_a_transformer_is_cached_between_processes(tmp_path: Path) -> None:
    first = _child(tmp_path)
    saved = {p: p.stat().st_mtime_ns for p in tmp_path.iterdir() if p.name.startswith(".lark")}
    assert len(saved) == 2  # one per parser: the analysed grammar, no transformer in it
    for path in saved:  # older than they are, so that a rewrite would show
        os.utime(path, ns=(saved[path] - 10**9, saved[path] - 10**9))
    touched = {path: path.stat().st_mtime_ns for path in saved}
    second = _child(tmp_path)
    # Lark saves a parser again only when it could not load it (a failed load is logged, not
    # raised): files left as they were mean the second process loaded both.
    assert {path: path.stat().st_mtime_ns for path in saved} == touched
    assert second == first
    assert '"name": "Deadly Demise", "parameter": "D6"' in first
    assert "StratagemEntry" in first and "It acts." in first
