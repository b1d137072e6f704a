"""What every builder of an export needs: its tables, its report, clean text with positions.

``TABLES`` names each table of the export and the columns wahanorm knows in it (read or
deliberately left out); any other column is reported as unknown.
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from wahanorm.blocks import decode as decoding
from wahanorm.blocks.edition import as_edition, link_edition
from wahanorm.blocks.parse.numbers import game_int
from wahanorm.contract.models import Ability, SourceRef, Weapon
from wahanorm.contract.vocabulary import Edition
from wahanorm.errors import Report
from wahanorm.readers.base import EditionSign
from wahanorm.readers.export.markup import FieldLines, field_lines, field_parts, field_text, thawed
from wahanorm.readers.export.tables import (
    Record,
    Table,
    first_line,
    header_form,
    parse_table,
    read_text,
    undo_resave,
)

TABLES: dict[str, tuple[str, ...]] = {
    "Factions.csv": ("id", "name", "link"),
    "Source.csv": ("id", "name", "type", "edition", "version", "errata_date", "errata_link"),
    "Last_update.csv": ("last_update",),
    "Datasheets.csv": (
        "id", "name", "faction_id", "source_id", "legend", "role", "loadout", "transport",
        "virtual", "is_support", "leader_head", "leader_footer", "damaged_w",
        "damaged_description", "link",
    ),
    "Datasheets_abilities.csv": (
        "datasheet_id", "line", "ability_id", "model", "name", "description", "type", "parameter",
    ),
    "Datasheets_keywords.csv": ("datasheet_id", "keyword", "model", "is_faction_keyword"),
    "Datasheets_models.csv": (
        "datasheet_id", "line", "name", "M", "T", "Sv", "inv_sv", "inv_sv_descr", "W", "Ld",
        "OC", "base_size", "base_size_descr",
    ),
    "Datasheets_options.csv": ("datasheet_id", "line", "button", "description"),
    "Datasheets_wargear.csv": (
        "datasheet_id", "line", "line_in_wargear", "dice", "name", "description", "range",
        "type", "A", "BS_WS", "S", "AP", "D",
    ),
    "Datasheets_unit_composition.csv": ("datasheet_id", "line", "description"),
    "Datasheets_models_cost.csv": ("datasheet_id", "line", "description", "cost"),
    "Datasheets_stratagems.csv": ("datasheet_id", "stratagem_id"),
    "Datasheets_enhancements.csv": ("datasheet_id", "enhancement_id"),
    "Datasheets_detachment_abilities.csv": ("datasheet_id", "detachment_ability_id"),
    "Datasheets_leader.csv": ("leader_id", "attached_id"),
    "Stratagems.csv": (
        "faction_id", "name", "id", "type", "cp_cost", "legend", "turn", "phase", "detachment",
        "detachment_id", "description",
    ),
    "Abilities.csv": ("id", "name", "legend", "faction_id", "description"),
    "Enhancements.csv": (
        "faction_id", "id", "name", "cost", "detachment", "detachment_id", "upgrade", "legend",
        "description", "support_leader",
    ),
    "Detachment_abilities.csv": (
        "id", "faction_id", "name", "legend", "description", "detachment", "detachment_id",
    ),
    "Detachments.csv": ("id", "faction_id", "name", "legend", "type", "dp", "force_disposition"),
}  # fmt: skip

# Columns only 11th-edition exports have: a 10th-edition export lacks them without a warning.
ELEVENTH_ONLY = frozenset(
    {
        ("Datasheets.csv", "is_support"),
        ("Enhancements.csv", "upgrade"),
        ("Enhancements.csv", "support_leader"),
        ("Detachments.csv", "dp"),
        ("Detachments.csv", "force_disposition"),
    }
)

# Tables an export is not complete without; the others may be absent from a partial export.
REQUIRED = frozenset({"Factions.csv", "Datasheets.csv", "Stratagems.csv"})


@dataclass
class ExportContext:
    """The tables of one export folder, its report and the lookups the builders share."""

    folder: Path
    display: str
    report: Report
    tables: dict[str, Table] = field(default_factory=dict)
    factions: dict[str, str] = field(default_factory=dict)
    detachments: dict[str, str] = field(default_factory=dict)
    glossary_names: dict[str, str] = field(default_factory=dict)
    books: dict[str, str] = field(default_factory=dict)
    """Source.csv: the name of each source book, by its row id."""
    repeated_costs: int = 0
    """Cost lines left out because they repeat a line of the same table exactly."""
    told: Edition | None = None
    """The edition the export tells: its links' (``/wh40k11ed/``), else its Source.csv's
    newest; None when it tells none."""
    _links_told: bool = False
    refused: set[str] = field(default_factory=set)
    """The tables the folder holds that were refused unread (``tables.read_text``)."""
    source_editions: dict[str, Edition] = field(default_factory=dict)
    """Source.csv: the edition of each source book, by lower-case name."""
    _texts: dict[str, str] = field(default_factory=lambda: {"": ""}, repr=False)
    """``text``'s memo: the clean text of each raw value whose reading noted nothing (the export
    repeats a value on hundreds of rows; a dict look-up is cheaper than the cached call chain);
    a value with notes takes ``field_text``'s cache, its notes said at each row."""
    quiet_weapons: dict[tuple[str, ...], Weapon] = field(default_factory=dict, repr=False)
    """The weapons read without a diagnostic, by their wargear cells (``datasheets._weapons``)."""
    quiet_abilities: dict[tuple[str, ...], tuple[str, Ability]] = field(
        default_factory=dict, repr=False
    )
    """The abilities read without a diagnostic, with their group, by their cells
    (``datasheets._abilities``)."""
    quiet_keywords: dict[tuple[str, ...], tuple[str, bool, str]] = field(
        default_factory=dict, repr=False
    )
    """The keyword rows read without a diagnostic, by their cells (``datasheets._keywords``)."""

    def load(self) -> bool:
        """Read every table and the faction and detachment names. False (and one error) when
        the folder is not a Wahapedia export: a table whose header is not the export's."""
        texts = self._read_texts()
        if texts is None:
            return False
        for name, columns in TABLES.items():
            path = self.path(name)
            text = texts.get(name)
            if text is not None:
                optional = frozenset(c for t, c in ELEVENTH_ONLY if t == name)
                self.tables[name] = parse_table(text, name, path, columns, self.report, optional)
            elif name in self.refused:  # said where it was refused
                self.tables[name] = Table(name=name, path=path)
            elif name in REQUIRED:
                self.report.warning("missing-table", f"the export has no {name}", path=path)
                self.tables[name] = Table(name=name, path=path)
            else:
                self.report.info(
                    "optional-table-missing",
                    f"the export has no {name}; what it holds is left out",
                    path=path,
                )
                self.tables[name] = Table(name=name, path=path)
        self._names()
        self._editions()
        return True

    def _read_texts(self) -> dict[str, str] | None:
        """The text of every table, a spreadsheet's re-save undone; None when a header is not
        Wahapedia's (reported once)."""
        texts: dict[str, str] = {}
        resaved: list[str] = []
        budget = decoding.MAX_INPUT_BYTES  # the tables together are one input
        for name, columns in TABLES.items():
            text = read_text(self.folder, name, self.path(name), self.report, budget)
            if text is None:
                if os.path.lexists(self.folder / name):
                    self.refused.add(name)
                continue
            budget = max(0, budget - (self.folder / name).lstat().st_size)  # as read
            form = header_form(text, columns)
            if form == "resaved":
                undone = undo_resave(text)
                if undone is None:
                    form = "foreign"
                else:
                    resaved.append(name)
                    text = undone
            if form == "foreign":
                first = first_line(text)
                self.report.error(
                    "not-an-export",
                    f"{name}'s header is not a Wahapedia export's (column names each followed "
                    "by '|'); the folder is not read",
                    line=1,
                    path=self.path(name),
                    excerpt=first[:200],
                )
                return None
            texts[name] = text
        if resaved:
            self.report.warning(
                "resaved-export",
                f"{len(resaved)} of {len(texts)} tables were re-saved by a spreadsheet (each "
                "line split at commas and joined with '|', fields holding '|' or '\"' quoted); "
                "undone exactly, line by line",
                path=self.display,
            )
        return texts

    def _names(self) -> None:
        for record in self.table("Factions.csv"):
            self.factions[record.get("id")] = self.text("Factions.csv", record, "name")
        for record in self.table("Detachments.csv"):
            self.detachments[record.get("id")] = self.text("Detachments.csv", record, "name")
        for record in self.table("Abilities.csv"):
            self.glossary_names[record.get("id")] = self.text("Abilities.csv", record, "name")
        for record in self.table("Source.csv"):
            self.books[record.get("id")] = self.text("Source.csv", record, "name")

    def _editions(self) -> None:
        """The export's edition, and each source book's."""
        for record in self.table("Source.csv"):
            edition = _int_edition(record.get("edition"))
            if edition is not None:
                self.source_editions[self.text("Source.csv", record, "name").lower()] = edition
        links: Counter[Edition] = Counter()
        for table in ("Factions.csv", "Datasheets.csv"):
            for record in self.table(table):
                if (found := link_edition(record.get("link"))) is not None:
                    links[found] += 1
        books = max(self.source_editions.values(), default=None)
        self.told = links.most_common(1)[0][0] if links else books
        self._links_told = bool(links)
        if links and books is not None and books != self.told:
            self.report.warning(
                "edition-inconsistent",
                f"the export's links say {self.told}th edition, its Source.csv's newest book "
                f"{books}th; read as {self.told}th",
                path=self.display,
            )

    def edition_sign(self) -> EditionSign:
        """What the export tells of its edition, for the after-read chain to settle."""
        sign = "its links" if self._links_told else "Source.csv"
        return EditionSign(
            self.told,
            f"{sign} say",
            "nothing in the export tells its edition (no wahapedia link, no edition in Source.csv)",
            path=self.display,
        )

    def table(self, name: str) -> Table:
        """A table by file name (empty when the export lacks it)."""
        return self.tables.get(name) or Table(name=name, path=f"{self.display}/{name}")

    def path(self, table: str) -> str:
        """The display path of a table: ``<export>/<table>``."""
        return f"{self.display}/{table}"

    def source(self, table: str, record: Record) -> SourceRef:
        """Where ``record`` was read."""
        return SourceRef(
            path=self.path(table), line_start=record.line_start, line_end=record.line_end
        )

    def text(self, table: str, record: Record, column: str) -> str:
        """The clean text of a field; what had to be repaired is reported at its line."""
        at = record[1].get(column)  # ``positions`` and ``cells`` by index: the hottest call
        if at is None:
            return ""
        raw = record[0][at]
        quiet = self._texts.get(raw)
        if quiet is not None:
            return quiet
        text, notes = field_text(raw)
        if notes:
            for note in notes:
                self._note(table, record, column, note)
        else:
            self._texts[raw] = text
        return text

    def rule_text(
        self, table: str, record: Record, column: str
    ) -> tuple[str, list[list[list[str]]]]:
        """A rule's clean text without its tables, and its tables as rows of cells; a table
        whose rows are gone is reported at the field's line."""
        text, tables, notes = field_parts(record.get(column))
        for note in notes:
            self._note(table, record, column, note)
        return text, thawed(tables)

    def rules_lines(
        self, table: str, record: Record, column: str, tables: bool = False
    ) -> FieldLines:
        """A rules field as lines for ``blocks.rules_text``, its commentary boxes apart (and,
        with ``tables``, its tables of rows out of the lines); what had to be repaired is
        reported at its line."""
        read = field_lines(record.get(column), with_tables=tables, with_commentary=True)
        for note in read.notes:
            self._note(table, record, column, note)
        return read

    def optional(self, table: str, record: Record, column: str) -> str | None:
        """The clean text of a field, or None when it is empty."""
        return self.text(table, record, column) or None

    def faction_name(self, table: str, record: Record, faction_id: str) -> str | None:
        """The name of a faction id, reporting an id that Factions.csv does not hold."""
        if not faction_id:
            return None
        name = self.factions.get(faction_id)
        if name is None:
            self.report.warning(
                "unknown-faction",
                f"faction id {faction_id!r} is not in Factions.csv; the id is used as its name",
                line=record.line_start,
                path=self.path(table),
            )
            return faction_id
        return name

    def _note(self, table: str, record: Record, column: str, note: str) -> None:
        line, path = record.line_start, self.path(table)
        if note == "escaped-markup":
            self.report.warning(
                "escaped-markup",
                f"column {column!r} holds HTML escaped twice; read as text",
                line=line,
                path=path,
            )
        elif note.startswith("table-missing:"):
            announced = note.split(":", 1)[1]
            self.report.warning(
                "table-missing",
                f"column {column!r} announces a table ({announced[-60:]!r}) whose rows are "
                "not in the field",
                line=line,
                path=path,
            )
        elif note == "table-empty":
            self.report.warning(
                "table-missing",
                f"column {column!r} holds a table without a row of text; its rows are gone",
                line=line,
                path=path,
            )
        elif note == "table-partial":
            self.report.warning(
                "table-partial",
                f"column {column!r}: cells of a table lost their values; kept as printed",
                line=line,
                path=path,
            )
        elif note.startswith("broken-caps:"):
            word = note.split(":", 1)[1]
            self.report.info(
                "broken-caps",
                f"column {column!r}: keyword {word!r} printed in mixed case; read as "
                f"{word.upper()!r}",
                line=line,
                path=path,
            )


def _int_edition(text: str) -> Edition | None:
    value = text.strip()
    number = game_int(value) if value.isdigit() else None
    return as_edition(number) if number is not None else None
