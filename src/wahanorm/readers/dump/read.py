"""Page dumps (text): clean, segment and parse one dump into entities.

The datasheet block becomes a ``Datasheet`` (through the shared builder); the page's short
indexes link it to the units that can lead it and the stratagems, detachment rules and
enhancements it lists; every rules entry of the tooltip text becomes a
``Stratagem``, ``DetachmentRule`` or ``Rule``. Holes in the source (a keyword missing from a
sentence, a placeholder left by the site) are reported with their line and column.
"""

from __future__ import annotations

import bisect
import itertools
import re
from typing import TypeVar

from wahanorm.blocks import clean as cleaning
from wahanorm.blocks import rules_text
from wahanorm.blocks.clean.lines import Line
from wahanorm.blocks.datasheet import DatasheetDraft, UnitRef, build_datasheet
from wahanorm.blocks.edition import page_edition
from wahanorm.blocks.parse import labelled_rule
from wahanorm.blocks.parse.detachment import split_detachment_text
from wahanorm.blocks.parse.numbers import printed_int
from wahanorm.blocks.parse.rule_tables import read_tables
from wahanorm.blocks.parse.stratagems import parse_entry, split_source, stratagem_fields
from wahanorm.blocks.parse.timing import derive_timing
from wahanorm.contract.ids import make_id
from wahanorm.contract.models import (
    DetachmentRule,
    Enhancement,
    Rule,
    SourceRef,
    Stratagem,
)
from wahanorm.errors import (
    LINES_KEPT,
    LONGEST_KEPT,
    BatchMemo,
    ParseFailure,
    Report,
    caret_excerpt,
)
from wahanorm.readers.base import EditionSign, Entity, Part, Reading
from wahanorm.readers.dump import textcontent
from wahanorm.readers.dump.datasheet import read_datasheet
from wahanorm.readers.dump.segment import (
    BRACKET_RULE,
    CAPS_NUMBERED,
    CP_LINE,
    DETACHMENT_LINE,
    INDEX_COST,
    INDEX_MARKER,
    NUMBERED_RULE,
    POINTS_LINE,
    Block,
    segment,
)

E = TypeVar("E", Stratagem, Rule)

# Holes: places where the site dropped a keyword or left a placeholder. Each pattern comes with
# a literal that any match contains, so a text is searched with the fast substring test first.
# A keyword missing before "unit"/"model" is found after a word in capitals: such a pattern is
# written without its opening ``\b`` (a pattern that opens so is tried at every character; one
# that opens with a set of characters is scanned for fast) and marked: a match counts only where
# a word starts (the character before it is none of ``\w``), where ``\b`` would have let it.
HOLES: list[tuple[str, re.Pattern[str], str, bool]] = [
    (" ,", re.compile(r"\b(?:is|are|of|the) ,"), "a keyword is missing before ','", False),
    ("The and ", re.compile(r"\bThe and [A-Z]"), "a keyword is missing before 'and'/'or'", False),
    ("The or ", re.compile(r"\bThe or [A-Z]"), "a keyword is missing before 'and'/'or'", False),
    (
        "The keyword",
        re.compile(r"\bThe keywords? (?:is|are) used"),
        "the keyword of this list is missing",
        False,
    ),
    *(
        (  # "… or unit", "… and units", "… or models": the literal is the joiner's last letter
            f"{joiner[-1]} {noun}",
            re.compile(rf"[A-Z][A-Z]{{2,}} {joiner} {noun}s?\b"),
            "a keyword is missing before 'unit'/'model'",
            True,
        )
        for noun in ("unit", "model")
        for joiner in ("or", "and")
    ),
    ("an unit", re.compile(r"\ban units?\b"), "a keyword is missing after 'an'", False),
    ("an model", re.compile(r"\ban models?\b"), "a keyword is missing after 'an'", False),
    (
        "%",
        re.compile(r"%[0-9]+[^%]*%"),
        "a link placeholder of the site was left in the text",
        False,
    ),
]


