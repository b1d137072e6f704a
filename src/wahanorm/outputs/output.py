"""Reading an output folder back: its ``index.json`` and, through the index, its entity files.

Entity files are found from the entries of ``index.json`` by ``emit``'s path function (one
place knows the layout of ``out/``), never by walking the folder. Entities are read as plain
JSON here (fast, and no pydantic); ``wahanorm.load`` turns them into models.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from wahanorm.contract.layout import INDEX_NAME, entity_relpath
from wahanorm.contract.migrate import current_entity, current_index
from wahanorm.contract.vocabulary import EDITIONS
from wahanorm.errors import InputError
from wahanorm.outputs.folder import MAX_INDEX_BYTES, reading

JSON = dict[str, Any]


def entity_file(entry: Mapping[str, Any]) -> str:
    """Where the file of one ``index.json`` entry lives, relative to the output folder: where
    the writer puts its id (``<edition>ed/<kind>/<ns>/<name>.json``), or, for an entry of an
    output written before editions, where that version wrote it (``<kind>/<ns>/<name>.json``,
    its ``path``). ``ValueError`` for an id that is no safe path, or a path elsewhere."""
    expected = entity_relpath(entry)
    path = entry.get("path")
    if path is None or path == expected:
        return expected
    if path == entity_relpath({**entry, "edition": None}):
        return str(path)
    raise ValueError(f"its path {path!r} is not where its id is written")


@dataclass
class Output:
    """An output folder (or the files a conversion would write): its index and its entities."""

    label: str
    index: JSON
    texts: Mapping[str, str] | None = None
    folder: Path | None = None

    @classmethod
    def from_folder(cls, folder: Path) -> Output:
        """The output folder ``folder``, read without the lock (``reading`` holds it); an error if
        it holds no readable ``index.json``."""
        path = folder / INDEX_NAME
        if not path.is_file():
            raise InputError(
                f"{folder}: not an output folder (no {INDEX_NAME}); run "
                "'wahanorm convert' first or give --out",
                path=str(folder),
            )
        raw = read_own_file(path, MAX_INDEX_BYTES, "of an index (an export's is 2.3 MB)")
        return cls(str(folder), _index(str(path), raw), folder=folder)

    @classmethod
    @contextlib.contextmanager
    def reading(cls, folder: Path) -> Iterator[Output]:
        """The output folder ``folder``, held against writers (the shared lock) for as long as
        the block reads it, so what is read is one whole run; a folder holding a run cut short
        (its journal not done) is refused."""
        if not folder.is_dir():
            yield cls.from_folder(folder)  # says why it is no output folder
            return
        with reading(folder) as problem:
            if problem:  # a run cut short
                raise InputError(problem, path=str(folder))
            yield cls.from_folder(folder)

    @classmethod
    def from_files(cls, files: Mapping[str, str], label: str = "<conversion>") -> Output:
        """The files of a conversion, ``relative path → text`` (``Conversion.files``)."""
        if INDEX_NAME not in files:
            raise InputError(f"{label}: no {INDEX_NAME} among the files", path=label)
        index = _index(f"{label}/{INDEX_NAME}", files[INDEX_NAME].encode())
        return cls(label, index, texts=files)

    @property
    def entries(self) -> list[JSON]:
        """The index's entries, in its order (kind, then id); checked when the index is read."""
        entries: list[JSON] = self.index["entities"]
        return entries

    def entity(self, entry: Mapping[str, Any]) -> JSON:
        """The entity file of one index entry, as JSON in the current contract (a file of an
        older version is read through ``migrate.current_entity``)."""
        rel = entity_file(entry)
        if self.texts is not None:
            if rel not in self.texts:
                raise InputError(f"{self.label}: {rel} is listed in the index but missing")
            data = _parse(f"{self.label}: {rel}", self.texts[rel].encode())
        else:
            assert self.folder is not None
            path = self.folder / rel
            inside = os.path.realpath(path).startswith(os.path.realpath(self.folder) + os.sep)
            if not inside:  # a folder on the way is a link out of the output folder
                raise InputError(f"{self.label}: {rel} lies outside the folder (a link): not read")
            said = f"{self.label}: cannot read {rel}, listed in the index"
            raw = read_own_file(path, MAX_ENTITY_BYTES, "of an entity file (49 KB at most)", said)
            data = _parse(f"{self.label}: {rel}", raw)
        if not isinstance(data, dict):
            raise InputError(f"{self.label}: {rel} is not an entity (not a JSON object)")
        return current_entity(data)

    def not_the_contract(self, entry: Mapping[str, Any], exc: Exception) -> InputError:
        """The error of an entity file a reader failed on (``exc``): where the file departs from
        the contract, by the contract's own validation."""
        from pydantic import TypeAdapter, ValidationError

        from wahanorm.contract.models import AnyEntity

        rel = entity_file(entry)
        reason = f"{type(exc).__name__}: {exc}"
        try:
            TypeAdapter(AnyEntity).validate_python(self.entity(entry))
        except ValidationError as invalid:
            first = invalid.errors()[0]
            reason = ".".join(str(p) for p in first["loc"]) + f": {first['msg']}"
        except InputError as unreadable:
            return unreadable
        return InputError(f"{self.label}: {rel} does not follow the output contract ({reason})")

    def entities(self) -> Iterator[JSON]:
        """Every entity, in the index's order."""
        for entry in self.entries:
            yield self.entity(entry)


