"""Reader of the fixture corpora: titled input/expected pairs, one file per pass.

A fixture file looks like this::

    Free text before the first case is a comment.

    === title of the case (becomes the pytest id)
    input line 1
    input line 2
    ---
    expected line 1
    --- diagnostics
    code 2

- ``=== title`` opens a case; ``---`` separates its input from its expected output; an optional
  ``--- diagnostics`` section lists what the pass must report, one ``code line-number`` per line
  (line numbers count the case's input lines from 1). No such section means: nothing reported.
- Lines are kept verbatim (leading spaces too), except that blank lines at the end of a section
  are dropped, so cases can be separated by a blank line; a blank line inside a section is kept.
- ``\\uXXXX`` is replaced by that character, so that invisible characters (NBSP, U+2011) can be
  seen in the fixture.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"
_ESCAPE = re.compile(r"\\u([0-9a-fA-F]{4})")


@dataclass
class Pair:
    """One titled case of a fixture file."""

    title: str
    input: list[str]
    expected: list[str]
    diagnostics: list[tuple[str, int]] = field(default_factory=list)


def _unescape(line: str) -> str:
    return _ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), line)


def _trim(lines: list[str]) -> list[str]:
    while lines and not lines[-1].strip():
        lines.pop()
    return lines


def read_pairs(path: Path) -> list[Pair]:
    """Every case of one fixture file, in file order."""
    pairs: list[Pair] = []
    sections: list[list[str]] = []
    title = ""

    def close() -> None:
        if not title:
            return
        if len(sections) < 2:
            raise ValueError(f"{path.name}: case {title!r} has no '---' line")
        codes = (
            [(c, int(n)) for c, n in (x.split() for x in _trim(sections[2]))]
            if len(sections) > 2
            else []
        )
        pairs.append(Pair(title, _trim(sections[0]), _trim(sections[1]), codes))

    for raw in path.read_text(encoding="utf-8").splitlines():
        if raw.startswith("=== "):
            close()
            title, sections = raw[4:].strip(), [[]]
        elif title and raw in ("---", "--- diagnostics"):
            sections.append([])
        elif title:
            sections[-1].append(_unescape(raw))
    close()
    return pairs


def cases(name: str) -> list[object]:
    """The cases of ``fixtures/<name>`` as ``pytest.param``s whose ids are the titles; a title
    that starts with ``XFAIL(reason):`` marks a known bug (strict: it must still fail)."""
    params: list[object] = []
    for pair in read_pairs(FIXTURES / name):
        marks = []
        known_bug = re.match(r"^XFAIL\((?P<reason>[^)]*)\):\s*", pair.title)
        if known_bug:
            marks.append(pytest.mark.xfail(strict=True, reason=known_bug.group("reason")))
        params.append(pytest.param(pair, id=pair.title, marks=marks))
    return params
