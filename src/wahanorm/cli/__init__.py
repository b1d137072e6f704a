"""The command line: ``convert``, ``diff``, ``crosscheck``, ``db``, ``show``, ``schema``,
``explain``. Only this package prints.

Exit codes: 0 clean; 1 some inputs failed or had errors (convert), changes found (diff), the
sources disagree (crosscheck), or ``out/`` is stale (``convert --check``); 2 usage or input
error, with one line that says what to do; 141 when the reader of standard output closed it
early (``| head``). No traceback reaches a user. Each command is a
module here: ``add(commands)`` declares its arguments and the function that runs it.
"""

from __future__ import annotations

import argparse
import os
import sys
import traceback
from pathlib import Path
from typing import NoReturn

from wahanorm.cli import convert, crosscheck, diff, explain, outputs, terminal
from wahanorm.cli.terminal import say
from wahanorm.contract.version import __version__

COMMANDS = (convert, diff, crosscheck, outputs, explain)
"""The modules that declare the subcommands, in the order ``--help`` lists them."""
EXIT_BROKEN_PIPE = 141
"""The exit status when the reader of standard output closed it early (128 + SIGPIPE, as for
other Unix tools)."""
NAMES = ("convert", "diff", "crosscheck", "db", "show", "schema", "explain")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every subcommand (their parsers are of the same class)."""
    parser = terminal.ArgumentParser(
        prog="wahanorm",
        description="Warhammer 40,000 rules data → canonical JSON, what changed, and where "
        "sources disagree.",
    )
    parser.add_argument("--version", action="version", version=f"wahanorm {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in COMMANDS:
        module.add(commands)
    return parser


def command() -> NoReturn:
    """The ``wahanorm`` program (its console script, ``python -m wahanorm``): ``main``, then the
    process ends, what it leaves frozen first (``pipeline.collector.frozen_to_the_end``)."""
    from wahanorm.pipeline.collector import frozen_to_the_end

    code = main()
    frozen_to_the_end()
    raise SystemExit(code)


def main(argv: list[str] | None = None) -> int:
    """Run one command; returns its exit code."""
    try:
        code = _parse_and_run(argv)
        sys.stdout.flush()  # what is still buffered: a reader gone away is said here too
        return code
    except BrokenPipeError:
        # The reader of our output went away (``| head``): end quietly, as other Unix tools do;
        # what a command writes to disk is written before it prints its summary.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
    except KeyboardInterrupt:
        say("wahanorm: interrupted")
        return 130
    except Exception as exc:  # a bug: one line with its place, never a traceback
        where = traceback.extract_tb(exc.__traceback__)[-1]
        say(
            f"wahanorm: internal error ({type(exc).__name__}: {exc}) at "
            f"{Path(where.filename).name}:{where.lineno}; please report it"
        )
        return 2


def _parse_and_run(argv: list[str] | None) -> int:
    """The command ``argv`` names, run; 2 for a usage error (argparse printed its line)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse already printed the usage line, or --help
        return int(exc.code or 0) and 2
    if not hasattr(args, "run"):
        parser.print_usage(sys.stderr)
        say(f"wahanorm: error: name a command: {', '.join(NAMES)}")
        return 2
    code: int = args.run(args)
    return code
