"""HTML fields of the export to text: no markup left, no word lost, spacing and lines right.
The inputs are cut from real fields of the November 2025 export (and, in
``tests/fixtures/html_text``, whole fields of both 10th-edition exports)."""

from __future__ import annotations

from pathlib import Path

import pytest

from wahanorm.blocks.html_text import nested_lines
from wahanorm.readers.export.markup import (
    field_lines,
    field_parts,
    field_text,
    fix_broken_caps,
    html_to_text,
)

PIECES = Path(__file__).resolve().parent / "fixtures" / "html_text"

CASES = [
    (
        "labels and line breaks",
        "<b>WHEN:</b> Your Shooting phase.<br><br><b>TARGET:</b> One unit.",
        "WHEN: Your Shooting phase.\nTARGET: One unit.",
    ),
    (
        "keyword spans inside a tooltip wrapper keep their space",
        'One <span class="tooltip00617" data-tooltip-content="#tooltip_content00617">'
        '<span class="kwb">VOIDFARERS</span></span> unit and <span class="kwb">ADEPTUS</span> '
        '<span class="kwb">CUSTODES</span> models',
        "One VOIDFARERS unit and ADEPTUS CUSTODES models",
    ),
    (
        "links and a keyword glued to a hyphen",
        'non-<span class="kwb">CHARACTER</span> models have the '
        '<a href="/wh40k10ed/the-rules/core-rules/#Benefit-of-Cover">Benefit of Cover</a>.',
        "non-CHARACTER models have the Benefit of Cover.",
    ),
    (
        "struck-out keyword a faction lacks is still a word of the rule",
        '<span class="tooltip" title="Keyword does not appear in that faction.">'
        '<s class="kwbs">JUMP PACK</s></span> <a href="/x">keywords</a>.',
        "JUMP PACK keywords.",
    ),
    (
        "list items on lines of their own",
        "This model’s killsaw can be replaced with one of the following:"
        '<ul style="list-style-type:circle"><li>1 big choppa</li><li>1 power klaw</li></ul>',
        "This model's killsaw can be replaced with one of the following:\n"
        "- 1 big choppa\n- 1 power klaw",
    ),
    (
        "layout divs and entities",
        '<div class="redDiamondLeft"><div class="aeMovement"></div></div>'
        '<span class="aeText">TRIGGER:</span> When&nbsp;an&emsp;enemy unit ends a move.',
        "TRIGGER: When an enemy unit ends a move.",
    ),
]


@pytest.mark.parametrize(("title", "raw", "expected"), CASES, ids=[c[0] for c in CASES])
def test_html_field_to_text(title: str, raw: str, expected: str) -> None:
    assert field_text(raw) == (expected, ())
    assert html_to_text(raw) == expected


def test_plain_field_keeps_its_lines_in_the_clean_spelling() -> None:
    assert field_text("’Uge choppa") == ("'Uge choppa", ())
    assert field_text("first\r\n\nsecond  line") == ("first\nsecond line", ())


def test_markup_escaped_twice_is_read_and_reported() -> None:
    # Enhancements.csv of November 2025 holds a tooltip span escaped inside keyword spans.
    raw = (
        '<span class="kwb2">&lt;<span class="kwb3">S</span>PAN</span> '
        '<span class="kwb">CLASS="KWB</span> <span class="kwb">KWBU"&gt;ADEPTUS&lt;/SPAN&gt;'
        "</span> model only."
    )
    assert html_to_text(raw).startswith("<SPAN")
    assert field_text(raw) == ("ADEPTUS model only.", ("escaped-markup",))


def test_broken_caps_repaired_and_named() -> None:
    text = "One AGENTS OF THE IMpERIUM or ORDO MAllEUS unit; 2 CPs, a MkII Rhino."
    assert fix_broken_caps(text) == (
        "One AGENTS OF THE IMPERIUM or ORDO MALLEUS unit; 2 CPs, a MkII Rhino.",
        ["IMpERIUM", "MAllEUS"],
    )


def _field(name: str) -> str:
    return (PIECES / name).read_text(encoding="utf-8").rstrip("\n")


def test_a_list_inside_a_list_item_is_indented_in_the_text() -> None:
    # Malefic Surge (Detachment_abilities.csv of February 2026): "Unnatural Fortitude: …
    # select one of the following:<br><ul><li>Models in this unit have a 5+ …</li>…".
    raw = _field("malefic_surge.html")
    text, notes = field_text(raw)
    assert notes == ()
    assert "the following:\n  - Models in this unit have a 5+ invulnerable save.\n" in text
    assert text == "\n".join(nested_lines(field_lines(raw).lines))


def test_characteristic_boxes_read_as_the_page_reads_them() -> None:
    # Voice of Command (Abilities.csv of November 2025): each order's box prints the
    # characteristic over its value; the saved pages' tooltip of the same rule reads
    # "M +3\"" on one line, and so does the export now.
    text, tables, notes = field_parts(_field("voice_of_command.html"))
    assert 'Move! Move! Move!\nM +3"\nAdd 3" to the Move characteristic' in text
    assert "Duty and Honour!\nLD +1\nOC +1\nImprove the Leadership" in text
    assert (tables, notes) == ((), ())


def test_a_field_that_looks_like_a_whole_document_is_still_read() -> None:
    # lxml's fragment_fromstring fails on "<html>" alone (an assertion); a field never does.
    assert field_text("<html>") == ("", ())
    assert field_text("<html><body>One <b>unit</b>.</body></html>") == ("One unit.", ())
