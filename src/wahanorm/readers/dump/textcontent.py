"""The textContent layout: the DOM text of a page's datasheet frame, cells run together.

Other scrapers keep what ``element.textContent`` gives: no separator between table cells
(``Bolt pistol pistolBolt pistol pistol12"14+401`` is a weapon printed twice, then its range,
A, BS, S, AP and D), section headings glued to the text before and after them
(``…against that attack.UNIT COMPOSITION``), a costs table as ``10 models6520 models120``, the
stratagem index as ``ARMOUR OF CONTEMPT1CP1st Company Task Force – Battle Tactic``, inside a
``=== DATASHEET ===`` / ``=== KEYWORDS ===`` wrapper. This module cuts such a text by the shapes
of what each cell can hold and writes it as the pipe layout the dump reader knows, each line
keeping the number of the input line it came from.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from wahanorm.blocks.clean.lines import Line
from wahanorm.blocks.parse.numbers import game_int
from wahanorm.errors import Report

DATASHEET_WRAPPER = "=== DATASHEET ==="
KEYWORDS_WRAPPER = "=== KEYWORDS ==="
_GLUED_TABLE_HEAD = re.compile(r"(?:RANGED|MELEE) WEAPONSRANGEA(?:BS|WS)SAPD")


def first_line(text: str) -> str:
    """The first line of ``text`` that is not blank, stripped ("" for none), as
    ``str.splitlines`` cuts lines: found from the first character that is not white space
    (every line break is white space) to the next line break, without cutting the rest."""
    start = _NOT_SPACE.search(text)
    if start is None:
        return ""
    end = _LINE_BREAK.search(text, start.start())
    return text[start.start() : end.start() if end else len(text)].strip()


_NOT_SPACE = re.compile(r"\S")
_LINE_BREAK = re.compile("[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
"""The characters ``str.splitlines`` cuts at."""


def is_textcontent(text: str) -> bool:
    """The wrapper other scrapers write, or a weapon table head whose cells run together."""
    first = first_line(text)
    if first == DATASHEET_WRAPPER:
        return True
    head = text[:200_000]
    # the literal every match holds first: the pattern opens with an alternation, which the
    # regex engine tries at every character
    return "WEAPONSRANGEA" in head and _GLUED_TABLE_HEAD.search(head) is not None


# ---- headings ---------------------------------------------------------------------------------

_HEADINGS = (
    "RANGED WEAPONS",
    "MELEE WEAPONS",
    "WARGEAR OPTIONS",
    "WARGEAR ABILITIES",
    "DETACHMENT ABILITIES",
    "DETACHMENT ABILITY",
    "ABILITIES",
    "UNIT COMPOSITION",
    "LEADER",
    "LED BY",
    "ORDERS",
    "TRANSPORT",
    "FACTION KEYWORDS:",
    "KEYWORDS:",
    "STRATAGEMS",
    "ENHANCEMENTS",
)
# A heading starts a line of the frame, or follows other text with no space (the end of a cell
# or a sentence); one inside a sentence ("a TRANSPORT model") has a space before it.
_HEADING = re.compile(
    r"(?:^|(?<=[^\sA-Z]))(?P<head>"
    + "|".join(re.escape(h) for h in _HEADINGS)
    + r"|KEYWORDS [–-] ALL MODELS:|DAMAGED: [^\n]*?WOUNDS? REMAINING)"
)
# A model's own keywords start a new line of the box: glued to the last keyword of the line
# before (``COMMAND SQUADCadian Commander: CHARACTER``) or after the bar's spaces.
_MODEL_KEYWORDS = re.compile(r"(?<=[A-Z])(?=[A-Z][a-z][\w'’ \-]*:)|\s{2,}(?=[A-Z][\w'’ \-]*:)")
# A rules box the layout has no heading for (SUPREME COMMANDER, EMBARKING …): its heading in
# capitals, glued to the end of the text before it or to the start of its own text.
_BOX_AT_END = re.compile(r"(?<=[a-z.!?)\"\d])(?P<box>[A-Z][A-Z'’\- ]{3,}[A-Z])$")
_BOX_AT_START = re.compile(r"^(?P<box>[A-Z][A-Z'’\- ]{3,}[A-Z])(?=[A-Z][a-z])")
_BOX_SECTIONS = ("ABILITIES", "WARGEAR ABILITIES", "UNIT COMPOSITION", "BOX")


def _pieces(text: str) -> Iterator[tuple[str | None, str]]:
    """``(heading, content)`` for each heading of a line, the text before the first one with
    heading None."""
    position = 0
    head: str | None = None
    for match in _HEADING.finditer(text):
        if match.start() > position or head is not None:
            yield head, text[position : match.start()]
        head, position = match.group("head"), match.end()
    yield head, text[position:]


# ---- cells ------------------------------------------------------------------------------------

_DICE = r"\d*D\d+(?:\+\d+)?"
# A cell may end in a star ("5+*"): a value that holds under a condition printed apart.
_WEAPON = re.compile(
    r"(?P<name>\S.*?)(?P=name)"
    r'(?P<range>(?:Melee|N/A|\d+")\*?)'
    rf"(?P<a>(?:{_DICE}|\d+)\*?)"
    r"(?P<skill>(?:\d\+|N/A)\*?)"
    rf"(?P<s>(?:{_DICE}|\d+)\*?)"
    r"(?P<ap>(?:0|-\d)\*?)"
    rf"(?P<d>(?:{_DICE}|\d+)\*?)"
)
_TABLE_HEAD = re.compile(r"^RANGEA(?P<skill>BS|WS)SAPD")
_GLUE_UPPER = re.compile(r"(?<=[a-z0-9)!?’'\"*])(?=[A-Z])")
_MODEL_GLUE = re.compile(
    r"(?<=[a-z0-9)!?’'\"*])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])|(?<=[a-z])(?=[1-9]\d*(?:-\d+)? [A-Z])"
)
_OPTION_GLUE = re.compile(r"(?<=[a-z*])(?=[1-9]\d* [a-z])|(?<=[a-z*])(?=[A-Z][a-z])")
_SENTENCE_GLUE = re.compile(r"(?<=[.:!?)*])(?=[A-Z0-9])")
_NAMED_GLUE = re.compile(r"(?<=[.!?)\]\"a-z0-9+])(?=[A-Z][\w'’ ,()\-]{0,60}: )")
_STRATAGEM = re.compile(
    r"(?P<name>[A-Z0-9][^a-z]*?)(?P<cp>\d+CP)"
    r"(?P<source>[^–]+?) –(?: (?P<category>Battle Tactic|Strategic Ploy|Epic Deed|Wargear))?"
)
_PRICED = re.compile(r"(?P<name>.*?\D)(?P<cost>\d+)$")


def to_dump_lines(text: str, report: Report) -> list[Line]:
    """The text written as the pipe layout of the dumps; what cannot be cut is kept as a line
    of its own and reported."""
    lines = [Line(n, t) for n, t in enumerate(text.splitlines(), start=1)]
    body, keyword_spans = _wrapped(lines)
    content = [line for line in body if line.text.strip()]
    if not content:
        report.error("empty-input", "the DATASHEET part holds no text", line=1)
        return []
    header = content[0]
    # ``Name(⌀32mm)``: the base size is the bracket that opens with ⌀ (a name may hold others).
    name, _, base = header.text.strip().partition("(⌀")
    faction = _faction(keyword_spans, content)
    if faction is not None and faction != _first_span(keyword_spans):
        report.warning(
            "faction-guessed",
            f"the page's faction name is not in the text (cut short?): {faction!r} is read from "
            "FACTION KEYWORDS, and ids may differ from the page's",
            line=header.number,
        )
    if faction is None:
        report.error(
            "no-faction",
            "neither the keyword list nor FACTION KEYWORDS names the faction",
            line=header.number,
        )
        return []
    out = [Line(header.number, f"{faction} – {name.strip()}")]
    if base:
        out.append(Line(header.number, f"(⌀{base.strip().rstrip(')')})"))
    writer = _Writer(out, report)
    rest = content[1:]
    first_heading = next(
        (i for i, line in enumerate(rest) if _HEADING.search(line.text.strip())), len(rest)
    )
    out.extend(_profiles(rest[:first_heading]))
    for line in rest[first_heading:]:
        for head, piece in _pieces(line.text.strip()):
            writer.piece(line.number, head, piece.strip())
    return out


_STAT_ORDER = ("M", "T", "SV", "W", "LD", "OC")
_STAT_LABEL = re.compile(r"^(?:M|T|SV|W|LD|OC|INVULNERABLE SAVE)$", re.IGNORECASE)
_STAT_VALUE = re.compile(r'^(?:-|N/A|[-+]?\d+[+"]?\+?"?|\d*D\d+(?:[+-]\d+)?\+?)$', re.IGNORECASE)


def _profiles(lines: list[Line]) -> list[Line]:
    """The profile boxes before the first heading, one model per row. A page of several models
    prints the characteristic names once, above the first row, and each model's name after its
    row (or all names after all rows): the rows are rebuilt as the dump layout has them, the
    name above each row, every value under its name."""
    rows: list[list[tuple[str, Line]]] = [[]]
    names: list[Line] = []
    other: list[Line] = []
    label: str | None = None
    trailing: tuple[str, Line] | None = None
    for line in (x._replace(text=x.text.strip()) for x in lines):
        if _STAT_LABEL.match(line.text):
            label = line.text
        elif _STAT_VALUE.match(line.text):
            row = rows[-1]
            used = [name.upper() for name, _ in row]
            if label is None:
                free = [n for n in _STAT_ORDER if n not in used]
                label = free[0] if free else _STAT_ORDER[0]
            if label.upper() in used:
                rows.append([])
                row = rows[-1]
            row.append((label, line))
            trailing = (label, line) if label.upper() == "INVULNERABLE SAVE" else None
            label = None
        elif line.text:
            names.append(line) if rows[-1] else other.append(line)
    rows = [row for row in rows if row]
    if trailing is not None and len(rows) > 1:
        # An invulnerable save printed after every row (one box for all models) is every
        # model's; one printed between rows belongs to the row before it.
        for row in rows[:-1]:
            if all(name.upper() != "INVULNERABLE SAVE" for name, _ in row):
                row.append(trailing)
    out: list[Line] = list(other)
    for index, row in enumerate(rows):
        if len(rows) > 1 and index < len(names):
            out.append(names[index])
        for name, value in row:
            out.extend((value._replace(text=name), value))
    if len(rows) <= 1:
        out.extend(names)
    return out


def _wrapped(lines: list[Line]) -> tuple[list[Line], str]:
    """The DATASHEET part and the KEYWORDS line of the wrapper (the whole text and "" when the
    wrapper is absent)."""
    texts = [line.text.strip() for line in lines]
    if DATASHEET_WRAPPER not in texts:
        return lines, ""
    start = texts.index(DATASHEET_WRAPPER) + 1
    end = texts.index(KEYWORDS_WRAPPER) if KEYWORDS_WRAPPER in texts else len(lines)
    spans = " ".join(texts[end + 1 :]) if end < len(lines) else ""
    return lines[start:end], spans


def _first_span(spans: str) -> str | None:
    """The first keyword span of the page when it is the title's faction name (mixed case)."""
    first = spans.split(",")[0].strip()
    return first if first and not first.isupper() and first[0].isupper() else None


