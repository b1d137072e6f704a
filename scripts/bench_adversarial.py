"""Super-linear check: the clean passes, the segmenter, the grammars and the HTML flattener on
adversarial inputs of growing size (long repeats of what their patterns look for).

For each input and stage it prints the seconds at n = 10k, 20k, 40k, 80k characters and the ratio
t(2n)/t(n): near 2 is linear, near 4 quadratic. A stage is not run at larger sizes once one size
took longer than ``--cap`` seconds (it is then marked ``cap``). Ratios of times under 5 ms are
noise and shown as ``-``. Ends with a list of the (input, stage) pairs whose last ratio is over 3.

    python scripts/bench_adversarial.py [--sizes 10000 20000 40000 80000] [--cap 10]
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from collections.abc import Callable

from wahanorm.blocks.clean import PASSES, clean, to_lines
from wahanorm.blocks.clean.lines import Line
from wahanorm.blocks.parse.datasheet_lines import parse_core_abilities, parse_weapon_row
from wahanorm.blocks.parse.stratagems import parse_body, parse_entry
from wahanorm.blocks.parse.timing import derive_timing
from wahanorm.blocks.parse.weapon_abilities import parse_weapon_abilities, split_weapon_name
from wahanorm.contract.ids import slugify
from wahanorm.errors import ParseFailure, Report
from wahanorm.pipeline import read_text
from wahanorm.readers.dump import segment
from wahanorm.readers.generic_html import flatten as html_text


def repeat(unit: str) -> Callable[[int], str]:
    """``unit`` repeated to ``n`` characters."""
    return lambda n: (unit * (n // len(unit) + 1))[:n]


def row(unit: str) -> Callable[[int], str]:
    """A weapon row whose name cell is ``unit`` repeated to about ``n`` characters."""
    tail = ' | 24" | 1 | 4+ | 8 | -2 | D6+1 | |'
    return lambda n: "| " + repeat(unit)(max(n - len(tail) - 2, 1)) + tail


def dump_row(n: int) -> str:
    """A whole dump whose one weapon name cell is ``Shokk rifle hazardous … rifle``: a tail of
    known abilities that ends in a word that is not one."""
    head = (
        "Orks – Ufthak Blackhawk\nRANGED WEAPONS | RANGE | A | BS | S | AP | D | |\n| Shokk rifle "
    )
    tail = 'rifle | 24" | 1 | 4+ | 8 | -2 | D6+1 | |\nKEYWORDS: INFANTRY\n'
    return head + repeat("hazardous ")(max(n - len(head) - len(tail), 10)) + tail


def deep_html(n: int) -> str:
    """HTML nested ``n // 11`` levels deep (``<div>`` + ``</div>`` = 11 characters)."""
    depth = n // 11
    return "<html><body>" + "<div>" * depth + "<p>x</p>" + "</div>" * depth + "</body></html>"


INPUTS: dict[str, Callable[[int], str]] = {
    "12.12.12…": repeat("12."),
    "[A][A]…": repeat("[A]"),
    "a.Ba.B…": repeat("a.B"),
    "WHEN: WHEN: …": repeat("WHEN: "),
    "|||…": repeat("|"),
    "| | | …": repeat("| "),
    "D6+D6+…": repeat("D6+"),
    "anti-anti-…": repeat("anti-"),
    "- - - …": repeat("- "),
    "1CP1CP…": repeat("1CP"),
    "is ,is ,… (holes)": repeat("is ,"),
    "%1 %1 … (link placeholders)": repeat("%1 "),
    "ABILITY.ABILITY.… (glued headings)": repeat("ability.HEROIC INTERVENTION"),
    "Itâ€™s… (mojibake)": repeat("Itâ€™s "),
    "lines 'A\\nB\\n'…": repeat("A\nB\n"),
    "lines 'A\\nB\\nB\\nA\\n'…": repeat("A\nB\nB\nA\n"),
    "lines 'WHEN: x\\n'…": repeat("WHEN: x\n"),
    "lines 'X\\n1CP\\n'…": repeat("X\n1CP\n"),
    "lines '| a | 1 |\\n'…": repeat("| a | 1 |\n"),
    "weapon row, name 'hazardous '…": row("hazardous "),
    "weapon row, name 'anti-'…": row("anti-"),
    "core abilities 'Scouts 6\", '…": repeat('Scouts 6", '),
    "dump, weapon cell 'Shokk rifle hazardous … rifle'": dump_row,
    "HTML <div> nesting": deep_html,
}


