"""``Report.read_once``: what readers of a source that repeats a row read once, and what they
read again so that each diagnostic keeps its place."""

from __future__ import annotations

from wahanorm.errors import Report


def test_a_reading_that_said_nothing_is_kept_and_not_read_again() -> None:
    report, memo, calls = Report(), {}, []

    def read() -> str:
        calls.append("read")
        return "bolt pistol"

    assert report.read_once(memo, "row", read) == "bolt pistol"
    assert report.read_once(memo, "row", read) == "bolt pistol"
    assert calls == ["read"] and memo == {"row": "bolt pistol"}


def test_a_reading_that_said_something_is_read_again_each_time() -> None:
    report: Report = Report(path="in.csv")
    memo: dict[str, str] = {}
    lines = iter([3, 7])

    def noisy() -> str:
        report.info("hyphen-profile", "a hyphen profile", line=next(lines))
        return "storm gun"

    assert report.read_once(memo, "row", noisy) == "storm gun"
    assert report.read_once(memo, "row", noisy) == "storm gun"
    assert memo == {}
    assert [(d.code, d.line) for d in report.diagnostics] == [
        ("hyphen-profile", 3),
        ("hyphen-profile", 7),
    ]


def test_a_note_said_once_per_input_also_keeps_a_reading_out() -> None:
    # The first reading says the note (once per input), so it is not kept; the second says
    # nothing (the note was said) and is kept.
    report, memo = Report(), {}

    def read() -> str:
        report.first_time("unknown-ability", "Sticky")
        return "grenade"

    report.read_once(memo, "row", read)
    assert memo == {}
    report.read_once(memo, "row", read)
    assert memo == {"row": "grenade"}


def test_a_row_left_out_is_never_kept() -> None:
    report: Report = Report()
    memo: dict[str, str] = {}
    assert report.read_once(memo, "row", lambda: None) is None
    assert memo == {}
