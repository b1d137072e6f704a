"""Repair of mojibake: UTF-8 text that was once decoded as CP-1252 or Latin-1 (``Itâ€™s`` for
``It's``), with ftfy, line by line. Runs first, before the spelling pass changes the quotes that
the damage is made of."""

from __future__ import annotations

import re
from typing import Any

from wahanorm.blocks.clean.lines import Line
from wahanorm.errors import Report

# Characters that UTF-8 bytes turn into when read as CP-1252: a cheap test before ftfy's own.
_SUSPECT = re.compile("[ÂÃâ€]")


def _ftfy() -> Any:
    """ftfy, imported on the first suspect line: most inputs never need it."""
    import ftfy
    import ftfy.badness

    return ftfy


def repair_mojibake(lines: list[Line], report: Report) -> list[Line]:
    """Lines that ftfy finds damaged are re-decoded; each repair is reported."""
    out: list[Line] = []
    for line in lines:
        text = line.text
        if not text.isascii() and _SUSPECT.search(text) and _ftfy().badness.is_bad(text):
            fixed = _ftfy().fix_encoding(text)
            if fixed != text:
                report.warning(
                    "mojibake-repaired", f"mis-decoded text repaired: {fixed[:60]!r}", line.number
                )
                line = Line(line.number, fixed)
        out.append(line)
    return out