def _opens_word(text: str, at: int) -> bool:
    r"""``\b`` before a word character at ``at``: the character before is not one of ``\w``
    (a letter or digit as ``str.isalnum`` says, or ``_``)."""
    return at == 0 or not (text[at - 1].isalnum() or text[at - 1] == "_")


def read_dump(text: str, display: str) -> Reading:
    """Entities of one text dump (of one page, or of several pasted into one file), one part
    per page: each page tells its own edition."""
    reading = Reading(display)
    report = reading.report
    pdf_line = index_pdf_line(text)
    if pdf_line is not None:
        report.error(
            "index-pdf-unsupported",
            "plain text of a GW index PDF (characteristics and weapon columns as one line of "
            "headings each): this layout is recognised but not read yet",
            line=pdf_line,
        )
        return reading
    if textcontent.is_textcontent(text):
        report.info(
            "textcontent-layout",
            "textContent layout (table cells run together): cut by the shapes of the cells",
        )
        raw = textcontent.to_dump_lines(text, report)
        if not raw:
            return reading  # the reason is already an error
    else:
        raw = cleaning.to_lines(text)
    lines = cleaning.clean(raw, report)
    if not lines:
        report.error("empty-input", "no text in this input")
        return reading
    blocks = segment(lines)
    _report_holes(blocks, report)
    for page in _pages(blocks):
        reading.parts.append(Part(_page_entities(page, display, report), _page_sign(page)))
    if not reading.entities and not any(d.severity == "error" for d in report.diagnostics):
        # One error says the whole text was not read; a warning per line would only repeat it.
        report.diagnostics[:] = [d for d in report.diagnostics if d.code != "unparsed"]
        report.error(
            "unknown-layout",
            "no datasheet, stratagem or rules entry found: the layout of this text is not one "
            "wahanorm reads",
            line=lines[0].number,
            excerpt=caret_excerpt(lines[0].text, None),
        )
    return reading


def _page_sign(blocks: list[Block]) -> EditionSign:
    """What one page tells of its edition (links, cost table, stratagem index, core forms)."""
    found, sign = page_edition(line.text for block in blocks for line in block.lines)
    return EditionSign(
        found,
        f"{sign} of this page says",
        "nothing on this page tells its edition (no link, core stratagem or cost table of either)",
        line=blocks[0].first,
    )


_INDEX_PDF_HEADS = (
    re.compile(r"^M\s+T\s+SV\s+W\s+LD\s+OC$", re.IGNORECASE),
    re.compile(r"^(?:RANGED|MELEE) WEAPONS\s+RANGE\s+A\s+(?:BS|WS)\s+S\s+AP\s+D$", re.IGNORECASE),
)


def index_pdf_line(text: str) -> int | None:
    """The line of the first column-heading line in the shape of GW's index PDFs as plain text
    (``M T SV W LD OC``, ``RANGED WEAPONS RANGE A BS S AP D``), or None."""
    for number, line in enumerate(text.splitlines(), start=1):
        first = line[:1]
        if first in _INDEX_PDF_FIRST or first.isspace():  # no other line is a heading stripped
            stripped = line.strip()
            if stripped[:1] in _INDEX_PDF_FIRST and any(
                p.match(stripped) for p in _INDEX_PDF_HEADS
            ):
                return number
    return None


_INDEX_PDF_FIRST = frozenset("MmRr")


def _pages(blocks: list[Block]) -> list[list[Block]]:
    """Blocks grouped by page: a datasheet block starts a new one."""
    pages: list[list[Block]] = [[]]
    for block in blocks:
        if block.kind == "datasheet" and pages[-1]:
            pages.append([])
        pages[-1].append(block)
    return [page for page in pages if page]


