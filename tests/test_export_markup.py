"""HTML fields of the export to text: no markup left, no word lost, spacing and lines right.
The inputs are cut from real fields of the November 2025 export."""

from __future__ import annotations

import pytest

from wahanorm.readers.export.markup import (
    field_text,
    fix_broken_caps,
    html_to_text,
    html_to_text_bs4,
)

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
    assert html_to_text_bs4(raw) == expected


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
