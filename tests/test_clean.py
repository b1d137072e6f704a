"""The clean stage, pass by pass, on the fixture corpora of ``fixtures/clean/<pass>.txt``, and
every pass on the four real dumps of ``raw/``."""

from __future__ import annotations

from pathlib import Path

import pytest

from fixture_pairs import FIXTURES, Pair, cases
from wahanorm.blocks.clean import PASSES, Line, clean, to_lines
from wahanorm.errors import Report

RAW = sorted((Path(__file__).parents[1] / "raw").glob("*.txt"))
PASS_NAMES = [name for name, _ in PASSES]


def _run(name: str, lines: list[Line]) -> tuple[list[Line], Report]:
    report = Report()
    return dict(PASSES)[name](lines, report), report


def _raw_lines(path: Path) -> list[Line]:
    return to_lines(path.read_text(encoding="utf-8"))


def test_every_pass_has_a_fixture_file() -> None:
    assert sorted(p.stem for p in (FIXTURES / "clean").glob("*.txt")) == sorted(PASS_NAMES)


def test_pass_names_are_function_names() -> None:
    assert all(name == run.__name__ for name, run in PASSES)


def test_four_raw_dumps() -> None:
    assert len(RAW) == 4


@pytest.mark.parametrize(
    ("name", "pair"),
    [
        pytest.param(name, param.values[0], id=f"{name}: {param.id}", marks=param.marks)  # type: ignore[attr-defined]
        for name in PASS_NAMES
        for param in cases(f"clean/{name}.txt")
    ],
)
def test_pass_fixture(name: str, pair: Pair) -> None:
    out, report = _run(name, to_lines("\n".join(pair.input)))
    assert [line.text for line in out] == pair.expected
    assert [(d.code, d.line) for d in report.diagnostics] == pair.diagnostics


@pytest.mark.parametrize(
    ("path", "name"),
    [pytest.param(path, name, id=f"{path.stem}-{name}") for path in RAW for name in PASS_NAMES],
)
def test_pass_is_idempotent_on_raw_dump(path: Path, name: str) -> None:
    # Each pass runs on what the passes before it produced, as in the pipeline.
    lines = _raw_lines(path)
    for earlier, run in PASSES:
        if earlier == name:
            break
        lines = run(lines, Report())
    once, _ = _run(name, lines)
    twice, report = _run(name, once)
    assert twice == once
    assert report.diagnostics == []


@pytest.mark.parametrize("path", RAW, ids=[p.stem for p in RAW])
def test_line_numbers_are_kept(path: Path) -> None:
    source = _raw_lines(path)
    by_number = {line.number: line.text for line in source}
    out = clean(source, Report())
    numbers = [line.number for line in out]
    assert numbers == sorted(numbers)
    # Every output line is a piece of the input line that carries its number (spellings aside).
    for line in out:
        assert line.number in by_number
        assert (
            line.text.split()[0][:3] in _normalized(by_number[line.number]) or line.text[:1] in "-"
        )


def _normalized(text: str) -> str:
    from wahanorm.blocks.clean.characters import normalize_text

    return normalize_text(text)


@pytest.mark.parametrize("path", RAW, ids=[p.stem for p in RAW])
def test_clean_dump_has_no_chrome_blank_or_remnant(path: Path) -> None:
    from wahanorm.blocks.clean.chrome import SITE_CHROME

    out = clean(_raw_lines(path), Report())
    texts = [line.text for line in out]
    assert all(texts)
    assert not set(texts) & SITE_CHROME
    assert not [t for t in texts if set(t) <= {"|", " "}]
    assert not [t for t in texts if any(c in t for c in "\u00a0\u2010\u2011\u2019\u201c\u201d")]


def test_raw_000_removals_are_reported() -> None:
    report = Report()
    out = clean(_raw_lines(RAW[0]), report)
    codes = [d.code for d in report.diagnostics]
    texts = [line.text for line in out]
    assert "EPIC CHALLENGE15.03" in texts
    assert texts.count("ORKS") == 1
    assert {"glued-split", "duplicate-dropped", "chrome-removed"} <= set(codes)
    # the doubled name rows of the three weapons in the pipe layout
    assert sum("weapon name row" in d.message for d in report.diagnostics) == 3