def _page_entities(blocks: list[Block], display: str, report: Report) -> list[Entity]:
    listed = {
        row[0].text.lower()
        for b in blocks
        if b.kind == "enhancement_index"
        for row in _enhancement_rows(b)
    }
    blocks = [
        _as_enhancement(b)
        if b.kind == "detachment_rule" and b.lines[0].text.lower() in listed
        else b
        for b in blocks
    ]
    datasheet: DatasheetDraft | None = None
    faction_names: set[str] = set()
    if blocks[0].kind == "datasheet":
        datasheet = read_datasheet(blocks[0].lines, display, report)
        faction_names = {a.name.lower() for a in datasheet.abilities.faction}
    entities = _entries(blocks, display, report, datasheet, faction_names)
    if datasheet is not None:
        _link_indexes(datasheet, blocks, entities, display, report)
        entities.insert(0, build_datasheet(datasheet, report))
    return entities


def _source(path: str, block: Block) -> list[SourceRef]:
    return [SourceRef(path=path, line_start=block.first, line_end=block.last)]


def _entries(
    blocks: list[Block],
    path: str,
    report: Report,
    datasheet: DatasheetDraft | None,
    faction_names: set[str],
) -> list[Entity]:
    entities: list[Entity] = []
    for block in blocks:
        if block.kind == "stratagem":
            stratagem = _stratagem(block, path, report)
            if stratagem:
                entities.append(stratagem)
        elif block.kind == "detachment_rule":
            entities.append(_detachment_rule(block, path, report))
        elif block.kind == "enhancement":
            entities.append(_enhancement(block, path, report, datasheet))
        elif block.kind == "rule":
            rule = _rule(block, path, report, datasheet, faction_names)
            if rule:
                entities.append(rule)
        elif block.kind == "keyword_usage":
            report.info("section-skipped", "keyword-usage list of the site skipped", block.first)
        elif block.kind == "text":
            for line in block.lines:
                report.warning(
                    "unparsed", f"text outside any entry: {line.text[:80]!r}", line.number
                )
    return entities


# The core stratagems and rules recur on every page dump of a batch: each text is read once
# (when its reading says nothing), its entity then placed at each block that prints it.
_STRATAGEMS: BatchMemo[tuple[str, ...], Stratagem] = BatchMemo(4096)
_RULES: BatchMemo[tuple[str, tuple[str, ...]], Rule] = BatchMemo(4096)


def _placed(entity: E, path: str, block: Block) -> E:
    """``entity`` (read from the same text elsewhere, maybe) with this block as its source."""
    [here] = entity.sources  # a dump's entity has the one block it was read from
    if (here.path, here.line_start, here.line_end) == (path, block.first, block.last):
        return entity  # read here
    return entity.model_copy(update={"sources": _source(path, block)})


def _stratagem(block: Block, path: str, report: Report) -> Stratagem | None:
    key = tuple(x.text for x in block.lines)
    made = _STRATAGEMS.read(report, key, lambda: _read_stratagem(block, path, report))
    return None if made is None else _placed(made, path, block)


def _read_stratagem(block: Block, path: str, report: Report) -> Stratagem | None:
    try:
        entry = parse_entry([x.text for x in block.lines], path, block.first)
    except ParseFailure as exc:
        exc.line = block.lines[
            min((exc.line or block.first) - block.first, len(block.lines) - 1)
        ].number
        report.failure(exc, "stratagem-body")
        return None
    for label in entry.body.repeated:
        report.info(
            "duplicate-dropped", f"repeated {label.upper()} of {entry.name} dropped", block.first
        )
    body = entry.body
    if not (body.when or body.target or body.effect):
        report.warning(
            "stratagem-unlabelled",
            f"stratagem {entry.name!r} has no WHEN, TARGET or EFFECT (the text was cut off?)",
            block.first,
        )
    if entry.cp is None:  # its grammar read a CP line: digits no cost can be
        report.warning(
            "out-of-range",
            f"stratagem {entry.name!r}: its CP cost is no number a cost can be; left out",
            block.first,
        )
    sections = [(label, [text for _, text in lines]) for label, _, lines in body.parts]
    fields = stratagem_fields(rules_text.dump_sections(sections))
    return Stratagem(
        id=make_id(entry.source, entry.name),
        name=entry.name,
        sources=_source(path, block),
        cp=entry.cp,
        source=entry.source,
        category=entry.category,
        rule_number=entry.rule_number,
        flavour=entry.flavour,
        timing=derive_timing(fields["when"]),
        **fields,
    )


