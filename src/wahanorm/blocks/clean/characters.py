"""One spelling per character.

``normalize_characters``: NFC; hyphens (U+2010, U+2011, U+2012, minus U+2212) → ``-``;
typographic quotes → ASCII; non-breaking and thin spaces → space; zero-width characters
dropped; a bullet opening a line (``•``, ``■`` …) → ``- ``; surrounding white space trimmed. The en dash ``–`` stays: it
separates faction from unit and weapon from profile (``Axe of Khorne – strike``).
"""

from __future__ import annotations

import re
import unicodedata

from wahanorm.blocks.clean.lines import Line
from wahanorm.errors import Report

# One spelling per character. (A chain of str.replace, each skipped when its character is
# absent, is fifty times faster here than str.translate with a table.)
_SPELLING: tuple[tuple[str, str], ...] = (
    ("\u2010", "-"),
    ("\u2011", "-"),
    ("\u2012", "-"),
    ("\u2212", "-"),
    ("\u2018", "'"),
    ("\u2019", "'"),
    ("\u201a", "'"),
    ("\u201b", "'"),
    ("\u2032", "'"),
    ("\u201c", '"'),
    ("\u201d", '"'),
    ("\u201e", '"'),
    ("\u2033", '"'),
    ("\u00a0", " "),
    ("\u2007", " "),
    ("\u2009", " "),
    ("\u202f", " "),
    ("\t", " "),
    ("\u200b", ""),
    ("\u200c", ""),
    ("\u200d", ""),
    ("\ufeff", ""),
)
_BULLET_CHARS = frozenset("•●▪■◦·")
_BULLET = re.compile(r"^[•●▪■◦·]\s*")
_SPACES = re.compile(r" {2,}")


def normalize_text(text: str) -> str:
    """The clean spelling of one piece of text (also used by the HTML and export readers)."""
    if text.isascii():  # of the characters respelt, an ASCII text can hold only the tab
        if "\t" in text:
            text = text.replace("\t", " ")
    else:
        text = unicodedata.normalize("NFC", text)
        for char, spelling in _SPELLING:
            if char in text:
                text = text.replace(char, spelling)
    if "  " in text:
        text = _SPACES.sub(" ", text)
    return text.strip()


def dash_bullet(text: str) -> str:
    """A line (in the clean spelling) that opens with a bullet as a ``- `` list item."""
    if text[:1] in _BULLET_CHARS:
        return _BULLET.sub("- ", text).rstrip()
    return text


def normalize_characters(lines: list[Line], report: Report) -> list[Line]:
    """Every line in the clean spelling, bullets as ``- ``."""
    out = []
    for line in lines:
        text = line.text
        if text.isascii() and "\t" not in text and "  " not in text:
            text = text.strip()  # all that ``normalize_text`` does here; no bullet is ASCII
        else:
            text = dash_bullet(normalize_text(text))
        out.append(line if text == line.text else Line(line.number, text))
    return out


def drop_blank_lines(lines: list[Line], report: Report) -> list[Line]:
    """Blank lines carry nothing; line numbers keep the place of what remains."""
    return [line for line in lines if line.text]
