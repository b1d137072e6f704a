"""Inputs a reader reads together (``Reader.together``: BSData catalogues link into their game
system and each other): grouped into one input by discovery, per folder and for the files named
on the command line, recognised by content, and keyed in the cache by every file."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from wahanorm import pipeline
from wahanorm.pipeline.cache import Cache, input_key
from wahanorm.pipeline.discover import discover
from wahanorm.readers import registry

TENTH = Path(__file__).parent / "fixtures" / "bsdata" / "wh40k-10e-2026-02-14"
TYRANT = "tyranids/winged-hive-tyrant"


@pytest.fixture
def catalogues(tmp_path: Path) -> Path:
    folder = tmp_path / "catalogues"
    shutil.copytree(TENTH, folder)
    return folder


def test_a_folder_of_catalogues_is_one_input(catalogues: Path, tmp_path: Path) -> None:
    (tmp_path / "dump.txt").write_text("not read here\n", encoding="utf-8")
    items, skipped, missing = discover([tmp_path])
    (group,) = [i for i in items if i.members]
    assert sorted(m.path.name for m in group.members) == sorted(p.name for p in TENTH.iterdir())
    assert group.path == catalogues and group.display.endswith("catalogues")
    assert registry.reader_for(group) is registry.by_name("bsdata")
    assert [i.path.name for i in items if not i.members] == ["dump.txt"]
    assert (skipped, missing) == ([], [])


def test_files_named_together_resolve_their_links(catalogues: Path) -> None:
    # Tyranids.cat offers the Winged Hive Tyrant by a link into Library - Tyranids.cat
    named = [catalogues / "Tyranids.cat", catalogues / "Library - Tyranids.cat"]
    items, _, _ = discover([*named, catalogues / "Warhammer 40,000.gst"])
    (group,) = items
    assert [m.path for m in group.members] == [*named, catalogues / "Warhammer 40,000.gst"]
    run = pipeline.convert([*named, catalogues / "Warhammer 40,000.gst"])
    assert TYRANT in {e.id for e in run.entities}
    assert not any(
        d.code == "missing-import" and "game system" in d.message for d in run.diagnostics
    )
    # named alone, the catalogue cannot reach the library: its link is said, not guessed
    alone = pipeline.convert([catalogues / "Tyranids.cat"])
    assert TYRANT not in {e.id for e in alone.entities}
    assert any(
        d.code == "missing-import" and "Winged Hive Tyrant" in d.message for d in alone.diagnostics
    )


def test_a_json_that_is_no_catalogue_is_not_taken(tmp_path: Path) -> None:
    other = tmp_path / "package.json"
    other.write_text('{\n  "name": "x",\n  "catalogue": {}\n}\n', encoding="utf-8")
    (item,) = discover([other])[0]
    assert not item.members
    assert registry.reader_for(item) is not registry.by_name("bsdata")


def test_a_catalogue_on_standard_input_is_recognised() -> None:
    from wahanorm.readers.base import Source

    source = Source(Path("-"), "<stdin>", data=(TENTH / "Orks.cat").read_bytes())
    assert registry.reader_for(source) is registry.by_name("bsdata")


def test_a_set_of_files_is_keyed_by_every_file(catalogues: Path) -> None:
    (group,) = discover([catalogues])[0]
    key = input_key(group)
    assert key is not None and key == input_key(discover([catalogues])[0][0])
    library = catalogues / "Library - Tyranids.cat"
    library.write_text(library.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert input_key(discover([catalogues])[0][0]) != key


def test_a_cached_set_is_read_again_when_one_file_changes(catalogues: Path, tmp_path: Path) -> None:
    cache = Cache(tmp_path / "cache")
    first = pipeline.convert([catalogues], cache=cache)
    assert TYRANT in {e.id for e in first.entities}
    library = catalogues / "Library - Tyranids.cat"
    library.write_text(
        library.read_text(encoding="utf-8").replace(
            'name="Winged Hive Tyrant"', 'name="Winged Tyrant"'
        ),
        encoding="utf-8",
    )
    again = pipeline.convert([catalogues], cache=Cache(tmp_path / "cache"))
    ids = {e.id for e in again.entities}
    assert TYRANT not in ids and "tyranids/winged-tyrant" in ids
