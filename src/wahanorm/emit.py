"""Canonical JSON, produced here and nowhere else, and atomic writes into ``out/``.

Canonical: UTF-8, keys sorted, two-space indent, LF line ends, a final newline, no floats,
strings NFC with the clean stage's spelling (they arrive that way). The same entities give the
same bytes on every machine and every run.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson

from wahanorm import __version__
from wahanorm.ids import is_safe_id

if TYPE_CHECKING:
    from pydantic import BaseModel

    from wahanorm.models import Diagnostic

INDEX_NAME = "index.json"


_CANONICAL = orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS | orjson.OPT_APPEND_NEWLINE


def canonical_json(value: BaseModel | Mapping[str, Any] | list[Any]) -> str:
    """The one canonical text of a model or plain JSON value. (orjson writes byte for byte what
    ``json.dumps(ensure_ascii=False, sort_keys=True, indent=2)`` writes, fifteen times faster.)"""
    # Duck-typed, so that writing files does not import pydantic (a cached run never needs it).
    data = value.model_dump(mode="json") if hasattr(value, "model_dump") else value
    return orjson.dumps(data, option=_CANONICAL).decode("utf-8")


def content_hash(entity: BaseModel) -> str:
    """Hash of what an entity says, sources and variants left out: two copies of one rule read
    from two dumps hash the same."""
    return _hash_of(entity.model_dump(mode="json", exclude={"sources", "variants"}))


def _hash_of(data: Mapping[str, Any]) -> str:
    text = orjson.dumps(data, option=orjson.OPT_SORT_KEYS)
    return hashlib.sha256(text).hexdigest()[:16]


def entity_file(edition: int, kind: str, entity_id: str) -> str:
    """The one place an entity's file is named: ``<edition>ed/<kind>/<namespace>/<name>.json``
    (relative to the output folder); refuses an id that could leave it."""
    if not is_safe_id(entity_id):
        raise ValueError(f"unsafe entity id {entity_id!r}")
    return f"{edition}ed/{kind}/{entity_id}.json"


def entity_path(out_dir: Path, edition: int, kind: str, entity_id: str) -> Path:
    """``out/<edition>ed/<kind>/<namespace>/<name>.json``."""
    return out_dir / entity_file(edition, kind, entity_id)


def render_outputs(
    entities: Iterable[Any],
    diagnostics: list[Diagnostic],
    data_version: str | None = None,
) -> dict[str, str]:
    """Every file of an output folder as ``relative path → text``, index included."""
    from wahanorm.models import Index, IndexEntry

    files: dict[str, str] = {}
    entries: list[IndexEntry] = []
    for entity in entities:
        rel = entity_file(entity.edition, entity.kind, entity.id)
        data = entity.model_dump(mode="json")  # once: the file's text and the hash come from it
        files[rel] = canonical_json(data)
        said = {k: v for k, v in data.items() if k not in ("sources", "variants")}
        entries.append(
            IndexEntry(
                id=entity.id,
                kind=entity.kind,
                name=entity.name,
                edition=entity.edition,
                hash=_hash_of(said),
                sources=entity.sources,
                variants=len(entity.variants),
            )
        )
    entries.sort(key=lambda e: (e.edition, e.kind, e.id))
    index = Index(
        generator=f"wahanorm {__version__}",
        data_version=data_version,
        entities=entries,
        diagnostics=sorted(diagnostics, key=_diagnostic_order),
    )
    files[INDEX_NAME] = canonical_json(index)
    return files


def _diagnostic_order(d: Diagnostic) -> tuple[str, int, str, str, str]:
    return (d.path, d.line or 0, d.code, d.message, d.severity)


def atomic_write(path: Path, text: str) -> None:
    """Write ``text`` so that a reader sees the old file or the new one, never half of one: the
    bytes go to a hidden temporary file beside it (one name per process), then replace it."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    except FileNotFoundError:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(text.encode("utf-8"))
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def existing_outputs(out_dir: Path) -> dict[str, str]:
    """The JSON files an output folder holds now, as ``relative path → text``."""
    found: dict[str, str] = {}
    if not out_dir.is_dir():
        return found
    for path in sorted(out_dir.rglob("*.json")):
        if path.is_file():
            found[path.relative_to(out_dir).as_posix()] = path.read_bytes().decode(
                "utf-8", errors="replace"
            )
    return found


def write_outputs(out_dir: Path, files: dict[str, str]) -> tuple[int, list[str]]:
    """Make ``out_dir`` hold exactly ``files``: changed files rewritten atomically, unchanged ones
    left alone, vanished ones removed. Returns (files written, files removed)."""
    current = existing_outputs(out_dir)
    written = 0
    for rel, text in sorted(files.items()):
        if current.get(rel) != text:
            atomic_write(out_dir / rel, text)
            written += 1
    removed = sorted(set(current) - set(files))
    for rel in removed:
        (out_dir / rel).unlink()
    _remove_empty_dirs(out_dir)
    return written, removed


def _remove_empty_dirs(root: Path) -> None:
    for path in sorted((p for p in root.rglob("*") if p.is_dir()), reverse=True):
        if not any(path.iterdir()):
            path.rmdir()
