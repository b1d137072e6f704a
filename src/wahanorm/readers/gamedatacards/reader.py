"""The Game-Datacards reader on the reader interface: one JSON file per faction (the data of
the Game-Datacards web app), told by its content, never by its name alone."""

from __future__ import annotations

import re
from pathlib import Path
from typing import ClassVar, Literal

from wahanorm.readers.base import ReadContext, Reading, Source

_OBJECT = re.compile(rb"^\s*\{")
_MARKS = (b'"compatibleDataVersion"', b'game-datacards.eu"')
"""What a Game-Datacards file holds near its top: its data version (a faction's file) or the
app's link (the core file)."""
_ENTRIES = re.compile(
    rb'"(?:(?:datasheets|stratagems|detachments|enhancements)"\s*:\s*\[|rules"\s*:\s*\{)'
)
_OTHER_ROOT = re.compile(rb'^\s*\{\s*"(?:catalogue|gameSystem)"\s*:')
"""A BattleScribe catalogue in JSON: never a Game-Datacards file, whatever it holds."""
HEAD = 16384
"""How much of a file is looked at to recognise it."""


def looks_like_gdc(head: bytes) -> bool:
    """True when ``head`` (a file's first bytes) opens a Game-Datacards file: a JSON object
    with its data version or the app's link, and a list of entries of a kind it holds. A
    BSData catalogue in JSON (``{"catalogue": …``) holds neither."""
    body = head.removeprefix(b"\xef\xbb\xbf")
    if _OBJECT.match(body) is None or _OTHER_ROOT.match(body) is not None:
        return False
    return any(mark in body for mark in _MARKS) and _ENTRIES.search(body) is not None


def _head(path: Path) -> bytes:
    try:
        with path.open("rb") as handle:
            return handle.read(HEAD)
    except OSError:
        return b""


class GameDatacardsReader:
    """A Game-Datacards faction file (``orks.json``) of either edition."""

    name: ClassVar[str] = "gamedatacards"
    takes: ClassVar[Literal["file", "folder"]] = "file"
    together: ClassVar[bool] = False

    def wants(self, path: Path, in_folder: bool) -> bool:
        # In a folder a ``.json`` promises nothing (a BSData catalogue, a tool's settings):
        # it is wanted when its first bytes open a Game-Datacards file; named, by its name.
        if path.suffix.lower() != ".json":
            return False
        return not in_folder or looks_like_gdc(_head(path))

    def recognises(self, source: Source) -> bool:
        return looks_like_gdc(source.head(HEAD))

    def read(self, source: Source, context: ReadContext) -> Reading:
        from wahanorm.readers.gamedatacards.read import read_gdc

        return read_gdc(source, context)
