"""``wahanorm convert``: inputs → an output folder (or ``--check`` of one), with what went wrong
said on the terminal and every diagnostic in ``index.json``."""

from __future__ import annotations

import argparse
import contextlib
import os
import shlex
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from wahanorm.cli.terminal import say, visible
from wahanorm.contract.vocabulary import kind_words

if TYPE_CHECKING:
    from wahanorm import pipeline
    from wahanorm.errors import DiagnosticRow
    from wahanorm.pipeline.cache import Cache

# What a run needs is imported where it runs: parsing the arguments (``--help``) loads none of
# it.

DEFAULT_INPUT = Path("raw")
DEFAULT_OUT = Path("out")


def add(commands: Any) -> None:
    """Declare ``convert`` and its arguments."""
    convert = commands.add_parser(
        "convert",
        help="convert dumps, pages, exports and BSData catalogues to JSON",
        description="Read text dumps, saved Wahapedia pages, Wahapedia CSV export folders and "
        "BSData catalogues, and write one canonical JSON file per entity and index.json (every "
        "entity and diagnostic) into --out. It writes only into a folder that is new, empty or "
        "its own, and deletes only files it wrote. Manual: docs/convert.md.",
    )
    convert.set_defaults(run=run_convert)
    convert.add_argument(
        "inputs",
        nargs="*",
        type=Path,
        help="files and folders, or - for standard input (default: raw/)",
    )
    convert.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output folder (out/)")
    convert.add_argument(
        "--check", action="store_true", help="fail (exit 1) if --out is not what would be written"
    )
    convert.add_argument(
        "--quiet", "-q", action="store_true", help="print the summary only, not each diagnostic"
    )
    convert.add_argument(
        "--jobs",
        "-j",
        type=int,
        default=os.cpu_count() or 1,
        help="worker processes for many inputs (default: all cores; the output is the same)",
    )
    convert.add_argument(
        "--cache",
        type=Path,
        default=None,
        help="incremental cache folder (default .wahanorm-cache/; safe to delete)",
    )
    convert.add_argument("--no-cache", action="store_true", help="convert everything again")
    convert.add_argument(
        "--sqlite", type=Path, metavar="DB", help="also write the SQLite database of the output"
    )
    convert.add_argument(
        "--edition",
        type=int,
        choices=(10, 11),
        help="the game's edition of inputs that do not tell their own (else guessed: 10)",
    )
    convert.add_argument(
        "--language",
        metavar="CODE",
        help="read names and texts in this language where an input gives several "
        "(Game-Datacards: de, es, fr, it, ja, ko, zh); ids stay English (default: en)",
    )
    convert.add_argument(
        "--cache-max",
        type=_size,
        default=None,
        metavar="SIZE",
        help="size cap of the cache, e.g. 200M or 2G (default 512M; least recently used out first)",
    )


def _size(text: str) -> int:
    """``512M``, ``2G``, ``300K`` or a number of bytes."""
    units = {"": 1, "K": 1024, "M": 1024**2, "G": 1024**3}
    number, unit = text.strip().upper().rstrip("B"), ""
    if number[-1:] in units.keys() - {""}:
        number, unit = number[:-1], number[-1]
    if not number.isdigit():
        raise argparse.ArgumentTypeError(f"not a size: {text!r} (give e.g. 200M or 2G)")
    return int(number) * units[unit]


def write_database(build: Callable[[], object], target: Path) -> tuple[int, int]:
    """Run ``build`` (which writes the database at ``target``); (0, entities written), or
    (2, 0) with one line on stderr."""
    import sqlite3  # here: a plain convert does not load it

    from wahanorm.errors import WahanormError

    try:
        build()
    except WahanormError as exc:
        say(f"wahanorm: error: {exc.message}")
        return 2, 0
    except OSError as exc:
        say(f"wahanorm: error: cannot write the database {target}: {exc.strerror or exc}")
        return 2, 0
    except sqlite3.Error as exc:
        say(f"wahanorm: error: cannot write the database {target}: {exc}")
        return 2, 0
    db = sqlite3.connect(f"{target.resolve().as_uri()}?mode=ro", uri=True)
    try:
        (entities,) = db.execute("SELECT count(*) FROM entities").fetchone()
    finally:
        db.close()
    return 0, int(entities)


