"""Benchmark: crosscheck the whole Wahapedia export of 2026-02-14 against the BSData
catalogues of the same day.

    python scripts/bench_crosscheck.py [--runs N]

Converts the export (``../shared/corpus/wahapedia-10ed-2026-02-14``) and the catalogues
(``../shared/bsdata/wh40k-10e-2026-02-14``) once into temporary output folders (timed apart),
then runs ``wahanorm crosscheck A B`` on the two folders as a whole process in each format
(read both, pair, compare, render), and on the raw inputs (both converted on the fly, in memory,
as the command does); best of ``--runs`` runs. Prints the user CPU of each whole process (the
figure that stays put on a shared machine; issue 20: at most 5 s for the raw inputs), its wall
time and peak memory, and in-process CPU seconds with how many entities were compared and
disagree. Skips with a message when the shared data is absent.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from process_usage import WAHANORM, best_of, line

SHARED = Path(__file__).resolve().parents[2] / "shared"
EXPORT = SHARED / "corpus" / "wahapedia-10ed-2026-02-14"
BSDATA = SHARED / "bsdata" / "wh40k-10e-2026-02-14"


def prepare(root: Path) -> tuple[Path, Path, float]:
    """Both sides converted into output folders under ``root``, and the seconds it took."""
    from wahanorm import pipeline
    from wahanorm.outputs.folder import write_outputs

    start = time.perf_counter()
    folders = []
    for source in (EXPORT, BSDATA):
        out = root / source.name
        write_outputs(out, pipeline.convert([source]).files)
        folders.append(out)
    return folders[0], folders[1], time.perf_counter() - start


def time_crosscheck(a: Path, b: Path, fmt: str, runs: int) -> tuple[float, int, int]:
    """Best CPU seconds of ``runs`` runs of the subcommand's work in this process; entities
    compared, disagreeing."""
    from wahanorm.outputs.canonical import canonical_json
    from wahanorm.outputs.crosscheck.engine import crosscheck
    from wahanorm.outputs.crosscheck.render_markdown import render_markdown
    from wahanorm.outputs.crosscheck.render_text import render_text
    from wahanorm.outputs.diff.sides import load_side
    from wahanorm.pipeline import converted

    best = float("inf")
    compared = disagreeing = 0
    for _ in range(runs):
        start = time.process_time()
        report = crosscheck(load_side(str(a), converted)[0], load_side(str(b), converted)[0])
        if fmt == "json":
            canonical_json(report)
        elif fmt == "markdown":
            render_markdown(report)
        else:
            render_text(report)
        best = min(best, time.process_time() - start)
        compared, disagreeing = report.summary.compared, report.summary.disagreeing
    return best, compared, disagreeing


def main() -> int:
    """Prepare both sides, time the crosscheck in each format, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    if not (EXPORT.is_dir() and BSDATA.is_dir()):
        print(f"{EXPORT} or {BSDATA} is absent: nothing to time", file=sys.stderr)
        return 0
    with tempfile.TemporaryDirectory(prefix="wahanorm-crosscheck-") as tmp:
        a, b, convert_seconds = prepare(Path(tmp))
        print(f"converting both sides into output folders: {convert_seconds:.2f} s (wall)")
        print(f"whole processes, best of {args.runs} runs:")
        for fmt in ("text", "markdown", "json"):
            command = [*WAHANORM, "crosscheck", str(a), str(b), "--format", fmt]
            print(line(f"output folders, {fmt}", best_of(command, args.runs)))
        command = [*WAHANORM, "crosscheck", str(EXPORT), str(BSDATA)]
        print(line("raw inputs, converted on the fly", best_of(command, args.runs)))
        seconds, compared, disagreeing = time_crosscheck(a, b, "text", args.runs)
        print(
            f"in this process, output folders, text: {seconds:.2f} s CPU "
            f"({compared} entities compared, {disagreeing} disagree)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
