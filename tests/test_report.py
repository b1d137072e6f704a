"""``Report.read_once``: what readers of a source that repeats a row read once, and what they
read again so that each diagnostic keeps its place."""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable

from wahanorm.errors import BatchMemo, Report


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


# ---- BatchMemo: readings kept across the inputs of a batch ------------------------------------


def test_a_batch_memo_keeps_a_quiet_reading_across_reports() -> None:
    memo: BatchMemo[str, str] = BatchMemo(8)
    calls: list[str] = []

    def read() -> str:
        calls.append("read")
        return "fire overwatch"

    assert memo.read(Report(path="a.txt"), "entry", read) == "fire overwatch"
    assert memo.read(Report(path="b.txt"), "entry", read) == "fire overwatch"
    assert calls == ["read"] and len(memo) == 1


def test_a_batch_memo_reads_again_what_said_something_in_each_input() -> None:
    memo: BatchMemo[str, str] = BatchMemo(8)
    reports = [Report(path="a.txt"), Report(path="b.txt")]
    for report in reports:

        def noisy(report: Report = report) -> str:
            report.warning("hole", "a hole", 4)
            return "x"

        memo.read(report, "entry", noisy)
    assert len(memo) == 0
    assert [[(d.path, d.code) for d in r.diagnostics] for r in reports] == [
        [("a.txt", "hole")],
        [("b.txt", "hole")],
    ]


def test_a_batch_memo_keeps_no_reading_that_asked_first_time() -> None:
    # The note was said earlier in this input, so this reading says nothing here; in another
    # input it would say it: it is not kept (``Report.read_once`` would keep it).
    memo: BatchMemo[str, str] = BatchMemo(8)
    report = Report()
    assert report.first_time("unknown-weapon-ability", "Sticky")

    def read() -> str:
        report.first_time("unknown-weapon-ability", "Sticky")
        return "grenade"

    memo.read(report, "row", read)
    assert len(memo) == 0
    assert len(report.diagnostics) == 0  # quiet in this input, and still not kept


def test_a_batch_memo_holds_at_most_its_size_the_oldest_going_first() -> None:
    memo: BatchMemo[int, int] = BatchMemo(2)
    report = Report()
    calls: list[int] = []

    def reading(key: int) -> Callable[[], int]:
        def read() -> int:
            calls.append(key)
            return key * 10

        return read

    for key in (1, 2, 3):
        memo.read(report, key, reading(key))
    assert memo.read(report, 3, reading(3)) == 30
    assert memo.read(report, 1, reading(1)) == 10
    assert calls == [1, 2, 3, 1]  # 3 kept, 1 gone first


def test_a_batch_memo_never_keeps_a_reading_left_out() -> None:
    memo: BatchMemo[str, str] = BatchMemo(8)
    assert memo.read(Report(), "row", lambda: None) is None
    assert len(memo) == 0


def test_clear_all_forgets_what_every_batch_memo_keeps() -> None:
    memos: list[BatchMemo[str, str]] = [BatchMemo(8), BatchMemo(8)]
    for memo in memos:
        memo.read(Report(), "row", lambda: "kept")
    BatchMemo.clear_all()
    assert [len(memo) for memo in memos] == [0, 0]


def test_threads_that_keep_in_a_full_memo_at_once_drop_one_oldest_each() -> None:
    # Without the lock two threads picked the same oldest key and the second one's ``del``
    # raised KeyError (a service converting in threads, once a memo is full).
    memo: BatchMemo[tuple[int, int], int] = BatchMemo(64)
    failures: list[BaseException] = []

    def keep_many(thread: int) -> None:
        try:
            for n in range(20_000):
                memo.keep((thread, n), n)
        except BaseException as exc:  # any failure of a thread is the finding
            failures.append(exc)

    switch = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads take turns as often as they can
    try:
        threads = [threading.Thread(target=keep_many, args=(t,)) for t in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(switch)
    assert failures == []
    assert len(memo) == 64
