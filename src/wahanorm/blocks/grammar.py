"""The one cached factory for the Lark parsers of ``grammars/*.lark``.

Grammars ship inside the wheel as ``wahanorm/grammars``; in a source checkout they are read from
the top-level ``grammars/`` folder. Each parser is built once per process (LALR, contextual lexer,
positions on) and Lark's own cache keeps the analysed grammar between processes.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from lark import Lark, Transformer, UnexpectedInput

from wahanorm.errors import ParseFailure, caret_excerpt


def grammar_dir() -> Path:
    """The folder that holds the ``.lark`` files."""
    package = Path(__file__).parents[1]  # the wahanorm package
    packaged = package / "grammars"
    if packaged.is_dir():
        return packaged
    return package.resolve().parents[1] / "grammars"


@functools.cache
def parser(name: str, start: str, transformer: Transformer[Any, Any] | None = None) -> Lark:
    """The LALR parser of ``grammars/<name>.lark`` from rule ``start``, built once. With a
    ``transformer``, LALR applies it while parsing and no tree is built."""
    return Lark(
        (grammar_dir() / f"{name}.lark").read_text(encoding="utf-8"),
        parser="lalr",
        lexer="contextual",
        start=start,
        # Positions feed the trees' metadata; an inline transformer builds no tree (errors carry
        # their line and column either way), and leaving them off makes a parse a fifth faster.
        propagate_positions=transformer is None,
        maybe_placeholders=False,
        transformer=transformer,
        # Lark's cache (in the temp folder) skips the grammar analysis in later processes. It
        # holds no transformer (Lark leaves it out of the cache's key and gives it on loading),
        # so a parser with an inline transformer is cached too.
        cache=True,
    )


def parse(
    name: str,
    start: str,
    text: str,
    path: str = "",
    first_line: int = 1,
    transformer: Transformer[Any, Any] | None = None,
) -> object:
    """Parse ``text``; a syntax error becomes a ``ParseFailure`` with line, column and caret,
    its line counted from ``first_line`` of the input file."""
    try:
        return parser(name, start, transformer).parse(text)
    except UnexpectedInput as exc:
        line = getattr(exc, "line", 1) or 1
        column = getattr(exc, "column", 1) or 1
        lines = text.split("\n")
        bad = lines[line - 1] if 0 < line <= len(lines) else ""
        raise ParseFailure(
            f"{name} grammar ({start}) cannot read this line",
            path=path,
            line=first_line + line - 1,
            column=column,
            excerpt=caret_excerpt(bad, column),
        ) from None
