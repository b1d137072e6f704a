"""The fast paths of issue 20 on the crosscheck's side. A side converted from raw inputs hands the
engine each entity file's JSON value as the renderer made it (``Conversion.entity_data``,
``Snapshot.data``) instead of its text to parse again. The engine must see what the files hold:
the same values (keys in the model's order, not sorted), and every report, of a crosscheck or a
diff, byte for byte the one made from the parsed files. Checked on the committed fixtures, on odd
snapshots (data for some files only, data for no file), and on the whole inputs in ../shared.

``form.Presence`` makes each path's string once (``_Path``) and ``form.pruned`` asks each key's
path once per ``Kept``: both checked against the whole way, every part's path made and looked
up, on odd entities, the committed fixtures and the whole inputs; so is ``form.plain_pruned``,
``pruned`` and ``plain_in_capitals`` in one walk."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import orjson
import pytest

from wahanorm import pipeline
from wahanorm.contract.layout import INDEX_NAME
from wahanorm.outputs.canonical import canonical_json
from wahanorm.outputs.crosscheck import form
from wahanorm.outputs.crosscheck.engine import crosscheck
from wahanorm.outputs.crosscheck.render_markdown import render_markdown
from wahanorm.outputs.crosscheck.render_text import render_text
from wahanorm.outputs.diff.engine import Snapshot, diff_snapshots, read_entities
from wahanorm.outputs.diff.sides import load_side

FIXTURES = Path(__file__).resolve().parent / "fixtures"
SHARED = Path(__file__).resolve().parents[2] / "shared"
COMMITTED = [
    (
        FIXTURES / "export" / "wahapedia-10ed-2026-02-14",
        FIXTURES / "bsdata" / "wh40k-10e-2026-02-14",
    ),
    (
        FIXTURES / "export" / "wahapedia-11ed-2026-09-13-sample",
        FIXTURES / "bsdata" / "wh40k-11e-2026-07-22",
    ),
]
WHOLE = [
    (
        SHARED / "corpus" / "wahapedia-10ed-2026-02-14",
        SHARED / "bsdata" / "wh40k-10e-2026-02-14",
    ),
    (
        SHARED / "corpus" / "wahapedia-11ed-2026-09-13-sample",
        SHARED / "bsdata" / "wh40k-11e-2026-07-22",
    ),
]


def parsed(snap: Snapshot) -> Snapshot:
    """The same side without the conversion's data: its files parsed, the whole way."""
    return Snapshot(snap.spec, snap.source, snap.files)


@functools.cache  # converted once for all the tests (nothing changes a snapshot's data)
def side(path: Path) -> Snapshot:
    snap, _ = load_side(str(path), pipeline.converted)
    assert snap.data, "a side converted from raw inputs hands the engine its data"
    return snap


def reports(a: Snapshot, b: Snapshot, **keep: list[str]) -> tuple[str, str, str]:
    found = crosscheck(a, b, **keep)
    return canonical_json(found), render_text(found, colour=True), render_markdown(found)


def assert_same_ways(a: Snapshot, b: Snapshot, everything: bool = True) -> None:
    """Both ways read alike and report alike (``everything``: also with ``--kind`` and
    ``--field``, and as a diff)."""
    for snap in (a, b):
        fast, slow = read_entities(snap), read_entities(parsed(snap))
        assert snap.data is not None
        made = {id(v) for v in snap.data.values()}
        assert all(id(v) in made for v in fast.by_key.values())  # the fast way was taken
        assert fast.by_key == slow.by_key
        assert fast.texts == slow.texts
        assert fast.data_version == slow.data_version
        assert list(fast.by_key) == list(slow.by_key)  # the same order of entities
    assert reports(a, b) == reports(parsed(a), parsed(b))
    if not everything:
        return
    keep = {"kinds": ["datasheet", "enhancement"], "fields": ["weapons", "text", "leader"]}
    assert reports(a, b, **keep) == reports(parsed(a), parsed(b), **keep)
    assert canonical_json(diff_snapshots(a, b)) == canonical_json(
        diff_snapshots(parsed(a), parsed(b))
    )


@pytest.mark.parametrize("pair", COMMITTED, ids=lambda p: p[0].name)
def test_the_data_is_what_the_files_parse_to(pair: tuple[Path, Path]) -> None:
    for path in pair:
        conversion = pipeline.convert([path], entity_data=True)
        data = conversion.entity_data
        assert data is not None
        assert set(data) == set(conversion.files) - {INDEX_NAME}
        for rel, value in data.items():
            assert orjson.loads(conversion.files[rel]) == value
        # the data is the model's order, not the file's: the engine must not depend on it
        assert any(list(v) != sorted(v) for v in data.values())
        assert pipeline.convert([path]).entity_data is None  # kept only when asked


@pytest.mark.parametrize("pair", COMMITTED, ids=lambda p: p[0].name)
def test_crosscheck_of_the_data_is_crosscheck_of_the_files(pair: tuple[Path, Path]) -> None:
    assert_same_ways(side(pair[0]), side(pair[1]))


def test_the_data_of_some_files_only(tmp_path: Path) -> None:
    # odd snapshots: data for half the files (the rest parsed), for none, for a file not listed
    a, b = side(COMMITTED[0][0]), side(COMMITTED[0][1])
    assert a.data is not None
    half = dict(list(sorted(a.data.items()))[::2])
    stray = {"10ed/datasheet/orks/no-such-unit.json": {"kind": "datasheet", "id": "orks/x"}}
    for data in (half, {}, {**a.data, **stray}):
        odd = Snapshot(a.spec, a.source, a.files, data)
        assert read_entities(odd).by_key == read_entities(parsed(a)).by_key
        assert reports(odd, b) == reports(parsed(a), parsed(b))


