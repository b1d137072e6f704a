"""Labelled rules of the 11th edition (moves, actions, shooting types) through
``grammars/labelled_rule.lark``: their sections (``ELIGIBLE IF``, ``EFFECT`` …), the numbered
rules they refer to (``(03.02)``), and rule numbers glued to names (``FIRING DECK24.14``)."""

from __future__ import annotations

import functools
import re
from typing import Any

from lark import Token, Transformer, v_args

from wahanorm.blocks import grammar
from wahanorm.blocks.html_text import TextLine
from wahanorm.blocks.rules_text import RulesText, Sections, build, dump_lines
from wahanorm.contract.models import RuleSection

_REFERENCE = re.compile(r"\((\d{2}(?:\.\d{2}){0,3})\)")
_NUMBERED_NAME = re.compile(r"^(?P<name>.*?[^\d\s.])\s*(?P<number>\d{2}(?:\.\d{2}){1,3})$")


def rule_sections(text: str, path: str = "", line: int = 1) -> list[RuleSection]:
    """The labelled sections of a rule's text, in order; none for a text without labels. Every
    text parses (a line is a label or text), so this raises ``ParseFailure`` only on a grammar
    fault. (Readers build the whole shape with ``rules_text``; this reads a text alone.)"""
    if not text.strip():
        return []
    return build(dump_lines(text.split("\n")), line_parts).sections


Position = tuple[int, "str | None"]


class _ToParts(Transformer[Token, object]):
    """The parse as parts of line positions: a section is its label's line (with the rest of
    that line) and the lines under it; lines outside sections are parts without a label, a
    heading opening a part of its own."""

    @v_args(inline=True)
    def section(self, label: Token, *lines: Token) -> tuple[str, list[Position]]:
        name = str(label).strip().removesuffix(":").strip()
        rest = " ".join(str(x).strip() for x in lines if x.line == label.line)
        under = [((x.line or 1) - 1, None) for x in lines if x.line != label.line]
        return name, [((label.line or 1) - 1, rest), *under]

    def labelled_rule(self, items: list[object]) -> Sections:
        parts: list[tuple[str | None, list[Position]]] = []
        for item in items:
            if isinstance(item, tuple):
                parts.append(item)
            elif isinstance(item, Token):
                if item.type == "HEADING" or not parts or parts[-1][0] is not None:
                    parts.append((None, []))
                parts[-1][1].append(((item.line or 1) - 1, None))
        return Sections(parts=parts)


_TO_PARTS = _ToParts()


@functools.cache
def _terminals() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The grammar's LABEL and HEADING terminals (taken from the grammar, so that the rule
    stays written once; from its parser without a transformer, which Lark's cache keeps
    analysed between processes)."""
    terminals = grammar.parser("labelled_rule", "labelled_rule").terminals
    found = {t.name: re.compile(t.pattern.to_regexp()) for t in terminals}
    return found["LABEL"], found["HEADING"]


def line_parts(lines: list[str]) -> Sections:
    """How the lines of a rule fall into its labelled sections (``grammars/labelled_rule.lark``;
    the sectioner of ``rules_text``): a line per item, ``- `` at column 0. Every text parses
    (a line is a label or text).

    The grammar's reading, line by line without Lark (a test holds the two ways equal on every
    rule of the corpora): LABEL and HEADING open a line (they outrank TEXT, and their ``^``
    holds only there) and never cross its end; a label's line goes on as one TEXT; a line that
    is neither is one TEXT, an empty line no token. A section holds the TEXT after its label;
    a heading opens a part outside every section, as the text before the first label is one."""
    label_at, heading_at = _terminals()
    parts: list[tuple[str | None, list[Position]]] = []
    for index, line in enumerate("\n".join(lines).split("\n")):
        if not line:
            continue
        if label := label_at.match(line):
            name = label.group().strip().removesuffix(":").strip()
            parts.append((name, [(index, line[label.end() :].strip())]))
        elif heading_at.match(line):
            parts.append((None, [(index, None)]))
        elif parts:
            parts[-1][1].append((index, None))
        else:
            parts.append((None, [(index, None)]))
    return Sections(parts=parts)


def rule_references(text: str) -> list[str]:
    """The numbered rules a text refers to in brackets, each once, in order:
    ``… Set Up (03.02) … Moving (03)`` → [``03.02``, ``03``]."""
    return list(dict.fromkeys(_REFERENCE.findall(text)))


def split_rule_number(heading: str) -> tuple[str, str | None]:
    """``FIRING DECK24.14`` → (``FIRING DECK``, ``24.14``); a heading without a number as it is."""
    match = _NUMBERED_NAME.match(heading.strip())
    if not match:
        return heading.strip(), None
    return match.group("name").strip(), match.group("number")


_GLUED_HEADING = re.compile(
    r"^(?P<name>[A-Z][A-Z0-9'’/ -]*[A-Z])(?P<number>\d{2}(?:\.\d{2}){1,3})$", re.MULTILINE
)


def unglue_numbered_headings(text: str) -> str:
    """A rule nested in another's text keeps its heading and number glued as the site prints
    them (``SCOUT MOVE24.32``): they are split by a space (``SCOUT MOVE 24.32``)."""
    return _GLUED_HEADING.sub(r"\g<name> \g<number>", text)


def numbered_heading(name: str, text: str) -> tuple[str | None, str]:
    """11th-edition rule texts open with the rule's heading and number (``FIRING DECK24.14``):
    (the number, the text without that line, which only repeats the name); a text that does not
    open so → (None, the text)."""
    first, _, rest = text.partition("\n")
    heading, number = split_rule_number(first)
    if number is None or heading.casefold() != name.casefold():
        return None, text
    return number, rest.strip()


def numbered_heading_lines(name: str, lines: list[TextLine]) -> tuple[str | None, list[TextLine]]:
    """``numbered_heading`` on lines: (the number, the lines without the heading's line)."""
    if not lines or lines[0].item or lines[0].depth:
        return None, lines
    number, _ = numbered_heading(name, lines[0].text)
    return (number, lines[1:]) if number is not None else (None, lines)


def unglued_lines(lines: list[TextLine]) -> list[TextLine]:
    """``unglue_numbered_headings`` on each line of text."""
    out: list[TextLine] = []
    for line in lines:
        text = unglue_numbered_headings(line.text)
        out.append(line._replace(text=text) if text != line.text else line)
    return out


def rule_fields(shape: RulesText) -> dict[str, Any]:
    """A rule's fields of rules text (``models.Rule``) from its shape: its text, sections,
    blocks, modes, commentary, and the numbered rules the text (its commentary included)
    refers to."""
    said = "\n".join([shape.text, *(c.text for c in shape.commentary)])
    return {
        "text": shape.text,
        "sections": shape.sections,
        "blocks": shape.blocks,
        "modes": shape.modes,
        "commentary": shape.commentary,
        "references": rule_references(said),
    }
