"""Every field of the output contract is in the database (or the database says why not), and
the fields that used to stop at the JSON (characteristic notes, a model's own keywords, rule
references, variants) are rows."""

from __future__ import annotations

import json
import sqlite3
import typing
from collections.abc import Iterator
from pathlib import Path

import pytest
from pydantic import BaseModel

import wahanorm
from wahanorm.contract.schema import entity_classes
from wahanorm.outputs.database import FIELDS, build_database
from wahanorm.outputs.output import Output

REPO = Path(__file__).resolve().parents[1]
EXPORTS = REPO / "tests" / "fixtures" / "export"
SOURCES = [
    EXPORTS / "wahapedia-10ed-2026-02-14",
    EXPORTS / "wahapedia-11ed-2026-09-13-sample",
    EXPORTS / "wahapedia-11ed-2026-09-13-more",
]


def _models_in(annotation: object) -> list[type[BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    return [m for arg in typing.get_args(annotation) for m in _models_in(arg)]


def contract_fields(
    model: type[BaseModel], prefix: str, within: tuple[type[BaseModel], ...] = ()
) -> Iterator[str]:
    """Every leaf field of a model, as ``kind.field.subfield`` (a list's items by their own
    fields; ``variants`` as one field: a variant is an entity of the same shape; a list item's
    own items (``ListItem.items``) as one field: they have the shape of their parent)."""
    for name, info in model.model_fields.items():
        nested = _models_in(info.annotation)
        if nested and name != "variants" and not set(nested) & {*within, model}:
            for inner in nested:
                yield from contract_fields(inner, f"{prefix}{name}.", (*within, model))
        else:
            yield f"{prefix}{name}"


def every_contract_field() -> set[str]:
    found: set[str] = set()
    for model in entity_classes():
        kind = model.model_fields["kind"].default
        found.update(contract_fields(model, f"{kind}."))
    return found


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Iterator[sqlite3.Connection]:
    target = tmp_path_factory.mktemp("fields") / "rules.db"
    build_database(Output.from_files(wahanorm.convert(SOURCES).files()), target)
    connection = sqlite3.connect(target)
    yield connection
    connection.close()


def test_every_field_of_the_contract_is_listed() -> None:
    fields = every_contract_field()
    assert sorted(fields - FIELDS.keys()) == []  # a field the database forgot
    assert sorted(FIELDS.keys() - fields) == []  # a field the contract no longer has


def test_every_listed_column_is_in_the_database(db: sqlite3.Connection) -> None:
    for field, place in sorted(FIELDS.items()):
        if place.startswith("-"):
            assert len(place) > 20, f"{field}: say why it is not in the database"
            continue
        table, column = place.split(".")
        columns = {row[1] for row in db.execute(f'PRAGMA table_info("{table}")')}
        assert column in columns, f"{field} → {place}: no such column"


def test_a_characteristic_note_is_a_row(db: sqlite3.Connection) -> None:
    # Datasheets_models.csv of the 2026-09-13 export: inv_sv 5, inv_sv_descr
    # "* Against ranged attacks only" for the Cerastus Knight Castigator.
    rows = db.execute(
        "SELECT owner, position, characteristic, note FROM stat_notes "
        "WHERE datasheet_id = 'imperial-knights/cerastus-knight-castigator'"
    ).fetchall()
    assert rows == [("profile", 0, "invulnerable_save", "Against ranged attacks only")]


def test_a_models_own_keywords_are_rows(db: sqlite3.Connection) -> None:
    rows = db.execute(
        "SELECT p.name, k.keyword FROM profile_keywords AS k JOIN profiles AS p ON "
        "p.edition = k.edition AND p.datasheet_id = k.datasheet_id AND p.position = k.position "
        "WHERE k.datasheet_id = 'thousand-sons/rubric-marines'"
    ).fetchall()
    assert rows == [("Aspiring Sorcerer", "PSYKER")]


def test_rule_references_are_rows(db: sqlite3.Connection) -> None:
    rows = db.execute(
        "SELECT reference FROM rule_references WHERE rule_id = 'core/shock-disembark-move' "
        "ORDER BY position"
    ).fetchall()
    assert rows == [("03.02",)]


def test_variants_are_rows(db: sqlite3.Connection) -> None:
    # NEW ORDERS is printed three times in the 2026-02-14 export's Stratagems.csv, one copy
    # differing: the entity and its variant.
    (variants,) = db.execute(
        "SELECT variants FROM entities WHERE kind = 'stratagem' AND id = 'core/new-orders'"
    ).fetchone()
    rows = db.execute(
        "SELECT position, hash, sources, data FROM variants WHERE entity_id = 'core/new-orders'"
    ).fetchall()
    assert variants == len(rows) == 1
    position, _hash, sources, data = rows[0]
    variant = json.loads(data)
    assert position == 0 and variant["name"].upper() == "NEW ORDERS"
    assert json.loads(sources) == variant["sources"]
    assert all(s["path"].endswith("Stratagems.csv") for s in variant["sources"])
