"""The one HTML → text walker (``blocks.html_text``) on pieces of real inputs: lines as a
reader sees them, list items and how deep they sit, the options pages, exports and other HTML
ask for. Fixtures: ``tests/fixtures/html_text`` (cut from ``../shared`` by its
``make_fixtures.py``) and the 11th-edition export sample in ``tests/fixtures/export``."""

from __future__ import annotations

from pathlib import Path

import pytest

from wahanorm.blocks.html_text import (
    OTHER_HTML,
    SITE,
    SPLIT,
    TABLE,
    TextLine,
    flat_lines,
    nested_lines,
    parse_document,
    parse_fragment,
    walk,
)
from wahanorm.errors import Report
from wahanorm.readers.export.context import TABLES
from wahanorm.readers.export.tables import read_table
from wahanorm.readers.generic_html.flatten import html_to_text

REPO = Path(__file__).resolve().parents[1]
PIECES = REPO / "tests" / "fixtures" / "html_text"
SAMPLE = REPO / "tests" / "fixtures" / "export" / "wahapedia-11ed-2026-09-13-sample"


def _piece(name: str) -> str:
    return (PIECES / name).read_text(encoding="utf-8").rstrip("\n")


def _sample_field(table: str, line: int, name: str) -> str:
    """The description of the row at ``line`` of a table of the sample (named ``name``)."""
    records = read_table(SAMPLE, table, "sample", TABLES[table], Report())
    [found] = [r for r in records if r.line_start == line]
    assert found.get("name") == name
    return found.get("description")


def _lines(html: str) -> list[TextLine]:
    return walk(parse_fragment(html))


# ---- lists: items, depth, nesting ----------------------------------------------------------


def test_a_list_inside_a_list_item_is_one_level_deeper() -> None:
    # Abilities.csv line 2 of the sample (Waaagh!): "<li>Become riled up, as stated in other
    # rules.<br>While a unit is riled up:<br><ul><li>That unit has 5+ InSv.</li>…".
    lines = _lines(_sample_field("Abilities.csv", 2, "Waaagh!"))
    shape = [(line.depth, line.item) for line in lines]
    assert shape == [(0, False), (1, True), (1, True), (1, False), (2, True), (2, True),
                     (2, True), (0, False)]  # fmt: skip
    assert lines[3].text == "While a unit is riled up:"  # the item's own second line
    assert nested_lines(lines)[2:5] == [
        "- Become riled up, as stated in other rules.",
        "  While a unit is riled up:",
        "  - That unit has 5+ InSv.",
    ]
    # Flat, as a text dump prints it (other HTML, read as a dump next): every item at column 0.
    assert flat_lines(lines)[2:5] == [
        "- Become riled up, as stated in other rules.",
        "While a unit is riled up:",
        "- That unit has 5+ InSv.",
    ]


def test_heroic_intervention_keeps_its_two_modes_and_the_sub_items_of_the_second() -> None:
    # Stratagems.csv line 20: two <ul>s, the second inside div.str11Text2 after the cost box.
    # The labels are span.redPad at each item's start; the cost box div.str11CP2 "+1CP"
    # prices the items of the list after it.
    lines = _lines(_sample_field("Stratagems.csv", 20, "HEROIC INTERVENTION"))
    assert nested_lines(lines)[3:] == [
        "- Leap to Defend: When selecting charge targets, you can only select enemy units that "
        "made a charge move this phase and are within the maximum distance.",
        "- Into the Fray [+1CP]:",
        "  - When making the charge roll, if the result is greater than 6 (after modifiers), "
        "change it to 6.",
        '  - When selecting charge targets, you can select any enemy units that are within 6" '
        "of your unit and within the maximum distance.",
    ]
    items = [(x.depth, x.label, x.cost, x.text[:20]) for x in lines if x.item]
    assert items == [
        (1, "Leap to Defend", None, "When selecting charg"),
        (1, "Into the Fray", "+1CP", ""),
        (2, None, None, "When making the char"),
        (2, None, None, "When selecting charg"),
    ]
    assert "+1CP" not in [x.text for x in lines]  # the cost is no line of its own


def test_an_ordered_list_is_marked_so() -> None:
    # Abilities.csv line 3 (Firing Deck) prints its steps as an <ol>.
    lines = _lines(_sample_field("Abilities.csv", 3, "Firing Deck"))
    items = [line for line in lines if line.item]
    assert items and all(line.ordered and line.depth == 1 for line in items)
    assert not any(line.ordered for line in lines if line.depth == 0)


def test_an_item_opening_with_a_block_keeps_its_bullet() -> None:
    # DISEMBARK MOVE on the World Eaters page: <li><div class="redPad">Rapid Disembark:</div>
    # If that TRANSPORT …</li>. The label's box opens the item: the label and the text after
    # it are the item's one line.
    lines = flat_lines(walk(parse_fragment(_piece("disembark_move.html"))))
    start = lines.index("BEFORE MOVING: Select disembark mode:")
    assert lines[start + 1 : start + 3] == [
        "- Rapid Disembark: If that TRANSPORT made a normal or ingress move this phase, you "
        "must select this mode.",
        "- Tactical Disembark: Otherwise, If that TRANSPORT remained stationary or has not yet "
        "been selected to move this phase, and if you can set up your unit as described below, "
        "you must select this mode.",
    ]
    # Bold text that prints its own "- " is no list item: it stays as printed.
    assert lines[:3] == [
        "SET-UP DISTANCE:",
        '- Rapid/Tactical Disembark: 3"',
        '- Combat Disembark: 6"',
    ]


