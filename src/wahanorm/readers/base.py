"""The reader interface: what every input format implements, and what a reader gives back.

A reader is told one ``Source`` (a file, a folder, the files of a set that link to each other,
or bytes read once from standard input or a device) and gives a ``Reading``: the entities it read, grouped in ``Part``\\ s that each tell
their edition as a whole (a page of a dump, a saved page, an export), and its ``Report``.
Nothing else is a reader's job: the edition is stamped, implausible entities are dropped,
missing data and repeats are reported once for every reader, after reading
(``pipeline.after_read``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Protocol

from wahanorm.blocks import decode as decoding
from wahanorm.contract.vocabulary import Edition
from wahanorm.errors import InputError, Report

if TYPE_CHECKING:
    from wahanorm.contract.models import (
        Datasheet,
        Detachment,
        DetachmentRule,
        Enhancement,
        Rule,
        Stratagem,
    )

    Entity = Datasheet | Stratagem | DetachmentRule | Enhancement | Detachment | Rule
    """Any entity a reader builds."""


def __getattr__(name: str) -> Any:
    # ``Entity`` at run time, made on first use: finding inputs (and ``wahanorm --help``) does
    # not load the models and pydantic.
    if name == "Entity":
        from wahanorm.contract import models

        return (
            models.Datasheet
            | models.Stratagem
            | models.DetachmentRule
            | models.Enhancement
            | models.Detachment
            | models.Rule
        )
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


HTML_SUFFIXES = frozenset({".html", ".htm", ".xhtml"})


@dataclass(frozen=True)
class Source:
    """One input as discovery found it: its path on disk, the path shown in sources and
    diagnostics, and (for what can be read only once: standard input, a pipe, a device) its
    bytes, or why they could not be read."""

    path: Path
    display: str
    in_folder: bool = False
    """Found by walking a folder (not named by the user): only files whose name promises an
    input are read there."""
    edition: Edition | None = None
    """The edition the user said (``--edition``), for an input that does not tell its own."""
    language: str | None = None
    """The language the user asked names and texts in (``--language de``), for an input that
    gives several; None for English."""
    data: bytes | None = None
    problem: str | None = None
    html: bool | None = None
    """Whether the input is HTML, where its caller says so (a string given to the API)."""
    members: tuple[Source, ...] = ()
    """The files of one input made of several (a reader that reads its files ``together``:
    catalogues that link to each other), in reading order; ``path`` is then the folder they
    share and ``display`` how the set is named. Empty for an input of one file or folder."""

    @property
    def is_folder(self) -> bool:
        """True for a folder input (an export)."""
        return (
            self.data is None and self.problem is None and not self.members and self.path.is_dir()
        )

    @property
    def files(self) -> tuple[Source, ...]:
        """The files of this input: its members, or itself."""
        return self.members or (self,)

    @property
    def suffix(self) -> str:
        """The file name's ending, lower case (``""`` for standard input)."""
        return "" if self.data is not None and self.path == Path("-") else self.path.suffix.lower()

    @functools.cached_property
    def content(self) -> bytes:
        """The bytes of a file input, refusing what is too large to be a rules text (kept:
        read once)."""
        return self.load()

    def load(self) -> bytes:
        """The bytes of a file input, read now and not kept (``content`` keeps them); raises
        ``InputError`` for what cannot be read or is too large to be a rules text."""
        if self.problem is not None:
            raise InputError(self.problem, path=self.display)
        if self.data is not None:
            return self.data
        return decoding.read_bounded(self.path, self.display)

    @functools.cached_property
    def decoded(self) -> tuple[str, tuple[str, ...]]:
        """The text and the notes on how its bytes were decoded (``blocks.decode``)."""
        text, notes = decoding.decode(self.content, self.display)
        return text, tuple(notes)

    @property
    def decode_notes(self) -> tuple[str, ...]:
        """How the text was decoded, where it had to guess (empty when it was never decoded)."""
        decoded = self.__dict__.get("decoded")
        return decoded[1] if decoded else ()

    @property
    def text(self) -> str:
        """The input as text."""
        return self.decoded[0]

    def head(self, size: int = 4096) -> bytes:
        """The first bytes of a file input, without reading it whole (empty when unreadable)."""
        if self.data is not None:
            return self.data[:size]
        try:
            with self.path.open("rb") as handle:
                return handle.read(size)
        except OSError:
            return b""

    def looks_like_html(self) -> bool:
        """An HTML file by what its caller says, by its name, or (no name: standard input, a
        pipe) by a leading tag."""
        if self.html is not None:
            return self.html
        if self.suffix in HTML_SUFFIXES:
            return True
        if self.suffix or self.in_folder:
            return False
        return self.head(512).lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<")


@dataclass(frozen=True)
class EditionSign:
    """What a part of an input tells of its edition: the edition (None when nothing), the sign
    and its verb (``the page's links say``) or why nothing was told, and where."""

    edition: Edition | None
    told: str = ""
    untold: str = "nothing in this input tells its edition"
    line: int | None = None
    path: str | None = None


@dataclass
class Part:
    """Entities of one part of an input that tells its edition as a whole (a page of a dump, a
    saved page, an export), and what each entity's own source tells beside it (an export row's
    own link), by position."""

    entities: list[Entity]
    sign: EditionSign
    own: dict[int, Edition] = field(default_factory=dict)


@dataclass
class Reading:
    """What a reader read from one input: parts of entities, its report, the data's version."""

    path: str
    parts: list[Part] = field(default_factory=list)
    report: Report = field(default_factory=Report)
    data_version: str | None = None

    def __post_init__(self) -> None:
        if not self.report.path:
            self.report.path = self.path

    @property
    def entities(self) -> list[Entity]:
        """Every entity read, in order."""
        return [e for part in self.parts for e in part.entities]


@dataclass
class ReadContext:
    """What a reader is told besides its source: the user's edition, where to say what step a
    long input is at (a progress bar), and how to hand a text to another reader (a saved page
    that is no Wahapedia page goes to the generic HTML reader) without knowing it."""

    read_as: Callable[[str, Source], Reading]
    stage: Callable[[str], None] = lambda _step: None


class Reader(Protocol):
    """One input format."""

    name: ClassVar[str]
    """The reader's name in the registry and in notes (``dump``, ``export``)."""
    takes: ClassVar[Literal["file", "folder"]]
    """Whether it reads one file or a whole folder as one input."""
    together: ClassVar[bool]
    """For a reader of files: whether the files of its format that are named together on the
    command line, or lie in one folder, are one input (they link to each other: a game system
    and its catalogues). Discovery groups them into one ``Source`` with ``members``."""

    def wants(self, path: Path, in_folder: bool) -> bool:
        """Cheaply, by name (and for a folder by what it holds): may this be an input of
        mine? In a folder only files whose name promises an input are read."""
        ...

    def recognises(self, source: Source) -> bool:
        """By content: is this source mine? Asked in reading order; the first that says yes
        reads it."""
        ...

    def read(self, source: Source, context: ReadContext) -> Reading:
        """Every entity of the source and the diagnostics met; never raises for a bad input
        (a ``WahanormError`` may end the reading; it becomes an error diagnostic)."""
        ...
