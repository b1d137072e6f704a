"""A Wahapedia CSV data export (a folder of pipe-delimited tables) as entities of the contract.

``extract_export`` reads every table of the folder once and builds, in this order: the
abilities glossary, detachment rules and enhancements (``rules``), stratagems (``stratagems``),
then datasheets (``datasheets``), which link to the ids of the others. Bad data never raises:
every table, column, row or field that cannot be read is a diagnostic with its file and line.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from wahanorm.export import datasheets, rules, stratagems
from wahanorm.export.context import ExportContext
from wahanorm.extraction import Entity, Extraction

__all__ = ["extract_export"]


def extract_export(
    folder: Path, display: str, stage: Callable[[str], None] | None = None
) -> Extraction:
    """Every entity of the export in ``folder``; ``display`` is the folder as shown in sources
    and diagnostics (sources read ``<display>/<table>.csv``). ``stage(name)`` is told each step,
    for a progress bar."""
    step = stage or (lambda _name: None)
    extraction = Extraction(display)
    ctx = ExportContext(folder=folder, display=display, report=extraction.report)
    step("reading tables")
    ctx.load()
    step("rules and detachments")
    glossary, _ = rules.glossary(ctx)
    detachment_rules, rule_links = rules.detachment_rules(ctx)
    enhancements, enhancement_links = rules.enhancements(ctx)
    step("stratagems")
    found_stratagems, stratagem_links = stratagems.stratagems(ctx)
    links = datasheets.LinkMaps(
        stratagems=stratagem_links,
        enhancements=enhancement_links,
        detachment_rules=rule_links,
    )
    step("datasheets")
    sheets = datasheets.datasheets(ctx, links)
    entities: list[Entity] = [*sheets, *found_stratagems, *detachment_rules, *enhancements]
    entities.extend(glossary)
    entities.extend(stratagems.abilities(ctx))
    extraction.entities = entities
    extraction.data_version = data_version(ctx)
    return extraction


def data_version(ctx: ExportContext) -> str | None:
    """The export's ``Last_update.csv`` date, as its data version."""
    for record in ctx.table("Last_update.csv"):
        value = ctx.text("Last_update.csv", record, "last_update")
        if value:
            return value
    return None
