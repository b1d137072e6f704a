"""The BSData reader on the reader interface: BattleScribe game systems (``.gst``) and
catalogues (``.cat``), in XML, in their JSON form, or zipped (``.catz``/``.gstz``).

A catalogue links into its game system and the catalogues it imports, so the reader reads its
files *together*: the BattleScribe files of one folder, or all those named on the command line,
are one input (discovery groups them: ``Source.members``). Recognised by content (a ``.json``
of another shape is no catalogue); the parsers load on the first read."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar, Literal

from wahanorm.readers.base import ReadContext, Reading, Source
from wahanorm.readers.bsdata.recognise import SUFFIXES, is_bsdata


class BsdataReader:
    """A set of BattleScribe files (a game system and its catalogues), read as one data set."""

    name: ClassVar[str] = "bsdata"
    takes: ClassVar[Literal["file", "folder"]] = "file"
    together: ClassVar[bool] = True

    def wants(self, path: Path, in_folder: bool) -> bool:
        return path.suffix.lower() in SUFFIXES

    def recognises(self, source: Source) -> bool:
        return all(is_bsdata(member.path, member.head()) for member in source.files)

    def read(self, source: Source, context: ReadContext) -> Reading:
        from wahanorm.readers.bsdata.read import read_catalogues

        return read_catalogues(source.files, source.display, source.edition)
