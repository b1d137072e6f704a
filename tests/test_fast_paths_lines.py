"""What a batch reads once per distinct line (issue 20) is what reading every line gives.

A page dump prints the core rules and stratagems every other page prints, line for line; the
dump reader keeps, across the inputs of a batch (``errors.BatchMemo``), what it makes of a line
where that depends on the line's text alone:

- ``clean._line_local``: the passes ``PASSES[:LINE_LOCAL]`` (each makes of a line what it makes
  of it alone);
- ``segment.entry_kind``: the kind of entry a line opens, told by it, the next line and (for an
  enhancement) the one after;
- ``read.line_holes``: the holes of a line;
- ``edition.line_signs``: what a line counts towards its page's edition.

Each is held here to the plain way (every pass over every line; each pattern over each line;
``sign_counts`` of every line) on the committed dumps, on the shared ones, and on made-up lines,
with its memo empty, filled by the same input and filled by others.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wahanorm import pipeline
from wahanorm.blocks import clean, edition
from wahanorm.blocks.clean import LINE_LOCAL, PASSES, Line, to_lines
from wahanorm.errors import BatchMemo, DiagnosticRow, Report, caret_excerpt
from wahanorm.readers.dump import read as dump_read
from wahanorm.readers.dump import segment

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
    return lines, list(report.diagnostics)


def cleaned(lines: list[Line]) -> Cleaned:
    report = Report("x.txt")
    out = clean.clean(lines, report)
    return out, list(report.diagnostics)


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
    assert together.diagnostics == alone.diagnostics


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


# ---- the kind of entry a line opens -------------------------------------------------------------


def kinds(lines: list[Line]) -> list[str | None]:
    return [segment.entry_kind(lines, index) for index in range(len(lines))]


def plain_kinds(lines: list[Line]) -> list[str | None]:
    """``_kind_of`` of every line, without the memo (the sentence test included)."""
    texts = [line.text for line in lines]
    out: list[str | None] = []
    for index, text in enumerate(texts):
        following = texts[index + 1] if index + 1 < len(texts) else ""
        third = texts[index + 2] if index + 2 < len(texts) else None
        out.append(segment._kind_of(text, following, third))
    return out


def check_kinds(texts: list[str]) -> None:
    pages = [clean.clean(to_lines(text), Report("x")) for text in texts]
    plain = [plain_kinds(lines) for lines in pages]
    BatchMemo.clear_all()
    assert [kinds(lines) for lines in pages] == plain
    assert [kinds(lines) for lines in reversed(pages)] == plain[::-1]


def test_entry_kinds_are_those_of_every_line_on_committed_dumps() -> None:
    check_kinds(texts_of(committed_dumps()))


@needs_shared
def test_entry_kinds_are_those_of_every_line_on_shared_dumps() -> None:
    check_kinds(texts_of(shared_dumps()))


def test_an_enhancement_is_told_by_the_line_after_next_whatever_was_read_before() -> None:
    # The same name and cost lines open an enhancement only above a "… Detachment" line: the
    # memo keeps the two apart, in either order.
    enhancement = [Line(1, "- Dread Mask"), Line(2, "25 pts"), Line(3, "Vanguard Detachment")]
    other = [Line(1, "- Dread Mask"), Line(2, "25 pts"), Line(3, "Some prose follows here.")]
    for first, second in ((enhancement, other), (other, enhancement)):
        BatchMemo.clear_all()
        assert [kinds(first)[0], kinds(second)[0]] == [
            plain_kinds(first)[0],
            plain_kinds(second)[0],
        ]
    assert plain_kinds(enhancement)[0] == "enhancement"
    assert plain_kinds(other)[0] is None


# ---- holes ---------------------------------------------------------------------------------------


def plain_holes(texts: list[str]) -> list[tuple[tuple[int, str], ...]]:
    """Each hole's pattern over each line (no needle, no memo)."""
    out: list[tuple[tuple[int, str], ...]] = []
    for text in texts:
        found: list[tuple[int, str]] = []
        for _needle, pattern, message, word in dump_read.HOLES:
            for match in pattern.finditer(text):
                if not word or dump_read._opens_word(text, match.start()):
                    found.append((match.start() + 1, message))
        out.append(tuple(found))
    return out


