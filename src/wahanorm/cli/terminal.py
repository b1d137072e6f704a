"""What reaches the terminal: every line the command line prints goes through ``say``, so that
nothing from the outside world (a file name, an argument, an excerpt of an input, a name in a
planted ``out/``) can start a line of its own or drive the terminal (colour it, clear it,
retitle it, reverse its text).

``visible`` writes each control character (newline, carriage return, ESC and the other C0 and
C1 characters), each bidirectional override and each Unicode line or paragraph separator as an
escape (``\\n``, ``\\x1b``, ``\\u202e``); a tab is kept. Reports written to standard output (a
diff, a crosscheck, a card) are escaped by their renderers, value by value, since their own
line breaks and colours are theirs; JSON and markdown written to files keep their exact text.
"""

from __future__ import annotations

import argparse
import sys
from typing import IO, Any, NoReturn

from wahanorm.contract.ids import escape_line


def visible(text: str) -> str:
    """``text`` as one line that shows what it holds: every control character, bidi override
    and line separator written as its escape, a tab kept (``ids.escape_line``)."""
    return escape_line(text)


def say(text: str, file: IO[str] | None = None) -> None:
    """Print the one line ``text`` (on stderr unless ``file`` says otherwise), escaped."""
    print(visible(text), file=file or sys.stderr)


def say_lines(text: str, file: IO[str] | None = None) -> None:
    """Print ``text``, lines of wahanorm's own (``explain``), each line escaped."""
    print("\n".join(visible(line) for line in text.split("\n")), file=file or sys.stderr)


class ArgumentParser(argparse.ArgumentParser):
    """argparse, whose error line (it quotes the argument it refuses) is escaped as well, and
    for which a reader gone away while it prints ``--help`` is said as for any command
    (argparse itself swallows the error and ends with 0)."""

    def _print_message(self, message: str, file: Any = None) -> None:
        if message:
            (file or sys.stderr).write(message)

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {visible(message)}\n")
