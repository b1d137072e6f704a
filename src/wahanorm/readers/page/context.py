"""What every part of the page reader shares while it reads one page: who reads it, and what it
left out on purpose (for the one note that names it)."""

from __future__ import annotations

from dataclasses import dataclass, field

from wahanorm.blocks.html_tables import TableRows, is_partial
from wahanorm.errors import Report


@dataclass
class TooltipContext:
    """Who reads the page's rules: the page's faction (namespace of faction rules), its display
    path and its report; and the FAQ and errata boxes left out of the rules text read so far
    (by their place in the document, so that a box met twice counts once)."""

    faction: str
    display: str
    report: Report
    faq_left_out: dict[str, tuple[str, int, int]] = field(default_factory=dict)
    """Path of each FAQ or errata box left out → its class among ``cards.FAQ_BOXES``, and how
    many questions and errata it holds."""


def report_tables(what: str, tables: list[TableRows], report: Report, line: int | None) -> None:
    """A warning for each table of a rule whose rows (``table-missing``) or values
    (``table-partial``: ``2+`` printed as a die image and ``+``) are gone."""
    for table in tables:
        if not table:
            report.warning("table-missing", f"{what} holds a table without a row of text", line)
        elif is_partial(table):
            report.warning(
                "table-partial",
                f"{what}: cells of a table lost their values (a die image); kept as printed",
                line,
            )
