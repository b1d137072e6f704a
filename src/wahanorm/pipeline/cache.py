"""The incremental cache: a rerun over unchanged inputs is near-instant.

Keys are content hashes: of the program (its version and the text of its own modules and
grammars, so any change to the code empties the cache in effect), of each input's bytes and of the
path it is shown under. Entries are data, never code: JSON written atomically under the cache
folder (``.wahanorm-cache/`` by default), each headed by the SHA-256 of its body: per input, its
``Extraction``; per run, its record and the rendered files; per output folder, the stamp of how
the last run left it. A read checks the hash and the shape; an entry that fails is dropped and
computed again, with a note. One run holds the cache at a time; ``trim`` caps its size (least
recently used out first). The folder is safe to delete at any time.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import hashlib
import os
import re
import stat
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias, TypeVar

import orjson

from wahanorm.blocks import decode as decoding
from wahanorm.contract.hashing import hash_of, said_of
from wahanorm.contract.version import __version__
from wahanorm.errors import DiagnosticRow, InputError, diagnostic_row

if TYPE_CHECKING:
    from pydantic import TypeAdapter

    from wahanorm.contract.models import SourceRef
    from wahanorm.pipeline.after_read import Extraction
    from wahanorm.readers.base import Entity, Source

DEFAULT_CACHE = Path(".wahanorm-cache")

Seen: TypeAlias = "dict[str, tuple[dict[str, Any], Entity]]"
"""What the cache entries read in a run say, by content hash: the JSON values an entity says
(its sources and variants left out) and the entity validated from them."""


@functools.cache
def program_fingerprint() -> str:
    """Hash of the wahanorm version and the text of every module and grammar it runs."""
    digest = hashlib.sha256(__version__.encode())
    package = Path(__file__).parents[1]  # the wahanorm package
    grammars = package / "grammars"
    if not grammars.is_dir():
        grammars = package.parents[1] / "grammars"
    files = [(p.relative_to(package).as_posix(), p) for p in sorted(package.rglob("*.py"))]
    files += [(f"grammars/{p.name}", p) for p in sorted(grammars.glob("*.lark"))]
    for name, path in files:
        digest.update(name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def input_key(item: Source) -> str | None:
    """Content key of one input, or None when it cannot be read (it is then not cached): of
    its bytes; of a folder, each file's name and bytes; of a set of files read together, each
    member's name as shown and bytes, in reading order."""
    digest = hashlib.sha256(program_fingerprint().encode())
    digest.update(item.display.encode())
    digest.update(f"edition={item.edition}".encode())
    if item.language is not None:  # (an English run keeps the keys it always had)
        digest.update(f"language={item.language}".encode())
    if item.problem is not None:
        return None
    if item.data is not None:
        digest.update(item.data)
        return digest.hexdigest()
    # Every file is hashed as it would be read (``decode.read_bounded``: the size limit before
    # and while reading, no link followed in an export folder); one that would be refused
    # leaves the input uncached, so it is read (and refused with its diagnostic) every run.
    try:
        if item.members:
            for member in item.members:
                digest.update(member.display.encode())
                digest.update(decoding.read_bounded(member.path, member.display))
        elif item.is_folder:
            for path in sorted(item.path.iterdir()):
                if path.is_symlink() or (path.is_file() or not path.is_dir()):
                    digest.update(path.name.encode())
                    digest.update(decoding.read_bounded(path, path.name, links=False))
        else:
            digest.update(decoding.read_bounded(item.path, item.display))
    except (OSError, InputError):
        return None
    return digest.hexdigest()


def run_key(keys: list[str | None], skipped: list[tuple[str, str]]) -> str | None:
    """Key of a whole run: the keys of its inputs in order and what it skipped."""
    if any(key is None for key in keys):
        return None
    digest = hashlib.sha256(program_fingerprint().encode())
    for key in keys:
        digest.update(str(key).encode())
    digest.update(repr(skipped).encode())
    return digest.hexdigest()


@dataclass
class RunRecord:
    """What a run produced, but its files (kept apart: a run whose output folder is already
    current never loads them): counts, diagnostics as plain rows, what failed."""

    counts: dict[str, int]
    rows: list[DiagnosticRow]
    inputs: int
    failed: list[str]
    data_version: str | None


