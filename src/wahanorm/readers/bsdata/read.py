"""Reading a set of BSData files: load each (a bad file is a diagnostic and the others go on),
resolve links across them, build the entities, and tell each part's edition by its game system
(``EditionSign``: the after-read chain stamps it)."""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Sequence

from wahanorm.blocks.decode import MAX_INPUT_BYTES
from wahanorm.blocks.edition import as_edition, settle_edition
from wahanorm.contract.vocabulary import Edition
from wahanorm.errors import Report, WahanormError, caret_excerpt
from wahanorm.readers.base import EditionSign, Entity, Part, Reading, Source
from wahanorm.readers.bsdata.catalogue import contents
from wahanorm.readers.bsdata.dataset import DataSet
from wahanorm.readers.bsdata.datasheets import datasheets
from wahanorm.readers.bsdata.nodes import Document, FileError, load_json, load_xml
from wahanorm.readers.bsdata.recognise import JSON_ROOT, ZIP
from wahanorm.readers.bsdata.rules import detachments, enhancements, shared_rules

_EDITION = re.compile(r"\b(\d{2})(?:st|nd|rd|th)\s+Edition\b", re.IGNORECASE)


def read_catalogues(files: Sequence[Source], display: str, said: Edition | None = None) -> Reading:
    """Every entity of one data set: ``files`` are its catalogues and game system, ``display``
    how the set is named; ``said`` is the user's edition, for what the files do not tell (the
    chain settles it; the reader needs it only where an edition changes how a unit reads: cost
    tiers, support characters). Links are resolved across all the files; nothing raises: an
    unreadable or malformed file is an error diagnostic with its line, and the others are read."""
    # The trees are many small objects without reference cycles (nodes do not point to their
    # parents): a run reads them with the cyclic collector off (``pipeline.run``'s one rule for
    # it, around every reader).
    reading = Reading(display)
    report = reading.report
    documents = [doc for file in files if (doc := load(file, report)) is not None]
    if not documents:
        return reading
    data = DataSet(documents, report)
    signs = {document.path: edition_sign(data, document) for document in documents}
    assumed = {path: _assumed(sign, said) for path, sign in signs.items()}
    found = contents(data)
    entities: list[Entity] = []
    entities.extend(datasheets(data, found, assumed))
    entities.extend(shared_rules(data, found))
    entities.extend(detachments(data, found))
    entities.extend(enhancements(data, found))
    data.say_missing()
    reading.parts = _parts(entities, signs)
    reading.data_version = _data_version(data)
    return reading


def _parts(entities: list[Entity], signs: dict[str, EditionSign]) -> list[Part]:
    """The entities in one part per edition sign (per game system), in the order met."""
    parts: dict[int, Part] = {}
    for entity in entities:
        sign = signs[entity.sources[0].path]
        part = parts.get(id(sign))
        if part is None:
            part = parts[id(sign)] = Part([], sign)
        part.entities.append(entity)
    return list(parts.values())


def load(file: Source, report: Report) -> Document | None:
    """One file as a ``Document``; None (and an error diagnostic) when it cannot be read."""
    shown = file.display
    try:
        data = file.load()
    except WahanormError as error:
        report.error("input-error", error.message, path=shown)
        return None
    if data.startswith(ZIP):
        inner = _unzipped(data, shown, report)
        if inner is None:
            return None
        data = inner
    body = data.removeprefix(b"\xef\xbb\xbf")
    try:
        if JSON_ROOT.match(body) or body.lstrip()[:1] in (b"{", b"["):
            document = load_json(body, shown)
        else:
            document = load_xml(data, shown)
    except FileError as error:
        report.error(
            "malformed-file",
            f"{'refused' if error.refused else 'not a well-formed BSData file'}: {error.message}",
            line=error.line,
            column=error.column,
            excerpt=_excerpt(body, error.line, error.column),
            path=shown,
        )
        return None
    if document.kind not in ("catalogue", "gameSystem"):
        report.error(
            "unknown-format",
            f"the root element is {document.kind!r}, neither a catalogue nor a game system",
            line=document.root.line,
            path=shown,
        )
        return None
    return document


