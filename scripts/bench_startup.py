"""Benchmark: the commands that answer at once, as whole processes.

    python scripts/bench_startup.py [--runs N]

Runs ``wahanorm --help``, ``wahanorm explain keyword-scope``, ``wahanorm show iron-hand-straken``
(on ``out/`` of the repository) and, for scale, ``python -c pass``, each ``--runs`` times in a
child process, and prints the least user CPU, wall time and peak memory of each. What they load
is held by ``tests/test_startup.py``; ``python -X importtime -m wahanorm --help`` says where the
rest goes.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from process_usage import WAHANORM, best_of, line

REPO = Path(__file__).resolve().parents[1]
COMMANDS = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "wahanorm --help": [*WAHANORM, "--help"],
    "wahanorm explain keyword-scope": [*WAHANORM, "explain", "keyword-scope"],
    "wahanorm show iron-hand-straken": [
        *WAHANORM,
        "show",
        "iron-hand-straken",
        "--out",
        str(REPO / "out"),
    ],
}


def main() -> int:
    """Run each command and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    print(f"startup, best of {args.runs} runs:")
    for label, command in COMMANDS.items():
        print(line(label, best_of(command, args.runs, ok=(0,))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
