"""Where each file of an output folder lives: ``<edition>ed/<kind>/<namespace>/<name>.json``
and ``index.json``, and which relative paths may be written at all.

The one place that knows the layout of ``out/``: the writer, the reader of ``out/``, the
stale-file removal and ``diff``'s identity check all ask here.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from typing import Any

from wahanorm.contract.ids import WINDOWS_RESERVED, is_safe_id

INDEX_NAME = "index.json"
"""The index of an output folder."""
_KIND = re.compile(r"[a-z_]+")


def entity_file(edition: int | None, kind: str, entity_id: str) -> str:
    """The one place an entity's file is named, relative to the output folder:
    ``<edition>ed/<kind>/<namespace>/<name>.json`` (``<kind>/<namespace>/<name>.json`` for an
    entity read from an output written before editions, which has none). Raises ``ValueError``
    for an id that is not ``namespace/name`` of slug characters, or a kind that is no word."""
    if not is_safe_id(entity_id) or not _KIND.fullmatch(kind):
        raise ValueError(f"unsafe entity id {kind} {entity_id!r}")
    if edition is None:
        return f"{kind}/{entity_id}.json"
    if edition not in (10, 11):
        raise ValueError(f"unknown edition {edition!r}")
    return f"{edition}ed/{kind}/{entity_id}.json"


def entity_relpath(entity: Mapping[str, Any]) -> str:
    """The file of an entity inside the output folder, from its data (``edition``, ``kind``,
    ``id``): what the writer, the stale-file removal and ``diff``'s identity check all ask."""
    edition = entity.get("edition")
    return entity_file(
        edition if isinstance(edition, int) else None,
        str(entity.get("kind")),
        str(entity.get("id")),
    )


MAX_NAME_BYTES = 200
"""Longest file or folder name written (every common file system takes 255 bytes; the rest is
room for the temporary names beside it)."""

MAX_PATH_CHARS = 400
"""Longest relative path written (Windows without long paths takes 260 in all; ours stay far
below that, since slugs are cut at ``ids.MAX_SLUG``)."""

_PATH_PART = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*")


@functools.lru_cache(maxsize=65536)  # asked of each file by the renderer and twice by the writer
def unsafe_relpath(rel: str) -> str | None:
    """Why ``rel`` may not be written inside an output folder, or None when it may: a relative
    POSIX path of plain names (letters, digits, ``_.-``, never a leading dot, never ``..``),
    each short enough for every common file system and none that Windows reserves."""
    if not rel or len(rel) > MAX_PATH_CHARS:
        return "is empty or too long"
    for part in rel.split("/"):
        if not _PATH_PART.fullmatch(part):
            return "holds a name that is empty, hidden, '..' or of other characters"
        if len(part.encode()) > MAX_NAME_BYTES:
            return "holds a name too long for a file system"
        if part.split(".")[0].lower() in WINDOWS_RESERVED:
            return "holds a name Windows reserves"
    return None


_OUTPUT_FILE = re.compile(r"(?:(?:10|11)ed/)?[a-z_]+/[a-z0-9-]+/[a-z0-9-]+\.json")


@functools.lru_cache(maxsize=65536)
def not_an_output_file(rel: str) -> str | None:
    """Why ``rel`` is no file an output folder holds, or None when it is one: ``index.json`` or
    an entity's file (``<edition>ed/<kind>/<namespace>/<name>.json``, or ``<kind>/…`` of an
    output written before editions), and a path ``unsafe_relpath`` takes. What a folder's
    journal or index names is checked here before a file is moved or removed."""
    problem = unsafe_relpath(rel)
    if problem:
        return f"the path {problem}"
    if rel != INDEX_NAME and not _OUTPUT_FILE.fullmatch(rel):
        return "the path is no file wahanorm writes (index.json or an entity's file)"
    return None
