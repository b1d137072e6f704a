"""The JSON Schemas of the output files: committed, equal to what the models give, described
field by field, strict where the contract is, and every committed output file valid against them."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from wahanorm import cli
from wahanorm.contract.schema import entity_schema, index_schema, schema_of
from wahanorm.outputs.output import entity_file

REPO = Path(__file__).resolve().parents[1]
SCHEMA_DIR = REPO / "schema"


@pytest.mark.parametrize("which", ["entity", "index"])
def test_the_committed_schema_is_what_the_code_produces(
    which: str, capsys: pytest.CaptureFixture[str]
) -> None:
    committed = (SCHEMA_DIR / f"{which}.schema.json").read_text(encoding="utf-8")
    assert cli.main(["schema", which]) == 0
    printed = capsys.readouterr().out
    assert printed == committed, f"run: wahanorm schema {which} > schema/{which}.schema.json"
    jsonschema.Draft202012Validator.check_schema(json.loads(printed))


def test_schema_prints_the_entity_schema_by_default(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["schema"]) == 0
    assert json.loads(capsys.readouterr().out) == entity_schema()


def _index() -> dict[str, Any]:
    data = json.loads((REPO / "out" / "index.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def test_every_committed_output_file_validates() -> None:
    entity = jsonschema.Draft202012Validator(entity_schema())
    index = jsonschema.Draft202012Validator(index_schema())
    files = sorted((REPO / "out").rglob("*.json"))
    listed = {entity_file(e) for e in _index()["entities"]}
    assert {str(p.relative_to(REPO / "out")) for p in files} == listed | {"index.json"}
    kinds, editions = set(), set()
    for path in files:
        data = json.loads(path.read_text(encoding="utf-8"))
        validator = index if path.name == "index.json" else entity
        errors = [e.message for e in validator.iter_errors(data)]
        assert not errors, f"{path}: {errors[:3]}"
        kinds.add(data.get("kind"))
        editions.add(data.get("edition"))
    assert kinds == {None, "datasheet", "stratagem", "detachment_rule", "enhancement", "rule"}
    assert editions == {None, 10, 11}  # raw/ holds dumps of both editions


def _entity(kind: str, wanted: str | None = None) -> dict[str, Any]:
    """The committed file of the first index entry of ``kind`` (and id ``wanted``), found
    through index.json and the one path function."""
    entry = next(
        e
        for e in _index()["entities"]
        if e["kind"] == kind and (wanted is None or e["id"] == wanted)
    )
    data = json.loads((REPO / "out" / entity_file(entry)).read_text(encoding="utf-8"))
    assert isinstance(data, dict) and (data["kind"], data["id"]) == (kind, entry["id"])
    assert data["edition"] == entry["edition"]
    return data


def _rule() -> dict[str, Any]:
    return _entity("rule", "core/deadly-demise")


def _stratagem() -> dict[str, Any]:
    data = _entity("stratagem")
    assert data["timing"] is not None
    return data


@pytest.mark.parametrize(
    "broken",
    [
        {"garbage": 1},
        {},
        {"kind": "spell", "id": "core/x", "name": "X", "text": "Y"},
        "just a string",
    ],
)
def test_what_is_no_entity_fails(broken: object) -> None:
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(broken, entity_schema(), cls=jsonschema.Draft202012Validator)


def test_each_kind_is_held_to_its_own_model() -> None:
    schema = entity_schema()
    rule, stratagem = _rule(), _stratagem()
    jsonschema.validate(rule, schema, cls=jsonschema.Draft202012Validator)
    jsonschema.validate(stratagem, schema, cls=jsonschema.Draft202012Validator)
    wrong = [
        {**rule, "kind": "stratagem"},  # a rule's fields under another kind
        {**rule, "colour": "red"},  # unknown fields are refused
        {k: v for k, v in rule.items() if k != "text"},  # a field missing
        {**stratagem, "timing": {**stratagem["timing"], "phases": ["teatime"]}},
        {**stratagem, "timing": {**stratagem["timing"], "turn": "mine"}},
        {**rule, "edition": 12},  # an edition the game does not have
        {**rule, "edition": "11"},
        {k: v for k, v in rule.items() if k != "edition"},  # every file names its edition
    ]
    for data in wrong:
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(data, schema, cls=jsonschema.Draft202012Validator)


def _described(schema: dict[str, Any]) -> Iterator[str]:
    """Every model and every field of a schema's ``$defs`` that has no description."""
    for name, model in schema["$defs"].items():
        if not model.get("description"):
            yield name
        for field, spec in model.get("properties", {}).items():
            if not spec.get("description"):
                yield f"{name}.{field}"


