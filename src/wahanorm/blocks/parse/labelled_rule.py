"""Labelled rules of the 11th edition (moves, actions, shooting types) through
``grammars/labelled_rule.lark``: their sections (``ELIGIBLE IF``, ``EFFECT`` …), the numbered
rules they refer to (``(03.02)``), and rule numbers glued to names (``FIRING DECK24.14``)."""

from __future__ import annotations

import re

from lark import Token, Transformer, v_args

from wahanorm.blocks import grammar
from wahanorm.contract.models import RuleSection

_REFERENCE = re.compile(r"\((\d{2}(?:\.\d{2}){0,3})\)")
_NUMBERED_NAME = re.compile(r"^(?P<name>.*?[^\d\s.])\s*(?P<number>\d{2}(?:\.\d{2}){1,3})$")


class _ToSections(Transformer[Token, object]):
    """One method per rule: a section's text is the rest of its label's line and the lines
    under it."""

    @v_args(inline=True)
    def section(self, label: Token, *lines: Token) -> RuleSection:
        name = str(label).strip().removesuffix(":").strip()
        text = "\n".join(line.strip() for line in (str(x) for x in lines) if line.strip())
        return RuleSection(label=name, text=text)

    def labelled_rule(self, items: list[RuleSection | Token]) -> list[RuleSection]:
        # lines outside every section (an intro, a heading and its lines) stay in the text only
        return [item for item in items if isinstance(item, RuleSection)]


_TO_SECTIONS = _ToSections()


def rule_sections(text: str, path: str = "", line: int = 1) -> list[RuleSection]:
    """The labelled sections of a rule's text, in order; none for a text without labels. Every
    text parses (a line is a label or text), so this raises ``ParseFailure`` only on a grammar
    fault."""
    if not text.strip():
        return []
    tree = grammar.parse("labelled_rule", "labelled_rule", text, path, line)
    result = _TO_SECTIONS.transform(tree)  # type: ignore[arg-type]
    assert isinstance(result, list)
    return result


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