def _grammar(fn: Callable[[str], object]) -> Callable[[str], object]:
    def run(text: str) -> object:
        try:
            return fn(text)
        except ParseFailure:
            return None

    return run


def _pass(run: Callable[[list[Line], Report], list[Line]]) -> Callable[[str], object]:
    return lambda text: run(to_lines(text), Report())


STAGES: dict[str, Callable[[str], object]] = {
    **{f"clean.{name}": _pass(fn) for name, fn in PASSES},
    "segment": lambda text: segment.segment(clean(to_lines(text), Report())),
    "extract_dump": lambda text: read_text(text, "x.txt", html=False),
    "parse_weapon_abilities": _grammar(parse_weapon_abilities),
    "parse_weapon_abilities[…]": _grammar(lambda t: parse_weapon_abilities(f"[{t}]")),
    "split_weapon_name": _grammar(split_weapon_name),
    "parse_entry": _grammar(lambda t: parse_entry(["NAME", "1CP", "Core Stratagem", t])),
    "parse_body": _grammar(parse_body),
    "parse_weapon_row": _grammar(parse_weapon_row),
    "parse_core_abilities": _grammar(parse_core_abilities),
    "derive_timing": derive_timing,
    "slugify": lambda t: slugify.__wrapped__(t),
}

HTML_STAGES: dict[str, Callable[[str], object]] = {"html_to_text": html_text.html_to_text}


def timed(fn: Callable[[str], object], text: str) -> float:
    started = time.perf_counter()
    fn(text)
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 20_000, 40_000, 80_000])
    parser.add_argument("--cap", type=float, default=10.0, help="seconds before a stage stops")
    parser.add_argument("--only", help="run only inputs whose name contains this")
    args = parser.parse_args()
    sizes: list[int] = args.sizes
    header = "".join(f"{f'n={n}':>10}" for n in sizes)
    ratios_head = "".join(f"{f'×{b // a}':>7}" for a, b in itertools.pairwise(sizes))
    flagged: list[tuple[str, str, list[float]]] = []
    for name, make in INPUTS.items():
        if args.only and args.only not in name:
            continue
        stages = HTML_STAGES if name.startswith("HTML") else STAGES
        print(f"\n== {name}   (seconds; then t(2n)/t(n))")
        print(f"{'stage':<28}{header}{ratios_head}")
        for stage, fn in stages.items():
            times: list[float | None] = []
            for n in sizes:
                if times and (times[-1] is None or times[-1] > args.cap):
                    times.append(None)
                    continue
                times.append(timed(fn, make(n)))
            cells = "".join(f"{t:>10.4f}" if t is not None else f"{'cap':>10}" for t in times)
            ratios: list[float] = []
            shown = ""
            for a, b in itertools.pairwise(times):
                if a is None or b is None or a < 0.005:
                    shown += f"{'-':>7}"
                else:
                    ratios.append(b / a)
                    shown += f"{b / a:>7.2f}"
            print(f"{stage:<28}{cells}{shown}", flush=True)
            if ratios and ratios[-1] > 3.0:
                flagged.append((name, stage, ratios))
    print("\n== a line of 1 MB without newline")
    line = repeat("WHEN: Your Shooting phase. [ANTI-INFANTRY 4+] D6+1 | 12.12 ")(1_000_000)
    for stage in ("extract_dump", "segment"):
        print(f"{stage:<28}{timed(STAGES[stage], line):>10.4f} s")
    print("\n== super-linear (last ratio over 3)")
    for name, stage, ratios in flagged:
        print(f"{name:<40} {stage:<28} ratios {', '.join(f'{r:.2f}' for r in ratios)}")
    if not flagged:
        print("none")
    return 0


if __name__ == "__main__":
    sys.setrecursionlimit(10_000)
    raise SystemExit(main())
