"""The registry: every reader, in the order they are asked. Discovery, the pipeline, the cache
and the API ask here; none of them names a format.

A new format is one module implementing ``readers.base.Reader`` and one line in ``READERS``
(the development docs show how). A reader's module is light: its parsers load on its first
``read``, so a run served from the cache loads none of them.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from wahanorm.readers.base import ReadContext, Reader, Reading, Source
from wahanorm.readers.bsdata.reader import BsdataReader
from wahanorm.readers.dump.reader import DumpReader
from wahanorm.readers.export.reader import ExportReader
from wahanorm.readers.gamedatacards.reader import GameDatacardsReader
from wahanorm.readers.generic_html.reader import GenericHtmlReader
from wahanorm.readers.page.reader import PageReader

READERS: tuple[Reader, ...] = (
    ExportReader(),
    BsdataReader(),
    GameDatacardsReader(),
    PageReader(),
    GenericHtmlReader(),
    DumpReader(),
)
"""Every reader, asked in this order: the first that recognises a source reads it."""


def by_name(name: str) -> Reader:
    """The reader of that name (``KeyError`` for none)."""
    for reader in READERS:
        if reader.name == name:
            return reader
    raise KeyError(name)


def folder_reader(path: Path) -> Reader | None:
    """The reader that takes the folder ``path`` as one input, or None (a folder to walk)."""
    return next((r for r in READERS if r.takes == "folder" and r.wants(path, False)), None)


def wants_file(path: Path, in_folder: bool) -> bool:
    """Whether some reader may read the file ``path`` (in a folder: by its name)."""
    return any(r.takes == "file" and r.wants(path, in_folder) for r in READERS)


def reader_for(source: Source) -> Reader | None:
    """The first reader that recognises the source, or None (a set of files: the first reader
    of files together that recognises every one)."""
    if source.members:
        return next((r for r in READERS if r.together and r.recognises(source)), None)
    takes = "folder" if source.is_folder else "file"
    return next((r for r in READERS if r.takes == takes and r.recognises(source)), None)


def together_reader(source: Source) -> Reader | None:
    """The reader that reads this file together with others of its format (``Reader.together``)
    when it is the one that recognises it; None for any other input. Only readers that want the
    file by name are asked, so a folder walk reads no file's first bytes for nothing."""
    if source.data is not None or source.problem is not None or source.members:
        return None
    if not any(r.together and r.wants(source.path, source.in_folder) for r in READERS):
        return None
    if source.is_folder:
        return None
    reader = reader_for(source)
    return reader if reader is not None and reader.together else None


def wanted_only_together(path: Path) -> bool:
    """True when only readers of files together want the file ``path`` in a folder by its
    name: it is an input only if one of them recognises its content."""
    wanting = [r for r in READERS if r.takes == "file" and r.wants(path, True)]
    return bool(wanting) and all(r.together for r in wanting)


def read(source: Source, reader: Reader, stage: Callable[[str], None] | None = None) -> Reading:
    """Read ``source`` with ``reader`` (``stage`` is told the steps of a long input); a reader
    may hand a text on to another by name."""

    def read_as(name: str, handed: Source) -> Reading:
        return by_name(name).read(handed, context)

    context = ReadContext(read_as=read_as, stage=stage or (lambda _step: None))
    return reader.read(source, context)
