"""Benchmark: convert a whole Wahapedia export and compare with the floor, as whole processes.

    python scripts/bench_export.py [EXPORT_FOLDER ...] [--runs N]

For each export folder (default: the 10th-edition export of 2026-02-14 in ``../shared/corpus``)
it runs, as child processes, ``wahanorm convert EXPORT --no-cache --out TMP`` (default options
otherwise: read, parse, merge, render canonical JSON, write every file into an empty folder
through the journal) and the floor, ``scripts/floor_export.py EXPORT TMP`` (read the same CSV
files, write the Datasheets and Stratagems rows as JSON files). It prints the user CPU of each
whole process (``os.wait4``: the figure that stays put on a shared machine, where wall and
system time swing with other load), their wall time, the child's peak resident memory, and the
ratio of the user CPU to the floor's (issue 20: at most 3x). Each figure is the best of
``--runs`` runs, the two commands taking turns so that both meet the same load. Beside the
ratio of the bests it prints the ratio of each turn (a conversion and the floor run right after
it): their median and range, which move less with a load that comes and goes between turns.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

from process_usage import WAHANORM, Usage, best, line, run_process

HERE = Path(__file__).resolve().parent
CORPUS = HERE.parents[1] / "shared" / "corpus"
DEFAULT = CORPUS / "wahapedia-10ed-2026-02-14"


def convert_command(folder: Path, out: Path) -> list[str]:
    """The whole conversion, as a user types it."""
    return [*WAHANORM, "convert", str(folder), "--no-cache", "--out", str(out)]


def floor_command(folder: Path, out: Path) -> list[str]:
    """The floor: read the CSV files, write the rows as JSON files."""
    return [sys.executable, str(HERE / "floor_export.py"), str(folder), str(out)]


def bench(folder: Path, runs: int) -> None:
    """Run the conversion and the floor ``runs`` times each, in turns; print the figures."""
    usages: dict[str, list[Usage]] = {"convert": [], "floor": []}
    files = 0
    for _ in range(runs):
        for label, make in (("convert", convert_command), ("floor", floor_command)):
            with tempfile.TemporaryDirectory(prefix="bench-export-") as tmp:
                out = Path(tmp) / "out"
                usages[label].append(run_process(make(folder, out)))
                if label == "convert":
                    files = sum(1 for p in out.rglob("*.json") if p.is_file())
                shutil.rmtree(out, ignore_errors=True)
    convert, floor = (best(usages[k]) for k in ("convert", "floor"))
    print(f"{folder.name}: {files} files written by convert; best of {runs} runs")
    print(line("wahanorm convert --no-cache", convert))
    print(line("floor (floor_export.py)", floor))
    print(
        f"  ratio of user CPU to the floor's     {convert.user / floor.user:.2f}x (target at most 3x)"
    )
    turns = sorted(c.user / f.user for c, f in zip(usages["convert"], usages["floor"], strict=True))
    print(
        f"  ratio in each turn                   median {statistics.median(turns):.2f}x, "
        f"{turns[0]:.2f}-{turns[-1]:.2f}x"
    )


def main() -> int:
    """Run the benchmark and print one block of figures per export."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("exports", nargs="*", type=Path)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    folders = args.exports or ([DEFAULT] if DEFAULT.is_dir() else [])
    if not folders:
        print(f"no export given and {DEFAULT} is absent", file=sys.stderr)
        return 2
    for folder in folders:
        bench(folder, args.runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
