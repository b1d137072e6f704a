"""``wahanorm explain CODE``: what a diagnostic code means and what to do (``--list``: every
code, by area), as compilers and linters explain theirs."""

from __future__ import annotations

import difflib
import sys
from typing import Any

from wahanorm.cli.terminal import say, say_lines


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
                say(f"{title}:", sys.stdout)
                for entry in entries:
                    say(f"  {entry.code} ({entry.severity}): {entry.meaning}", sys.stdout)
        return 0
    if not args.code:
        say("wahanorm explain: give a code (e.g. keyword-scope) or --list")
        return 2
    try:
        resolve(args.code)
    except KeyError:
        close = difflib.get_close_matches(args.code, sorted(CATALOGUE), n=3, cutoff=0.6)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        say(
            f"wahanorm explain: no diagnostic code {args.code!r}{hint} "
            "('wahanorm explain --list' lists them)"
        )
        return 2
    say_lines(explain(args.code), sys.stdout)
    return 0