def _faction(spans: str, content: list[Line]) -> str | None:
    """The page's faction: the first keyword span of the page is the title's faction name
    (``Astra Militarum, blast, …``); else the FACTION KEYWORDS of the frame, as printed."""
    first = _first_span(spans)
    if first:
        return first
    for line in content:
        _, _, rest = line.text.partition("FACTION KEYWORDS:")
        if rest.strip():
            return rest.split(",")[0].strip().title()
    return None


class _Writer:
    """Writes each piece of the frame's text as the dump layout's lines."""

    def __init__(self, out: list[Line], report: Report) -> None:
        self.out = out
        self.report = report
        self.section: str | None = None
        self.last_source = ""
        self.pending_box: str | None = None

    def emit(self, number: int, text: str) -> None:
        """One output line (blank text writes nothing)."""
        if text.strip():
            self.out.append(Line(number, text.strip()))

    def piece(self, number: int, head: str | None, text: str) -> None:
        """A heading (None: the current section goes on) and the text after it on its line."""
        if head is not None:
            self.section = head
            if head in ("RANGED WEAPONS", "MELEE WEAPONS"):
                self.weapons(number, head, text)
                return
            if head.endswith(":"):
                # KEYWORDS: and FACTION KEYWORDS: keep their list on the same line.
                if not head.startswith("FACTION"):
                    text = _MODEL_KEYWORDS.sub(", ", text)
                self.emit(number, f"{head} {text}")
                return
            self.emit(number, head)
        if not text:
            return
        if head is None and self.section in ("RANGED WEAPONS", "MELEE WEAPONS"):
            self.weapon_rows(number, text, 0)
            return
        if self.section in _BOX_SECTIONS:
            text = self.boxes(number, text)
            if not text:
                return
        reader = {
            "WARGEAR OPTIONS": self.options,
            "ABILITIES": self.abilities,
            "WARGEAR ABILITIES": self.abilities,
            "BOX": self.abilities,
            "UNIT COMPOSITION": self.composition,
            "STRATAGEMS": self.stratagems,
            "ENHANCEMENTS": self.enhancements,
            "DETACHMENT ABILITY": self.names,
            "DETACHMENT ABILITIES": self.names,
            "LED BY": self.names,
            "LEADER": self.names,
        }.get(self.section or "")
        if reader is not None:
            reader(number, text)
        else:
            self.emit(number, text)

    def weapons(self, number: int, head: str, text: str) -> None:
        """The table head, then one pipe row per weapon: its name printed twice, then six cells
        each of the shape its column allows."""
        table = _TABLE_HEAD.match(text)
        skill = table.group("skill") if table else ("WS" if head.startswith("MELEE") else "BS")
        self.emit(number, f"{head} | RANGE | A | {skill} | S | AP | D | |")
        self.weapon_rows(number, text, table.end() if table else 0)

    def weapon_rows(self, number: int, text: str, position: int) -> None:
        """Weapon rows from ``position`` on; what is left is reported and kept as a line."""
        while position < len(text):
            match = _WEAPON.match(text, position)
            if match is None:
                break
            cells = [match.group(g) for g in ("name", "range", "a", "skill", "s", "ap", "d")]
            self.emit(number, "| " + " | ".join(cells) + " | |")
            position = match.end()
        rest = text[position:].strip()
        if rest:
            self.report.warning(
                "textcontent-uncut",
                f"weapon table text not cut into cells: {rest[:80]!r}",
                line=number,
            )
            self.emit(number, rest)

    def boxes(self, number: int, text: str) -> str:
        """A rules box without a heading of its own becomes a named ability (``SUPREME
        COMMANDER: If this model…``), as the page reader keeps it; returns the text left for
        the current section."""
        if self.pending_box is not None:
            box, self.pending_box = self.pending_box, None
            self._box(number, f"{box}: {text}")
            return ""
        start = _BOX_AT_START.match(text)
        if start:
            self._box(number, f"{start.group('box')}: {text[start.end() :]}")
            return ""
        end = _BOX_AT_END.search(text)
        if end:
            self.pending_box = end.group("box")
            return text[: end.start()]
        return text

    def _box(self, number: int, text: str) -> None:
        if self.section not in ("ABILITIES", "BOX"):
            self.emit(number, "ABILITIES")
        self.section = "BOX"
        self.emit(number, text)

    def options(self, number: int, text: str) -> None:
        """Sentences and the list items of a choice (``…following:1 flamer1 meltagun``)."""
        for part in _SENTENCE_GLUE.split(text):
            for item in _OPTION_GLUE.split(part):
                self.emit(number, item)

    def abilities(self, number: int, text: str) -> None:
        """``CORE: Deadly Demise D6+2Rolling Fortress: Each time…``: the CORE and FACTION lists
        end where a capital follows without a space; each named ability starts a line."""
        rest = text
        for label in ("CORE:", "FACTION:"):
            if rest.startswith(label):
                glue = _GLUE_UPPER.search(rest, len(label))
                listed, rest = (rest[: glue.start()], rest[glue.start() :]) if glue else (rest, "")
                self.emit(number, listed)
        for part in _NAMED_GLUE.split(rest):
            self.emit(number, part)

    def composition(self, number: int, text: str) -> None:
        """Model lines and the loadout, then the costs: ``10 models6520 models120``."""
        costs_at = re.search(r"[1-9]\d* models?\d", text)
        models, costs = (
            (text[: costs_at.start()], text[costs_at.start() :]) if costs_at else (text, "")
        )
        for part in _MODEL_GLUE.split(models):
            for sentence in _SENTENCE_GLUE.split(part):
                if sentence.startswith("OR") and sentence[2:3].isdigit():
                    self.emit(number, "OR")
                    sentence = sentence[2:]
                if sentence.strip() == "OR":
                    self.emit(number, "OR")
                elif re.match(r"^\d", sentence):
                    self.emit(number, f"- {sentence}")
                else:
                    self.emit(number, sentence)
        for what, cost in _costs(costs):
            self.emit(number, f"| {what} | {cost} |")
        if costs and not _costs(costs):
            self.report.warning("textcontent-uncut", f"costs not cut: {costs[:80]!r}", line=number)
            self.emit(number, costs)

    def stratagems(self, number: int, text: str) -> None:
        """``NAME1CPSource – CategoryMARKER``: the marker (``C``, ``BA``) is the source's
        initials, glued before the next name."""
        position = 0
        rows = list(_STRATAGEM.finditer(text))
        if not rows:
            self.emit(number, text)
            return
        for row in rows:
            if row.start() > position:
                gap = text[position : row.start()]
                self.report.warning(
                    "textcontent-uncut", f"stratagem index text not cut: {gap[:60]!r}", number
                )
            name = row.group("name")
            if position and self.out:
                name = self._marker(name)
            source, category = row.group("source").strip(), row.group("category")
            self.emit(number, name)
            self.emit(number, row.group("cp"))
            self.emit(number, f"{source} – {category}" if category else f"{source} –")
            self.last_source = source
            position = row.end()
        rest = text[position:]
        if rest:
            initials = "".join(w[0] for w in self.last_source.split() if w[:1].isupper())
            if rest != initials:
                self.report.warning(
                    "textcontent-uncut", f"stratagem index text not cut: {rest[:60]!r}", number
                )
            self.emit(number, rest)

    def _marker(self, name: str) -> str:
        """Split the previous row's book marker off the front of this name."""
        source = self.last_source
        initials = "".join(w[0] for w in source.split() if w[:1].isupper())
        if initials and name.startswith(initials) and len(name) > len(initials):
            self.emit(self.out[-1].number, initials)
            return name[len(initials) :]
        return name

    def enhancements(self, number: int, text: str) -> None:
        """``Death Mask of Ollanius10Grand Strategist15``: name and cost lines."""
        for part in _GLUE_UPPER.split(text):
            priced = _PRICED.match(part)
            if priced:
                self.emit(number, priced.group("name"))
                self.emit(number, priced.group("cost"))
            else:
                self.emit(number, part)

    def names(self, number: int, text: str) -> None:
        """An intro sentence, then names run together (``Cadian CastellanCommissar``): one a
        line, list items where the page lists units."""
        intro, colon, rest = text.partition("following unit")
        if colon:
            head, _, rest = rest.partition(":")
            self.emit(number, f"{intro}following unit{head}:")
        listed = self.section in ("LED BY", "LEADER")
        for part in _GLUE_UPPER.split(rest if colon else text):
            # Units a leader joins or is led by are list items on the page: "- Unit".
            self.emit(number, f"- {part.strip()}" if listed and part.strip() else part)


def _costs(text: str) -> list[tuple[str, str]]:
    """``10 models6520 models120`` → (10 models, 65), (20 models, 120): a cost ends where the
    next row's model count begins, and model counts grow from row to row."""
    rows: list[tuple[str, str]] = []
    rest = text
    previous = 0
    while rest:
        match = re.match(r"(?P<count>[1-9]\d*) (?P<word>models?)(?P<tail>\d.*)$", rest)
        if match is None:
            return rows if not rest.strip() else []
        count = game_int(match.group("count"))
        if count is None or count <= previous:  # no count of models a unit can have
            return []
        tail = match.group("tail")
        cut = _next_row(tail, count)
        rows.append((f"{count} {match.group('word')}", tail[:cut]))
        previous, rest = count, tail[cut:]
    return rows


def _next_row(tail: str, count: int) -> int:
    """Where the cost at the front of ``tail`` ends: before the shortest larger model count (of
    at most two digits) that can start the next row, or at the end of the digits."""
    digits = re.match(r"\d+", tail)
    assert digits is not None
    for cut in range(digits.end() - 1, 0, -1):
        following = re.match(r"(?P<n>[1-9]\d?) models?", tail[cut:])
        if following and int(following.group("n")) > count:
            return cut
    return digits.end()
