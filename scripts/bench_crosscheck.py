"""Benchmark: crosscheck the whole Wahapedia export of 2026-02-14 against the BSData
catalogues of the same day.

    python scripts/bench_crosscheck.py [--runs N]

Converts the export (``../shared/corpus/wahapedia-10ed-2026-02-14``) and the catalogues
(``../shared/bsdata/wh40k-10e-2026-02-14``) once into temporary output folders (timed apart),
then times ``wahanorm crosscheck A B`` on the two folders end to end (read both, pair, compare,
render each format), best of ``--runs`` runs since other processes share the machine; then once
on the raw inputs, converted on the fly as the command does. Prints seconds, and how many
entities were compared and disagree. Skips with a message when the shared data is absent.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

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
    """Best seconds of ``runs`` runs of the whole subcommand; entities compared, disagreeing."""
    from wahanorm.outputs.canonical import canonical_json
    from wahanorm.outputs.crosscheck.engine import crosscheck
    from wahanorm.outputs.crosscheck.render_markdown import render_markdown
    from wahanorm.outputs.crosscheck.render_text import render_text
    from wahanorm.outputs.diff.sides import load_side
    from wahanorm.pipeline import converted

    best = float("inf")
    compared = disagreeing = 0
    for _ in range(runs):
        start = time.perf_counter()
        report = crosscheck(load_side(str(a), converted)[0], load_side(str(b), converted)[0])
        if fmt == "json":
            canonical_json(report)
        elif fmt == "markdown":
            render_markdown(report)
        else:
            render_text(report)
        best = min(best, time.perf_counter() - start)
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
        print(f"converting both sides into output folders: {convert_seconds:.2f} s")
        for fmt in ("text", "markdown", "json"):
            seconds, compared, disagreeing = time_crosscheck(a, b, fmt, args.runs)
            print(
                f"crosscheck of the output folders, {fmt}: {seconds:.2f} s "
                f"({compared} entities compared, {disagreeing} disagree)"
            )
        seconds, compared, _ = time_crosscheck(EXPORT, BSDATA, "text", 1)
        print(f"crosscheck of the raw inputs, converted on the fly: {seconds:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
