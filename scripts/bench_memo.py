"""Benchmark: what a batch memo costs per line once it is full (a batch of many different pages).

    python scripts/bench_memo.py [--puts 200000]

A memo of lines (``errors.BatchMemo``, ``errors.LINES_KEPT`` lines in the readers) is filled,
then given new lines through ``each``, as the dump reader gives it the lines of each page: every
new line is read, kept, and the oldest kept line dropped. It prints the microseconds of CPU per
new line at several sizes of memo; the figure should not grow with the size (issue 20: a dict
dropping its first key grew with it, 4.5 µs at 8,192 lines).
"""

from __future__ import annotations

import argparse
import time

from wahanorm.errors import LINES_KEPT, BatchMemo


def per_new_line(size: int, puts: int) -> float:
    """Microseconds of CPU per new line given to a full memo of ``size`` lines."""
    memo: BatchMemo[str, int] = BatchMemo(size, longest=2000)
    memo.each([f"line {i}" for i in range(size)], lambda keys: [len(k) for k in keys])
    page = 500  # lines a page gives at once
    batches = [[f"line {i}" for i in range(at, at + page)] for at in range(size, size + puts, page)]
    started = time.process_time()
    for lines in batches:
        memo.each(lines, lambda keys: [len(k) for k in keys])
    return (time.process_time() - started) / (len(batches) * page) * 1e6


def main() -> None:
    """Print the cost per new line at a few sizes, the readers' own among them."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--puts", type=int, default=200_000)
    args = parser.parse_args()
    for size in sorted({1024, LINES_KEPT, 65536}):
        mark = "  (LINES_KEPT)" if size == LINES_KEPT else ""
        print(
            f"memo of {size:>6} lines, full: {per_new_line(size, args.puts):.2f} µs per new line{mark}"
        )


if __name__ == "__main__":
    main()