@pytest.mark.parametrize("which", ["entity", "index"])
def test_every_model_and_field_has_a_description(which: str) -> None:
    schema = schema_of(which)
    missing = list(_described(schema))
    assert not missing, f"write a docstring (attribute docstring for a field): {missing}"
    assert schema["description"]


def test_closed_values_are_enums() -> None:
    defs = entity_schema()["$defs"]
    assert defs["PhaseTiming"]["properties"]["phase"]["enum"] == [
        "command",
        "movement",
        "shooting",
        "charge",
        "fight",
    ]
    assert defs["Timing"]["properties"]["turn"]["enum"] == ["your", "opponent", "either"]
    assert defs["PhaseTiming"]["properties"]["turn"]["enum"] == ["your", "opponent", "either"]
    assert defs["Timing"]["properties"]["excluded_phases"]["items"]["enum"][0] == "command"
    assert defs["Weapon"]["properties"]["type"]["enum"] == ["ranged", "melee"]
    assert defs["Stratagem"]["properties"]["kind"]["const"] == "stratagem"
    index_kinds = index_schema()["$defs"]["IndexEntry"]["properties"]["kind"]["enum"]
    assert index_kinds == entity_schema()["properties"]["kind"]["enum"]
    assert index_kinds == [
        "datasheet",
        "stratagem",
        "detachment",
        "detachment_rule",
        "enhancement",
        "rule",
    ]
    assert defs["Detachment"]["properties"]["kind"]["const"] == "detachment"
    for name in ("Datasheet", "Stratagem", "Detachment", "DetachmentRule", "Enhancement", "Rule"):
        assert defs[name]["properties"]["edition"]["enum"] == [10, 11], name
        assert "edition" in defs[name]["required"], name
    entry = index_schema()["$defs"]["IndexEntry"]
    assert entry["properties"]["edition"]["enum"] == [10, 11] and "edition" in entry["required"]


def test_every_pydantic_model_and_field_of_the_contract_has_its_own_docstring() -> None:
    # Also the models no schema reaches (yet): a docstring inherited from a base class, or a
    # field without the attribute docstring below it, fails here.
    import inspect

    from wahanorm.contract import models
    from wahanorm.contract.schema import field_docstring

    classes = [
        cls
        for _, cls in inspect.getmembers(models, inspect.isclass)
        if issubclass(cls, models.Model) and cls.__module__ == models.__name__
    ]
    assert len(classes) >= 15
    undocumented = [c.__name__ for c in classes if not c.__dict__.get("__doc__")]
    undescribed = [
        f"{c.__name__}.{name}"
        for c in classes
        for name in c.model_fields
        if not field_docstring(c, name)
    ]
    assert undocumented == [] and undescribed == []


def test_the_characteristic_names_readers_of_json_use_are_the_contracts_fields() -> None:
    from wahanorm.contract.models import Profile, Weapon
    from wahanorm.contract.vocabulary import PROFILE_CHARACTERISTICS, WEAPON_CHARACTERISTICS

    profile_stats = [n for n, f in Profile.model_fields.items() if "Stat" in str(f.annotation)]
    weapon_stats = [n for n, f in Weapon.model_fields.items() if "Stat" in str(f.annotation)]
    assert [*PROFILE_CHARACTERISTICS, "invulnerable_save"] == profile_stats
    assert list(WEAPON_CHARACTERISTICS) == weapon_stats


