"""The segment stage: cleaned lines cut into blocks with a kind.

A dump holds, in order: a datasheet (``Faction – Unit`` header, stats, weapon tables, abilities,
composition, costs, leader, keywords), the short indexes of the page (STRATAGEMS, DETACHMENT
ABILITY, ENHANCEMENTS), then the rules text the page's tooltips carried, one entry after another.
Entries are told apart by the shape of their first lines, never by their names:

- a stratagem: a name line followed by a cost line (``1CP``);
- a detachment rule: a name line followed by ``<Detachment> Detachment``;
- an enhancement: ``- Name``, ``25 pts``, ``<Detachment> Detachment``;
- a numbered rule: ``06.03 Hazard Rolls``; a bracketed weapon ability: ``[LETHAL HITS]24.23``;
  a heading in capitals with its number glued on: ``STEALTH24.33``, ``NORMAL MOVE09.05``;
- a core ability heading in capitals (``DEEP STRIKE``, from the catalogue of core abilities);
- a short title followed by prose (the older rules text: ``Hit Roll``, ``Charge Bonus``);
- a keyword-usage list: ``The X keyword is used in the following … datasheets:`` and the
  army-list roles under it.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from typing import Literal

from wahanorm.blocks.clean.chrome import is_datasheet_header
from wahanorm.blocks.clean.lines import Line
from wahanorm.blocks.parse.abilities import CORE_ABILITIES
from wahanorm.errors import LINES_KEPT, LONGEST_KEPT, BatchMemo

BlockKind = Literal[
    "datasheet",
    "stratagem_index",
    "detachment_index",
    "enhancement_index",
    "led_by_index",
    "enhancement",
    "stratagem",
    "detachment_rule",
    "rule",
    "keyword_usage",
    "text",
]


@dataclass
class Block:
    """A run of cleaned lines that makes one thing."""

    kind: BlockKind
    lines: list[Line]

    @property
    def first(self) -> int:
        """Input line number of the block's first line."""
        return self.lines[0].number

    @property
    def last(self) -> int:
        """Input line number of the block's last line."""
        return self.lines[-1].number


CP_LINE = re.compile(r"^\d+\s*CP$", re.IGNORECASE)
POINTS_LINE = re.compile(r"^\d+\s*pts$", re.IGNORECASE)
INDEX_MARKER = re.compile(r"[A-Z]{1,3}")
"""The book marker after a stratagem in a page's STRATAGEMS index: ``C`` (core), ``BA``."""
INDEX_COST = re.compile(r"\d+(?: ?pts)?")
"""The cost under an enhancement's name in a page's ENHANCEMENTS index: ``20`` or ``20 pts``."""
DETACHMENT_LINE = re.compile(r"^(?P<detachment>\S.*?) Detachment$")
NUMBERED_RULE = re.compile(r"^(?P<number>\d{2}(?:\.\d{2})+) (?P<name>\S.*)$")
BRACKET_RULE = re.compile(r"^\[(?P<name>[A-Z][A-Z0-9 '\-]*)\](?P<number>\d{2}(?:\.\d{2})*)?$")
CAPS_NUMBERED = re.compile(
    r"^(?P<name>[A-Z][A-Z0-9 '\-!?]*?[A-Z!?])(?P<number>\d{2}(?:\.\d{2})+)"
    r"(?: / [A-Z][A-Z ]*\d{2}(?:\.\d{2})+)?$"
)
KEYWORD_USAGE = re.compile(
    r"^The (?P<keywords>.*?) ?keywords? (?:is|are) used in the following (?P<faction>.*) datasheets:$"
)
INDEX_HEADERS = {
    "STRATAGEMS": "stratagem_index",
    "DETACHMENT ABILITY": "detachment_index",
    "DETACHMENT ABILITIES": "detachment_index",
    "ENHANCEMENTS": "enhancement_index",
    "LED BY": "led_by_index",
}
_CORE_CAPS = frozenset(name.upper() for name in CORE_ABILITIES)
_SENTENCE_ENDS = frozenset(".:!?)")
"""The last character of a sentence (before a final newline, if any)."""
_SEE_ALSO = "SEE ALSO"


def _last(text: str) -> str:
    """The character a pattern's ``$`` follows: the last one, or the one before a final line
    break ("" for none)."""
    return text[-2:-1] if text.endswith("\n") else text[-1:]


def ends_sentence(text: str) -> bool:
    """``text`` ends like a sentence (``[.:!?)]$``), told by its last characters: a search for
    the pattern would try it at every one."""
    return _last(text) in _SENTENCE_ENDS


def is_prose(text: str) -> bool:
    """A sentence of rules text: several words, ending like a sentence."""
    return ends_sentence(text) and len(text.split()) >= 5