@pytest.mark.skipif(
    not all(p.is_dir() for pair in WHOLE for p in pair),
    reason=f"the whole inputs are not here ({SHARED} is absent on this machine)",
)
@pytest.mark.parametrize("pair", WHOLE, ids=lambda p: p[0].name)
def test_crosscheck_of_the_whole_inputs_the_fast_way(pair: tuple[Path, Path]) -> None:
    assert_same_ways(side(pair[0]), side(pair[1]), everything=False)


# --- what a side holds (``Presence``) and what is kept of it (``pruned``) -------------------


def every_pattern(entity: dict[str, Any]) -> set[str]:
    """``Presence`` the whole way: every part's pattern made, part by part."""
    found: set[str] = set()

    def walk(prefix: str, value: dict[str, Any]) -> None:
        for key, sub in value.items():
            if type(sub) is dict:
                walk(f"{prefix}{key}.", sub)
            elif type(sub) is list:
                if sub:
                    found.add(f"{prefix}{key}[]")
                for item in sub:
                    if type(item) is dict:
                        walk(f"{prefix}{key}[].", item)
            elif sub is not None and sub != "" and sub is not False:
                found.add(f"{prefix}{key}")

    walk("", {k: v for k, v in entity.items() if k not in form.LEFT_OUT})
    return found


def pruned_the_whole_way(entity: dict[str, Any], keep: frozenset[str]) -> dict[str, Any]:
    """``pruned`` the whole way: each part's path made and looked up, part by part."""

    def prune(path: str, value: Any) -> Any:
        if type(value) is dict:
            return {k: prune(f"{path}.{k}", v) for k, v in value.items() if f"{path}.{k}" in keep}
        if type(value) is list and value and all(type(x) is dict for x in value):
            return [prune(f"{path}[]", item) for item in value]
        return value

    return {k: prune(k, v) for k, v in entity.items() if k not in form.LEFT_OUT and k in keep}


ODD = [
    # a key with a dot or a bracket, a key a leaf here and a dict or list there, lists of lists
    # and of mixed items, values that hold nothing (None, "", False, [], {}) and 0, which holds
    {"kind": "rule", "id": "x/a", "name": "A", "a.b": 1, "a": {"b": {"c": ""}}, "sources": [1]},
    {"kind": "rule", "id": "x/b", "name": "", "a": {"b": 0}, "t[]": [{"u": 1}], "t": [[{"u": 2}]]},
    {"kind": "rule", "id": "x/c", "name": None, "t": [{"u": False}, "s", {"v": {}}, {"w": []}]},
    {"kind": "rule", "id": "x/d", "a": [], "t": [{"u": {"x": [{"y": "z"}]}}, {"u": "leaf"}]},
    {"kind": "rule", "id": "x/e", "edition": 10, "variants": [{"name": "V"}], "a": "text"},
    # spellings: keywords (of a unit, of a weapon, as a list of dicts), weapon abilities' names
    # and keywords, typographic quotes, runs of spaces, a mixed list holding a dict
    {
        "kind": "datasheet",
        "id": "x/f",
        "name": "Boyz’  Mob",
        "keywords": ["Orks  Infantry", {"name": "mob"}, 3],
        "faction_keywords": [{"keywords": ["orks"]}],
        "weapons": [
            {
                "name": "Slugga",
                "keywords": ["pistol"],
                "abilities": [{"name": "pistol", "keyword": "x y"}],
            },
            {"name": "Choppa", "abilities": [{"name": "‘sustained’", "text": "Hits  1"}]},
        ],
        "abilities": {
            "core": [{"name": "Deep  strike", "keyword": "z"}],
            "other": ["a", {"b": "c"}],
        },
    },
]


def assert_presence_and_pruning(entities: list[dict[str, Any]]) -> None:
    presence = form.Presence()
    for entity in entities:
        presence.add(entity)
    whole = set().union(*(every_pattern(e) for e in entities))
    assert presence.found == whole
    patterns = sorted(whole)
    for allowed in (patterns, patterns[::2], patterns[1::3], ["name"]):
        keep = form.kept(allowed)  # one for all the entities, as the engine prunes them
        for entity in entities:
            whole_way = pruned_the_whole_way(entity, frozenset(keep))
            assert form.pruned(entity, keep) == whole_way
            # and in one walk with the spelling taken out, keys in the same order
            plain = form.plain_in_capitals(whole_way)
            assert orjson.dumps(form.plain_pruned(entity, keep)) == orjson.dumps(plain)


def test_presence_and_pruning_on_odd_entities() -> None:
    assert_presence_and_pruning(ODD)
    assert_presence_and_pruning(ODD[::-1])  # a key met first as a leaf, then as a dict


@pytest.mark.parametrize("path", [p for pair in COMMITTED for p in pair], ids=lambda p: p.name)
def test_presence_and_pruning_on_committed_inputs(path: Path) -> None:
    entities = list(read_entities(side(path)).by_key.values())
    for kind in {e["kind"] for e in entities}:
        assert_presence_and_pruning([e for e in entities if e["kind"] == kind])


@pytest.mark.skipif(
    not all(p.is_dir() for pair in WHOLE for p in pair),
    reason=f"the whole inputs are not here ({SHARED} is absent on this machine)",
)
@pytest.mark.parametrize("path", [p for pair in WHOLE for p in pair], ids=lambda p: p.name)
def test_presence_and_pruning_on_the_whole_inputs(path: Path) -> None:
    entities = list(read_entities(side(path)).by_key.values())
    for kind in {e["kind"] for e in entities}:
        assert_presence_and_pruning([e for e in entities if e["kind"] == kind])