def reported_holes(lines: list[Line]) -> list[DiagnosticRow]:
    report = Report("x")
    dump_read._report_holes([segment.Block("text", lines)], report)
    return list(report.diagnostics)


def check_holes(texts: list[str]) -> None:
    pages = [clean.clean(to_lines(text), Report("x")) for text in texts]
    for lines in pages:
        page = [line.text for line in lines]
        assert dump_read.line_holes(page) == plain_holes(page)
    BatchMemo.clear_all()
    first = [reported_holes(lines) for lines in pages]
    assert [reported_holes(lines) for lines in reversed(pages)] == first[::-1]
    assert first == [
        [
            DiagnosticRow(
                "warning",
                "hole",
                message,
                "x",
                line.number,
                column,
                caret_excerpt(line.text, column),
            )
            for (number, column), (line, message) in sorted(_first_holes(lines).items())
        ]
        for lines in pages
    ]


def _first_holes(lines: list[Line]) -> dict[tuple[int, int], tuple[Line, str]]:
    found: dict[tuple[int, int], tuple[Line, str]] = {}
    for line, holes in zip(lines, plain_holes([line.text for line in lines]), strict=True):
        for column, message in holes:
            found.setdefault((line.number, column), (line, message))
    return found


def test_holes_are_those_of_each_pattern_on_committed_dumps() -> None:
    check_holes(texts_of(committed_dumps()))


@needs_shared
def test_holes_are_those_of_each_pattern_on_shared_dumps() -> None:
    check_holes(texts_of(shared_dumps()))


HOLE_PIECES = ["The ", "and ", "or ", "ORKS ", "unit", "model", "s", " ,", "an ", "%1%", "is ", "x"]


@given(st.lists(st.lists(st.sampled_from(HOLE_PIECES), max_size=6).map("".join), max_size=8))
def test_holes_are_those_of_each_pattern_on_any_lines(texts: list[str]) -> None:
    assert dump_read.line_holes(texts) == plain_holes(texts)


# ---- the edition signs of a page -----------------------------------------------------------------


def plain_edition(texts: list[str]) -> tuple[object, str]:
    """The page's edition from ``sign_counts`` of every line (no memo)."""
    stripped = [text.strip() for text in texts]
    counted = edition.sign_counts(stripped, range(len(stripped)))
    for counts, sign in zip(counted, edition._SIGN_NAMES, strict=True):
        if (found := edition._majority(counts)) is not None:
            return found, sign
    return None, ""


def check_editions(pages: list[list[str]]) -> None:
    plain = [plain_edition(page) for page in pages]
    BatchMemo.clear_all()
    assert [edition.page_edition(page) for page in pages] == plain
    assert [edition.page_edition(page) for page in reversed(pages)] == plain[::-1]
    for page in pages:
        stripped = [text.strip() for text in page]
        assert edition.line_signs(stripped) == list(map(edition.signs_of, stripped))


def test_page_editions_are_those_of_every_line_on_committed_dumps() -> None:
    check_editions([text.splitlines() for text in texts_of(committed_dumps())])


@needs_shared
def test_page_editions_are_those_of_every_line_on_shared_dumps() -> None:
    check_editions([text.splitlines() for text in texts_of(shared_dumps())])


SIGN_PIECES = ["Core", " – Battle Tactic", " Stratagem", "A", "B15.02", "YOUR ", "UNIT COSTS"]
SIGN_PIECES += ["1CPCore", "/wh40k11ed/", "/wh40k10ed/", "| ", " ", "x"]


@given(
    st.lists(
        st.lists(st.lists(st.sampled_from(SIGN_PIECES), max_size=5).map("".join), max_size=8),
        min_size=1,
        max_size=3,
    )
)
def test_page_editions_are_those_of_every_line_on_any_lines(pages: list[list[str]]) -> None:
    check_editions(pages)


# ---- the memo ------------------------------------------------------------------------------------


