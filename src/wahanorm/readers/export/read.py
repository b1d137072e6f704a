"""A Wahapedia CSV data export (a folder of pipe-delimited tables) as entities of the contract.

``read_export`` reads every table of the folder once (a spreadsheet's re-save undone, a folder
of other tables refused) and builds, in this order: the abilities glossary, detachments,
detachment rules and enhancements (``rules``), stratagems (``stratagems``),
then datasheets (``datasheets``), which link to the ids of the others. Bad data never raises:
every table, column, row or field that cannot be read is a diagnostic with its file and line.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from wahanorm.readers.base import Entity, Part, Reading
from wahanorm.readers.export import datasheets, rules, stratagems
from wahanorm.readers.export.context import ExportContext

__all__ = ["read_export"]


def read_export(folder: Path, display: str, stage: Callable[[str], None] | None = None) -> Reading:
    """Every entity of the export in ``folder``, as one part: the export tells its edition as
    a whole, a datasheet beside it by its own link. ``display`` is the folder as shown in
    sources and diagnostics (sources read ``<display>/<table>.csv``); ``stage(name)`` is told
    each step, for a progress bar. A folder whose tables are not Wahapedia's gives no entity
    and one error."""
    step = stage or (lambda _name: None)
    reading = Reading(display)
    ctx = ExportContext(folder=folder, display=display, report=reading.report)
    step("reading tables")
    if not ctx.load():
        return reading
    step("rules and detachments")
    glossary, _ = rules.glossary(ctx)
    found_detachments = rules.detachments(ctx)
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
    sheets, own = datasheets.datasheets(ctx, links)
    entities: list[Entity] = [
        *sheets,
        *found_stratagems,
        *found_detachments,
        *detachment_rules,
        *enhancements,
    ]
    entities.extend(glossary)
    entities.extend(stratagems.abilities(ctx))
    reading.parts.append(Part(entities, ctx.edition_sign(), own))
    reading.data_version = data_version(ctx)
    return reading


def data_version(ctx: ExportContext) -> str | None:
    """The export's ``Last_update.csv`` date, as its data version."""
    for record in ctx.table("Last_update.csv"):
        value = ctx.text("Last_update.csv", record, "last_update")
        if value:
            return value
    return None