class BadEntry(Exception):
    """A cache entry that fails its hash or its shape: dropped, and its value computed again."""


_MAGIC = b"wahanorm-cache 1 "
_ENTRY_NAME = re.compile(r"[0-9a-f]{64}\.json")
_HASH = re.compile(r"[0-9a-f]{16}")  # an entity's content hash (``hashing.hash_of``)
_TEMP_NAME = re.compile(r"\.[A-Za-z0-9_]+\.tmp")  # tempfile.mkstemp(prefix=".", suffix=".tmp")
DEFAULT_MAX_BYTES = 512 * 1024 * 1024
"""The cache's size cap (``--cache-max``): past it, the least recently used entries go."""


def _is_str_or_none(value: object) -> bool:
    return value is None or isinstance(value, str)


def _row(value: object) -> DiagnosticRow:
    """A run record's row, made as every diagnostic is (``diagnostic_row``: a code the
    catalogue lacks, another severity or a value of the wrong type is a damaged entry)."""
    if not (isinstance(value, list) and len(value) == 7):
        raise BadEntry("a diagnostic is not 7 values")
    return diagnostic_row(*value)


class Cache:
    """Entries of plain JSON under ``root``, each with the SHA-256 of its body in its first line.
    A read checks the hash and the shape; an entry that fails either is removed, noted in
    ``notes`` and computed again. Every write is atomic; ``trim`` keeps the size under a cap."""

    def __init__(self, root: Path = DEFAULT_CACHE) -> None:
        self.root = root
        self.notes: list[str] = []

    def _path(self, kind: str, key: str) -> Path:
        if not all(c in "0123456789abcdef" for c in key) or len(key) != 64:
            raise ValueError(f"not a cache key: {key!r}")
        return self.root / kind / key[:2] / f"{key}.json"

    def _load(self, kind: str, key: str) -> Any:
        """The JSON body of an entry, or None when there is none; raises ``BadEntry``."""
        path = self._path(kind, key)
        try:
            os.lstat(path)
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise BadEntry(f"cannot be read ({exc.strerror or exc})") from None
        try:  # no link followed; no entry larger than the default cap of the whole cache
            data = decoding.read_bounded(path, path.name, DEFAULT_MAX_BYTES, links=False)
        except InputError as exc:
            raise BadEntry(exc.message) from None
        head, newline, body = data.partition(b"\n")
        if not head.startswith(_MAGIC) or not newline:
            raise BadEntry("not a wahanorm cache entry")
        if head[len(_MAGIC) :].decode("ascii", "replace") != hashlib.sha256(body).hexdigest():
            raise BadEntry("its content does not match its hash")
        try:
            value = orjson.loads(body)
        except orjson.JSONDecodeError:
            raise BadEntry("not JSON") from None
        with contextlib.suppress(OSError):
            os.utime(path)  # recently used: the last to go when the cache is trimmed
        return value

    def _read(self, kind: str, key: str, shape: Callable[[Any], T]) -> T | None:
        """An entry read and turned into its value by ``shape``; a bad one is dropped."""
        try:
            value = self._load(kind, key)
            return None if value is None else shape(value)
        except (BadEntry, ValueError, TypeError, KeyError, AttributeError) as exc:
            path = self._path(kind, key)
            self.notes.append(f"cache entry {path} is damaged ({exc}): dropped, converted again")
            with contextlib.suppress(OSError):
                path.unlink()
            return None

    def _store(self, kind: str, key: str, value: Any) -> None:
        path = self._path(kind, key)
        body = orjson.dumps(value)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".", suffix=".tmp")
            with os.fdopen(fd, "wb") as handle:
                handle.write(_MAGIC + hashlib.sha256(body).hexdigest().encode() + b"\n" + body)
            os.replace(tmp, path)
        except OSError:
            pass  # a cache that cannot be written only costs time

    def extraction(self, key: str, seen: Seen | None = None) -> Extraction | None:
        """The cached extraction of an input, or None. ``seen`` holds what the entries read so
        far in the run say, by content hash (the entries of a batch hold the rules every page
        prints, each copy with its own sources), and is given what this entry adds."""
        return self._read("inputs", key, lambda value: _extraction_of(value, seen))

    def store_extraction(self, key: str, extraction: Extraction) -> list[str]:
        """Remember an input's extraction, with its entities' content hashes (worked out from
        the same dumps); returns those hashes."""
        entities = [e.model_dump(mode="json") for e in extraction.entities]
        hashes = [hash_of(said_of(data)) for data in entities]
        self._store(
            "inputs",
            key,
            {
                "path": extraction.path,
                "data_version": extraction.data_version,
                "entities": entities,
                "hashes": hashes,
                "diagnostics": [d._asdict() for d in extraction.report.diagnostics],
            },
        )
        return hashes

    def run(self, key: str) -> RunRecord | None:
        """The cached result of a whole run, or None."""
        return self._read("runs", key, _record_of)

    def run_files(self, key: str) -> dict[str, str] | None:
        """The output files of a cached run, or None. Their paths pass the writer's checks."""
        return self._read("run-files", key, _files_of)

    def store_run(self, key: str, record: RunRecord, files: dict[str, str]) -> None:
        """Remember a run's result and its files."""
        self._store("run-files", key, files)
        self._store("runs", key, {**vars(record), "rows": [list(r) for r in record.rows]})

    @contextlib.contextmanager
    def locked(self) -> Iterator[bool]:
        """Hold the cache for this run alone; yields False (use no cache) when another
        wahanorm holds it past the wait, or the folder cannot be made."""
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.root, os.O_RDONLY | os.O_DIRECTORY)
        except OSError as exc:
            self.notes.append(f"cache {self.root} cannot be used ({exc.strerror or exc})")
            yield False
            return
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self.notes.append(f"cache {self.root} is in use by another wahanorm: not used")
            os.close(fd)
            yield False
            return
        try:
            yield True
        finally:
            os.close(fd)

    def trim(self, max_bytes: int = DEFAULT_MAX_BYTES) -> int:
        """Remove leftover temporary files, then the least recently used entries until the
        cache holds at most ``max_bytes``. Returns how many entries went."""
        entries: list[tuple[int, int, Path]] = []
        for kind in ("inputs", "runs", "run-files", "stamps"):
            folder = self.root / kind
            if folder.is_symlink() or not folder.is_dir():
                continue
            for path in folder.glob("[0-9a-f][0-9a-f]/*"):
                info = path.lstat()
                if not stat.S_ISREG(info.st_mode):
                    continue  # only names this cache writes, never through a link
                if _TEMP_NAME.fullmatch(path.name):  # a write cut short (the cache is locked)
                    path.unlink(missing_ok=True)
                elif _ENTRY_NAME.fullmatch(path.name):
                    entries.append((info.st_mtime_ns, info.st_size, path))
        total = sum(size for _, size, _ in entries)
        gone = 0
        for _, size, path in sorted(entries):
            if total <= max_bytes:
                break
            path.unlink(missing_ok=True)
            total -= size
            gone += 1
        return gone