def run_convert(args: argparse.Namespace) -> int:
    """Convert, then write ``--out`` (or compare it with ``--check``)."""
    inputs: list[Path] = args.inputs or [DEFAULT_INPUT]
    from wahanorm.pipeline.discover import STDIN

    missing = [p for p in inputs if p != STDIN and not p.exists()]
    if missing and len(missing) == len(inputs):
        say(f"wahanorm: error: no such input: {missing[0]} (give a file or folder)")
        return 2
    if args.check and args.sqlite:
        say(
            "wahanorm: error: --check writes nothing, --sqlite writes a database: give one of "
            "them (check first, then 'wahanorm db OUT DB')"
        )
        return 2
    if args.check and args.out.exists() and not args.out.is_dir():
        say(f"wahanorm: error: --out {args.out} is a file, not a folder")
        return 2
    if args.jobs < 1:
        say("wahanorm: error: --jobs takes a whole number of 1 or more")
        return 2
    from wahanorm.errors import WahanormError
    from wahanorm.outputs.folder import claim_problem
    from wahanorm.pipeline.cache import DEFAULT_CACHE, DEFAULT_MAX_BYTES, Cache

    problem = claim_problem(args.out, inputs) if not args.check else None
    if not problem and args.sqlite:
        from wahanorm.outputs.database import target_problem

        problem = target_problem(args.sqlite, inputs, args.out)
    if problem:  # before anything is read or written: nothing touched
        say(f"wahanorm: error: {problem}")
        return 2
    try:
        if args.no_cache:
            return _convert(args, inputs, None)
        store = Cache(args.cache or DEFAULT_CACHE)
        with store.locked() as usable:
            code = _convert(args, inputs, store if usable else None)
            if usable:
                store.trim(DEFAULT_MAX_BYTES if args.cache_max is None else args.cache_max)
        for note in store.notes:
            say(f"wahanorm: note: {note}")
        return code
    except WahanormError as exc:
        say(f"wahanorm: error: {exc.message}")
        return 2
    except BrokenPipeError:
        raise  # our own output's reader went away, not --out: the command line ends quietly
    except OSError as exc:
        say(f"wahanorm: error: cannot write to {args.out}: {exc.strerror or exc}")
        return 2


def _convert(args: argparse.Namespace, inputs: list[Path], store: Cache | None) -> int:
    from wahanorm import pipeline
    from wahanorm.pipeline.collector import frozen

    started = time.perf_counter()
    with _progress_bar() as progress:
        result = pipeline.convert(
            inputs,
            jobs=args.jobs,
            cache=store,
            progress=progress,
            edition=args.edition,
            language=args.language,
        )
    with frozen():
        return _written(args, inputs, store, result, started)


def _written(
    args: argparse.Namespace,
    inputs: list[Path],
    store: Cache | None,
    result: pipeline.Conversion,
    started: float,
) -> int:
    """A run's diagnostics printed and its files written (or checked, with ``--check``)."""
    from wahanorm.outputs.folder import OutputFolder
    from wahanorm.pipeline.cache import stamp_matches, store_stamp

    if args.check:
        return _check(args, result.files)
    if not args.quiet:
        print_diagnostics(result.rows())
    if not result.counts():
        # Nothing to write: an empty index over a previous run would only remove its files.
        say(f"wahanorm: {_why_nothing(result)}; nothing written to {args.out}")
        return 1

    def waiting(message: str) -> None:
        say(f"wahanorm: {message}")

    with (
        _status(f"writing {_count(len(result.files), 'file')} to {args.out} …"),
        OutputFolder(args.out, inputs, on_wait=waiting) as folder,
    ):
        if store and result.run_key and stamp_matches(store, args.out, result.run_key):
            written, removed = 0, list[str]()  # out/ is as the same run left it
        else:
            written, removed = folder.write(result.files)
            if store and result.run_key:
                store_stamp(store, args.out, result.run_key)
    if args.sqlite:
        from wahanorm.outputs.database import build_database
        from wahanorm.outputs.output import Output

        files = result.files
        code, _ = write_database(
            lambda: build_database(Output.from_files(files), args.sqlite), args.sqlite
        )
        if code:
            return code
    seconds = time.perf_counter() - started
    for rel in [] if args.quiet else removed:
        say(f"removed (no longer in the input): {args.out / rel}")
    _print_summary(result, seconds, written, removed)
    _print_hints(result, samples=not args.inputs)
    return 1 if result.failed or result.errors else 0