MAX_MEMBERS = 4
"""The most entries a zipped ``.catz``/``.gstz`` may list (BattleScribe writes one file; a
folder entry or two beside it are allowed), counted from the archive's end record before its
directory is read."""
_END_RECORD = b"PK\x05\x06"
_MAX_DIRECTORY = 1 << 20
"""The largest directory (its entries' headers and names) of so few entries."""
_CHUNK = 1 << 20


def _unzipped(data: bytes, shown: str, report: Report) -> bytes | None:
    """The one file inside a zipped ``.catz``/``.gstz``, read by its real size: decompressed a
    chunk at a time and stopped past the per-input limit, whatever its header says."""
    try:
        listed, directory = _listed_members(data)
        if listed > MAX_MEMBERS or directory > _MAX_DIRECTORY:
            raise zipfile.BadZipFile(f"{listed} entries listed, not one file")
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            inside = [i for i in archive.infolist() if not i.is_dir()]
            if len(inside) != 1:
                raise zipfile.BadZipFile(f"{len(inside)} files inside, not one")
            chunks: list[bytes] = []
            size = 0
            with archive.open(inside[0]) as member:
                while chunk := member.read(_CHUNK):
                    size += len(chunk)
                    if size > MAX_INPUT_BYTES:
                        raise zipfile.BadZipFile(
                            f"the file inside is over the {MAX_INPUT_BYTES} byte limit for one "
                            "input (decompressed)"
                        )
                    chunks.append(chunk)
            return b"".join(chunks)
    except (zipfile.BadZipFile, OSError, ValueError, EOFError, NotImplementedError) as error:
        report.error("malformed-file", f"not a readable zipped catalogue: {error}", path=shown)
        return None


def _listed_members(data: bytes) -> tuple[int, int]:
    """How many entries the archive's end record lists and the size of its directory in bytes
    (the directory is read by its size: both are bounded); raises ``BadZipFile`` when there is
    no end record (its last 64 KiB hold it)."""
    at = data.rfind(_END_RECORD, max(0, len(data) - (1 << 16) - 22))
    if at < 0 or at + 22 > len(data):
        raise zipfile.BadZipFile("no end of central directory")
    count = int.from_bytes(data[at + 10 : at + 12], "little")
    return count, int.from_bytes(data[at + 12 : at + 16], "little")


def _excerpt(data: bytes, line: int | None, column: int | None) -> str | None:
    if not line or line < 1:
        return None
    lines = data.split(b"\n", line)
    if len(lines) < line:
        return None
    return caret_excerpt(lines[line - 1].decode("utf-8", "replace"), column)


def edition_sign(data: DataSet, document: Document) -> EditionSign:
    """What ``document`` tells of its edition: its game system's name (``Warhammer 40,000
    10th Edition``); nothing when the game system is not among the files."""
    system = data.game_system(document)
    if system is None:
        return EditionSign(
            None,
            untold=f"the game system of {document.name!r} is not among the files (name the "
            "folder of the data set, or its .gst with the catalogues)",
            line=document.root.line,
            path=document.path,
        )
    match = _EDITION.search(system.name)
    return EditionSign(
        as_edition(int(match.group(1))) if match else None,
        told=f"the game system {system.name!r} says",
        untold=f"the game system's name {system.name!r} names no edition",
        line=system.root.line,
        path=system.path,
    )


def _assumed(sign: EditionSign, said: Edition | None) -> Edition:
    """The edition the chain will stamp on what this sign covers (the same rule, unsaid: the
    chain says it)."""
    return settle_edition(sign.edition, said, sign.told, sign.untold, lambda _code, _text: None)


def _data_version(data: DataSet) -> str | None:
    """The game system's name and revision, as the data's version (``… 10th Edition r87``)."""
    systems = sorted(data.game_systems.values(), key=lambda d: d.path)
    if not systems:
        return None
    system = systems[0]
    revision = system.root.get("revision")
    return f"{system.name} r{revision}" if revision else system.name