def is_title(text: str) -> bool:
    """A short title line: ``Hit Roll``, ``2. Battle-shock``, ``Waaagh!``, ``Characters`` — not a
    sentence, not a label, not a bullet, not all capitals."""
    # the cheap tests first (a sentence ends so): splitting a long line costs more
    if text.endswith((".", ":", ",", ";")) or ":" in text:
        return False
    if text.startswith(("-", "|", "+", "(")) or text.isupper():
        return False
    if not 1 <= len(text.split()) <= 6:
        return False
    return text[0].isupper() or re.match(r"^\d+\. \S", text) is not None


_USAGE_END = ("datasheets:", "datasheets:\n")  # how ``KEYWORD_USAGE`` ends (``$`` so)
_DETACHMENT_END = (" Detachment", " Detachment\n")  # how ``DETACHMENT_LINE`` ends


def is_keyword_usage(text: str) -> bool:
    """``KEYWORD_USAGE`` matches ``text`` (told first by how the pattern starts and ends)."""
    return text.startswith("The ") and text.endswith(_USAGE_END) and bool(KEYWORD_USAGE.match(text))


def entry_kind(lines: list[Line], index: int) -> BlockKind | None:
    """The kind of entry that starts at ``lines[index]``, or None if none starts there."""
    text = lines[index].text
    following = lines[index + 1].text if index + 1 < len(lines) else ""
    if (
        text.endswith(".")
        and not following[:1].isdigit()
        and not text.startswith("- ")
        and not following.endswith(_DETACHMENT_END)
        and text not in _CORE_CAPS
    ):
        # A sentence (most lines): of the tests below only those of a stratagem, an
        # enhancement and a detachment rule can hold for a line that ends in a full stop (the
        # others need it to end otherwise), and the text of each fails here.
        return None
    # Only an enhancement's test reads the line after next (and only after ``- ``).
    third = lines[index + 2].text if text.startswith("- ") and index + 2 < len(lines) else None
    key = (text, following, third)
    kind = _KINDS.get(key)
    if kind is None:
        kind = _kind_of(text, following, third) or ""
        _KINDS.keep(key, kind)
    return kind or None


_KINDS: BatchMemo[tuple[str, str, str | None], BlockKind | Literal[""]] = BatchMemo(
    LINES_KEPT, LONGEST_KEPT
)
"""``_kind_of`` of the lines a batch repeats (the rules every page prints), "" for none."""


def _kind_of(text: str, following: str, third: str | None) -> BlockKind | None:
    """The kind of entry that a line starts, told by its text, the next line's and (for an
    enhancement) the one after."""
    # each pattern is tried only when the first or last characters it needs are there
    if is_keyword_usage(text):
        return "keyword_usage"
    if following[:1].isdigit() and CP_LINE.match(following) and not text.startswith(("-", "|")):
        return "stratagem"
    if (
        text.startswith("- ")
        and POINTS_LINE.match(following)
        and third is not None
        and DETACHMENT_LINE.match(third)
    ):
        return "enhancement"
    if (
        following.endswith(_DETACHMENT_END)
        and DETACHMENT_LINE.match(following)
        and len(text.split()) <= 8
        and not is_prose(text)
    ):
        return "detachment_rule"
    first = text[:1]
    if (
        first.isdigit()
        and NUMBERED_RULE.match(text)
        and len(text.split()) <= 10
        and not text.endswith(".")
    ):
        return "rule"
    if (first == "[" and BRACKET_RULE.match(text)) or (
        "A" <= first <= "Z" and _last(text).isdigit() and CAPS_NUMBERED.match(text)
    ):  # CAPS_NUMBERED ends in a rule number's digit
        return "rule"
    if text in _CORE_CAPS and is_prose(following):
        return "rule"
    if is_title(text) and is_prose(following) and not is_keyword_usage(following):
        # An army-list role line ("Characters") is also a glossary title when prose follows it;
        # under a keyword-usage list it is followed by the next list's heading instead.
        return "rule"
    return None


def is_sidebar(entry: list[Line], lines: list[Line], index: int) -> bool:
    """A heading in capitals followed by prose, after the SEE ALSO list that closes an entry:
    a box of the rules page printed after the entry (``BATTLEFIELD MORALE`` after Battle-shock
    Rolls' SEE ALSO), an entry of its own."""
    text = lines[index].text
    following = lines[index + 1].text if index + 1 < len(lines) else ""
    if not (text.isupper() and is_title(text.title()) and is_prose(following)):
        return False
    texts = [x.text for x in entry]
    return _SEE_ALSO in texts and texts[-1].startswith("- ")


