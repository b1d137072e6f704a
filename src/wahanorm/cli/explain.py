"""``wahanorm explain CODE``: what a diagnostic code means and what to do (``--list``: every
code, by area), as compilers and linters explain theirs."""

from __future__ import annotations

import difflib
import sys
from typing import Any


def add(commands: Any) -> None:
    """Declare ``explain`` and its arguments."""
    explain = commands.add_parser(
        "explain",
        help="say what a diagnostic code means and what to do",
        description="Say what a diagnostic code (the [code] after a warning) means and what to "
        "do about it. Manual: docs/diagnostics.md.",
    )
    explain.add_argument("code", nargs="?", metavar="CODE", help="a code, e.g. keyword-scope")
    explain.add_argument("--list", action="store_true", help="list every code, by area")
    explain.set_defaults(run=run_explain)


def run_explain(args: Any) -> int:
    """Print one code's sentence, or every code; 2 for a code the catalogue lacks."""
    from wahanorm.contract.codes import AREAS, CATALOGUE, explain, resolve

    if args.list:
        for area, title in AREAS.items():
            entries = sorted(
                (c for c in CATALOGUE.values() if c.area == area), key=lambda c: c.code
            )
            if entries:
                print(f"{title}:")
                for entry in entries:
                    print(f"  {entry.code} ({entry.severity}): {entry.meaning}")
        return 0
    if not args.code:
        print("wahanorm explain: give a code (e.g. keyword-scope) or --list", file=sys.stderr)
        return 2
    try:
        resolve(args.code)
    except KeyError:
        close = difflib.get_close_matches(args.code, sorted(CATALOGUE), n=3, cutoff=0.6)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        print(
            f"wahanorm explain: no diagnostic code {args.code!r}{hint} "
            "('wahanorm explain --list' lists them)",
            file=sys.stderr,
        )
        return 2
    print(explain(args.code))
    return 0
