"""``wahanorm db``, ``show`` and ``schema``: the database, a card, the JSON Schemas."""

from __future__ import annotations

import os
import shutil
import sys
import time
from pathlib import Path
from typing import Any

from wahanorm.cli.convert import DEFAULT_OUT, write_database
from wahanorm.cli.terminal import say
from wahanorm.contract.vocabulary import KINDS
from wahanorm.errors import WahanormError


def add(commands: Any) -> None:
    """Declare ``db``, ``show`` and ``schema`` and their arguments."""
    database = commands.add_parser(
        "db",
        help="build the SQLite database of an output folder",
        description="Build the SQLite database (tables per kind, full-text search over every "
        "rules text) of an output folder, read under its lock. DB must be new or a database "
        "wahanorm wrote. Manual: docs/database.md.",
    )
    database.set_defaults(run=lambda args: run_db(args.out, args.database))
    database.add_argument("out", type=Path, help="an output folder (written by convert)")
    database.add_argument(
        "database", type=Path, metavar="DB", help="the database file to write (replaced)"
    )

    show = commands.add_parser(
        "show",
        help="print a datasheet, stratagem or rule as a card",
        description="Print one entity of an output folder as a card, found by id, by name "
        "(any case and punctuation), by words of its name, or by a near spelling. Where a core "
        "rule or stratagem shares the name with others it is shown, the others named. Manual: "
        "docs/show.md.",
    )
    show.set_defaults(run=run_show)
    show.add_argument("query", metavar="NAME-OR-ID", help="an id or (part of) a name")
    show.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output folder (out/)")
    show.add_argument("--kind", choices=KINDS, help="look only among entities of this kind")
    show.add_argument(
        "--edition", type=int, choices=(10, 11), help="look only among entities of this edition"
    )

    schema = commands.add_parser(
        "schema",
        help="print the JSON Schema of an entity file or of index.json",
        description="Print the JSON Schema (draft 2020-12) of an entity file (entity, the "
        "default) or of index.json (index). Manual: docs/output.md.",
    )
    schema.set_defaults(run=lambda args: run_schema(args.which))
    schema.add_argument(
        "which",
        nargs="?",
        metavar="entity|index",
        default="entity",
        help="entity (an entity file, the default) or index (index.json)",
    )


SCHEMAS = ("entity", "index")
"""The files ``wahanorm schema`` describes."""


def run_schema(which: str) -> int:
    """Print the JSON Schema (draft 2020-12) of an entity file or of ``index.json``."""
    from wahanorm.contract.schema import SourceUnreadable, schema_of
    from wahanorm.outputs.canonical import canonical_json

    if which not in SCHEMAS:
        say(
            f"wahanorm schema: error: no schema named {which!r}: give 'entity' (an entity "
            "file of any kind, the default) or 'index' (index.json)"
        )
        return 2

    try:
        schema = schema_of(which)
    except SourceUnreadable as exc:
        say(f"wahanorm: error: {exc}")
        return 2
    sys.stdout.write(canonical_json(schema))
    return 0


def run_db(out: Path, target: Path) -> int:
    """Build the SQLite database of the output folder ``out`` (read under its shared lock)."""
    from wahanorm.outputs.database import build_database

    started = time.perf_counter()
    code, entities = write_database(lambda: build_database(out, target), target)
    if code:
        return code
    seconds = time.perf_counter() - started
    say(f"wahanorm: {target}: {entities} entities, {seconds:.2f} s", sys.stdout)
    return 0


def run_show(args: Any) -> int:
    """Print the card of the entity ``args.query`` names in ``args.out`` (choices, notes and
    problems on stderr); 2 when it names no single entity."""
    from wahanorm.outputs.card import card_of, look_up
    from wahanorm.outputs.output import Output

    try:
        with Output.reading(args.out) as output:
            found = look_up(output, args.query, args.kind, args.edition)
            for line in (*found.problem, *found.notes):
                # An indented line continues the one above it (a choice, another match).
                say(line if line.startswith(" ") else f"wahanorm show: {line}")
            if found.shown is None:
                return 2
            terminal = sys.stdout.isatty()
            bold = terminal and not os.environ.get("NO_COLOR")
            width = shutil.get_terminal_size((100, 24)).columns if terminal else 100
            card = card_of(output, found.shown, bold, width)
    except WahanormError as exc:
        say(f"wahanorm show: {exc.message}")
        return 2
    sys.stdout.write(card)
    return 0