def segment(lines: list[Line]) -> list[Block]:
    """Cut a cleaned dump into blocks: each datasheet (two dumps pasted into one file hold two),
    the indexes that follow it, then its rules entries."""
    starts = _datasheet_starts(lines)
    bounds = [0, *starts, len(lines)]
    blocks: list[Block] = []
    for begin, end in itertools.pairwise(bounds):
        if begin < end:
            blocks.extend(_page(lines[begin:end], opens=begin in starts))
    return blocks


def _datasheet_starts(lines: list[Line]) -> list[int]:
    """Where datasheets begin. Inside a datasheet (until its FACTION KEYWORDS or an index of the
    page) a ``Name – profile`` weapon line is not a new datasheet's header."""
    starts: list[int] = []
    inside = False
    for index, line in enumerate(lines):
        if inside:
            inside = not (line.text.startswith("FACTION KEYWORDS") or line.text in INDEX_HEADERS)
        elif is_datasheet_header(lines, index):
            starts.append(index)
            inside = True
    return starts


def _page(lines: list[Line], opens: bool) -> list[Block]:
    blocks: list[Block] = []
    index = 0
    if opens:
        index = _datasheet_end(lines)
        blocks.append(Block("datasheet", lines[:index]))
    index = _indexes(lines, index, blocks)
    blocks.extend(_entries(lines, index))
    return blocks


def _datasheet_end(lines: list[Line]) -> int:
    for index, line in enumerate(lines):
        if line.text in INDEX_HEADERS and index > 0:
            return index
    after_keywords = _after_faction_keywords(lines)
    return after_keywords if after_keywords is not None else len(lines)


def _after_faction_keywords(lines: list[Line]) -> int | None:
    for index, line in enumerate(lines):
        if line.text.startswith("FACTION KEYWORDS:"):
            rest = line.text.split(":", 1)[1].strip()
            return index + 1 if rest else index + 2
    return None


def _indexes(lines: list[Line], index: int, blocks: list[Block]) -> int:
    while index < len(lines) and lines[index].text in INDEX_HEADERS:
        kind: BlockKind = INDEX_HEADERS[lines[index].text]  # type: ignore[assignment]
        start = index
        index += 1
        if kind == "stratagem_index":
            index = _stratagem_index_end(lines, index)
        elif kind == "enhancement_index":
            index = _enhancement_index_end(lines, index)
        elif kind == "led_by_index":
            index = _unit_list_end(lines, index)
        else:
            index = _name_list_end(lines, index)
        blocks.append(Block(kind, lines[start:index]))
    return index


def _stratagem_index_end(lines: list[Line], index: int) -> int:
    # NAME / nCP / source – category / optional one- or two-letter marker ("C", "BA")
    while index + 2 < len(lines) and CP_LINE.match(lines[index + 1].text):
        index += 3
        if index < len(lines) and INDEX_MARKER.fullmatch(lines[index].text):
            index += 1
    return index


def _enhancement_index_end(lines: list[Line], index: int) -> int:
    # Name / cost pairs, then the names of enhancements that have no cost (Boarding Actions).
    while index + 1 < len(lines) and INDEX_COST.fullmatch(lines[index + 1].text):
        index += 2
    return _name_list_end(lines, index)


def _unit_list_end(lines: list[Line], index: int) -> int:
    # "This unit can be led by the following units:" then one "- Unit" line per unit
    if index < len(lines) and lines[index].text.endswith(":"):
        index += 1
    while index < len(lines) and lines[index].text.startswith("- "):
        index += 1
    return index


def _name_list_end(lines: list[Line], index: int) -> int:
    # A list of names ends at another index header, or before the name that turns out to head an
    # entry of its own (it is followed by prose rather than by another name).
    while index < len(lines):
        text = lines[index].text
        if text in INDEX_HEADERS or entry_kind(lines, index) is not None:
            break
        if is_prose(text) or len(text.split()) > 8:
            break
        index += 1
    return index


def _entries(lines: list[Line], index: int) -> list[Block]:
    blocks: list[Block] = []
    current: Block | None = None
    leading: list[Line] = []
    position = index
    while position < len(lines):
        kind = entry_kind(lines, position)
        if (
            kind is None
            and current is not None
            and lines[position].text.isupper()  # is_sidebar's first test, without the call
            and is_sidebar(current.lines, lines, position)
        ):
            kind = "rule"
        if kind is not None:
            # A stratagem's cost and source lines, a detachment rule's "… Detachment" line,
            # belong to the heading whatever they look like.
            size = _HEADING_LINES.get(kind, 1)
            current = Block(kind, lines[position : position + size])
            blocks.append(current)
            position += size
            continue
        if current is None:
            leading.append(lines[position])
        else:
            current.lines.append(lines[position])
        position += 1
    if leading:
        blocks.insert(0, Block("text", leading))
    return blocks


_HEADING_LINES: dict[str, int] = {"stratagem": 3, "detachment_rule": 2, "enhancement": 3}
