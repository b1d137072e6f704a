"""Canonical JSON, produced here and nowhere else, and the files of an output folder.

Canonical: UTF-8, keys sorted, two-space indent, LF line ends, a final newline, no floats,
strings NFC with the clean stage's spelling (they arrive that way). The same entities give the
same bytes on every machine and every run.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

import orjson

from wahanorm.contract.hashing import hash_of, said_of
from wahanorm.contract.layout import INDEX_NAME, entity_relpath, unsafe_relpath
from wahanorm.contract.version import __version__

if TYPE_CHECKING:
    from pydantic import BaseModel

    from wahanorm.errors import DiagnosticRow


_CANONICAL = orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS | orjson.OPT_APPEND_NEWLINE


def canonical_json(value: BaseModel | Mapping[str, Any] | list[Any]) -> str:
    """The one canonical text of a model or plain JSON value. (orjson writes byte for byte what
    ``json.dumps(ensure_ascii=False, sort_keys=True, indent=2)`` writes, fifteen times faster.)"""
    # Duck-typed, so that writing files does not import pydantic (a cached run never needs it).
    data = value.model_dump(mode="json") if hasattr(value, "model_dump") else value
    return orjson.dumps(data, option=_CANONICAL).decode("utf-8")


def render_outputs(
    entities: Iterable[Any],
    diagnostics: list[DiagnosticRow],
    data_version: str | None = None,
    entity_data: dict[str, Any] | None = None,
    language: str | None = None,
) -> dict[str, str]:
    """Every file of an output folder as ``relative path → text``, index included.
    ``entity_data``, when given, is filled with each entity file's JSON value (``relative path
    → the data its text is written from``): the values its text parses back to, its keys in the
    model's order where the text sorts them (a crosscheck of raw inputs reads them without
    parsing the texts again)."""
    from wahanorm.contract.models import Index

    files: dict[str, str] = {}
    entries: list[dict[str, Any]] = []
    for entity in entities:
        data = entity.model_dump(mode="json")  # once: the file's text and the hash come from it
        try:
            rel = entity_relpath(data)
            problem = unsafe_relpath(rel)
        except ValueError:
            rel, problem = f"{entity.kind}/{entity.id}.json", "is not a safe path"
        if problem:  # never reached by a slug id; a guard for whatever builds entities
            diagnostics.append(_path_diagnostic(entity, rel, problem))
            continue
        try:
            text = canonical_json(data)
            entry = index_entry(data, rel)
        except orjson.JSONEncodeError as error:  # a value no reader should have let through
            diagnostics.append(_unwritable_diagnostic(entity, error))
            continue
        files[rel] = text
        if entity_data is not None:
            entity_data[rel] = data
        entries.append(entry)
    entries.sort(key=_entry_order)
    index = Index(
        generator=f"wahanorm {__version__}",
        data_version=data_version,
        language=language,
        entities=[],
        diagnostics=[],
    ).model_dump(mode="json")
    # An entry and a diagnostic row hold the JSON values of the contract's ``IndexEntry`` and
    # ``Diagnostic`` (``tests/test_diagnostic_rows.py``, ``tests/test_index_entries.py``):
    # written as they are, not made models and dumped again.
    index["entities"] = entries
    index["diagnostics"] = [d._asdict() for d in sorted(diagnostics, key=_diagnostic_order)]
    files[INDEX_NAME] = canonical_json(index)
    return files


def index_entry(data: Mapping[str, Any], rel: str) -> dict[str, Any]:
    """The line of ``index.json`` of an entity written to ``rel``, from its JSON ``data``: the
    JSON of the contract's ``IndexEntry`` (every field, as its ``model_dump`` gives it)."""
    return {
        "id": data["id"],
        "kind": data["kind"],
        "name": data["name"],
        "edition": data["edition"],
        "hash": hash_of(said_of(data)),
        "sources": data["sources"],
        "variants": len(data["variants"]),
        "path": rel,
    }


def _entry_order(entry: Mapping[str, Any]) -> tuple[int, str, str]:
    return (entry["edition"], entry["kind"], entry["id"])


def _path_diagnostic(entity: Any, rel: str, problem: str) -> DiagnosticRow:
    from wahanorm.errors import diagnostic_row

    source = entity.sources[0] if entity.sources else None
    return diagnostic_row(
        "error",
        "unsafe-path",
        f"{entity.kind} {entity.id}: not written, its file {rel!r} {problem}",
        source.path if source else "",
        source.line_start if source else None,
    )


def _unwritable_diagnostic(entity: Any, error: Exception) -> DiagnosticRow:
    from wahanorm.errors import diagnostic_row

    source = entity.sources[0] if entity.sources else None
    return diagnostic_row(
        "error",
        "unwritable-value",
        f"{entity.kind} {entity.id}: not written, it holds a value canonical JSON cannot hold "
        f"({error})",
        source.path if source else "",
        source.line_start if source else None,
    )


def _diagnostic_order(d: DiagnosticRow) -> tuple[str, int, str, str, str]:
    return (d.path, d.line or 0, d.code, d.message, d.severity)