def _detachment_rule(block: Block, path: str, report: Report) -> DetachmentRule:
    name = block.lines[0].text
    detachment, flavour, text = _detachment_entry(block.lines[1:])
    if not text:
        report.warning("empty-text", f"detachment rule {name!r} has no text", block.first)
    split = split_detachment_text(text or "")
    return DetachmentRule(
        id=make_id(detachment, name),
        name=name,
        sources=_source(path, block),
        detachment=detachment,
        flavour=flavour,
        text=split.text,
        abilities=split.abilities,
        restrictions=split.restrictions,
    )


def _detachment_entry(lines: list[Line]) -> tuple[str, str | None, str | None]:
    """What follows an entry's name: ``<Detachment> Detachment``, then the body, whose first
    line is flavour when more lines follow; the rest is the rule. (detachment, flavour, text)"""
    match = DETACHMENT_LINE.match(lines[0].text) if lines else None
    body = [x.text for x in lines[1:]]
    flavour = body[0] if len(body) > 1 else None
    text = "\n".join(body[1:] if flavour else body) or None
    return (match.group("detachment") if match else ""), flavour, text


def _enhancement_rows(block: Block) -> list[tuple[Line, Line | None]]:
    """(name, cost) lines of an ENHANCEMENTS index; enhancements without a cost have None."""
    rows: list[tuple[Line, Line | None]] = []
    lines = block.lines[1:]
    index = 0
    while index < len(lines):
        cost = lines[index + 1] if index + 1 < len(lines) else None
        if cost is not None and INDEX_COST.fullmatch(cost.text):
            rows.append((lines[index], cost))
            index += 2
        else:
            rows.append((lines[index], None))
            index += 1
    return rows


def _as_enhancement(block: Block) -> Block:
    """A ``Name`` / ``<Detachment> Detachment`` entry that the page lists under ENHANCEMENTS is
    an enhancement without a cost (Boarding Actions prints them so)."""
    return Block("enhancement", block.lines)


def _cost(line: Line, name: str, report: Report) -> int | None:
    """The points of an enhancement's cost line (``25 pts``); None, with a ``bad-cost`` warning,
    for a cost no enhancement can have (``numbers.MAX_GAME_VALUE``)."""
    cost = printed_int(line.text)
    if cost is None:
        report.warning(
            "bad-cost",
            f"enhancement {name[:60]!r}: its cost {line.text[:40]!r} is no number of points an "
            "enhancement can have; left out",
            line.number,
        )
    return cost


def _enhancement(
    block: Block, path: str, report: Report, datasheet: DatasheetDraft | None
) -> Enhancement:
    """``- Name`` / ``25 pts`` / ``<Detachment> Detachment`` / flavour / text, or without the
    cost line."""
    name = block.lines[0].text.removeprefix("- ").strip()
    has_cost = len(block.lines) > 1 and POINTS_LINE.match(block.lines[1].text) is not None
    cost = _cost(block.lines[1], name, report) if has_cost else None
    detachment, flavour, text = _detachment_entry(block.lines[2 if has_cost else 1 :])
    if not text:
        report.warning("empty-text", f"enhancement {name!r} has no text", block.first)
    return Enhancement(
        id=make_id(detachment, name),
        name=name,
        sources=_source(path, block),
        detachment=detachment,
        faction=datasheet.faction if datasheet else None,
        cost=cost,
        flavour=flavour,
        text=text,
    )