def _index(where: str, raw: bytes) -> JSON:
    """An ``index.json``: an object whose ``entities`` are entries naming a file each (a damaged
    or foreign index is an input error here, not a crash in a reader)."""
    data = _parse(where, raw)
    if not isinstance(data, dict):
        raise InputError(f"{where} is not a wahanorm index (not a JSON object)", path=where)
    for entry in data.get("entities") or []:
        if isinstance(entry, dict) and "path" not in entry:
            with contextlib.suppress(ValueError):  # a bad entry is said below
                entry["path"] = entity_relpath(entry)  # where that version wrote it
    data = current_index(data)  # an older output's entries get their edition
    entries = data.setdefault("entities", [])
    if not isinstance(entries, list):
        raise InputError(f"{where}: its 'entities' is not a list", path=where)
    for number, entry in enumerate(entries, start=1):
        problem = _entry_problem(entry)
        if problem:
            raise InputError(f"{where}: entity entry {number} {problem}", path=where)
    return data


def _entry_problem(entry: object) -> str | None:
    if not isinstance(entry, dict):
        return "is not a JSON object"
    for field in ("kind", "id", "name", "hash"):
        if not isinstance(entry.get(field), str):
            return f"has no {field}"
    if entry.get("edition") not in EDITIONS:
        return "names no edition (10 or 11)"
    try:
        entity_file(entry)
    except ValueError as exc:
        return f"names no file of this output ({exc})"
    return None


def _parse(where: str, raw: bytes) -> Any:
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise InputError(f"{where} is not valid JSON ({exc})", path=where) from exc
    check_depth(where, raw, data)
    return data


MAX_ENTITY_BYTES = 16 * 1024 * 1024
"""The most of one entity file that is read back (wahanorm writes none over 49 KB)."""


def read_own_file(path: Path, limit: int, what: str, said: str | None = None) -> bytes:
    """The bytes of a file of ``out/`` read back, as input: a regular file, not a symbolic
    link (an ``out/`` someone committed may link ``/etc/passwd``), never a pipe waited on, of at
    most ``limit`` bytes (checked before it is read, and while: one that grows is refused);
    otherwise an ``InputError`` that says why, of ``said`` (``path`` unless given)."""
    said = said or f"{path}: cannot read it"
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError as exc:
        why = "a symbolic link: not followed" if exc.errno == errno.ELOOP else exc.strerror
        raise InputError(f"{said} ({why or exc})", path=str(path)) from exc
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise InputError(f"{said} (Is a directory)", path=str(path))
        if not stat.S_ISREG(info.st_mode):
            raise InputError(f"{said} (not a regular file: not read)", path=str(path))
        if info.st_size > limit:
            raw = b""
        else:
            with os.fdopen(os.dup(fd), "rb") as handle:
                raw = handle.read(limit + 1)
    except OSError as exc:
        raise InputError(f"{said} ({exc.strerror or exc})", path=str(path)) from exc
    finally:
        os.close(fd)
    if info.st_size > limit or len(raw) > limit:
        raise InputError(
            f"{path}: more than {limit} bytes, more than wahanorm reads {what}: not read",
            path=str(path),
        )
    return raw


MAX_JSON_DEPTH = 64
"""Deepest nesting of arrays and objects read back from an output folder (what wahanorm writes
nests 8 deep; the readers of ``out/`` that recurse stay far from Python's limit)."""

_BRACKETS = bytes.maketrans(b"{}", b"[]")
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")


def check_depth(where: str, raw: bytes | str, data: Any) -> None:
    """Raise ``InputError`` when the JSON ``data`` (parsed from ``raw``) nests deeper than
    ``MAX_JSON_DEPTH``, without recursion: its brackets, one level of innermost pairs dropped per
    pass, are gone within the limit; brackets inside strings
    can keep them, and then the parsed value is walked with a stack."""
    text = raw.encode() if isinstance(raw, str) else raw
    brackets = text.translate(_BRACKETS, _NOT_BRACKETS)
    for _ in range(MAX_JSON_DEPTH):
        if not brackets:
            return
        brackets = brackets.replace(b"[]", b"")
    if not brackets:
        return
    stack: list[tuple[Any, int]] = [(data, 1)] if isinstance(data, dict | list) else []
    while stack:
        value, depth = stack.pop()
        children = value.values() if isinstance(value, dict) else value
        for child in children:
            if isinstance(child, dict | list):
                if depth + 1 > MAX_JSON_DEPTH:
                    raise InputError(
                        f"{where} nests arrays or objects deeper than {MAX_JSON_DEPTH} levels "
                        "(no output wahanorm writes does): not read",
                        path=where,
                    )
                stack.append((child, depth + 1))
