"""A Wahapedia CSV data export (a folder of pipe-delimited tables) as entities of the contract.

``extract_export`` reads every table of the folder once (a spreadsheet's re-save undone, a folder
of other tables refused) and builds, in this order: the abilities glossary, detachments,
detachment rules and enhancements (``rules``), stratagems (``stratagems``),
then datasheets (``datasheets``), which link to the ids of the others. Bad data never raises:
every table, column, row or field that cannot be read is a diagnostic with its file and line.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from wahanorm.blocks.edition import Edition
from wahanorm.readers.base import Entity, Extraction
from wahanorm.readers.export import datasheets, rules, stratagems
from wahanorm.readers.export.context import ExportContext

__all__ = ["extract_export"]


def extract_export(
    folder: Path,
    display: str,
    stage: Callable[[str], None] | None = None,
    edition: Edition | None = None,
) -> Extraction:
    """Every entity of the export in ``folder``; ``display`` is the folder as shown in sources
    and diagnostics (sources read ``<display>/<table>.csv``). ``stage(name)`` is told each step,
    for a progress bar; ``edition`` is the user's word for an export that does not tell its own.
    A folder whose tables are not Wahapedia's gives no entity and one error."""
    step = stage or (lambda _name: None)
    extraction = Extraction(display)
    ctx = ExportContext(folder=folder, display=display, report=extraction.report, said=edition)
    step("reading tables")
    if not ctx.load():
        return extraction
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
    sheets = datasheets.datasheets(ctx, links)
    entities: list[Entity] = [
        *sheets,
        *found_stratagems,
        *found_detachments,
        *detachment_rules,
        *enhancements,
    ]
    entities.extend(glossary)
    entities.extend(stratagems.abilities(ctx))
    _check_link_editions(ctx, entities)
    extraction.entities = entities
    extraction.data_version = data_version(ctx)
    return extraction


def _check_link_editions(ctx: ExportContext, entities: list[Entity]) -> None:
    """A datasheet lists the versions of its own edition; one that lists an entity the export
    holds only in the other edition is reported (the link is kept)."""
    held = {(e.edition, e.kind, e.id) for e in entities}
    for sheet in entities:
        if sheet.kind != "datasheet":
            continue
        for kind, ids in (
            ("stratagem", sheet.stratagems),
            ("enhancement", sheet.enhancements),
            ("detachment_rule", sheet.detachment_rules),
        ):
            for entity_id in ids:
                other = 21 - sheet.edition  # 10 ↔ 11
                if (sheet.edition, kind, entity_id) not in held and (
                    other,
                    kind,
                    entity_id,
                ) in held:
                    ctx.report.warning(
                        "edition-link",
                        f"datasheet {sheet.id} ({sheet.edition}th edition) lists {kind} "
                        f"{entity_id}, which the export holds only in {other}th edition",
                        line=sheet.sources[0].line_start if sheet.sources else None,
                        path=ctx.path("Datasheets.csv"),
                    )


def data_version(ctx: ExportContext) -> str | None:
    """The export's ``Last_update.csv`` date, as its data version."""
    for record in ctx.table("Last_update.csv"):
        value = ctx.text("Last_update.csv", record, "last_update")
        if value:
            return value
    return None