def _why_nothing(result: pipeline.Conversion) -> str:
    """One line on why a run gave no entity: no input found, inputs skipped, inputs failed."""
    skipped = sum(1 for d in result.rows() if d.code == "skipped-input")
    parts = [f"{_count(result.inputs, 'input')} read"]
    if skipped:
        them = "it" if skipped == 1 else "them"
        parts.append(f"{_count(skipped, 'file')} skipped (no reader knows {them})")
    if result.failed:
        parts.append(f"{len(result.failed)} failed")
    return f"no input gave an entity ({', '.join(parts)})"


@contextlib.contextmanager
def _status(message: str) -> Iterator[None]:
    """On a terminal, a line that says what the program does while it does it (writing the
    files after the last input is read), cleared when it is done."""
    shown = sys.stderr.isatty()
    if shown:
        sys.stderr.write(visible(f"wahanorm: {message}") + "\r")
        sys.stderr.flush()
    try:
        yield
    finally:
        if shown:
            sys.stderr.write("\x1b[2K")  # the whole line cleared, the cursor left at its start
            sys.stderr.flush()


@contextlib.contextmanager
def _progress_bar() -> Iterator[pipeline.Progress | None]:
    """A progress bar on a terminal (none when stderr is not one)."""
    if not sys.stderr.isatty():
        yield None
        return
    from tqdm import tqdm  # only on a terminal: the import costs a run from the cache dearly

    # No monitor thread: the bar is refreshed at each step, and beside another thread a run
    # leaves the garbage collector on (``pipeline.collector.fewer_collections``).
    tqdm.monitor_interval = 0
    with tqdm(total=0, unit="input", file=sys.stderr, leave=False, disable=None) as bar:

        def update(done: int, total: int, note: str) -> None:
            bar.total = total
            bar.n = done
            bar.set_postfix_str(visible(note)[-60:], refresh=False)
            bar.refresh()

        yield update


def _convert_command(args: argparse.Namespace) -> str:
    """The command that writes what ``--check`` compared: the same inputs, ``--out`` and
    ``--edition`` (``wahanorm convert`` alone only for the samples into ``out/``)."""
    words = ["wahanorm", "convert", *(str(p) for p in args.inputs or [])]
    if args.out != DEFAULT_OUT:
        words += ["--out", str(args.out)]
    if args.edition:
        words += ["--edition", str(args.edition)]
    return " ".join(shlex.quote(word) for word in words)


SHOWN_PER_KIND = 20
"""How many files of each kind (stale, missing, extra) ``--check`` names before it counts."""


def _check(args: argparse.Namespace, files: dict[str, str]) -> int:
    """Compare ``--out`` with what the run would write: 0 when it is that, 1 when not, naming
    the folder, what differs (unless ``--quiet``) and the command that brings it current."""
    out, command = args.out, _convert_command(args)
    if not out.exists():
        say(f"wahanorm: {out} does not exist; '{command}' writes it")
        return 1
    from wahanorm.outputs.folder import (
        existing_outputs,
        list_files,
        listed_outputs,
        own_leftover,
        reading,
    )

    with reading(out) as problem:
        present = list_files(out)
        current = existing_outputs(out)
    if problem:  # a run cut short
        say(f"wahanorm: {problem}")
        return 1
    stale = sorted(rel for rel in files if rel in current and current[rel] != files[rel])
    missing = sorted(rel for rel in files if rel not in current)
    extra = sorted(set(present) - set(files))  # any file the run would not write
    if not stale and not missing and not extra:
        say(f"wahanorm: {out} is up to date ({_count(len(files), 'file')})", sys.stdout)
        return 0
    listed = listed_outputs(out)
    theirs = [rel for rel in extra if rel not in listed and not own_leftover(rel)]
    # Under --quiet only what the command cannot mend: the files that are not wahanorm's.
    said = [("stale", stale), ("missing", missing)] if not args.quiet else []
    said.append(("not wahanorm's", theirs))
    if not args.quiet:
        said.append(("not written any more", [rel for rel in extra if rel not in theirs]))
    for word, rels in said:
        for rel in rels[:SHOWN_PER_KIND]:
            mend = " (convert leaves it; remove it)" if word == "not wahanorm's" else ""
            say(f"{word}: {out / rel}{mend}")
    counts = ", ".join(
        f"{len(rels)} {word}"
        for word, rels in (("stale", stale), ("missing", missing), ("extra", extra))
        if rels
    )
    mine = f", and remove the {_count(len(theirs), 'file')} not wahanorm's" if theirs else ""
    say(f"wahanorm: {out} is not what '{command}' writes now ({counts}); run it{mine}")
    return 1