def test_a_list_item_without_text_gives_no_line() -> None:
    assert flat_lines(_lines("<ul><li> </li><li><br></li><li>one</li></ul>")) == ["- one"]


# ---- lines ---------------------------------------------------------------------------------


def test_a_line_end_in_the_source_is_a_space() -> None:
    # The settings menu of a saved page: its labels are inline and parted only by line ends,
    # so the page without the site's style sheet shows them on one line.
    text = html_to_text(_piece("settings_menu.html"))
    assert text.startswith("Settings\nShow fluff text Show Legends and not recommended")
    assert text.count("\n") == 2


def test_blocks_breaks_and_cells_are_lines() -> None:
    html = "A<br>B<div>C</div>D <b>E</b><table><tr><td>F</td><td>G</td></tr></table>"
    assert flat_lines(_lines(html)) == ["A", "B", "C", "D E", "F", "G"]


def test_a_characteristic_box_is_one_line() -> None:
    # Voice of Command (Abilities.csv of the November 2025 export): each order prints its
    # characteristic in a box (div.dsCharWrap: the name over the value).
    lines = flat_lines(_lines(_piece("voice_of_command.html")))
    assert lines[lines.index("Move! Move! Move!") + 1] == 'M +3"'
    assert lines[lines.index("Duty and Honour!") + 1 : lines.index("Duty and Honour!") + 3] == [
        "LD +1",
        "OC +1",
    ]


def test_comments_are_no_text_but_their_tails_are() -> None:
    assert flat_lines(_lines("one <!-- a note -->two")) == ["one two"]


# ---- alternatives, chrome, spelling --------------------------------------------------------


def test_a_keyword_printed_once_per_filter_reads_once() -> None:
    # tyranids/index.html, tooltip_content00007: <a><span style="display:none;" class="snFl
    # TYTY">TYRANIDS</span><span … class="snFl TYIF">TYRANIDS</span> … (one per filter).
    piece = _piece("filter_copies.html")
    assert piece.count('class="snFl') > 10
    expected = "The TYRANIDS and CHARACTER keywords are used in the following Tyranids datasheets:"
    assert flat_lines(_lines(piece)) == [expected]
    assert html_to_text(piece) == expected + "\n"  # the same for other HTML


def test_a_copy_after_other_text_is_kept() -> None:
    html = '<span class="snFl">ORKS</span> and <span class="snFl">ORKS</span>'
    assert flat_lines(_lines(html)) == ["ORKS and ORKS"]


def test_chrome_is_dropped_from_other_html_only() -> None:
    html = '<div class="cookie-banner">We use cookies</div><nav>Home</nav><p>Rules</p>'
    assert html_to_text(html) == "Rules\n"
    assert flat_lines(_lines(html)) == ["We use cookies", "Rules"]  # nav is never text


def test_other_html_keeps_its_characters_for_the_dump_reader() -> None:
    html = "<p>Ork\u2019s\u00a0 choppa</p>"
    assert flat_lines(walk(parse_fragment(html), OTHER_HTML)) == ["Ork\u2019s choppa"]
    assert flat_lines(_lines(html)) == ["Ork's choppa"]


# ---- what page readers ask -----------------------------------------------------------------


def test_split_skip_and_tables_are_marks_or_nothing() -> None:
    html = (
        '<b>One:</b> a<div class="dsLineHor"></div><b>Two:</b> b<span class="x">gone</span>'
        "<table><tr><td>BATTLE SIZE</td><td>UNITS</td></tr><tr><td>Incursion</td><td>1</td></tr>"
        "</table>after"
    )
    tables: list[list[list[str]]] = []
    lines = walk(parse_fragment(html), SITE.but(skip=("x",), split_on=("dsLineHor",)), tables)
    assert [line.mark for line in lines] == [None, SPLIT, None, TABLE, None]
    assert flat_lines(lines, split="|") == ["One: a", "|", "Two: b", "after"]
    assert tables == [[["BATTLE SIZE", "UNITS"], ["Incursion", "1"]]]


# ---- documents -----------------------------------------------------------------------------


@pytest.mark.parametrize("depth", [10, 300, 5000])
def test_a_document_nested_deeper_than_libxml2_builds_is_read_whole(depth: int) -> None:
    html = "<html><body>" + "<div>" * depth + "<p>deep</p>" + "</div>" * depth + "<p>after</p>"
    root = parse_document(html + "</body></html>")
    assert root is not None
    assert flat_lines(walk(root, OTHER_HTML)) == ["deep", "after"]


def test_a_document_with_a_declared_encoding_or_nothing() -> None:
    declared = "<?xml version='1.0' encoding='utf-8'?><html><body><p>x</p></body></html>"
    assert html_to_text(declared) == "x\n"
    assert parse_document("") is None
    assert html_to_text("") == ""
