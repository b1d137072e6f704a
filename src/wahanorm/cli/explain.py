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
    code = typed_code(args.code)
    try:
        resolve(code)
    except KeyError:
        hint = f"; did you mean {', '.join(close)}?" if (close := near_codes(code)) else ""
        say(
            f"wahanorm explain: no diagnostic code {args.code!r}{hint} "
            "('wahanorm explain --list' lists them)"
        )
        return 2
    say_lines(explain(code), sys.stdout)
    return 0


def typed_code(text: str) -> str:
    """A code as a user may type or paste it, as the catalogue spells it: ``HOLE``, ``[hole]``
    (as a warning ends), ``keyword_scope`` → ``hole``, ``hole``, ``keyword-scope``."""
    return text.strip().strip("[]").strip().casefold().replace("_", "-").replace(" ", "-")


def near_codes(code: str) -> list[str]:
    """The codes a mistyped ``code`` may mean: those it begins or is part of, then near
    spellings (at most five)."""
    from wahanorm.contract.codes import CATALOGUE

    known = sorted(CATALOGUE)
    starting = [c for c in known if c.startswith(code)]
    holding = [c for c in known if len(code) > 3 and code in c]
    close = difflib.get_close_matches(code, known, n=5, cutoff=0.6)
    return list(dict.fromkeys([*starting, *holding, *close]))[:5]
