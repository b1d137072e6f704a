"""Benchmark: convert a whole Wahapedia export and compare with the floor.

    python scripts/bench_export.py [EXPORT_FOLDER ...]

For each export folder (default: both exports in ``../shared/corpus``) it prints the seconds to
convert it (read, parse, merge, render canonical JSON, write every file into an empty folder),
items per second and peak memory (resident set, from ``resource``), beside the floor: the time
to merely read the same CSV files and write the same number of JSON files. Each figure is the
best of ``--runs`` runs, since other processes share the machine.
"""

from __future__ import annotations

import argparse
import gc
import json
import resource
import sys
import tempfile
import time
from pathlib import Path

from wahanorm import pipeline
from wahanorm.errors import Report
from wahanorm.outputs.folder import write_outputs
from wahanorm.pipeline import read_path

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"


def convert(folder: Path, out: Path) -> tuple[int, int]:
    """Convert ``folder`` into ``out``; returns (entities, files written)."""
    extraction = read_path(folder, folder.name)
    conversion = pipeline.assemble([extraction], Report(), 1)
    written, _ = write_outputs(out, conversion.files)
    return len(conversion.entities), written


def floor(folder: Path, out: Path, files: int) -> None:
    """Read every CSV of ``folder`` into records, then write ``files`` JSON files of them."""
    records: list[dict[str, str]] = []
    for csv in sorted(folder.glob("*.csv")):
        lines = csv.read_text(encoding="utf-8-sig").splitlines()
        header = lines[0].split("|")
        records.extend(dict(zip(header, line.split("|"), strict=False)) for line in lines[1:])
    for index in range(files):
        path = out / f"{index % 100}" / f"{index}.json"
        path.parent.mkdir(exist_ok=True)
        path.write_text(json.dumps(records[index % len(records)], indent=2), encoding="utf-8")


def timed(action: object, runs: int) -> float:
    """Best wall time of ``runs`` calls of ``action`` (each into a fresh temporary folder)."""
    best = float("inf")
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as tmp:
            gc.collect()
            start = time.perf_counter()
            action(Path(tmp))  # type: ignore[operator]
            best = min(best, time.perf_counter() - start)
    return best


def bench(folder: Path, runs: int) -> None:
    """Time the conversion of one export and its floor, and print the figures."""
    counts: dict[str, int] = {}

    def run(out: Path) -> None:
        counts["entities"], counts["files"] = convert(folder, out)

    seconds = timed(run, runs)
    base = timed(lambda out: floor(folder, out, counts["files"]), runs)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{folder.name}:")
    print(f"  entities        {counts['entities']} ({counts['files']} files)")
    print(f"  convert         {seconds:.2f} s  ({counts['entities'] / seconds:.0f} items/s)")
    print(f"  floor           {base:.2f} s  (read the CSVs, write as many JSON files)")
    print(f"  ratio           {seconds / base:.2f}x the floor (target < 3x)")
    print(f"  peak memory     {peak:.0f} MiB (resident, whole process so far)")


def main() -> int:
    """Run the benchmark and print one block of figures per export."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("exports", nargs="*", type=Path)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    folders = args.exports or sorted(p for p in CORPUS.glob("*") if p.is_dir())
    if not folders:
        print(f"no export given and none found in {CORPUS}", file=sys.stderr)
        return 2
    for folder in folders:
        bench(folder, args.runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
