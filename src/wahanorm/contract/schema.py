"""The JSON Schemas (draft 2020-12) of the output files, made from the pydantic models so that code
and schema never drift: one for an entity file, dispatching on ``kind``, one for ``index.json``.

Fields are described by the attribute docstrings of ``models`` (``use_attribute_docstrings``);
the schemas describe what an output file holds (serialisation mode: every field is present).
"""

from __future__ import annotations

from typing import Any, get_args

from pydantic import BaseModel, TypeAdapter

from wahanorm.contract.models import KINDS, AnyEntity, Index
from wahanorm.contract.vocabulary import SCHEMA_VERSION

DRAFT = "https://json-schema.org/draft/2020-12/schema"
SCHEMA_KINDS = ("entity", "index")
"""The file kinds that have a schema: ``wahanorm schema [entity|index]``."""


def entity_classes() -> list[type[BaseModel]]:
    """The model of each kind of entity, in the order of ``models.Kind`` (the order of the
    ``kind`` enum of both schemas)."""
    union = get_args(AnyEntity)[0]
    return sorted(get_args(union), key=lambda cls: KINDS.index(cls.model_fields["kind"].default))


def entity_schema() -> dict[str, Any]:
    """The schema of one entity file: ``kind`` is required and one of the kinds, and the file
    must then be valid against that kind's model (an ``if``/``then`` per kind)."""
    generated = TypeAdapter(AnyEntity).json_schema(mode="serialization")
    defs = _without_discriminators(generated["$defs"])
    kinds = [(str(cls.model_fields["kind"].default), cls.__name__) for cls in entity_classes()]
    return {
        "$schema": DRAFT,
        "title": f"wahanorm entity file (schema version {SCHEMA_VERSION})",
        "description": "One file of an output folder: one entity, told apart by its kind.",
        "type": "object",
        "required": ["kind"],
        "properties": {
            "kind": {"description": "What the entity is.", "enum": [k for k, _ in kinds]}
        },
        "allOf": [
            {
                "if": {"properties": {"kind": {"const": kind}}, "required": ["kind"]},
                "then": {"$ref": f"#/$defs/{name}"},
            }
            for kind, name in kinds
        ],
        "$defs": defs,
    }


def index_schema() -> dict[str, Any]:
    """The schema of ``index.json``."""
    generated = Index.model_json_schema(mode="serialization")
    return {
        "$schema": DRAFT,
        **_without_discriminators(generated),
        "title": f"wahanorm index.json (schema version {SCHEMA_VERSION})",
    }


def schema_of(kind: str) -> dict[str, Any]:
    """The schema of one file kind (``entity`` or ``index``)."""
    if kind == "index":
        return index_schema()
    if kind == "entity":
        return entity_schema()
    raise ValueError(f"no schema for {kind!r}: choose one of {', '.join(SCHEMA_KINDS)}")


def _without_discriminators(value: Any) -> Any:
    # ``discriminator`` is OpenAPI's word: JSON Schema validators ignore it. The if/then above
    # is what dispatches on kind; the variants' ``oneOf`` still holds (kinds are consts).
    if isinstance(value, dict):
        return {k: _without_discriminators(v) for k, v in value.items() if k != "discriminator"}
    if isinstance(value, list):
        return [_without_discriminators(v) for v in value]
    return value
