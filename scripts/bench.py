"""Benchmark: convert the sample dumps of raw/ many times; print milliseconds per dump and peak
memory. Figures, not pass/fail: quote them in the README.

    python scripts/bench.py [--rounds N]

Each dump is read through its reader and the after-read chain (``pipeline.read_text``) in this
process, the parsers built once beforehand, as in a batch. The figure per dump is CPU time
(``time.process_time``: it stays put on a shared machine, where wall time swings with other
load); the median and the 90th percentile over every dump of every round, wall beside it.
The rounds read the same dumps again, so what a batch reads once (``errors.BatchMemo``: the
core stratagems and rules every page prints) is read in the first round only; the figure
"read first" empties those memos before each dump, as for the first dump of a batch.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import time
from pathlib import Path

from wahanorm import pipeline
from wahanorm.blocks import grammar
from wahanorm.errors import BatchMemo
from wahanorm.outputs.canonical import render_outputs
from wahanorm.pipeline import read_text


def main() -> None:
    """Time extraction per dump (parsers built once, as in a batch) and a whole run."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=50)
    parser.add_argument("--raw", type=Path, default=Path("raw"))
    args = parser.parse_args()
    texts = [(p.as_posix(), p.read_text(encoding="utf-8")) for p in sorted(args.raw.glob("*.txt"))]

    started = time.perf_counter()
    grammar.parser("stratagem", "entry")
    grammar.parser("weapon_abilities", "ability_list")
    print(f"parsers built once: {(time.perf_counter() - started) * 1000:.1f} ms")

    for display, text in texts:  # once unmeasured: first-use imports and caches
        read_text(text, display, html=False)
    cpu: list[float] = []
    wall: list[float] = []
    first: list[float] = []
    for _ in range(args.rounds):
        for display, text in texts:
            c0, t0 = time.process_time(), time.perf_counter()
            read_text(text, display, html=False)
            cpu.append((time.process_time() - c0) * 1000)
            wall.append((time.perf_counter() - t0) * 1000)
    for _ in range(args.rounds):
        for display, text in texts:
            BatchMemo.clear_all()
            c0 = time.process_time()
            read_text(text, display, html=False)
            first.append((time.process_time() - c0) * 1000)
    for label, figures in (("CPU", cpu), ("wall", wall), ("CPU, each read first", first)):
        print(
            f"{len(texts)} dumps x {args.rounds} rounds, {label}: median "
            f"{statistics.median(figures):.2f} ms per dump, "
            f"p90 {statistics.quantiles(figures, n=10)[-1]:.2f} ms"
        )

    c0 = time.process_time()
    result = pipeline.convert([args.raw])
    files = render_outputs(result.entities, result.rows())
    print(
        f"whole run (ingest → render {len(files)} files): "
        f"{(time.process_time() - c0) * 1000:.1f} ms CPU"
    )
    peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory (max RSS): {peak_mib:.1f} MiB")


if __name__ == "__main__":
    main()
