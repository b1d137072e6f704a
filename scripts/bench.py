"""Benchmark: convert the sample dumps of raw/ many times; print milliseconds per dump and peak
memory. Figures, not pass/fail: run it on a quiet machine and quote it in the README.

    python scripts/bench.py [--rounds N]
"""

from __future__ import annotations

import argparse
import resource
import statistics
import time
from pathlib import Path

from wahanorm import pipeline
from wahanorm.blocks import grammar
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

    per_dump: list[float] = []
    for _ in range(args.rounds):
        for display, text in texts:
            t0 = time.perf_counter()
            read_text(text, display, html=False)
            per_dump.append((time.perf_counter() - t0) * 1000)
    print(
        f"{len(texts)} dumps x {args.rounds} rounds: median {statistics.median(per_dump):.2f} ms "
        f"per dump, p90 {statistics.quantiles(per_dump, n=10)[-1]:.2f} ms"
    )

    t0 = time.perf_counter()
    result = pipeline.convert([args.raw])
    files = render_outputs(result.entities, result.diagnostics)
    print(
        f"whole run (ingest → render {len(files)} files): {(time.perf_counter() - t0) * 1000:.1f} ms"
    )
    peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory (max RSS): {peak_mib:.1f} MiB")


if __name__ == "__main__":
    main()
