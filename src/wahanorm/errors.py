"""One small exception hierarchy, and the collector that turns problems into diagnostics.

Problems are collected, not raised one by one: a stage reports into a ``Report`` and goes on, so
one bad block or file never stops a batch. Exceptions are for the few cases where a whole input
cannot be read; the pipeline catches ``WahanormError`` at each input's boundary.
"""

from __future__ import annotations

import functools
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field
from typing import (
    TYPE_CHECKING,
    Any,
    ClassVar,
    Generic,
    Literal,
    NamedTuple,
    TypedDict,
    TypeVar,
    Unpack,
    cast,
    overload,
)

if TYPE_CHECKING:
    from wahanorm.contract.models import Diagnostic

Severity = Literal["error", "warning", "info"]
K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


def caret_excerpt(line_text: str, column: int | None) -> str:
    """The line itself and, under it, a caret at ``column`` (1-based)."""
    text = line_text.rstrip("\n")
    if len(text) > 200:
        start = max(0, (column or 1) - 100)
        text = text[start : start + 200]
        column = (column or 1) - start
    if column is None:
        return text
    return f"{text}\n{' ' * (max(column, 1) - 1)}^"


class WahanormError(Exception):
    """Base of every error wahanorm raises on purpose; carries a position when it has one."""

    code = "internal-error"

    def __init__(
        self,
        message: str,
        path: str = "",
        line: int | None = None,
        column: int | None = None,
        excerpt: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.path = path
        self.line = line
        self.column = column
        self.excerpt = excerpt

    def to_diagnostic(self, code: str | None = None) -> DiagnosticRow:
        """This error as a diagnostic: of its own code, or of ``code`` (the problem it is where
        it was met: a ``ParseFailure`` of a weapon row is a ``weapon-row``), with the severity
        the catalogue gives that code."""
        said = code or self.code
        return diagnostic_row(
            severity_of(said), said, self.message, self.path, self.line, self.column, self.excerpt
        )


class InputError(WahanormError):
    """An input cannot be read at all: missing, undecodable, too large, not a known format."""

    code = "input-error"


class ParseFailure(WahanormError):
    """A block of text does not follow its grammar."""

    code = "parse-error"


class UsageError(WahanormError):
    """The command line asks for something impossible (exit 2)."""

    code = "usage"


class DiagnosticRow(NamedTuple):
    """A diagnostic as the program holds it, from the ``Report`` that collects it to the run
    cache and the terminal: plain values, the fields of the contract's ``Diagnostic`` in its
    order (``tests/test_diagnostic_rows.py`` holds both), made into that model only where a
    caller asks for models (``Conversion.diagnostics``, the Python API): a batch says tens of
    thousands of diagnostics, and a model costs far more than a tuple to make, pickle and dump
    (``scripts/BENCHMARKS.md``)."""

    severity: Severity
    code: str
    message: str
    path: str
    line: int | None
    column: int | None
    excerpt: str | None


@functools.cache  # asked of every diagnostic: a dump gives about 75
def severity_of(code: str) -> Severity:
    """The severity the catalogue gives a code; ``ValueError`` for a code it lacks (a bug: every
    code the program emits is in ``contract.codes``)."""
    from wahanorm.contract.codes import CATALOGUE

    entry = CATALOGUE.get(code)
    if entry is None:
        raise ValueError(f"diagnostic code {code!r} is not in the catalogue (contract/codes.py)")
    return entry.severity


TEXT_MOST = 2000
"""The most characters a diagnostic's message or excerpt keeps (a message quotes the value it
is about, and a hostile value is megabytes); past it the text is cut and says how much was."""

SAID_MOST = 1000
"""The most diagnostics of one code a report keeps for one file: past it they are counted, and
one ``diagnostics-capped`` warning says how many (``Report.close``). No real input comes near it
(the most of one code in one file of ``../shared`` is some 200)."""


def bounded_text(text: str, most: int = TEXT_MOST) -> str:
    """``text``, or its first ``most`` characters and how many more there were."""
    if len(text) <= most:
        return text
    return f"{text[:most]}… ({len(text) - most} more characters)"


def diagnostic_row(
    severity: Severity,
    code: str,
    message: str,
    path: str,
    line: int | None = None,
    column: int | None = None,
    excerpt: str | None = None,
) -> DiagnosticRow:
    """A diagnostic, made here and nowhere else: its code the catalogue's, of the catalogue's
    severity (``ValueError`` else), each value of its field's type (``TypeError`` else: a row is
    written to ``index.json`` as it is, and a line of ``3.0`` or ``True`` is no line). Both are
    bugs, which a run reports as an ``internal-error`` of the input it was reading."""
    if severity_of(code) != severity:
        raise ValueError(f"diagnostic {code!r} is a {severity_of(code)}, not a {severity}")
    if not (
        isinstance(message, str)
        and isinstance(path, str)
        and (line is None or type(line) is int)
        and (column is None or type(column) is int)
        and (excerpt is None or isinstance(excerpt, str))
    ):
        raise TypeError(
            f"diagnostic {code!r}: message, path and excerpt must be text, line and column whole "
            f"numbers: {(message, path, line, column, excerpt)!r}"[:TEXT_MOST]
        )
    if len(message) > TEXT_MOST:
        message = bounded_text(message)
    if excerpt is not None and len(excerpt) > TEXT_MOST:
        excerpt = bounded_text(excerpt)
    return DiagnosticRow(severity, code, message, path, line, column, excerpt)


def as_row(diagnostic: Diagnostic) -> DiagnosticRow:
    """A diagnostic model as plain values."""
    d = diagnostic
    return DiagnosticRow(d.severity, d.code, d.message, d.path, d.line, d.column, d.excerpt)


class Where(TypedDict, total=False):
    """Where a diagnostic was found, past its line: ``Report.error``, ``warning`` and ``info``
    take these keywords (typed, so that mypy checks every call) and hand them to ``add``."""

    column: int | None
    excerpt: str | None
    path: str | None


@dataclass
class Report:
    """Collects the diagnostics of one input (or one run); never raises."""

    path: str = ""
    diagnostics: list[DiagnosticRow] = field(default_factory=list)
    said_once: set[tuple[str, str]] = field(default_factory=set)
    """(code, key) of the diagnostics said once per input (``first_time``)."""
    asked_once: int = field(default=0, repr=False)
    """How often ``first_time`` was asked (``BatchMemo`` keeps no reading that asked it)."""
    said: dict[tuple[str, str], int] = field(default_factory=dict, repr=False, compare=False)
    """How many diagnostics of each (path, code) were said, kept or not (``SAID_MOST``)."""
    most: int | None = field(default=SAID_MOST, repr=False, compare=False)
    """The cap of one (path, code) (None: no cap, for a scratch report whose rows are said again
    in a capped one)."""
    heard: int = field(default=0, repr=False, compare=False)
    """How many diagnostics were said in all, kept or not: what tells a reading that said
    something (``read_once``, ``BatchMemo``) when past the cap nothing more is kept."""

    def _keep(self, row: DiagnosticRow) -> None:
        """Keep ``row``, unless its file said its code ``SAID_MOST`` times already."""
        self.heard += 1
        key = (row.path, row.code)
        times = self.said.get(key, 0) + 1
        self.said[key] = times
        if self.most is None or times <= self.most:
            self.diagnostics.append(row)

    def close(self) -> None:
        """Say, once per (file, code) past the cap, how many diagnostics were not kept (the
        pipeline closes each input's report when its reading ends)."""
        most = self.most
        if most is None:
            return
        for (path, code), times in list(self.said.items()):
            if times > most:
                self.diagnostics.append(
                    diagnostic_row(
                        "warning",
                        "diagnostics-capped",
                        f"{times - most} more {code!r} diagnostics of this file are not "
                        f"listed (the first {most} are): it repeats one problem",
                        path,
                    )
                )
                self.said[path, code] = most

    def first_time(self, code: str, key: str) -> bool:
        """True the first time ``key`` is asked under ``code`` in this input: for what is
        reported once per name (an unknown weapon ability) however often it is met."""
        self.asked_once += 1
        if (code, key) in self.said_once:
            return False
        self.said_once.add((code, key))
        return True

    @overload
    def read_once(self, memo: dict[K, V], key: K, read: Callable[[], V]) -> V: ...
    @overload
    def read_once(self, memo: dict[K, V], key: K, read: Callable[[], V | None]) -> V | None: ...
    def read_once(self, memo: dict[K, V], key: K, read: Callable[[], V | None]) -> V | None:
        """What ``read()`` makes of a row or definition a source repeats (the same weapon on
        hundreds of datasheets), kept in ``memo`` under ``key`` when its reading said nothing
        (no diagnostic, nothing said once) and then not read again; a reading that said
        something is read again wherever it is met, so that each diagnostic keeps its line.
        ``read()`` gives None for a row it leaves out (never kept). The value is shared:
        models are immutable."""
        known = memo.get(key)
        if known is not None:
            return known
        said = self.heard, len(self.said_once)
        made = read()
        if made is not None and (self.heard, len(self.said_once)) == said:
            memo[key] = made
        return made

    def add(
        self,
        severity: Severity,
        code: str,
        message: str,
        line: int | None = None,
        column: int | None = None,
        excerpt: str | None = None,
        path: str | None = None,
    ) -> None:
        """Record one diagnostic (``diagnostic_row``): every one is kept (``index.json`` holds
        them all; the terminal shortens), up to ``SAID_MOST`` of one code in one file."""
        where = self.path if path is None else path
        self._keep(diagnostic_row(severity, code, message, where, line, column, excerpt))

    def failure(self, exc: WahanormError, code: str | None = None) -> None:
        """Record an error raised on the way (a ``ParseFailure``) as the problem it is here:
        ``code`` (else its own), at its position."""
        diagnostic = exc.to_diagnostic(code)
        if not diagnostic.path:
            diagnostic = diagnostic._replace(path=self.path)
        self._keep(diagnostic)

    def error(
        self, code: str, message: str, line: int | None = None, **where: Unpack[Where]
    ) -> None:
        """Record an error: something could not be parsed or read."""
        self.add("error", code, message, line, **where)

    def warning(
        self, code: str, message: str, line: int | None = None, **where: Unpack[Where]
    ) -> None:
        """Record a warning: a hole in the source, a conflict, a guess."""
        self.add("warning", code, message, line, **where)

    def info(
        self, code: str, message: str, line: int | None = None, **where: Unpack[Where]
    ) -> None:
        """Record an info: a repetition dropped, something skipped on purpose."""
        self.add("info", code, message, line, **where)

    def extend(self, other: Report) -> None:
        """Take over the diagnostics of another report, as they are: its own cap said first
        (each input's report is capped where it was read; the run's takes them all)."""
        other.close()
        self.diagnostics.extend(other.diagnostics)
        self.heard += len(other.diagnostics)

    def __getstate__(self) -> dict[str, object]:
        """What a report sends to another process: its diagnostics as plain tuples (a worker's
        results cross to the main process pickled, and a named tuple is pickled through a call
        of its own, five times slower)."""
        state = dict(self.__dict__)
        state["diagnostics"] = list(map(tuple, self.diagnostics))
        state["said"] = {}  # counted for the cap in the process that read (``close``d there)
        return state

    def __setstate__(self, state: dict[str, object]) -> None:
        rows = cast("list[tuple[Any, ...]]", state["diagnostics"])
        self.__dict__.update(state, diagnostics=list(map(DiagnosticRow._make, rows)))


LINES_KEPT = 8192
"""How many lines a memo of lines (``BatchMemo`` keyed by a line's text) keeps."""
LONGEST_KEPT = 2000
"""The longest line (in characters) a memo of lines keeps: a text of one huge line is read
each time instead of held."""


def _characters(key: object) -> int:
    """How many characters a memo's key holds: a text's, or the texts' of a tuple."""
    if isinstance(key, str):
        return len(key)
    if isinstance(key, tuple):
        return sum(map(_characters, key))
    return 0


class BatchMemo(Generic[K, V]):
    """What readings made of a text that inputs of one batch repeat (the core stratagems and
    rules printed on every page dump of a folder), kept across those inputs so that each is read
    once, at most ``size`` of them (the oldest go first).

    Only a reading that said nothing and asked nothing is kept: unlike ``Report.read_once``
    (one input, where a note already said once stays said), a reading that asked
    ``Report.first_time`` is read again, since in another input it would say its note. So what
    an input gives never depends on the inputs read before it: its diagnostics are its own, and
    a kept value is what reading it again would make (models are immutable). A memo of a module
    lives as long as the process, holding at most ``size`` values; threads may share it."""

    _every: ClassVar[weakref.WeakSet[BatchMemo[Hashable, object]]] = weakref.WeakSet()

    def __init__(self, size: int, longest: int | None = None) -> None:
        if size < 1:
            raise ValueError(f"a memo keeps at least one value, not {size}")
        self.size = size
        self.longest = longest
        """Keys of more characters than this (a text, or a tuple of texts: all of theirs) are
        not kept: a memo of lines holds at most ``size`` lines of at most this length."""
        # In the order kept, the oldest first: an OrderedDict drops its first in constant time,
        # where a dict's first key is found past every slot dropped before it
        # (``scripts/bench_memo.py`` measures both).
        self._kept: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()  # two threads that keep at once drop one oldest each
        BatchMemo._every.add(self)  # type: ignore[arg-type]

    def __len__(self) -> int:
        return len(self._kept)

    def get(self, key: K) -> V | None:
        """The value kept for ``key``, or None."""
        return self._kept.get(key)

    def each(self, keys: list[K], read: Callable[[list[K]], list[V]]) -> list[V]:
        """The value of each of ``keys``: the kept ones, and ``read`` of all the others at once
        (their values in order), which are kept. For what a batch's inputs repeat line by line:
        ``read`` must be a pure function of each key, whatever keys it is given with, and say
        nothing into a report (what it finds of a line, its notes, is part of the value, which
        each input reports at its own line)."""
        made: list[V | None] = list(map(self._kept.get, keys))
        missed = [at for at, value in enumerate(made) if value is None]
        if missed:
            asked = [keys[at] for at in missed]
            fresh = read(asked)
            for at, value in zip(missed, fresh, strict=True):
                made[at] = value
            with self._lock:
                self._put(zip(asked, fresh, strict=True))
        return made  # type: ignore[return-value]  # every None was filled

    def keep(self, key: K, value: V) -> None:
        """Keep ``value`` for ``key`` (for a reading that can say nothing: a pure function of
        ``key``), the oldest value going when the memo is full."""
        with self._lock:
            self._put(((key, value),))

    def _put(self, pairs: Iterable[tuple[K, V]]) -> None:
        """Keep each value by its key (the lock held), the oldest value going when the memo is
        full. (All at once: the first dump of a batch keeps some 1,800 lines in four memos.)"""
        kept, size, longest = self._kept, self.size, self.longest
        for key, value in pairs:
            if longest is not None and _characters(key) > longest:
                continue
            if len(kept) >= size and key not in kept:
                kept.popitem(last=False)
            kept[key] = value

    def read(self, report: Report, key: K, read: Callable[[], V | None]) -> V | None:
        """The kept value for ``key``, else ``read()`` (None: nothing to keep), kept when the
        reading said and asked nothing in ``report``."""
        known = self._kept.get(key)
        if known is not None:
            return known
        before = report.heard, report.asked_once
        made = read()
        if made is not None and (report.heard, report.asked_once) == before:
            self.keep(key, made)
        return made

    @classmethod
    def clear_all(cls) -> None:
        """Forget what every memo keeps (a benchmark of first readings, a test)."""
        for memo in list(cls._every):
            with memo._lock:
                memo._kept.clear()


class OutputError(WahanormError):
    """The output folder cannot be written as asked: not wahanorm's, busy, or a path in it
    that would lead elsewhere (exit 2, nothing touched)."""

    code = "output-refused"