def _rule_heading(text: str) -> tuple[str, str | None]:
    for pattern in (NUMBERED_RULE, BRACKET_RULE, CAPS_NUMBERED):
        match = pattern.match(text)
        if match:
            number = match.group("number") or None
            name = match.group("name")
            if pattern is CAPS_NUMBERED and " / " in text:
                name = re.sub(r"\d{2}(?:\.\d{2})+", "", text)
            return name.strip(), number
    return text, None


def _rule(
    block: Block,
    path: str,
    report: Report,
    datasheet: DatasheetDraft | None,
    faction_names: set[str],
) -> Rule | None:
    name, number = _rule_heading(block.lines[0].text)
    faction_rule = name.lower() in faction_names or any(
        x.text.startswith("If your Army Faction is") for x in block.lines[1:]
    )
    namespace = datasheet.faction if (faction_rule and datasheet) else "core"
    key = namespace, tuple(x.text for x in block.lines)
    made = _RULES.read(
        report, key, lambda: _read_rule(block, path, report, name, number, namespace)
    )
    return None if made is None else _placed(made, path, block)


def _read_rule(
    block: Block, path: str, report: Report, name: str, number: str | None, namespace: str
) -> Rule | None:
    body = block.lines[1:]
    read = read_tables([x.text for x in body])
    for index in read.missing:
        report.warning(
            "table-missing",
            f'rule {name!r} announces a table ("as shown below.") whose rows are not in the text',
            body[index].number,
        )
    for index in read.partial:
        report.warning(
            "table-partial",
            f"rule {name!r}: cells of the table announced here lost their values; kept as printed",
            body[index].number,
        )
    shape = rules_text.build(rules_text.dump_lines(read.lines), labelled_rule.line_parts, dump=True)
    if not shape.text:
        report.warning("empty-text", f"rule {name!r} has a heading and no text", block.first)
        return None
    return Rule(
        id=make_id(namespace, name),
        name=name,
        sources=_source(path, block),
        rule_number=number,
        tables=read.tables,
        **labelled_rule.rule_fields(shape),
    )


def _index_rows(block: Block) -> list[list[Line]]:
    rows: list[list[Line]] = []
    lines = block.lines[1:]
    index = 0
    while index + 2 < len(lines) and CP_LINE.match(lines[index + 1].text):
        rows.append(lines[index : index + 3])
        index += 3
        if index < len(lines) and INDEX_MARKER.fullmatch(lines[index].text):
            index += 1
    return rows


def _link_indexes(
    datasheet: DatasheetDraft,
    blocks: list[Block],
    entities: list[Entity],
    path: str,
    report: Report,
) -> None:
    """The units that can lead the datasheet (named in its faction: a dump has no links) and the
    ids of the stratagems, detachment rules and enhancements the page lists, into its draft."""
    stratagem_ids: set[str] = set()
    rule_ids: set[str] = set()
    enhancement_ids: set[str] = set()
    known = {(e.kind, e.id) for e in entities}
    rules_by_name = {e.name.lower(): e.id for e in entities if e.kind == "detachment_rule"}
    enhancements_by_name: dict[str, list[str]] = {}
    for e in entities:
        if e.kind == "enhancement":
            enhancements_by_name.setdefault(e.name.lower(), []).append(e.id)
    for block in blocks:
        if block.kind == "stratagem_index":
            for name_line, _cost, source_line in _index_rows(block):
                source, _category = split_source(source_line.text)
                stratagem_id = make_id(source, name_line.text)
                stratagem_ids.add(stratagem_id)
                if ("stratagem", stratagem_id) not in known:
                    report.warning(
                        "missing-entry",
                        f"stratagem {name_line.text!r} is listed but its text is not in this input",
                        name_line.number,
                    )
        elif block.kind == "detachment_index":
            for line in block.lines[1:]:
                rule_id = rules_by_name.get(line.text.lower())
                if rule_id:
                    rule_ids.add(rule_id)
                else:
                    report.warning(
                        "missing-entry",
                        f"detachment rule {line.text!r} is listed "
                        "but its text is not in this input",
                        line.number,
                    )
        elif block.kind == "led_by_index":
            units = [x.text[2:].strip() for x in block.lines if x.text.startswith("- ")]
            datasheet.led_by.extend(UnitRef(unit) for unit in units)
            if not units:
                report.warning(
                    "leader-empty", "LED BY section lists no units (the list was lost)", block.first
                )
        elif block.kind == "enhancement_index":
            for name_line, cost_line in _enhancement_rows(block):
                full = enhancements_by_name.get(name_line.text.lower())
                if full:
                    enhancement_ids.update(full)
                    continue
                enhancement = _listed_enhancement(datasheet, name_line, cost_line, path, report)
                enhancement_ids.add(enhancement.id)
                entities.append(enhancement)
    datasheet.stratagems = sorted(stratagem_ids)
    datasheet.detachment_rules = sorted(rule_ids)
    datasheet.enhancements = sorted(enhancement_ids)


