"""The JSON Schemas (draft 2020-12) of the output files, made from the pydantic models so that code
and schema never drift: one for an entity file, dispatching on ``kind``, one for ``index.json``.

Fields are described by the attribute docstrings of ``models`` (the string under a field), read
from the models' source when a schema is made, as pydantic's ``use_attribute_docstrings`` would
read them on every import; the schemas describe what an output file holds (serialisation mode:
every field is present).
"""

from __future__ import annotations

import ast
import inspect
import sys
from functools import cache
from typing import Any, get_args

from pydantic import BaseModel, TypeAdapter
from pydantic.fields import FieldInfo
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaValue
from pydantic_core import core_schema

from wahanorm.contract.models import AnyEntity, Index
from wahanorm.contract.vocabulary import KINDS, SCHEMA_VERSION

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
    generated = TypeAdapter(AnyEntity).json_schema(
        mode="serialization", schema_generator=_Described
    )
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
    generated = Index.model_json_schema(mode="serialization", schema_generator=_Described)
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


class SourceUnreadable(RuntimeError):
    """The source of the models cannot be read, so the schema cannot be described."""


class _Described(GenerateJsonSchema):
    """pydantic's schema generator, each field of a model described by its attribute docstring
    (where the field has no description of its own)."""

    def model_schema(self, schema: core_schema.ModelSchema) -> JsonSchemaValue:
        generated = super().model_schema(schema)
        properties = generated.get("properties", {})
        for name, field in schema["cls"].model_fields.items():
            doc = None if field.description else field_docstring(schema["cls"], name)
            prop = properties.get(self._property_name(name, field))
            if doc and prop is not None:  # the field's word over its type's, as pydantic's
                prop["description"] = doc
        return generated

    def _property_name(self, name: str, field: FieldInfo) -> str:
        """The name a field's property has in this mode's schema (by alias, as pydantic's)."""
        if self.mode == "serialization" and field.serialization_alias:
            return field.serialization_alias
        if self.mode == "validation" and isinstance(field.validation_alias, str):
            return field.validation_alias
        return field.alias or name


def field_docstring(cls: type[BaseModel], name: str) -> str | None:
    """The docstring under field ``name`` in the body of the nearest class of ``cls``' line that
    declares the field (None when that declaration has none, or no model class declares it),
    cleaned as ``inspect.cleandoc``."""
    for klass in cls.__mro__:
        if klass is BaseModel or not issubclass(klass, BaseModel):
            return None
        if name in inspect.get_annotations(klass):
            return _class_docstrings(klass.__module__).get(klass.__qualname__, {}).get(name)
    return None


_BLOCKS = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Try)


@cache
def _class_docstrings(module: str) -> dict[str, dict[str, str | None]]:
    """For each class of a module (by qualified name), its annotated attributes and the string
    that follows each one (None where none does), in its body and in the blocks of its body
    (``if``, ``try``, ``with`` …), as pydantic's ``use_attribute_docstrings`` reads them."""
    found: dict[str, dict[str, str | None]] = {}
    loaded = sys.modules.get(module)
    try:
        if loaded is None:
            raise OSError("the module is not loaded")
        tree = ast.parse(inspect.getsource(loaded))
    except (OSError, TypeError) as exc:  # an install without its .py files: say so, no guess
        raise SourceUnreadable(
            f"the source of {module} cannot be read ({exc}); the schema's field descriptions "
            "are the docstrings in it: install wahanorm with its source files"
        ) from exc

    def fields_of(body: list[ast.stmt], fields: dict[str, str | None]) -> None:
        for this, after in zip(body, [*body[1:], None], strict=True):
            if isinstance(this, ast.AnnAssign) and isinstance(this.target, ast.Name):
                doc = None
                if (
                    isinstance(after, ast.Expr)
                    and isinstance(after.value, ast.Constant)
                    and isinstance(after.value.value, str)
                ):
                    doc = inspect.cleandoc(after.value.value)
                fields[this.target.id] = doc
            elif isinstance(this, _BLOCKS):
                for block in _blocks_of(this):
                    fields_of(block, fields)

    def visit(body: list[ast.stmt], prefix: str) -> None:
        for node in body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                visit(node.body, f"{prefix}{node.name}.<locals>.")
            elif isinstance(node, _BLOCKS):
                for block in _blocks_of(node):
                    visit(block, prefix)
            elif isinstance(node, ast.ClassDef):
                qualname = f"{prefix}{node.name}"
                fields_of(node.body, found.setdefault(qualname, {}))
                visit(node.body, f"{qualname}.")

    visit(tree.body, "")
    return found


def _blocks_of(node: ast.stmt) -> list[list[ast.stmt]]:
    """The statement lists a compound statement holds (its body, else, handlers, finally)."""
    blocks = [getattr(node, part, []) for part in ("body", "orelse", "finalbody")]
    blocks += [handler.body for handler in getattr(node, "handlers", [])]
    return [block for block in blocks if block]
