"""``wahanorm crosscheck A B [C …]``: where two sources (or more) disagree, its arguments and
its run.

Exit codes, as ``diff``: 0 the sides agree on every entity compared (and none holds one another
lacks, in the kinds and factions both hold), 1 they disagree, 2 a usage or input error (one
line on stderr, never a traceback). With three sides or more, 0 when every pair of them agrees.
"""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

EXIT_AGREE, EXIT_DISAGREE, EXIT_ERROR = 0, 1, 2

HELP = "tell where two sources of the rules (or more) disagree, entity by entity and field by field"

EPILOG = """\
A, B (and C …) are each an output folder (it holds index.json), raw inputs of any format
convert reads (converted on the fly, in memory), or REV:PATH of the git repository around the
working folder. Only fields both sources have are compared;
differences of form (letter case of keywords, quotes, order of lists, [HAZARDOUS] / HAZARDOUS,
two / 2 …) are none. The report opens with the datasheets that disagree on characteristics,
points and weapons, then the rest; --max-chars N cuts the markdown and says what it left out.

With three sides or more, every pair of sides is compared and the pairs are joined: the report
opens with how many entities all sides hold and agree on, and each difference says which
sides hold which value ("Toughness 10 in A and B (the majority), 9 in C").

exit status: 0 they agree (every pair of them), 1 they disagree, 2 usage or input error.
Manual: docs/crosscheck.md.
"""


def add(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Declare ``crosscheck`` and its arguments."""
    parser = subparsers.add_parser(
        "crosscheck",
        help=HELP,
        description=HELP + ".",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("a", metavar="A", help="output folder, raw inputs, or REV:PATH")
    parser.add_argument("b", metavar="B", help="output folder, raw inputs, or REV:PATH")
    parser.add_argument(
        "more",
        metavar="C",
        nargs="*",
        help="more sides, as A and B: with three or more, each difference says which sources "
        "hold which value, and names the majority",
    )
    parser.add_argument(
        "--format",
        choices=("text", "markdown", "json"),
        default="text",
        help="text for a terminal (default), markdown for a report, json",
    )
    parser.add_argument(
        "--max-chars",
        type=_positive,
        metavar="N",
        help="markdown only: cut after the last entity that fits in N characters, saying what "
        "is left out (a GitHub comment holds 65536)",
    )
    parser.add_argument(
        "--kind",
        action="append",
        default=[],
        metavar="KIND",
        help="compare only entities of this kind (datasheet, detachment, enhancement …); "
        "may be given again",
    )
    parser.add_argument(
        "--field",
        action="append",
        default=[],
        metavar="FIELD",
        help="compare only this field (profiles, weapons, points, keywords …); may be given again",
    )
    parser.add_argument(
        "--color",
        choices=("auto", "always", "never"),
        default="auto",
        help="colour the text format (auto: only on a terminal, not with NO_COLOR)",
    )
    parser.set_defaults(run=run)


def _positive(text: str) -> int:
    from wahanorm.cli.diff import _positive as positive

    return positive(text)


def run(args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Crosscheck ``args.a`` against ``args.b``, print the report, return the exit status."""
    # The engine is imported here, not at the top: the CLI loads this module on every run.
    from wahanorm.cli.diff import compare_sides
    from wahanorm.outputs.crosscheck.engine import crosscheck

    stdout = out or sys.stdout
    if args.more:
        return _run_many(args, stdout, err or sys.stderr)
    report = compare_sides(
        "crosscheck",
        args.a,
        args.b,
        lambda a, b: crosscheck(a, b, kinds=args.kind, fields=args.field),
        err or sys.stderr,
    )
    if report is None:
        return EXIT_ERROR
    stdout.write(_render(report, args, stdout))
    return EXIT_DISAGREE if report.disagrees else EXIT_AGREE


def _run_many(args: argparse.Namespace, stdout: TextIO, err: TextIO) -> int:
    """Three sides or more: every pair crosschecked, joined (``outputs.crosscheck.many``)."""
    from wahanorm.cli.diff import load_sides, use_colour
    from wahanorm.outputs.canonical import canonical_json
    from wahanorm.outputs.crosscheck.many import crosscheck_many
    from wahanorm.outputs.crosscheck.render_many import render_many_markdown, render_many_text

    specs = [args.a, args.b, *args.more]
    report = load_sides(
        "crosscheck",
        specs,
        lambda snaps: crosscheck_many(snaps, kinds=args.kind, fields=args.field),
        err,
    )
    if report is None:
        return EXIT_ERROR
    if args.format == "json":
        text = canonical_json(report)
    elif args.format == "markdown":
        text = render_many_markdown(report, getattr(args, "max_chars", None))
    else:
        text = render_many_text(report, colour=use_colour(getattr(args, "color", "auto"), stdout))
    stdout.write(text)
    return EXIT_DISAGREE if report.disagrees else EXIT_AGREE


def _render(report: object, args: argparse.Namespace, stdout: TextIO) -> str:
    from wahanorm.cli.diff import use_colour
    from wahanorm.outputs.canonical import canonical_json
    from wahanorm.outputs.crosscheck.render_markdown import render_markdown
    from wahanorm.outputs.crosscheck.render_text import render_text
    from wahanorm.outputs.crosscheck.result import CrosscheckReport

    assert isinstance(report, CrosscheckReport)
    if args.format == "json":
        return canonical_json(report)
    if args.format == "markdown":
        return render_markdown(report, getattr(args, "max_chars", None))
    return render_text(report, colour=use_colour(getattr(args, "color", "auto"), stdout))