SHOWN_PER_CODE = {"error": 20, "warning": 1}
"""How many diagnostics of one code one input shows on the terminal: a warning once, with the
count of the rest on its line (every one is in ``index.json``), so a dump that lists 48 missing
entries is one line, not 48; errors, which stop an entity, up to 20, then a count."""


def print_diagnostics(diagnostics: list[DiagnosticRow]) -> None:
    """Each error and warning with its place and excerpt, but a code one input repeats shown
    once (warnings) or 20 times (errors), with how many more there are."""
    counts = Counter((d.path, d.severity, d.code) for d in diagnostics if d.severity != "info")
    shown: Counter[tuple[str, str, str]] = Counter()
    for d in diagnostics:
        if d.severity == "info":
            continue
        group = (d.path, d.severity, d.code)
        shown[group] += 1
        limit = SHOWN_PER_CODE[d.severity]
        if shown[group] > limit:
            continue
        more = counts[group] - limit
        tail = f" (and {more} more in this input: all in index.json)" if more > 0 else ""
        last = shown[group] == limit and d.severity == "warning"
        where = d.path + (f":{d.line}" if d.line else "") + (f":{d.column}" if d.column else "")
        line = f"{where}: {d.severity}: {d.message} [{d.code}]" + (tail if last else "")
        # what an input holds (its name, its lines) is printed escaped by ``say``, never raw
        say(line)
        if d.excerpt:
            for row in d.excerpt.split("\n"):
                say(f"    {row}")
    for (path, severity, code), count in counts.items():
        more = count - SHOWN_PER_CODE[severity]
        if more > 0 and severity == "error":
            say(f"{path}: {severity}: … and {more} more [{code}] (all in index.json)")


SAMPLES_NOTE = (
    "raw/ holds the sample dumps as they were copied, holes and all, so these warnings are "
    'expected: see "The samples" in README.md'
)
EXPLAIN_NOTE = "'wahanorm explain CODE' says what a [code] means and what to do"


def _print_hints(result: pipeline.Conversion, samples: bool) -> None:
    """After a run with warnings or errors: where to look them up; after the default run over
    the samples, that their holes are on purpose."""
    if not any(d.severity != "info" for d in result.rows()):
        return
    if samples:
        say(f"wahanorm: {SAMPLES_NOTE}", sys.stdout)
    say(f"wahanorm: {EXPLAIN_NOTE}", sys.stdout)


def _count(n: int, noun: str) -> str:
    """``1 input``, ``4 inputs``, ``0 errors``."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _print_summary(
    result: pipeline.Conversion, seconds: float, written: int, removed: list[str]
) -> None:
    counts = result.counts()
    kinds = ", ".join(kind_words(kind, n) for kind, n in sorted(counts.items())) or "no entities"
    say(f"wahanorm: {_count(result.inputs, 'input')} → {kinds}", sys.stdout)
    say(f"wahanorm: diagnostics: {_by_severity(result.rows())} (all in index.json)", sys.stdout)
    say(
        f"wahanorm: {_count(written, 'file')} written, {len(removed)} removed, {seconds:.2f} s",
        sys.stdout,
    )
    if result.failed:
        failed = ", ".join(result.failed[:5])
        say(f"wahanorm: {_count(len(result.failed), 'input')} failed: {failed}", sys.stdout)


CODES_PER_SEVERITY = 5
"""How many of its most frequent codes the summary names after each severity's count."""


def _by_severity(rows: list[DiagnosticRow]) -> str:
    """``0 errors, 30 warnings (hole 13, conflict 8, …), 285 notes (glued-split 105, …)``: what
    matters first, each count with its most frequent codes."""
    parts = []
    for severity, noun in (("error", "error"), ("warning", "warning"), ("info", "note")):
        codes = Counter(d.code for d in rows if d.severity == severity)
        top = [f"{code} {n}" for code, n in codes.most_common(CODES_PER_SEVERITY)]
        if len(codes) > CODES_PER_SEVERITY:
            top.append("…")
        said = _count(sum(codes.values()), noun)
        parts.append(f"{said} ({', '.join(top)})" if top else said)
    return ", ".join(parts)
