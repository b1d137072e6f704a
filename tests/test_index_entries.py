"""An entry of ``index.json`` is written from its entity's JSON, not made a model and dumped
again: it is held here to the contract's ``IndexEntry`` and to the file it names."""

from __future__ import annotations

import json
from pathlib import Path

import orjson
import pytest

from wahanorm import pipeline
from wahanorm.contract.hashing import content_hash
from wahanorm.contract.models import Index, IndexEntry

SORTED = orjson.OPT_SORT_KEYS
RAW = Path(__file__).resolve().parents[1] / "raw"


@pytest.fixture(scope="module")
def samples() -> pipeline.Conversion:
    return pipeline.convert([RAW])


def test_every_entry_is_the_json_of_a_valid_index_entry(samples: pipeline.Conversion) -> None:
    entries = json.loads(samples.files["index.json"])["entities"]
    assert len(entries) == len(samples.entities) > 100
    assert any(e["variants"] for e in entries)  # the samples disagree somewhere
    assert {e["edition"] for e in entries} == {10, 11}
    for entry in entries:
        model = IndexEntry.model_validate(entry).model_dump(mode="json")
        assert entry.keys() == IndexEntry.model_fields.keys()  # every field, none more
        assert entry == model
        # ``==`` holds 10 == 10.0; the JSON text does not.
        assert orjson.dumps(entry, option=SORTED) == orjson.dumps(model, option=SORTED)
    Index.model_validate_json(samples.files["index.json"])


def test_every_entry_says_what_its_file_and_its_entity_say(samples: pipeline.Conversion) -> None:
    entries = json.loads(samples.files["index.json"])["entities"]
    by_key = {(e.edition, e.kind, e.id): e for e in samples.entities}
    for entry in entries:
        data = json.loads(samples.files[entry["path"]])
        for field in ("id", "kind", "name", "edition", "sources"):
            assert entry[field] == data[field], (entry["path"], field)
        assert entry["variants"] == len(data["variants"])
        entity = by_key[(entry["edition"], entry["kind"], entry["id"])]
        assert entry["hash"] == content_hash(entity)
    keys = [(e["edition"], e["kind"], e["id"]) for e in entries]
    assert keys == sorted(keys)
