"""The fast paths of the BSData reader (issue 20) give what the ways they stand for give.

- ``nodes.outside_strings``: a JSON file with its strings cut out by three passes in C (escaped
  backslashes and quotes made plain, then every other run between quotes kept) holds the braces
  and line breaks that replacing each string by a regular expression leaves, in order; so the
  lines of every JSON object (``_object_spans``) are the same. Checked on the committed JSON
  fixtures, on the shared 11th-edition files in ../shared (skipped when absent), and on any JSON
  hypothesis makes (strings full of quotes, backslashes, braces and escaped line breaks; any
  indentation).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from wahanorm.readers.bsdata import nodes

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "tests" / "fixtures" / "bsdata"
SHARED_ELEVENTH = REPO.parent / "shared" / "bsdata" / "wh40k-11e-2026-07-22"

_JSON_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_LAYOUT = re.compile(rb"[^{}\n]")


def blanked_the_whole_way(data: bytes) -> bytes:
    """Every string of ``data`` replaced by ``""`` with a regular expression (the way it was)."""
    return _JSON_STRING.sub(b'""', data)


def spans_the_whole_way(data: bytes) -> list[tuple[int, int]]:
    """(first line, last line) of every object, counted on the bytes blanked the whole way."""
    blanked = blanked_the_whole_way(data)
    spans: list[tuple[int, int]] = []
    stack: list[int] = []
    for number, text in enumerate(blanked.split(b"\n"), 1):
        for byte in text:
            if byte == ord("{"):
                stack.append(len(spans))
                spans.append((number, number))
            elif byte == ord("}") and stack:
                index = stack.pop()
                spans[index] = (spans[index][0], number)
    return spans


def assert_same_layout(data: bytes) -> None:
    fast = nodes.outside_strings(data)
    assert b'"' not in fast
    assert _NOT_LAYOUT.sub(b"", fast) == _NOT_LAYOUT.sub(b"", blanked_the_whole_way(data))
    assert nodes._object_spans(data) == spans_the_whole_way(data)


def json_files() -> list[Path]:
    found = sorted(FIXTURES.rglob("*.json"))
    assert found, f"no JSON fixture under {FIXTURES}"
    return found


@pytest.mark.parametrize("path", json_files(), ids=lambda p: p.name)
def test_outside_strings_on_the_committed_json(path: Path) -> None:
    assert_same_layout(path.read_bytes())


@pytest.mark.skipif(not SHARED_ELEVENTH.is_dir(), reason=f"{SHARED_ELEVENTH} is absent")
def test_outside_strings_on_the_shared_json() -> None:
    files = [path.read_bytes() for path in sorted(SHARED_ELEVENTH.glob("*.json"))]
    assert all(b'\\"' in data for data in files)  # escaped quotes are met in every file
    for data in files:
        assert_same_layout(data)


_TEXT = st.text(alphabet=st.sampled_from('ab {}[]:,"\\/\n\t\r\u00e9\u2014'), max_size=12)
_JSON: st.SearchStrategy[Any] = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | _TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_TEXT, inner, max_size=4),
    max_leaves=25,
)


@given(_JSON, st.sampled_from([None, 0, 1, 2, "\t"]), st.booleans())
@example({"a\\": '\\"}{', "b": ["\\\\", '"', "{\n}"]}, 2, True)
@example('\\\\"\\', None, False)
def test_outside_strings_is_the_whole_way(
    value: Any, indent: int | str | None, ascii_only: bool
) -> None:
    data = json.dumps(value, indent=indent, ensure_ascii=ascii_only).encode()
    assert_same_layout(data)
    assert_same_layout(orjson.dumps(value, option=orjson.OPT_INDENT_2))