T = TypeVar("T")


@functools.cache
def _validators() -> tuple[TypeAdapter[Entity], TypeAdapter[list[SourceRef]]]:
    """The validators of an extraction's entities and their sources (its diagnostics are made
    by ``diagnostic_row``), built once per process (building one costs about as much as
    validating a page's entities)."""
    from pydantic import TypeAdapter

    from wahanorm.contract.models import AnyEntity, SourceRef

    entity: TypeAdapter[Entity] = TypeAdapter(AnyEntity)
    return entity, TypeAdapter(list[SourceRef])


def _extraction_of(value: Any, seen: Seen | None) -> Extraction:
    """An input's entry as its extraction, each entity's content hash as the entry gives it
    checked against what the entity says. An entity that says what one read earlier says (the
    same JSON values; ``seen`` holds them by content hash: the rules every page of a batch
    prints) is that entity with its own sources, which are validated. Any other is validated
    whole, its hash worked out from what it says, and kept in ``seen`` once the whole entry is
    sound."""
    from wahanorm.errors import Report
    from wahanorm.pipeline.after_read import Extraction

    if not isinstance(value, dict) or not isinstance(value.get("path"), str):
        raise BadEntry("not an extraction")
    found, hashes = value.get("entities"), value.get("hashes")
    if not (
        isinstance(found, list)
        and isinstance(hashes, list)
        and len(hashes) == len(found)
        and all(isinstance(h, str) and _HASH.fullmatch(h) for h in hashes)
    ):
        raise BadEntry("hashes are not one content hash per entity")
    entity_of, sources_of = _validators()
    known: Seen = {} if seen is None else seen
    learnt: Seen = {}
    entities: list[Entity] = []
    try:
        for data, digest in zip(found, hashes, strict=True):
            if not isinstance(data, dict):
                raise BadEntry("an entity is not an object")
            says = said_of(data)
            earlier = known.get(digest) or learnt.get(digest)
            if (
                earlier is not None
                and earlier[0] == says
                and not data.get("variants")
                and not earlier[1].variants
            ):
                sources = sources_of.validate_python(data.get("sources"))
                entities.append(earlier[1].model_copy(update={"sources": sources}))
                continue
            entity = entity_of.validate_python(data)
            if hash_of(says) != digest:
                raise BadEntry("an entity's content hash is not that of what it says")
            entities.append(entity)
            learnt.setdefault(digest, (says, entity))
        diagnostics = [diagnostic_row(**d) for d in value["diagnostics"]]
    except (ValueError, TypeError) as exc:  # pydantic's ValidationError is a ValueError
        raise BadEntry(f"not the shape of an extraction: {str(exc).splitlines()[0]}") from None
    if not _is_str_or_none(value.get("data_version")):
        raise BadEntry("data_version is not text")
    if seen is not None:
        for digest, read in learnt.items():
            seen.setdefault(digest, read)
    report = Report(value["path"], diagnostics)
    return Extraction(value["path"], entities, report, value.get("data_version"), hashes)


