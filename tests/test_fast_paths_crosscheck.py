"""The fast path of issue 20 on the crosscheck's side: a side converted from raw inputs hands the
engine each entity file's JSON value as the renderer made it (``Conversion.entity_data``,
``Snapshot.data``) instead of its text to parse again. The engine must see what the files hold:
the same values (keys in the model's order, not sorted), and every report, of a crosscheck or a
diff, byte for byte the one made from the parsed files. Checked on the committed fixtures, on odd
snapshots (data for some files only, data for no file), and on the whole inputs in ../shared."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from wahanorm import pipeline
from wahanorm.contract.layout import INDEX_NAME
from wahanorm.outputs.canonical import canonical_json
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
