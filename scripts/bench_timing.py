"""Benchmark: the timing read from each stratagem's WHEN against the export's own columns.

    python scripts/bench_timing.py [EXPORT_FOLDER ...] [--list]

For each export folder (default: every export in ``../shared/corpus``) it prints how many
stratagems were compared, how many agree (count and %), and the disagreements by the side that
looks wrong (``export``: its turn/phase columns contradict a plain WHEN; ``when``: the WHEN leaves
unsaid what the columns state; ``neither``: the columns cannot hold what the WHEN says). Rows
whose turn column is not a turn, or without a WHEN, are counted apart. ``--list`` prints each
distinct disagreement once, with its side and reason.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

from wahanorm.blocks.parse.timing import derive_timing
from wahanorm.errors import Report
from wahanorm.readers.export.context import ExportContext
from wahanorm.readers.export.stratagems import TABLE, description_fields
from wahanorm.readers.export.timing import column_timing, compare, show_timing

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"


def bench(folder: Path, listed: set[str], show: bool) -> None:
    """Print the agreement figures of one export folder."""
    ctx = ExportContext(folder=folder, display=folder.name, report=Report())
    ctx.load()
    counts: Counter[str] = Counter()
    for record in ctx.table(TABLE):
        name = ctx.text(TABLE, record, "name")
        when = description_fields(ctx, record, name)["when"]
        timing = derive_timing(when)
        columns = column_timing(ctx.text(TABLE, record, "turn"), ctx.text(TABLE, record, "phase"))
        if when is None or timing is None:
            counts["no WHEN"] += 1
            continue
        if columns is None:
            counts["no turn column"] += 1
            continue
        counts["compared"] += 1
        disagreement = compare(when, timing, columns)
        if disagreement is None:
            counts["agreed"] += 1
            continue
        counts[disagreement.suspect] += 1
        line = (
            f"  [{disagreement.suspect}] {when!r}\n"
            f"      WHEN: {show_timing(timing)} | columns: {columns.show()}\n"
            f"      {disagreement.reason}"
        )
        if show and line not in listed:
            listed.add(line)
            print(line)
    compared = counts["compared"]
    rate = 100 * counts["agreed"] / compared if compared else 0.0
    print(
        f"{folder.name}: {counts['agreed']} of {compared} agree ({rate:.1f}%); "
        f"disagreements: export looks wrong {counts['export']}, WHEN incomplete "
        f"{counts['when']}, columns cannot say {counts['neither']}; not compared: "
        f"{counts['no WHEN']} without WHEN, {counts['no turn column']} without a turn column"
    )


def main(argv: list[str]) -> int:
    """Run the benchmark over the folders given (or the corpus)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="*", type=Path)
    parser.add_argument("--list", action="store_true", help="print each distinct disagreement")
    args = parser.parse_args(argv)
    folders = args.folders or sorted(
        p for p in CORPUS.iterdir() if (p / TABLE).is_file() and not p.name.endswith("resaved")
    )
    listed: set[str] = set()
    for folder in folders:
        bench(folder, listed, args.list)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