def _record_of(value: Any) -> RunRecord:
    if not isinstance(value, dict):
        raise BadEntry("not a run record")
    counts, inputs, failed = value["counts"], value["inputs"], value["failed"]
    if not (isinstance(counts, dict) and all(type(n) is int for n in counts.values())):
        raise BadEntry("counts are not numbers")
    if type(inputs) is not int or not all(isinstance(f, str) for f in failed):
        raise BadEntry("inputs or failed of the wrong type")
    if not _is_str_or_none(value["data_version"]):
        raise BadEntry("data_version is not text")
    rows = [_row(r) for r in value["rows"]]
    return RunRecord(dict(counts), rows, inputs, list(failed), value["data_version"])


def _files_of(value: Any) -> dict[str, str]:
    from wahanorm.contract.layout import INDEX_NAME, unsafe_relpath

    if not isinstance(value, dict) or INDEX_NAME not in value:
        raise BadEntry("not the files of a run")
    for rel, text in value.items():
        if not isinstance(text, str):
            raise BadEntry(f"{rel!r} is not text")
        problem = unsafe_relpath(rel)
        if problem:
            raise BadEntry(f"the path {rel!r} {problem}")
    return dict(value)


Stamp = dict[str, tuple[int, int]]


def out_stats(out_dir: Path) -> Stamp:
    """Size and modification time of every JSON file of an output folder."""
    stats: Stamp = {}
    root = str(out_dir)
    stack = [root]
    while stack:
        folder = stack.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                stack.append(entry.path)
            elif entry.name.endswith(".json"):
                info = entry.stat(follow_symlinks=False)
                rel = entry.path[len(root) + 1 :].replace(os.sep, "/")
                stats[rel] = (info.st_size, info.st_mtime_ns)
    return stats


def _stamp_key(out_dir: Path) -> str:
    return hashlib.sha256(str(out_dir.resolve()).encode()).hexdigest()


def stamp_matches(cache: Cache, out_dir: Path, key: str) -> bool:
    """True when ``out_dir`` is, file for file, as this cache's last write of run ``key`` left it
    (same names, sizes and modification times): then there is nothing to write. (The writer
    asks this holding the folder's lock: no other run can have changed it in between.)"""
    stamp = cache._read("stamps", _stamp_key(out_dir), lambda v: v)
    return stamp == [key, {rel: list(st) for rel, st in out_stats(out_dir).items()}]


def store_stamp(cache: Cache, out_dir: Path, key: str) -> None:
    """Remember how run ``key`` left ``out_dir``."""
    cache._store("stamps", _stamp_key(out_dir), [key, out_stats(out_dir)])