def _listed_enhancement(
    datasheet: DatasheetDraft, name_line: Line, cost_line: Line | None, path: str, report: Report
) -> Enhancement:
    """An enhancement the page only lists (name and cost): its detachment and text are not in
    the dump, so it is named in the faction's namespace and reported."""
    report.info(
        "partial-entry",
        f"enhancement {name_line.text!r} is listed with its cost only; "
        "its detachment and text are not in this input",
        name_line.number,
    )
    cost = _cost(cost_line, name_line.text, report) if cost_line else None
    last = cost_line or name_line
    return Enhancement(
        id=make_id(datasheet.faction, name_line.text),
        name=name_line.text,
        sources=[SourceRef(path=path, line_start=name_line.number, line_end=last.number)],
        faction=datasheet.faction,
        cost=cost,
    )


def _report_holes(blocks: list[Block], report: Report) -> None:
    lines = [line for block in blocks for line in block.lines]
    found: dict[tuple[int, int], tuple[Line, str]] = {}
    holes_of = _HOLES.each([line.text for line in lines], line_holes)
    for line, holes in zip(lines, holes_of, strict=True):
        for column, message in holes:
            found.setdefault((line.number, column), (line, message))
    for (number, column), (line, message) in sorted(found.items()):
        report.warning(
            "hole", message, number, column=column, excerpt=caret_excerpt(line.text, column)
        )


_HOLES: BatchMemo[str, tuple[tuple[int, str], ...]] = BatchMemo(LINES_KEPT, LONGEST_KEPT)
"""``line_holes`` of the lines a batch repeats."""


def line_holes(texts: list[str]) -> list[tuple[tuple[int, str], ...]]:
    """The holes of each text (a line) as (column, message), in the order of ``HOLES`` and
    then of the column: a pure function of each text, whatever texts it is given with."""
    # Each needle is looked for in the whole text (no needle holds a line break, so each one
    # found lies in one line), and its pattern tried on the lines that hold it.
    whole = "\n".join(texts)
    starts = list(itertools.accumulate((len(text) + 1 for text in texts), initial=0))
    hits: dict[int, list[tuple[int, int, str]]] = {}  # line → (hole, column - 1, message)
    for hole, (needle, pattern, message, word) in enumerate(HOLES):
        held: set[int] = set()
        at = whole.find(needle)
        while at != -1:
            held.add(bisect.bisect_right(starts, at) - 1)
            at = whole.find(needle, at + 1)
        for index in held:
            text = texts[index]
            for match in pattern.finditer(text):
                if not word or _opens_word(text, match.start()):
                    hits.setdefault(index, []).append((hole, match.start(), message))
    none: tuple[tuple[int, str], ...] = ()
    return [
        tuple((start + 1, message) for _hole, start, message in sorted(hits[at]))
        if at in hits
        else none
        for at in range(len(texts))
    ]
