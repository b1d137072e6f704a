"""``wahanorm diff OLD NEW``: what changed in the rules, its arguments and its run.

Exit codes, as ``git diff --exit-code`` and ``diff``: 0 no rules change, 1 changes, 2 a usage or
input error (one line on stderr, never a traceback).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, TextIO, TypeVar

from wahanorm.cli.terminal import say
from wahanorm.errors import WahanormError

if TYPE_CHECKING:
    from wahanorm.outputs.diff.engine import Snapshot

R = TypeVar("R")

EXIT_SAME, EXIT_CHANGED, EXIT_ERROR = 0, 1, 2

HELP = "tell what changed in the rules between two outputs, raw inputs or REV:PATH"

EPILOG = """\
OLD and NEW are each an output folder (it holds index.json), raw inputs of any format convert
reads (dumps, pages, a Wahapedia CSV export folder, BSData catalogues; converted on the fly), or
REV:PATH of the git repository around the working folder (e.g. origin/main:out).

exit status: 0 no rules change, 1 changes, 2 usage or input error (--exit-code is accepted, as
in git, and changes nothing). Manual: docs/diff.md.
"""


def add(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Declare ``diff`` and its arguments."""
    parser = subparsers.add_parser(
        "diff",
        help=HELP,
        description=HELP + ".",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("old", metavar="OLD", help="output folder, raw inputs, or REV:PATH")
    parser.add_argument("new", metavar="NEW", help="output folder, raw inputs, or REV:PATH")
    parser.add_argument(
        "--format",
        choices=("text", "markdown", "json"),
        default="text",
        help="text for a terminal (default), markdown for a PR comment, json",
    )
    parser.add_argument(
        "--max-chars",
        type=_positive,
        metavar="N",
        help="markdown only: cut after the last entity that fits in N characters, saying how "
        "many are left out (a GitHub comment holds 65536)",
    )
    parser.add_argument(
        "--color",
        choices=("auto", "always", "never"),
        default="auto",
        help="colour the text format (auto: only on a terminal, not with NO_COLOR)",
    )
    parser.add_argument(
        "--exit-code",
        action="store_true",
        help="accepted for git's sake: the exit status always tells (0 same, 1 changes, 2 error)",
    )
    parser.set_defaults(run=run)


def _positive(text: str) -> int:
    """A whole number of 1 or more (``--max-chars``)."""
    if not text.strip().isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"not a whole number of 1 or more: {text!r}")
    return int(text)


def run(args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Diff ``args.old`` against ``args.new``, print the report, return the exit status."""
    # The engine is imported here, not at the top: the CLI loads this module on every run.
    from wahanorm.outputs.diff.engine import diff_snapshots

    stdout = out or sys.stdout
    report = compare_sides("diff", args.old, args.new, diff_snapshots, err or sys.stderr)
    if report is None:
        return EXIT_ERROR
    stdout.write(_render(report, args, stdout))
    return EXIT_CHANGED if report.has_changes else EXIT_SAME


def compare_sides(
    command: str, first: str, second: str, compare: Callable[[Snapshot, Snapshot], R], err: TextIO
) -> R | None:
    """Load two sides (output folders, raw inputs, ``REV:PATH``) and ``compare`` them, as
    ``diff`` and ``crosscheck`` do; None after one line on ``err`` saying what went wrong. The
    notes of loading a side are printed too."""
    return load_sides(command, [first, second], lambda snaps: compare(*snaps), err)


def load_sides(
    command: str, specs: list[str], compare: Callable[[list[Snapshot]], R], err: TextIO
) -> R | None:
    """Load each side of ``specs`` and ``compare`` them all (``compare_sides`` for two).

    Without cyclic garbage collection, as a run converts (``pipeline.collector``): the entity
    files parsed and the forms made to compare them are trees without cycles."""
    from wahanorm.outputs.diff.sides import load_side
    from wahanorm.pipeline import converted
    from wahanorm.pipeline.collector import fewer_collections

    notes: list[str] = []
    try:
        with fewer_collections():
            snaps = []
            for spec in specs:
                snap, side_notes = load_side(spec, converted)
                snaps.append(snap)
                notes += side_notes
            result = compare(snaps)
    except WahanormError as exc:
        say(f"wahanorm {command}: {exc.message}", err)
        return None
    except (OSError, ValueError) as exc:
        say(f"wahanorm {command}: {exc}", err)
        return None
    for note in notes:
        say(f"wahanorm {command}: note: {note}", err)
    return result


def _render(report: object, args: argparse.Namespace, stdout: TextIO) -> str:
    from wahanorm.outputs.canonical import canonical_json
    from wahanorm.outputs.diff.render_markdown import render_markdown
    from wahanorm.outputs.diff.render_text import render_text
    from wahanorm.outputs.diff.result import DiffReport

    assert isinstance(report, DiffReport)
    if args.format == "json":
        return canonical_json(report)
    if args.format == "markdown":
        return render_markdown(report, getattr(args, "max_chars", None))
    return render_text(report, colour=use_colour(getattr(args, "color", "auto"), stdout))


def use_colour(choice: str, stream: TextIO) -> bool:
    """Colour only when stdout is a terminal (and NO_COLOR is unset), unless told otherwise."""
    if choice != "auto":
        return choice == "always"
    return stream.isatty() and not os.environ.get("NO_COLOR")
