"""Whether reading a saved page grows linearly with its size: a real page's content repeated
to 2, 4 and 8 MB (issue 33, item 7), each read by the page reader, best of N.

    python scripts/bench_page_scale.py [PAGE] [--sizes 2,4,8] [--repeat N] [--profile MB]
                                          [--part CHARS] [--faction PAGE]
                                          [--faction-parts 100000,300000]

Two ways of growing a page, each to at least each size: ``body``, the page's ``<body>``
content repeated whole (its datasheet frames and its hidden tooltips, side by side), and
``part``, the first ``--part`` characters of its body (300,000 unless told) repeated, so that
tags left open nest each copy in the one before (a tooltip inside a tooltip, each holding all
that follows it: what made reading quadratic, 1.5, 4.7 and 21 s for 2, 4 and 8 MB, in
``html.select`` and the tooltip's set of classes). It prints the seconds of each size (best of
``--repeat``) and each one's ratio to the smallest: a linear reader reads 8 MB in about 4x the
time of 2 MB. ``--profile MB`` prints cProfile's top functions for one size (of ``part``).

Then ``faction``: an 11th-edition faction page (``--faction``, World Eaters' page unless told)
grown the ``part`` way by each of ``--faction-parts``: cut 100,000 characters into its body
(inside an enhancement's box, a ``td``), each copy nests in that box of the one before,
detachments and all, some 13 levels deeper a copy: 4 MB is 525 levels deep, past
``blocks.html.MAX_DEPTH`` (512), and refused (``page-cut``, printed as ``refused``); cut
300,000 characters in, some 11 levels a copy, 8 MB is 318 deep. (Each detachment's enhancements were read over all that followed
them: 0.5, 1, 2 MB of the first in 0.20, 0.48, 2.31 s.)
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time
from pathlib import Path

from wahanorm.pipeline import read_text

REPO = Path(__file__).resolve().parents[1]
DEFAULT = REPO.parent / "shared" / "html-pages" / "tyranids" / "Old_One_Eye.html"
FACTION = REPO.parent / "shared" / "html-pages" / "world-eaters" / "index.html"
MB = 1024 * 1024


def grown(page: str, size: int, part: int | None = None) -> str:
    """``page`` with its body's content (or its first ``part`` characters, tags left open)
    repeated until the page holds ``size`` characters."""
    start = page.index(">", page.index("<body")) + 1
    end = page.rindex("</body>")
    body = page[start:end] if part is None else page[start : start + part]
    times = max(1, -(-(size - len(page) + len(body)) // len(body)))
    if part is not None:
        return page[:start] + body * times + page[start:]
    return page[:start] + body * times + page[end:]


def read(text: str) -> int:
    """How many entities the page gives; -1 when it is refused (``page-cut``)."""
    extraction = read_text(text, "page.html", html=True)
    if any(row.code == "page-cut" for row in extraction.report.diagnostics):
        return -1
    return len(extraction.entities)


def best_of(repeat: int, text: str) -> float:
    """The least CPU time of ``repeat`` readings (CPU, not wall: on a shared machine the wall
    time of one reading moved by 2-3x between runs)."""
    times = []
    for _ in range(repeat):
        start = time.process_time()
        read(text)
        times.append(time.process_time() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("page", nargs="?", type=Path, default=DEFAULT)
    parser.add_argument("--sizes", default="2,4,8", help="sizes in MB, comma-separated")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--profile", type=float, default=None, help="profile one size (MB)")
    parser.add_argument("--part", type=int, default=300_000, help="characters of the part")
    parser.add_argument("--faction", type=Path, default=FACTION, help="a faction page")
    parser.add_argument(
        "--faction-parts", default="100000,300000", help="characters of its parts, comma-separated"
    )
    args = parser.parse_args()
    page = args.page.read_text(encoding="utf-8")
    read(page)  # parsers built, grammars loaded
    if args.profile is not None:
        text = grown(page, int(args.profile * MB), args.part)
        profile = cProfile.Profile()
        profile.runcall(read, text)
        pstats.Stats(profile).sort_stats("cumulative").print_stats(25)
        return
    sizes = [float(s) for s in args.sizes.split(",")]
    faction = args.faction.read_text(encoding="utf-8")
    read(faction)
    ways: list[tuple[str, str, int | None]] = [("body", page, None), ("part", page, args.part)]
    ways += [("faction", faction, int(n)) for n in args.faction_parts.split(",")]
    print(
        f"{'grown':>7} {'part':>7} {'MB':>5} {'chars':>10} {'entities':>8} {'cpu s':>8} "
        f"{'x first':>8}"
    )
    for way, source, part in ways:
        first: float | None = None
        for size in sizes:
            text = grown(source, int(size * MB), part)
            seconds = best_of(args.repeat, text)
            entities = read(text)
            head = f"{way:>7} {part or '':>7} {size:>5} {len(text):>10}"
            if entities < 0:
                print(f"{head} {'refused':>8} {seconds:>8.2f}")
                continue
            first = first or seconds
            print(f"{head} {entities:>8} {seconds:>8.2f} {seconds / first:>8.2f}")


if __name__ == "__main__":
    main()
