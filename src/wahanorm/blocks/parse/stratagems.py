"""Stratagem entries and bodies through ``grammars/stratagem.lark``; the timing derived from WHEN
is read by ``parse.timing.derive_timing``."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, cast

from lark import Token, Transformer, v_args

from wahanorm.blocks import grammar
from wahanorm.blocks.parse.numbers import printed_int
from wahanorm.blocks.rules_text import RulesText, Sections
from wahanorm.contract.models import RuleSection
from wahanorm.errors import ParseFailure

_CATEGORY = re.compile(r"^(?P<source>.*?)\s+[–-]\s+(?P<category>.+?)$")
_STRATAGEM_WORD = re.compile(r"\s*\bStratagem\s*$", re.I)


Numbered = tuple[int, str]
"""A line of the parsed text (1-based) and its text."""


@dataclass
class StratagemBody:
    """The labelled sections of a stratagem; bullet and continuation lines kept, one per line."""

    when: str | None = None
    target: str | None = None
    effect: str | None = None
    restrictions: str | None = None
    trigger: str | None = None
    repeated: list[str] = field(default_factory=list)
    parts: list[tuple[str, int, list[Numbered]]] = field(default_factory=list)
    """Each section in printed order: its label (lower case), the line of the label, and its
    lines (the rest of the label's line first) with their line numbers in the parsed text."""


@dataclass
class StratagemEntry:
    """A whole dump entry: name, cost, source line, flavour and body."""

    name: str
    rule_number: str | None
    cp: int | None
    source: str
    category: str | None
    flavour: str | None
    body: StratagemBody


@dataclass
class _Section:
    label: str
    line: int
    lines: list[Numbered]

    def texts(self) -> list[str]:
        return [text for _, text in self.lines]


class _Build(Transformer[Token, object]):
    """Turns the stratagem tree into the dataclasses above."""

    @v_args(inline=True)
    def label(self, token: Token) -> tuple[str, int]:
        return str(token).rstrip(":").lower(), int(token.line or 0)

    def section(self, items: list[object]) -> _Section:
        label, line = cast(tuple[str, int], items[0])
        lines = [(int(t.line or 0), str(t).strip()) for t in cast(list[Token], items[1:])]
        return _Section(label, line, [(n, text) for n, text in lines if text])

    def body(self, items: list[object]) -> StratagemBody:
        return _assemble_body([i for i in items if isinstance(i, _Section)])

    def name_line(self, items: list[Token]) -> tuple[str, str | None]:
        name = str(items[0]).strip()
        number = str(items[1]) if len(items) > 1 else None
        return name, number

    @v_args(inline=True)
    def cost_line(self, token: Token) -> int | None:
        return printed_int(str(token))

    @v_args(inline=True)
    def source_line(self, token: Token) -> tuple[str, str | None]:
        return split_source(str(token))

    @v_args(inline=True)
    def flavour_line(self, token: Token) -> str:
        return str(token).strip()

    def entry(self, items: list[object]) -> StratagemEntry:
        name, number = cast(tuple[str, str | None], items[0])
        cp = cast(int | None, items[1])
        source, category = cast(tuple[str, str | None], items[2])
        flavour = [i for i in items[3:] if isinstance(i, str)]
        sections = [i for i in items[3:] if isinstance(i, _Section)]
        return StratagemEntry(
            name=name,
            rule_number=number,
            cp=cp,
            source=source,
            category=category,
            flavour="\n".join(flavour) or None,
            body=_assemble_body(sections),
        )


_BUILD = _Build()


def split_source(line: str) -> tuple[str, str | None]:
    """``Khorne Daemonkin – Battle Tactic Stratagem`` → (``Khorne Daemonkin``, ``Battle Tactic``);
    ``Core Stratagem`` → (``Core``, None); ``More Dakka! Stratagem`` → (``More Dakka!``, None)."""
    text = _STRATAGEM_WORD.sub("", line.strip()).rstrip(" –-")  # "Grizzled Company – Stratagem"
    match = _CATEGORY.match(text)
    if match:
        return match.group("source").strip(), match.group("category").strip()
    return text, None


def _is_bullet(line: str) -> bool:
    return line.startswith("- ")


def _assemble_body(sections: list[_Section]) -> StratagemBody:
    """Join each section's lines. A section seen twice keeps its first text (the dumps repeat
    TARGET/EFFECT/RESTRICTIONS). Bullets that follow a section which does not introduce a list
    belong to the nearest earlier section that ends with a colon (WHEN "…one of the following
    rolls:" whose list the dumps print after EFFECT)."""
    body = StratagemBody()
    texts: dict[str, list[Numbered]] = {}
    label_lines: dict[str, int] = {}
    for section in sections:
        if section.label in texts:
            known = {text for _, text in texts[section.label]}
            extra = [(n, line) for n, line in section.lines if line not in known]
            body.repeated.append(section.label)
            texts[section.label].extend(extra)
            continue
        texts[section.label] = list(section.lines)
        label_lines[section.label] = section.line
    order = list(texts)
    _move_orphan_bullets(texts, order)
    for label, lines in texts.items():
        setattr(body, label, "\n".join(text for _, text in lines) or None)
    body.parts = [(label, label_lines[label], texts[label]) for label in order]
    return body


def _move_orphan_bullets(texts: dict[str, list[Numbered]], order: list[str]) -> None:
    for index, label in enumerate(order):
        lines = texts[label]
        head = [x for x in lines if not _is_bullet(x[1])]
        if not head or head[-1][1].endswith(":") or len(head) != _leading_plain(lines):
            continue
        bullets = lines[len(head) :]
        if not bullets:
            continue
        for earlier in reversed(order[:index]):
            if texts[earlier] and texts[earlier][-1][1].endswith(":"):
                texts[earlier].extend(bullets)
                texts[label] = head
                break


def _leading_plain(lines: list[Numbered]) -> int:
    count = 0
    for _, line in lines:
        if _is_bullet(line):
            break
        count += 1
    return count


def _text(lines: list[str]) -> str:
    """One item per line, blank lines dropped, a final newline: the grammar's input form."""
    return "".join(f"{line.strip()}\n" for line in lines if line.strip())


def parse_entry(lines: list[str], path: str = "", first_line: int = 1) -> StratagemEntry:
    """A dump's stratagem entry, one item per line; raises ``ParseFailure`` with a caret."""
    grammar_text = _text(lines)
    fast = entry_without_lark(grammar_text)
    if fast is not None:
        return fast
    entry = grammar.parse("stratagem", "entry", grammar_text, path, first_line, _BUILD)
    assert isinstance(entry, StratagemEntry)
    return entry


def parse_body(text: str, path: str = "", first_line: int = 1) -> StratagemBody:
    """The WHEN/TARGET/EFFECT/RESTRICTIONS sections of a description, one item per line."""
    grammar_text = _text(text.split("\n"))
    sections = body_sections(grammar_text)
    if sections is not None:
        return _assemble_body(sections)
    body = grammar.parse("stratagem", "body", grammar_text, path, first_line, _BUILD)
    assert isinstance(body, StratagemBody)
    return body


# The labels of ``grammars/stratagem.lark`` (its WHEN … TRIGGER terminals), as they open a line.
_LABEL = re.compile(r"(WHEN|TARGET|EFFECT|RESTRICTIONS|TRIGGER):")
_IGNORED = " \t"  # the grammar's %ignore and the space of its _NL


# The name and cost terminals of the grammar (a test holds them equal to the grammar's).
_NAME = re.compile(r"[^\n]+?(?=\d{2}(?:\.\d{2})+\n|\n)")
_RULE_NUMBER = re.compile(r"\d{2}(?:\.\d{2})+")
_CP_COST = re.compile(r"\d+\s*CP", re.I)


def body_sections(grammar_text: str) -> list[_Section] | None:
    """The sections the ``body`` rule of ``grammars/stratagem.lark`` reads in ``grammar_text``
    (``_text``'s form: stripped lines, none blank, each ending with a newline), without Lark:
    a line opening with a label starts a section (the label's terminals outrank LINE), any
    other line continues the one before. None when the first line opens with no label: the
    grammar then fails, and only Lark gives its error with a caret. (A test holds the two
    ways equal on every stratagem of the corpora.)"""
    flavour, sections = _cut(grammar_text.split("\n")[:-1], 1)
    return None if flavour else sections


def _cut(lines: list[str], first: int) -> tuple[list[str], list[_Section]]:
    """Lines (numbered from ``first``) as the lines before the first label and the sections."""
    flavour: list[str] = []
    sections: list[_Section] = []
    for number, line in enumerate(lines, start=first):
        label = _LABEL.match(line)
        if label is None:
            if sections:
                sections[-1].lines.append((number, line.strip()))
            else:
                flavour.append(line.strip())
            continue
        section = _Section(label.group(1).lower(), number, [])
        rest = line[label.end() :].lstrip(_IGNORED).strip()
        if rest:
            section.lines.append((number, rest))
        sections.append(section)
    return flavour, sections


def entry_without_lark(grammar_text: str) -> StratagemEntry | None:
    """The ``entry`` rule of ``grammars/stratagem.lark`` read without Lark (``_text``'s form):
    the name line (a glued rule number apart), a cost line that is a cost and nothing else, the
    source line, flavour lines up to the first label, the sections. None for anything else
    (fewer than three lines, a cost line that is not a cost): Lark then reads it, and fails with
    its caret where it must."""
    lines = grammar_text.split("\n")[:-1]
    if len(lines) < 3:
        return None
    name = _NAME.match(grammar_text)
    cost = _CP_COST.fullmatch(lines[1])
    if name is None or cost is None:
        return None
    number = lines[0][name.end() :].lstrip(_IGNORED)
    if number and _RULE_NUMBER.fullmatch(number) is None:
        return None
    flavour, sections = _cut(lines[3:], 4)
    source, category = split_source(lines[2])
    return StratagemEntry(
        name=name.group(0).strip(),
        rule_number=number or None,
        cp=printed_int(cost.group(0)),
        source=source,
        category=category,
        flavour="\n".join(flavour) or None,
        body=_assemble_body(sections),
    )


def line_parts(lines: list[str]) -> Sections:
    """How the lines of a stratagem's text fall into its sections (``grammars/stratagem.lark``;
    the sectioner of ``rules_text``): a line per item, ``- `` at column 0. A text the grammar
    cannot read is one part outside every section, with the failure."""
    if not lines:
        return Sections()
    try:
        body = parse_body("\n".join(lines))
    except ParseFailure as failure:
        return Sections(parts=[(None, [(i, None) for i in range(len(lines))])], failure=failure)
    parts: list[tuple[str | None, list[tuple[int, str | None]]]] = []
    for label, line, numbered in body.parts:
        rest = " ".join(text for n, text in numbered if n == line)
        under: list[tuple[int, str | None]] = [(n - 1, None) for n, _ in numbered if n != line]
        parts.append((label.upper(), [(line - 1, rest), *under]))
    return Sections(parts=parts, repeated=list(body.repeated))


def body_of(shape: RulesText) -> StratagemBody:
    """A stratagem's fields from its text in the contract's shape (``rules_text``): each the
    text of its section."""
    return StratagemBody(
        when=shape.section_text("WHEN"),
        target=shape.section_text("TARGET"),
        effect=shape.section_text("EFFECT"),
        restrictions=shape.section_text("RESTRICTIONS"),
        trigger=shape.section_text("TRIGGER"),
        repeated=list(shape.repeated),
    )


def stratagem_fields(shape: RulesText) -> dict[str, Any]:
    """A stratagem's fields of rules text (``models.Stratagem``) from its shape: WHEN …
    RESTRICTIONS, its sections, modes and commentary."""
    body = body_of(shape)
    return {
        "when": body.when,
        "target": body.target,
        "effect": body.effect,
        "restrictions": body.restrictions,
        "sections": shape.sections,
        "modes": shape.modes,
        "commentary": shape.commentary,
    }


def whole_effect(shape: RulesText) -> RulesText:
    """A text the stratagem grammar cannot cut (or with no label at all): all of it its
    effect, one section, so that no rule text is lost."""
    section = RuleSection(label="EFFECT", text=shape.text, blocks=shape.blocks)
    return RulesText(
        text=shape.text, sections=[section], modes=shape.modes, commentary=shape.commentary
    )
