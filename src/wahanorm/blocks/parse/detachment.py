"""A detachment rule's text read into its own text, its named sub-abilities and RESTRICTIONS.

The same text arrives from the dumps, the export and the saved pages, one item per line:

    … activate one of the following abilities until the end of the battle:
    - Enraged Abjuration [2BTP]                    a sub-ability heading, its cost in brackets,
    BLOOD LEGIONS … mortal wounds.                 then its text up to the next heading
    RESTRICTIONS                                   everything after it is the restrictions
    You can include the BLOOD LEGIONS units …

Labelled bullets (``- Unholy Hunger: When …``) stay in the text: the same shape also lists
army sizes (``- Incursion: Up to 500 pts``) and keywords (``- KHORNE: …``), not abilities.

The dumps glue a heading onto the end of the previous ability's text
(``… mortal wounds. - Daemonic Rage [3BTP]``); ``unglue_headings`` puts it back on its own line.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass, field

from wahanorm.contract.models import DetachmentAbility

_NAME = r"[A-Z][\w'’!,-]*(?: [\w'’!,-]+){0,7}"
_HEADING = re.compile(rf"^- (?P<name>{_NAME}) \[(?P<cost>[^\]\s]{{1,12}})\]$")
_GLUED_HEADING = re.compile(rf"^(?P<before>.*[.!?)])\s+(?P<heading>- {_NAME} \[[^\]\s]{{1,12}}\])$")
_RESTRICTIONS = "RESTRICTIONS"


@dataclass
class DetachmentText:
    """A detachment rule's text split: its own text, its sub-abilities, its restrictions."""

    text: str
    abilities: list[DetachmentAbility] = field(default_factory=list)
    restrictions: str | None = None


def unglue_headings(lines: list[str]) -> list[str]:
    """Each ``… sentence. - Name [COST]`` line as two lines."""
    out: list[str] = []
    for line in lines:
        match = _GLUED_HEADING.match(line)
        out.extend([match.group("before"), match.group("heading")] if match else [line])
    return out


def split_detachment_text(text: str) -> DetachmentText:
    """The rule's text without its sub-abilities and RESTRICTIONS, and those apart."""
    lines = unglue_headings(text.split("\n"))
    restrictions: str | None = None
    if _RESTRICTIONS in lines:
        at = lines.index(_RESTRICTIONS)
        restrictions = "\n".join(lines[at + 1 :]) or None
        lines = lines[:at]
    own, abilities = _abilities(lines)
    return DetachmentText("\n".join(own), abilities, restrictions)


def _abilities(lines: list[str]) -> tuple[list[str], list[DetachmentAbility]]:
    """Lines left as the rule's own text, and the sub-abilities: a heading followed by text, up
    to the next heading."""
    own: list[str] = []
    abilities: list[DetachmentAbility] = []
    index = 0
    while index < len(lines):
        heading = _HEADING.match(lines[index])
        if not heading or index + 1 >= len(lines) or lines[index + 1].startswith("- "):
            own.append(lines[index])
            index += 1
            continue
        end = index + 1
        while end < len(lines) and not _HEADING.match(lines[end]):
            end += 1
        abilities.append(
            DetachmentAbility(
                name=heading.group("name"),
                cost=heading.group("cost"),
                # an item's lines sit at its text's column in a nested text: the ability's
                # text starts at column 0, its own items two spaces further in
                text=textwrap.dedent("\n".join(lines[index + 1 : end])),
            )
        )
        index = end
    return own, abilities
