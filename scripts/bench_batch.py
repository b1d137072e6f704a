"""Batch benchmark: 1,000 dumps (the four samples of ``raw/`` copied under 250 names each into a
temporary folder) converted serially (``jobs=1``) and in parallel (``jobs=os.cpu_count()``)
without cache, then once more with a warm cache.

Prints files per second, the user CPU of the run's own process and of its workers (the figure
that stays put on a shared machine, where wall time swings with other load; the workers' is what
a run on more cores would share out, the main process's what it would not), and peak memory
(``ru_maxrss`` of this process and of its worker processes) for each run. Each conversion runs in a fresh process so that the peak memory of one
run is not carried into the next.

    python scripts/bench_batch.py [--copies 250] [--jobs N]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def make_batch(folder: Path, copies: int) -> int:
    """``copies`` copies of each sample under new names; returns the number of files."""
    samples = sorted((REPO / "raw").glob("*.txt"))
    for n in range(copies):
        for sample in samples:
            shutil.copy(sample, folder / f"{n:04d}-{sample.stem}.txt")
    return copies * len(samples)


def run_one(inputs: str, jobs: int, cache: str | None) -> None:
    """In a child process: one conversion, its seconds and peak memory as JSON on stdout."""
    from wahanorm import pipeline
    from wahanorm.pipeline.cache import Cache

    before = resource.getrusage(resource.RUSAGE_SELF).ru_utime
    started = time.perf_counter()
    result = pipeline.convert(
        [Path(inputs)], jobs=jobs, cache=Cache(Path(cache)) if cache else None
    )
    seconds = time.perf_counter() - started
    usage = resource.getrusage(resource.RUSAGE_SELF)
    workers = resource.getrusage(resource.RUSAGE_CHILDREN)
    own, children = usage.ru_maxrss, workers.ru_maxrss
    print(
        json.dumps(
            {
                "seconds": seconds,
                "inputs": result.inputs,
                "files": len(result.files),
                "failed": len(result.failed),
                "self_kib": own,
                "children_kib": children,
                "main_user": usage.ru_utime - before,
                "workers_user": workers.ru_utime,
            }
        )
    )


def measure(inputs: Path, jobs: int, cache: Path | None) -> dict[str, float]:
    argv = [sys.executable, __file__, "--child", str(inputs), "--jobs", str(jobs)]
    if cache:
        argv += ["--cache", str(cache)]
    done = subprocess.run(argv, check=True, capture_output=True, text=True, cwd=inputs.parent)
    data: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return data


def report(label: str, data: dict[str, float]) -> None:
    rate = data["inputs"] / data["seconds"]
    print(
        f"{label:<34} {data['seconds']:8.2f} s  {rate:8.1f} files/s  "
        f"user CPU: main {data['main_user']:5.2f} s, workers {data['workers_user']:5.2f} s  "
        f"peak RSS: main {data['self_kib'] / 1024:7.1f} MiB, "
        f"largest worker {data['children_kib'] / 1024:7.1f} MiB  "
        f"({int(data['files'])} output files, {int(data['failed'])} failed)"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--copies", type=int, default=250)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--cache", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        run_one(args.child, args.jobs, args.cache)
        return 0
    with tempfile.TemporaryDirectory(prefix="wahanorm-batch-") as tmp:
        root = Path(tmp)
        inputs = root / "in"
        inputs.mkdir()
        count = make_batch(inputs, args.copies)
        print(f"{count} dumps, {os.cpu_count()} CPUs, parallel jobs={args.jobs}")
        report("serial (jobs=1), no cache", measure(inputs, 1, None))
        report(f"parallel (jobs={args.jobs}), no cache", measure(inputs, args.jobs, None))
        cache = root / "cache"
        report(f"cache fill (jobs={args.jobs})", measure(inputs, args.jobs, cache))
        report("cached rerun (run cache hit)", measure(inputs, args.jobs, cache))
        (inputs / f"0000-{sorted((REPO / 'raw').glob('*.txt'))[0].stem}.txt").write_text(
            "changed\n", encoding="utf-8"
        )
        report("cached rerun, 1 input changed", measure(inputs, args.jobs, cache))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
