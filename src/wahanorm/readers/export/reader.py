"""The export reader on the reader interface: a folder holding Wahapedia's CSV tables."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar, Literal

from wahanorm.readers.base import ReadContext, Reading, Source

MARKERS = ("Datasheets.csv", "Stratagems.csv")
"""A folder holding either is an export (the reader checks every table's header)."""


class ExportReader:
    """A Wahapedia CSV export folder (or its spreadsheet re-save)."""

    name: ClassVar[str] = "export"
    takes: ClassVar[Literal["file", "folder"]] = "folder"
    together: ClassVar[bool] = False

    def wants(self, path: Path, in_folder: bool) -> bool:
        return path.is_dir() and any((path / name).is_file() for name in MARKERS)

    def recognises(self, source: Source) -> bool:
        return self.wants(source.path, source.in_folder)

    def read(self, source: Source, context: ReadContext) -> Reading:
        from wahanorm.readers.export.read import read_export

        return read_export(source.path, source.display, context.stage)
