"""The fast paths of issue 20 give what the whole way gives, on every value of the real exports.

``markup.field_text`` reads a one-line field without markup without the line machinery of
``field_lines``; ``stratagems.parse_body`` cuts a description at its labels without Lark
(``body_sections``) and keeps Lark for a text whose first line has no label;
``labelled_rule.line_parts`` reads every rule line by line without Lark;
``markup.simple_lines`` reads a field of words in inline elements and ``<br>``\\ s without lxml;
``ids.slugify`` takes an ASCII name as its own spelling, without ``ids.ascii_spelling``.
Each is checked here against the slow way on every field (every stratagem description, every
rule text) of the real inputs in ../shared, and on committed fixtures.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

import wahanorm
from recorded import first_arguments
from wahanorm.blocks import grammar
from wahanorm.blocks import weapons as weapon_assembly
from wahanorm.blocks.html_text import nested_lines, parse_fragment, walk
from wahanorm.blocks.parse import labelled_rule, weapon_abilities
from wahanorm.blocks.parse import stratagems as stratagem_text
from wahanorm.blocks.rules_text import Sections
from wahanorm.contract import ids
from wahanorm.errors import BatchMemo, ParseFailure, Report
from wahanorm.readers.dump import read as dump_read
from wahanorm.readers.export import markup
from wahanorm.readers.export.context import TABLES
from wahanorm.readers.export.tables import read_table
from wahanorm.readers.page import datasheet as page_datasheet

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
EXPORTS = [
    "wahapedia-10ed-2025-11-14-html",
    "wahapedia-10ed-2026-02-14",
    "wahapedia-11ed-2026-09-13-sample",
]
REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "tests" / "fixtures" / "export"
needs_corpus = pytest.mark.skipif(
    not CORPUS.is_dir(), reason=f"the full exports are not here ({CORPUS} is absent)"
)


def slow_field_text(raw: str) -> tuple[str, tuple[str, ...]]:
    """``field_text`` the whole way: ``field_lines`` and its lines joined."""
    read = markup.field_lines.__wrapped__(raw)
    return "\n".join(nested_lines(read.lines)), read.notes


Outcome = (
    stratagem_text.StratagemBody
    | stratagem_text.StratagemEntry
    | tuple[str, str, int | None, int | None, str | None]
)


def failed(failure: ParseFailure) -> Outcome:
    """A failure as plain values (exceptions compare by identity)."""
    return (str(failure), failure.path, failure.line, failure.column, failure.excerpt)


def slow_body(text: str) -> Outcome:
    """``parse_body`` through Lark alone (or the failure it raises)."""
    grammar_text = stratagem_text._text(text.split("\n"))
    try:
        body = grammar.parse("stratagem", "body", grammar_text, "", 1, stratagem_text._BUILD)
    except ParseFailure as failure:
        return failed(failure)
    assert isinstance(body, stratagem_text.StratagemBody)
    return body


def fast_body(text: str) -> Outcome:
    """``parse_body`` as the readers call it (or the failure it raises)."""
    try:
        return stratagem_text.parse_body(text)
    except ParseFailure as failure:
        return failed(failure)


def values(folder: Path) -> set[str]:
    """Every distinct raw value of every table of the export in ``folder``."""
    found: set[str] = set()
    for table, columns in TABLES.items():
        if not (folder / table).is_file():
            continue
        for record in read_table(folder, table, folder.name, columns, Report()):
            found.update(record.fields.values())
    return found


def descriptions(folder: Path) -> list[str]:
    """The text of each stratagem description, as ``line_parts`` receives it."""
    report = Report()
    table = read_table(folder, "Stratagems.csv", folder.name, TABLES["Stratagems.csv"], report)
    out = []
    for record in table:
        read = markup.field_lines(record.get("description"), with_commentary=True)
        out.append("\n".join(nested_lines(read.lines)))
    return out


@pytest.mark.parametrize(
    "raw",
    [
        "",
        "   ",
        "-",
        "- a list item",
        "IMpERIUM keyword",
        "A\u00a0wide\u2009space and  two",
        "\u2018quoted\u2019 text ",
        "plain text",
    ],
)
def test_field_text_fast_way_is_the_whole_way(raw: str) -> None:
    assert markup.field_text.__wrapped__(raw) == slow_field_text(raw)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "WHEN: Your turn.\nTARGET: One unit.\nEFFECT: It acts.\n- a\n- b",
        "WHEN:\nYour turn.\nEFFECT:\tIt acts.\nEFFECT: It acts.\nRESTRICTIONS: none",
        "Flavour first\nWHEN: Your turn.",
        "WHEN: EFFECT: in one line\n  \nWhen: lower case is no label",
        "TRIGGER: a manoeuvre.\nEFFECT: It acts:\n- one\nRESTRICTIONS: x",
    ],
)
def test_stratagem_body_fast_way_is_lark(text: str) -> None:
    assert fast_body(text) == slow_body(text)


@pytest.mark.parametrize("name", ["wahapedia-10ed-2026-02-14", "wahapedia-11ed-2026-09-13-sample"])
def test_fast_ways_on_the_committed_slices(name: str) -> None:
    for raw in values(FIXTURES / name):
        assert markup.field_text.__wrapped__(raw) == slow_field_text(raw), raw
    for text in descriptions(FIXTURES / name):
        assert fast_body(text) == slow_body(text), text


@needs_corpus
@pytest.mark.parametrize("name", EXPORTS)
def test_field_text_fast_way_on_every_value(name: str) -> None:
    found = values(CORPUS / name)
    assert len(found) > 500
    for raw in found:
        assert markup.field_text.__wrapped__(raw) == slow_field_text(raw), raw


@needs_corpus
@pytest.mark.parametrize("name", EXPORTS)
def test_stratagem_body_fast_way_on_every_description(name: str) -> None:
    texts = descriptions(CORPUS / name)
    assert len(texts) > 10
    cut = [t for t in texts if stratagem_text.body_sections(stratagem_text._text(t.split("\n")))]
    assert len(cut) * 5 > len(texts) * 4  # the fast way reads four in five at least
    for text in texts:
        assert fast_body(text) == slow_body(text), text


def rule_lines(paths: list[Path], monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """Every text the readers hand to ``labelled_rule.line_parts`` while converting ``paths``."""
    return first_arguments(paths, labelled_rule, "line_parts", monkeypatch)


def lark_parts(lines: list[str]) -> Sections:
    """``labelled_rule.line_parts`` through Lark alone."""
    if not lines:
        return Sections()
    found = grammar.parse(
        "labelled_rule", "labelled_rule", "\n".join(lines), transformer=labelled_rule._TO_PARTS
    )
    assert isinstance(found, Sections)
    return found


@pytest.mark.parametrize(
    "lines",
    [
        [],
        [""],
        ["", "a rule", "", "its second line", "- a bullet"],
        ["EFFECT: x", "y"],
        ["An intro", "SEE ALSO", "a line"],
        ["An intro", "  ELIGIBLE IF: x"],
    ],
)
def test_labelled_rule_fast_way_is_lark(lines: list[str]) -> None:
    assert labelled_rule.line_parts(lines) == lark_parts(lines)


def test_labelled_rule_fast_way_on_committed_inputs(
    repo_cwd: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = [Path("raw"), *(p for p in sorted(FIXTURES.iterdir()) if p.is_dir())]
    seen = rule_lines(paths, monkeypatch)
    assert len(seen) > 100
    for lines in seen:
        assert labelled_rule.line_parts(lines) == lark_parts(lines), lines


SHARED = CORPUS.parent


@needs_corpus
@pytest.mark.parametrize(
    "group",
    [
        ["seeds"],
        ["html-pages"],
        ["corpus/wahapedia-10ed-2026-02-14"],
        ["corpus/wahapedia-11ed-2026-09-13-sample"],
    ],
)
def test_labelled_rule_fast_way_on_shared_inputs(
    group: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    seen = rule_lines([SHARED / g for g in group if (SHARED / g).exists()], monkeypatch)
    assert seen
    for lines in seen:
        assert labelled_rule.line_parts(lines) == lark_parts(lines), lines


def test_stratagem_terminals_are_the_grammars() -> None:
    terminals = {
        t.name: t for t in grammar.parser("stratagem", "entry", stratagem_text._BUILD).terminals
    }
    for name, pattern in [
        ("NAME", stratagem_text._NAME),
        ("RULE_NUMBER", stratagem_text._RULE_NUMBER),
        ("CP_COST", stratagem_text._CP_COST),
    ]:
        found = terminals[name].pattern
        assert found.value == pattern.pattern.replace("\\n", "\n")
        assert bool(pattern.flags & re.I) == ("i" in found.flags)
    labels = sorted(t.pattern.value for t in terminals.values() if t.priority == 3)
    assert labels == sorted(f"{x}:" for x in stratagem_text._LABEL.pattern[1:-2].split("|"))


def lark_entry(lines: list[str]) -> Outcome:
    """``parse_entry`` through Lark alone (or the failure it raises)."""
    try:
        entry = grammar.parse(
            "stratagem", "entry", stratagem_text._text(lines), "", 1, stratagem_text._BUILD
        )
    except ParseFailure as failure:
        return failed(failure)
    assert isinstance(entry, stratagem_text.StratagemEntry)
    return entry  # type: ignore[return-value]


def fast_entry(lines: list[str]) -> Outcome:
    try:
        return stratagem_text.parse_entry(lines)  # type: ignore[return-value]
    except ParseFailure as failure:
        return failed(failure)


def dump_entries(paths: list[Path], monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """Every stratagem entry the dump reader parses while converting ``paths``."""
    return first_arguments(paths, dump_read, "parse_entry", monkeypatch)


@pytest.mark.parametrize(
    "lines",
    [
        ["HEROIC INTERVENTION15.11", "1CP", "Core Stratagem", "WHEN: x", "EFFECT: y"],
        ["A NAME", "2 cp", "Faction – Battle Tactic Stratagem", "Flavour.", "More.", "WHEN: x"],
        ["A NAME", "1CP extra", "Core Stratagem"],
        ["A NAME", "1CP"],
        ["15.11", "1CP", "WHEN: source line", "TARGET: t"],
        ["X 123.45", " 1CP ", "", "Core Stratagem", "WHEN: a", "- b", "WHEN: a"],
    ],
)
def test_stratagem_entry_fast_way_is_lark(lines: list[str]) -> None:
    assert fast_entry(lines) == lark_entry(lines)


def test_stratagem_entry_fast_way_on_committed_dumps(
    repo_cwd: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen = dump_entries([Path("raw")], monkeypatch)
    assert len(seen) > 50
    for lines in seen:
        assert fast_entry(lines) == lark_entry(lines), lines


@needs_corpus
def test_stratagem_entry_fast_way_on_shared_dumps(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = dump_entries([SHARED / "seeds"], monkeypatch)
    assert seen
    for lines in seen:
        assert fast_entry(lines) == lark_entry(lines), lines


@pytest.mark.parametrize(
    "raw",
    [
        "<b>A</b> <b>B</b>",
        "<b>A</b><b>B</b>",
        '<span class="kwb">ADEPTUS</span> <span class="kwb">ASTARTES</span> unit',
        "A<br> - <br>B<br/><br />C <i> </i> D",
        "<b>A</b>\n<i>B</i>\t<span>C</span>",
        "<b>Open</b> <span><b>nested</b> still</span> <br>",
        "</span>stray close <b>unclosed",
        "-<br>  <br>",
        "A > B and\u00a0C\u2019s",
    ],
)
def test_simple_lines_are_the_walkers(raw: str) -> None:
    assert markup.simple_lines(raw) == walk(parse_fragment(raw))


@pytest.mark.parametrize(
    "raw",
    [
        "A &amp; B",
        '<span class="snFl">A</span><span class="snFl">B</span>',
        '<span class="redPad">Label:</span> text',
        "<sup>1</sup> <b>B</b>",
        '<span style="display:none">hidden</span>',
        "<li>item</li>",
        "A < B",
        "A\x0bB <b>C</b>",
    ],
)
def test_simple_lines_leave_the_rest_to_the_walker(raw: str) -> None:
    assert markup.simple_lines(raw) is None


def html_values(folder: Path) -> list[str]:
    return sorted(v for v in values(folder) if "<" in v or "&" in v)


@pytest.mark.parametrize("name", ["wahapedia-10ed-2026-02-14", "wahapedia-11ed-2026-09-13-sample"])
def test_simple_lines_on_the_committed_slices(name: str) -> None:
    simple = 0
    for raw in html_values(FIXTURES / name):
        lines = markup.simple_lines(raw)
        if lines is not None:
            simple += 1
            assert lines == walk(parse_fragment(raw)), raw
    assert simple > 0


@needs_corpus
@pytest.mark.parametrize("name", EXPORTS)
def test_simple_lines_on_every_html_field(name: str) -> None:
    fields = html_values(CORPUS / name)
    simple = 0
    for raw in fields:
        lines = markup.simple_lines(raw)
        if lines is not None:
            simple += 1
            assert lines == walk(parse_fragment(raw)), raw
    assert simple * 3 > len(fields)  # the short way reads a good part of the fields


@pytest.mark.parametrize(
    "text",
    ["IMpERIUM", "MAllEUS x", "ABc", "ABcd", "ABcé", "ABCD1e", "xABcd", "HEllo", "ÉTAt", "AB_cd",
     "When the unit", "ADEPTUS ASTARTES", "aBCde", "ABCDe-f", ""],
)  # fmt: skip
def test_broken_caps_quick_look_is_the_whole_look(text: str) -> None:
    assert markup._broken_caps(text) == (markup._BROKEN_CAPS.search(text) is not None)


@needs_corpus
@pytest.mark.parametrize("name", EXPORTS)
def test_broken_caps_quick_look_on_every_value(name: str) -> None:
    found = values(CORPUS / name)
    assert len(found) > 500
    for raw in found:
        assert markup._broken_caps(raw) == (markup._BROKEN_CAPS.search(raw) is not None), raw


def slow_slug(name: str) -> str:
    """``slugify`` the whole way: every name spelt character by character (``ascii_spelling``,
    whose spelling is ASCII, so that slugify takes it as it is)."""
    spelled = ids.ascii_spelling(name)
    assert spelled.isascii(), name
    return ids.slugify.__wrapped__(spelled)


def assert_slug_fast_way(names: set[str]) -> None:
    for name in names:
        if name.isascii():
            assert ids.ascii_spelling(name) == name, name
        assert ids.slugify.__wrapped__(name) == slow_slug(name), name


@pytest.mark.parametrize(
    "name",
    ["", "-", "Con", "'Iron Hand' Straken", "Боевой Юнит", "Cafe\u0301", "A\tB\x1bC", "x" * 120,
     "Ætherblade", "\u2013 Axe – strike", "\U0001f600 unit"],
)  # fmt: skip
def test_slug_fast_way_is_the_whole_way(name: str) -> None:
    assert_slug_fast_way({name})


def test_slug_fast_way_on_committed_inputs(repo_cwd: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    paths = [Path("raw"), *(p for p in sorted(FIXTURES.iterdir()) if p.is_dir())]
    names = set(first_arguments(paths, ids, "slugify", monkeypatch))  # what ``make_id`` calls
    assert len(names) > 200
    assert_slug_fast_way(names)
    for name in ["wahapedia-10ed-2026-02-14", "wahapedia-11ed-2026-09-13-sample"]:
        assert_slug_fast_way(values(FIXTURES / name))


@needs_corpus
@pytest.mark.parametrize("name", EXPORTS)
def test_slug_fast_way_on_every_value(name: str) -> None:
    found = values(CORPUS / name)
    assert len(found) > 500
    assert_slug_fast_way(found)


# ---- keyword lists parsed once ----------------------------------------------------------------

COMMITTED_WITH_WEAPONS = [
    REPO / "raw",
    REPO / "tests/fixtures/dumps",
    *(p for p in sorted(FIXTURES.iterdir()) if p.is_dir()),
    REPO / "tests/fixtures/bsdata/wh40k-10e-2026-02-14",
]


def ability_lists(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every text handed to ``parse_ability_list`` while the committed inputs are converted, by
    whichever reader (each holds the name as it imported it)."""
    seen: list[str] = []
    real = weapon_abilities.parse_ability_list

    def noted(text: str, *rest: Any) -> weapon_abilities.AbilityList:
        seen.append(text)
        return real(text, *rest)

    BatchMemo.clear_all()
    with monkeypatch.context() as patch:
        for owner in (weapon_abilities, weapon_assembly, page_datasheet):
            patch.setattr(owner, "parse_ability_list", noted)
        wahanorm.convert(COMMITTED_WITH_WEAPONS)
    return seen


