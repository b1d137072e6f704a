"""What every builder of an export needs: its tables, its report, clean text with positions.

``TABLES`` names each table of the export and the columns wahanorm knows in it (read or
deliberately left out); any other column is reported as unknown.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from wahanorm.errors import Report
from wahanorm.export.markup import field_text
from wahanorm.export.tables import Record, Table, read_table
from wahanorm.models import SourceRef

TABLES: dict[str, tuple[str, ...]] = {
    "Factions.csv": ("id", "name", "link"),
    "Source.csv": ("id", "name", "type", "edition", "version", "errata_date", "errata_link"),
    "Last_update.csv": ("last_update",),
    "Datasheets.csv": (
        "id", "name", "faction_id", "source_id", "legend", "role", "loadout", "transport",
        "virtual", "leader_head", "leader_footer", "damaged_w", "damaged_description", "link",
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
        "faction_id", "id", "name", "cost", "detachment", "detachment_id", "legend",
        "description",
    ),
    "Detachment_abilities.csv": (
        "id", "faction_id", "name", "legend", "description", "detachment", "detachment_id",
    ),
    "Detachments.csv": ("id", "faction_id", "name", "legend", "type"),
}  # fmt: skip

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
    unknown_abilities: set[str] = field(default_factory=set)
    """Weapon abilities the grammar does not know, already reported (each once per export)."""

    def load(self) -> None:
        """Read every table and the faction and detachment names."""
        for name, columns in TABLES.items():
            present = (self.folder / name).is_file()
            if present or name in REQUIRED:
                self.tables[name] = read_table(
                    self.folder, name, self.display, columns, self.report
                )
            else:
                self.report.info(
                    "missing-table",
                    f"the export has no {name}; what it holds is left out",
                    path=f"{self.display}/{name}",
                )
                self.tables[name] = Table(name=name, path=f"{self.display}/{name}")
        for record in self.table("Factions.csv"):
            self.factions[record.get("id")] = self.text("Factions.csv", record, "name")
        for record in self.table("Detachments.csv"):
            self.detachments[record.get("id")] = self.text("Detachments.csv", record, "name")
        for record in self.table("Abilities.csv"):
            self.glossary_names[record.get("id")] = self.text("Abilities.csv", record, "name")

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
        text, notes = field_text(record.get(column))
        for note in notes:
            self._note(table, record, column, note)
        return text

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
        elif note.startswith("broken-caps:"):
            word = note.split(":", 1)[1]
            self.report.info(
                "broken-caps",
                f"column {column!r}: keyword {word!r} printed in mixed case; read as "
                f"{word.upper()!r}",
                line=line,
                path=path,
            )
