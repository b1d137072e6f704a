"""Benchmark: the SQLite database of a whole export beside its JSON conversion.

    python scripts/bench_db.py [EXPORT_FOLDER] [--runs N]

Converts the export (default: ``../shared/corpus/wahapedia-10ed-2026-02-14``) into an empty
output folder, as ``wahanorm convert --no-cache -j 1`` does, then builds its database two ways:
from the files in memory (``convert --sqlite``) and from the folder on disk (``wahanorm db``).
Prints the best time of ``--runs`` runs of each (other processes share the machine), the
database's size and rows, and what the database adds to the conversion (target: under a third).
"""

from __future__ import annotations

import argparse
import gc
import sqlite3
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from wahanorm import pipeline
from wahanorm.outputs.database import build_database
from wahanorm.outputs.folder import write_outputs
from wahanorm.outputs.output import Output

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
DEFAULT = CORPUS / "wahapedia-10ed-2026-02-14"


def best_of(runs: int, action: Callable[[Path], object]) -> tuple[float, float]:
    """Best wall and best CPU time (this process) of ``runs`` calls of ``action``, each given a
    fresh temporary folder. CPU time says more when other processes share the machine."""
    wall = cpu = float("inf")
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as tmp:
            gc.collect()
            start, start_cpu = time.perf_counter(), time.process_time()
            action(Path(tmp))
            wall = min(wall, time.perf_counter() - start)
            cpu = min(cpu, time.process_time() - start_cpu)
    return wall, cpu


def main() -> None:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("export", nargs="?", type=Path, default=DEFAULT)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()

    def convert(tmp: Path) -> None:
        result = pipeline.convert([args.export], jobs=1)
        write_outputs(tmp / "out", result.files)

    conversion = pipeline.convert([args.export], jobs=1)
    files = conversion.files
    with tempfile.TemporaryDirectory() as keep:
        out = Path(keep) / "out"
        write_outputs(out, files)
        t_convert = best_of(args.runs, convert)
        t_memory = best_of(
            args.runs, lambda tmp: build_database(Output.from_files(files), tmp / "r.db")
        )
        t_folder = best_of(args.runs, lambda tmp: build_database(out, tmp / "r.db"))
        target = Path(keep) / "rules.db"
        build_database(out, target)
        size = target.stat().st_size
        with sqlite3.connect(target) as db:
            tables = [
                name
                for (name,) in db.execute(
                    "SELECT name FROM sqlite_master WHERE type = 'table' "
                    "AND name NOT LIKE 'rules_text_%' ORDER BY name"
                )
            ]
            rows = sum(db.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0] for t in tables)
        db.close()
    print(f"export: {args.export.name}, {len(files) - 1} entity files, best of {args.runs} runs")
    print(f"JSON conversion (convert --no-cache -j 1):    {_times(t_convert)}")
    for label, t in (
        ("database from the files in memory (--sqlite)", t_memory),
        ("database from the folder (wahanorm db)", t_folder),
    ):
        print(
            f"{label}: {_times(t)} = {t[0] / t_convert[0]:.0%} of the conversion's wall time, "
            f"{t[1] / t_convert[1]:.0%} of its CPU time"
        )
    print(f"database: {size / 2**20:.1f} MiB, {len(tables)} tables, {rows:,} rows")


def _times(t: tuple[float, float]) -> str:
    return f"{t[0]:.2f} s wall, {t[1]:.2f} s CPU"


if __name__ == "__main__":
    main()
