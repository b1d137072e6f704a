"""Benchmark: diff the outputs of the two full Wahapedia exports.

    python scripts/bench_diff.py [--runs N]

Converts both exports of ``../shared/corpus`` once into temporary output folders (not timed),
then times ``wahanorm diff OLD NEW`` on them end to end (read both folders, parse every entity
file, match, compare, render each format) and prints seconds of CPU (``time.process_time``:
it stays put on a shared machine, where wall time swings with other load), best of ``--runs``
runs. Skips with a message when the corpus is absent.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
EXPORTS = ("wahapedia-10ed-2025-11-14-html", "wahapedia-10ed-2026-02-14")


def prepare(root: Path) -> tuple[Path, Path]:
    """Both exports converted into output folders under ``root``."""
    from wahanorm import pipeline
    from wahanorm.outputs.folder import write_outputs

    folders = []
    for name in EXPORTS:
        out = root / name
        write_outputs(out, pipeline.convert([CORPUS / name]).files)
        folders.append(out)
    return folders[0], folders[1]


def time_diff(old: Path, new: Path, fmt: str, runs: int) -> tuple[float, int]:
    """Best CPU seconds of ``runs`` runs of the whole subcommand, and the number of entities that
    differ."""
    from wahanorm.outputs.canonical import canonical_json
    from wahanorm.outputs.diff.engine import diff_snapshots
    from wahanorm.outputs.diff.render_markdown import render_markdown
    from wahanorm.outputs.diff.render_text import render_text
    from wahanorm.outputs.diff.sides import load_side
    from wahanorm.pipeline import converted

    best = float("inf")
    differ = 0
    for _ in range(runs):
        start = time.process_time()
        report = diff_snapshots(
            load_side(str(old), converted)[0], load_side(str(new), converted)[0]
        )
        if fmt == "json":
            canonical_json(report)
        elif fmt == "markdown":
            render_markdown(report)
        else:
            render_text(report)
        best = min(best, time.process_time() - start)
        differ = report.summary.total
    return best, differ


def main() -> int:
    """Print the seconds to diff the two exports' outputs in each format."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    missing = [n for n in EXPORTS if not (CORPUS / n).is_dir()]
    if missing:
        print(f"skipped: {CORPUS} lacks {', '.join(missing)}")
        return 0
    with tempfile.TemporaryDirectory(prefix="bench-diff-") as tmp:
        old, new = prepare(Path(tmp))
        files = sum(1 for _ in old.rglob("*.json")) + sum(1 for _ in new.rglob("*.json"))
        print(f"diff of {EXPORTS[0]} → {EXPORTS[1]} outputs ({files} files in all)")
        for fmt in ("text", "markdown", "json"):
            seconds, differ = time_diff(old, new, fmt, args.runs)
            print(f"{fmt:>8}: {seconds:.2f} s CPU  ({differ} entities differ; best of {args.runs})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