def test_each_reads_what_is_not_kept_at_once_and_keeps_it() -> None:
    memo: BatchMemo[str, int] = BatchMemo(3)
    asked: list[list[str]] = []

    def read(keys: list[str]) -> list[int]:
        asked.append(keys)
        return [len(key) for key in keys]

    assert memo.each(["a", "bb", "a"], read) == [1, 2, 1]
    assert asked == [["a", "bb", "a"]]  # the text read twice in one call: a pure function
    assert memo.each(["bb", "ccc", "a"], read) == [2, 3, 1]
    assert asked[1:] == [["ccc"]]
    assert len(memo) == 3
    assert memo.each(["dddd"], read) == [4] and len(memo) == 3  # the oldest went
    assert memo.each(["a"], read) == [1]
    assert asked == [["a", "bb", "a"], ["ccc"], ["dddd"], ["a"]]


def test_a_memo_of_lines_keeps_no_line_longer_than_it_says() -> None:
    memo: BatchMemo[str | tuple[str, ...], int] = BatchMemo(4, longest=3)
    asked: list[str | tuple[str, ...]] = []

    def read(keys: list[str | tuple[str, ...]]) -> list[int]:
        asked.extend(keys)
        return [len(key) for key in keys]

    assert memo.each(["abc", "abcd"], read) == [3, 4]
    assert memo.each(["abc", "abcd"], read) == [3, 4]
    assert asked == ["abc", "abcd", "abcd"]  # the long one read each time, never held
    memo.keep(("a", "bc"), 2)
    memo.keep(("ab", "cd"), 2)
    assert memo.get(("a", "bc")) == 2 and memo.get(("ab", "cd")) is None
    assert len(memo) == 2


def test_a_full_memo_keeps_the_newest_it_was_given_in_order() -> None:
    # Dropping the oldest many times over (a batch of many different pages) keeps the newest
    # ``size``, whichever way they came in.
    memo: BatchMemo[str, int] = BatchMemo(3)
    for number in range(10):
        memo.keep(str(number), number)
    memo.each(["10", "8", "11"], lambda keys: [int(key) for key in keys])
    assert [memo.get(str(n)) for n in range(12)] == [None] * 9 + [9, 10, 11]
    assert len(memo) == 3


def test_keeping_a_kept_key_again_drops_nothing_else() -> None:
    memo: BatchMemo[str, int] = BatchMemo(2)
    memo.each(["a", "b"], lambda keys: [1] * len(keys))
    memo.keep("a", 1)
    assert (memo.get("a"), memo.get("b"), len(memo)) == (1, 1, 2)


def test_a_hole_in_two_parts_of_one_line_at_one_column_is_the_first_parts() -> None:
    # A glued line cut in two: both parts have a hole at column 1 of input line N; the first
    # part's is reported (as before the memo), with the first part as its excerpt.
    sample = (REPO / "raw" / "003_3bddafab6d78ca00.txt").read_text(encoding="utf-8")
    number = len(sample.splitlines()) + 1
    text = f"{sample.rstrip()}\nThe and Abc went.The keywords are used here in full."
    BatchMemo.clear_all()
    for _ in range(2):  # memo empty, then filled by the same text
        got = pipeline.read_text(text, "x.txt", html=False)
        holes = [
            (d.line, d.column, d.message, d.excerpt)
            for d in got.report.diagnostics
            if d.code == "hole" and d.line == number
        ]
        assert holes == [
            (number, 1, "a keyword is missing before 'and'/'or'", "The and Abc went.\n^")
        ]


@pytest.mark.parametrize(
    "text, line",
    [("\u2003M T SV W LD OC\nx", 1), ("x\n \tRANGED WEAPONS RANGE A BS S AP D", 2)],
)
def test_an_index_pdf_heading_after_white_space_is_told(text: str, line: int) -> None:
    got = pipeline.read_text(text, "x.txt", html=False)
    assert [(d.code, d.line) for d in got.report.diagnostics if d.severity == "error"] == [
        ("index-pdf-unsupported", line)
    ]