def test_a_kept_keyword_list_is_what_parsing_it_again_gives(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Every list the committed dumps, exports and catalogues hand the parsers, read again with
    # the memos emptied: the same abilities, the same unknown names.
    lists = ability_lists(monkeypatch)
    known = first_arguments(
        COMMITTED_WITH_WEAPONS, weapon_abilities, "parse_known_abilities", monkeypatch
    )
    assert len(set(lists)) > 20 and len(set(known)) > 5
    kept = {text: weapon_abilities.parse_ability_list(text) for text in lists}
    odd = ["lethal hits banana", "", "pistol pistol", "Sustained Hits D3"]
    kept_known = {text: weapon_abilities.parse_known_abilities(text) for text in known + odd}
    assert kept_known["lethal hits banana"] is None  # "not a list" is kept too
    BatchMemo.clear_all()
    for text, found in kept.items():
        assert weapon_abilities.parse_ability_list(text) == found, text
        BatchMemo.clear_all()
    for text, found_known in kept_known.items():
        assert found_known == weapon_abilities.parse_known_abilities(text), text
        expected = weapon_abilities.known_abilities(text)
        assert found_known == (None if expected is None else list(expected)), text


def test_a_keyword_list_that_breaks_the_grammar_says_where_at_each_place() -> None:
    BatchMemo.clear_all()
    for path, line in (("a.txt", 5), ("b.txt", 9)):
        with pytest.raises(ParseFailure) as failure:
            weapon_abilities.parse_ability_list("[a]b", path, line)
        assert (failure.value.path, failure.value.line, failure.value.column) == (path, line, 4)


def test_parse_known_abilities_hands_each_caller_its_own_list() -> None:
    first = weapon_abilities.parse_known_abilities("lethal hits")
    assert first is not None
    first.clear()
    assert weapon_abilities.parse_known_abilities("lethal hits") not in (None, [])