def test_index_model_writes_the_schema_version_that_migrate_reads_to() -> None:
    from wahanorm.contract.migrate import current_index
    from wahanorm.contract.models import Index
    from wahanorm.contract.vocabulary import SCHEMA_VERSION

    assert Index.model_fields["schema_version"].default == SCHEMA_VERSION
    assert current_index({"schema_version": 1, "entities": []})["schema_version"] == SCHEMA_VERSION


def test_a_field_is_described_by_the_docstring_under_it_in_the_nearest_class_declaring_it() -> None:
    # Read from the source when a schema is made (not on each import of the models): a field
    # declared again lower down takes that declaration's docstring, or none; an inherited one
    # keeps its base's; a field with no string under it is undescribed.
    from pydantic import BaseModel

    from wahanorm.contract import schema
    from wahanorm.contract.schema import field_docstring

    class Base(BaseModel):
        kept: int
        """Said in the base.

            Indented under it."""
        again: int
        """The base's word."""
        bare: int

    class Lower(Base):
        again: int
        """The lower word."""
        other: int

    assert field_docstring(Lower, "kept") == "Said in the base.\n\nIndented under it."
    assert field_docstring(Lower, "again") == "The lower word."
    assert field_docstring(Base, "again") == "The base's word."
    assert field_docstring(Lower, "bare") is None
    assert field_docstring(Lower, "other") is None
    props = Lower.model_json_schema(schema_generator=schema._Described)["properties"]
    assert props["again"]["description"] == "The lower word."
    assert "description" not in props["other"]


def test_importing_the_models_reads_no_source() -> None:
    # The field docstrings cost a sixth of the models' import when pydantic read them there.
    code = (
        "import inspect, sys\n"
        "def refuse(*a, **k): raise SystemExit('source read on import')\n"
        "inspect.getsource = inspect.getsourcelines = inspect.findsource = refuse\n"
        "import wahanorm.contract.models\n"
        "print('ok')\n"
    )
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.stdout.strip() == "ok", done.stderr


def test_a_schema_without_the_models_source_is_an_error_not_a_schema_undescribed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # An install without its .py files: the field descriptions cannot be read, and ``schema``
    # says so (exit 2) instead of printing a schema that differs from the committed one.
    import inspect

    from wahanorm.cli import main
    from wahanorm.contract import schema

    def unreadable(_: object) -> str:
        raise OSError("could not get source code")

    schema._class_docstrings.cache_clear()
    monkeypatch.setattr(inspect, "getsource", unreadable)
    try:
        assert main(["schema", "index"]) == 2
    finally:
        schema._class_docstrings.cache_clear()
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "cannot be read" in captured.err and "wahanorm.contract.models" in captured.err


def test_fields_in_blocks_of_a_class_body_and_aliases_are_described_as_pydantic_describes_them() -> (
    None
):
    # Held to pydantic's own ``use_attribute_docstrings`` on models of the shapes it reads.
    from pydantic import BaseModel, ConfigDict, Field

    from wahanorm.contract import schema

    def models(docstrings: bool) -> list[type[BaseModel]]:
        class Base(BaseModel):
            model_config = ConfigDict(use_attribute_docstrings=docstrings)
            kept: int
            """In the base."""

        class Lower(Base):
            if True:
                inside: int
                """Inside an if."""
            try:
                tried: str = Field(alias="Tried")
                """Inside a try, by its alias."""
            except ValueError:
                pass
            shown: int = Field(serialization_alias="Shown")
            """By its alias in a file."""
            worded: int = Field(description="Its own word.")
            """Not this one."""

        return [Base, Lower]

    for theirs, ours in zip(models(True), models(False), strict=True):
        for mode in ("validation", "serialization"):
            expected = theirs.model_json_schema(mode=mode)  # type: ignore[arg-type]
            got = ours.model_json_schema(mode=mode, schema_generator=schema._Described)  # type: ignore[arg-type]
            assert got == expected, (ours.__name__, mode)
    assert schema.field_docstring(models(False)[1], "inside") == "Inside an if."
