"""The dump reader on the reader interface (its parsers load on the first read)."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar, Literal

from wahanorm.readers.base import ReadContext, Reading, Source

FOLDER_TEXT_SUFFIXES = frozenset({".txt", ".text"})
"""A folder's text files read as dumps: its ``README.md`` or ``LICENSE`` are no rules text (a
file named on the command line is read whatever its ending)."""


class DumpReader:
    """A text dump of a datasheet page, in any of its three layouts (the last reader asked:
    any text a user names that no other reader takes)."""

    name: ClassVar[str] = "dump"
    takes: ClassVar[Literal["file", "folder"]] = "file"
    together: ClassVar[bool] = False

    def wants(self, path: Path, in_folder: bool) -> bool:
        return not in_folder or path.suffix.lower() in FOLDER_TEXT_SUFFIXES

    def recognises(self, source: Source) -> bool:
        return not source.looks_like_html()

    def read(self, source: Source, context: ReadContext) -> Reading:
        from wahanorm.readers.dump.read import read_dump

        return read_dump(source.text, source.display)
