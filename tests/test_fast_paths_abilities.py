"""The comma-list fast path of ``weapon_abilities.parse_ability_list`` gives what the grammar
gives on the whole list.

A keyword list with commas (``Assault, Heavy, Lethal hits``) is cut at its commas and each
distinct item is parsed by the grammar once (``_comma_items``); where the cut could read
otherwise (brackets, a lone dash, an empty item, a second separator) or an item breaks the
grammar, the whole list is parsed as one. Checked here against the grammar on the whole list:
odd lists, generated lists, and every weapon keyword cell of the committed export slices and
of the real exports in ../shared.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from wahanorm.blocks.parse import weapon_abilities
from wahanorm.blocks.parse.weapon_abilities import AbilityList, parse_ability_list
from wahanorm.errors import ParseFailure, Report
from wahanorm.readers.export import markup
from wahanorm.readers.export.context import TABLES
from wahanorm.readers.export.tables import read_table

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
FIXTURES = Path(__file__).resolve().parent / "fixtures" / "export"
needs_corpus = pytest.mark.skipif(
    not CORPUS.is_dir(), reason=f"the full exports are not here ({CORPUS} is absent)"
)

Outcome = AbilityList | tuple[str, str, int | None, int | None, str | None]


def whole(text: str) -> Outcome:
    """The grammar on the whole list (or the failure it raises, as plain values)."""
    try:
        if not text.strip():
            return AbilityList(abilities=())
        return weapon_abilities._parse_whole(text, "x.csv", 7)
    except ParseFailure as failure:
        return (str(failure), failure.path, failure.line, failure.column, failure.excerpt)


def fast(text: str) -> Outcome:
    """``parse_ability_list`` as the readers call it (or the failure it raises)."""
    try:
        return parse_ability_list(text, "x.csv", 7)
    except ParseFailure as failure:
        return (str(failure), failure.path, failure.line, failure.column, failure.excerpt)


def cut(text: str) -> bool:
    """Whether the fast path reads ``text`` by its items."""
    return weapon_abilities._comma_items(text) is not None


@pytest.mark.parametrize(
    ("text", "by_items"),
    [
        ("Assault, Heavy", True),
        ("assault,heavy,", True),  # a final comma: a separator the grammar takes at the end
        ("Anti-Infantry 4+, Devastating Wounds, Rapid Fire D3+1", True),
        ("LETHAL HITS: non-MONSTER/VEHICLE, Rapid Fire 1", True),
        ("lethal hits: non-monster. torrent, heavy", True),
        ("Psychic Assassin, Precision, Psychic Assassin", True),  # unknown names said once
        ("torrent., lethal hits", False),  # two separators in a row: the grammar refuses
        ("torrent;, lethal hits", False),
        ("assault,, heavy", False),
        (", assault", False),
        ("assault, -", False),
        ("-, assault", False),
        ("[assault, heavy]", False),
        ("assault, heavy]", False),
        ("assault, ;heavy", False),
        ("assault, @@", False),  # an item the grammar cannot read: the whole list says where
        ("-", False),
        ("heavy", False),
        ("", False),
    ],
)
def test_comma_items_are_the_whole_list(text: str, by_items: bool) -> None:
    assert cut(text) is by_items
    assert fast(text) == whole(text)


_ITEMS = [
    "assault", "Heavy", "RAPID FIRE 2", "rapid fire d3+1", "anti-infantry 4+", "ANTI-FLY 2+",
    "lethal hits", "LETHAL HITS: non-MONSTER/VEHICLE", "sustained hits d3", "melta 2",
    "devastating wounds hazardous", "Psychic Assassin", "blast 1", "close quarters",
    "one shot", "twin-linked", "torrent.", "ignores cover;", "-", "", " ", "[", "]", "@",
    "lance: vs. VEHICLE", "Hazardous: non-EPIC HERO precision", "x",
]  # fmt: skip
_JOINS = [",", ", ", " , ", ". ", "; ", " "]


@given(
    st.lists(st.tuples(st.sampled_from(_ITEMS), st.sampled_from(_JOINS)), min_size=1, max_size=6)
)
@example([("torrent.", ", "), ("heavy", "")])
@example([("assault", ",, "), ("heavy", "")])
def test_generated_lists(parts: list[tuple[str, str]]) -> None:
    text = "".join(item + join for item, join in parts)
    assert fast(text) == whole(text), text


def keyword_cells(folder: Path) -> set[str]:
    """Every distinct weapon keyword cell (``description`` of Datasheets_wargear.csv), as the
    reader hands it to the parser: its markup flattened (``markup.field_text``)."""
    table = "Datasheets_wargear.csv"
    records = read_table(folder, table, folder.name, TABLES[table], Report())
    return {markup.field_text(record.fields["description"])[0] for record in records}


def assert_cells(cells: set[str], least: int) -> None:
    lists = [cell for cell in cells if "," in cell]
    assert len(lists) >= least
    assert sum(map(cut, lists)) * 10 > len(lists) * 9  # nine in ten read by their items
    for cell in cells:
        assert fast(cell) == whole(cell), cell


@pytest.mark.parametrize("name", ["wahapedia-10ed-2026-02-14", "wahapedia-11ed-2026-09-13-sample"])
def test_keyword_cells_of_the_committed_slices(name: str) -> None:
    assert_cells(keyword_cells(FIXTURES / name), 6)


@needs_corpus
@pytest.mark.parametrize(
    "name",
    [
        "wahapedia-10ed-2025-11-14-html",
        "wahapedia-10ed-2026-02-14",
        "wahapedia-11ed-2026-09-13-sample",
    ],
)
def test_keyword_cells_of_the_real_exports(name: str) -> None:
    assert_cells(keyword_cells(CORPUS / name), 8)
