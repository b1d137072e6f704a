"""What a batch reads once per distinct line (issue 20) is what reading every line gives.

A page dump prints the core rules and stratagems every other page prints, line for line; the
dump reader keeps, across the inputs of a batch (``errors.BatchMemo``), what it makes of a line
where that depends on the line's text alone:

- ``clean._line_local``: the passes ``PASSES[:LINE_LOCAL]`` (each makes of a line what it makes
  of it alone).

Each is held here to the plain way (every pass over every line) on the committed dumps, on the
shared ones, and on made-up lines, with its memo empty, filled by the same input and filled by
others.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wahanorm.blocks import clean
from wahanorm.blocks.clean import LINE_LOCAL, PASSES, Line, to_lines
from wahanorm.errors import BatchMemo, DiagnosticRow, Report, as_row

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
SHARED_DUMPS = [SHARED / "seeds", SHARED / "textcontent-dumps"]
needs_shared = pytest.mark.skipif(
    not SHARED.is_dir(), reason=f"the shared inputs are not here ({SHARED} is absent)"
)


def committed_dumps() -> list[Path]:
    return sorted([*(REPO / "raw").glob("*.txt"), *(REPO / "tests/fixtures/dumps").glob("*.txt")])


def shared_dumps() -> list[Path]:
    return sorted(path for folder in SHARED_DUMPS for path in folder.rglob("*.txt"))


def texts_of(paths: list[Path]) -> list[str]:
    return [path.read_text(encoding="utf-8") for path in paths]


Cleaned = tuple[list[Line], list[DiagnosticRow]]


def every_pass(lines: list[Line]) -> Cleaned:
    """The plain way: each pass of ``PASSES`` over every line, in order."""
    report = Report("x.txt")
    for _name, run in PASSES:
        lines = run(lines, report)
    return lines, [as_row(d) for d in report.diagnostics]


def cleaned(lines: list[Line]) -> Cleaned:
    report = Report("x.txt")
    out = clean.clean(lines, report)
    return out, [as_row(d) for d in report.diagnostics]


def check_clean(texts: list[str]) -> None:
    """``clean`` gives every pass's lines and notes for each text: its memo empty, filled by
    the text itself, and filled by all the texts read before it."""
    plain = [every_pass(to_lines(text)) for text in texts]
    for text, expected in zip(texts, plain, strict=True):
        BatchMemo.clear_all()
        assert cleaned(to_lines(text)) == expected  # memo empty
        assert cleaned(to_lines(text)) == expected  # filled by this text
    BatchMemo.clear_all()
    for text in texts:
        cleaned(to_lines(text))
    for text in reversed(texts):  # filled by every text; the lines two lower than before
        lower = f"\n\n{text}"
        assert cleaned(to_lines(lower)) == every_pass(to_lines(lower))


# ---- the line-local passes ---------------------------------------------------------------------


def test_the_line_local_passes_are_those_that_read_a_line_alone() -> None:
    # Moving a pass that looks at other lines (the chrome before a header, a repeated run)
    # among the first LINE_LOCAL would make the memo wrong: the list is checked here.
    assert [name for name, _ in PASSES[:LINE_LOCAL]] == [
        "repair_mojibake",
        "normalize_characters",
        "drop_blank_lines",
        "split_glued_headings",
    ]


LINE_PIECES = [
    "Core",
    "Stratagem",
    "ability.HEROIC INTERVENTION",
    "apply:- Each model",
    "(24).[EXTRA ATTACKS]24.11",
    "•  bullet",
    "\u00a0",
    "\t",
    "  ",
    "It\u00e2\u20ac\u2122s",
    "\u2019quoted\u201d",
    "\u200b",
    "x",
    "A.B",
    "|",
    "7YP.FIRE",
    "",
]


@given(
    st.lists(st.lists(st.sampled_from(LINE_PIECES), max_size=5).map("".join), max_size=12),
    st.sampled_from([name for name, _ in PASSES[:LINE_LOCAL]]),
)
def test_a_line_local_pass_makes_of_each_line_what_it_makes_of_it_alone(
    texts: list[str], name: str
) -> None:
    run = dict(PASSES)[name]
    lines = [Line(number, text) for number, text in enumerate(texts, start=1)]
    together = Report("x.txt")
    whole = run(lines, together)
    alone = Report("x.txt")
    parts = [part for line in lines for part in run([line], alone)]
    assert whole == parts
    assert [as_row(d) for d in together.diagnostics] == [as_row(d) for d in alone.diagnostics]


def test_clean_gives_what_every_pass_gives_on_committed_dumps() -> None:
    check_clean(texts_of(committed_dumps()))


@needs_shared
def test_clean_gives_what_every_pass_gives_on_shared_dumps() -> None:
    check_clean(texts_of(shared_dumps()))


@given(
    st.lists(
        st.lists(st.lists(st.sampled_from(LINE_PIECES), max_size=4).map("".join), max_size=10).map(
            "\n".join
        ),
        min_size=1,
        max_size=3,
    )
)
def test_clean_gives_what_every_pass_gives_on_any_lines(texts: list[str]) -> None:
    check_clean(texts)


def test_a_line_repaired_in_one_input_is_reported_in_the_next() -> None:
    # The memo keeps a line's notes, not only its parts: the second input, read with the memo
    # filled by the first, reports the same repair and split at its own line.
    BatchMemo.clear_all()
    text = "It\u00e2\u20ac\u2122s here.Then more"
    first, second = cleaned(to_lines(text)), cleaned(to_lines(f"x\n\n{text}"))
    assert [line.text for line in first[0]] == ["It's here.", "Then more"]
    assert [(row.code, row.line) for row in first[1]] == [
        ("mojibake-repaired", 1),
        ("glued-split", 1),
    ]
    assert [(row.code, row.line) for row in second[1]] == [
        ("mojibake-repaired", 3),
        ("glued-split", 3),
    ]


def test_to_lines_makes_lines() -> None:
    lines = to_lines("a\r\nb\n\nc")
    assert lines == [Line(1, "a"), Line(2, "b"), Line(3, ""), Line(4, "c")]
    assert all(type(line) is Line for line in lines)
    assert lines[1].number == 2 and lines[1].text == "b"


# ---- the memo ------------------------------------------------------------------------------------


def test_each_reads_what_is_not_kept_at_once_and_keeps_it() -> None:
    memo: BatchMemo[str, int] = BatchMemo(3)
    asked: list[list[str]] = []

    def read(keys: list[str]) -> list[int]:
        asked.append(keys)
        return [len(key) for key in keys]

    each: Callable[[list[str]], list[int]] = lambda keys: memo.each(keys, read)  # noqa: E731
    assert each(["a", "bb", "a"]) == [1, 2, 1]
    assert asked == [["a", "bb", "a"]]  # the text read twice in one call: a pure function
    assert each(["bb", "ccc", "a"]) == [2, 3, 1]
    assert asked[1:] == [["ccc"]]
    assert len(memo) == 3
    assert each(["dddd"]) == [4] and len(memo) == 3  # the oldest went
    assert each(["a"]) == [1] and asked[-1] == ["a"]
    assert list(itertools.chain.from_iterable(asked)) == ["a", "bb", "a", "ccc", "dddd", "a"]
