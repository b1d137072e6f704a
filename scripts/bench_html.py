"""How long reading a saved Wahapedia page takes: seconds per page, one by one and spread over
all cores.

    python scripts/bench_html.py [PAGE_OR_FOLDER ...] [--repeat N] [--jobs N]

Without arguments it reads the eight pages of ``../shared/html-pages``. For each page it prints
the size, the best of N runs of the whole reader, and of that the part lxml's parser takes; then
the wall time of reading every page once over a process pool (one process per core).
"""

from __future__ import annotations

import argparse
import os
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from wahanorm.blocks import html as dom
from wahanorm.pipeline import read_text

REPO = Path(__file__).resolve().parents[1]
DEFAULT = REPO.parent / "shared" / "html-pages"


def pages(paths: list[Path]) -> list[Path]:
    """Every ``.html`` file named or found below the given folders, sorted."""
    found: list[Path] = []
    for path in paths:
        found.extend(sorted(path.rglob("*.html")) if path.is_dir() else [path])
    return found


def best_of(repeat: int, run: object) -> float:
    """The shortest of ``repeat`` timed calls of ``run``."""
    assert callable(run)
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def read_one(path: Path) -> int:
    """Read one page; the number of entities (so the work cannot be skipped)."""
    extraction = read_text(path.read_text(encoding="utf-8"), path.name, html=True)
    return len(extraction.entities) if extraction else 0


def main() -> None:
    """Print seconds per page."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("paths", nargs="*", type=Path, default=[DEFAULT])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    files = pages(args.paths)
    if not files:
        parser.error("no .html pages found")
    total = 0.0
    print(f"{'page':45} {'KB':>6} {'read s':>8} {'parse s':>8} {'entities':>8}")
    for path in files:
        text = path.read_text(encoding="utf-8")
        whole = best_of(args.repeat, lambda t=text, p=path: read_text(t, p.name, html=True))
        parse = best_of(args.repeat, lambda t=text: dom.parse(t))
        total += whole
        name = f"{path.parent.name}/{path.name}"
        print(f"{name:45} {len(text) // 1024:>6} {whole:>8.3f} {parse:>8.3f} {read_one(path):>8}")
    print(f"mean: {total / len(files):.3f} s per page, one process")
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        list(pool.map(read_one, files))
    wall = time.perf_counter() - start
    print(
        f"pool of {args.jobs}: {len(files)} pages in {wall:.2f} s wall, "
        f"{wall / len(files):.3f} s per page (process start-up included)"
    )


if __name__ == "__main__":
    main()
