"""BSData's markup in rules text, as the plain text Wahapedia prints for the same rule.

BSData writes keywords as ``**^^Orks Infantry^^**`` (bold and small caps), weapon abilities as
``**[LETHAL HITS]**``, other emphasis as ``**selected to shoot**``, and list items as ``- …``
or ``■ …``. Wahapedia prints a keyword in capitals (``ORKS INFANTRY``), the brackets as they are,
no emphasis, and list items as ``- …``: so ``^^…^^`` becomes upper case, ``**`` and ``*`` around
words go, ``■`` items become ``- `` items, blank lines go, and every line takes the clean stage's
spelling (``normalize_text``: NFC, ASCII quotes, plain spaces; ``dash_bullet``), as every
reader does.
"""

from __future__ import annotations

import functools
import re

from wahanorm.blocks.clean.characters import dash_bullet, normalize_text

_SMALL_CAPS = re.compile(r"\^\^(.+?)\^\^", re.DOTALL)
_BOLD = re.compile(r"\*\*(.+?)\*\*", re.DOTALL)
_ITALIC = re.compile(r"(?<![\w*])\*(?=\S)([^*\n]+?)(?<=\S)\*(?![\w*])")


@functools.lru_cache(maxsize=16384)
def clean_text(raw: str) -> str:
    """``raw`` (a description, a characteristic) as plain text: keywords in capitals, no
    emphasis markers, one line per paragraph or list item, the clean spelling."""
    text = _SMALL_CAPS.sub(lambda m: m.group(1).upper(), raw.replace("\r\n", "\n"))
    text = _BOLD.sub(r"\1", text)
    text = _ITALIC.sub(r"\1", text)
    lines = (dash_bullet(normalize_text(line)) for line in text.split("\n"))
    return "\n".join(line for line in lines if line)


@functools.lru_cache(maxsize=65536)
def clean_name(raw: str) -> str:
    """A name (an entry's, a profile's) in the clean spelling, one line, no markup (names repeat
    across units: each is cleaned once)."""
    return " ".join(clean_text(raw).split())


_TAG = re.compile(r"\s*\[[^\]]*\]\s*$")


def untagged(name: str) -> str:
    """A unit's name without the tag BSData appends to it (``Boss Zagstruk [Legends]``)."""
    return _TAG.sub("", name) or name
