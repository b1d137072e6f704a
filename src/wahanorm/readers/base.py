"""What reading one input yields: entities and the diagnostics met on the way."""

from __future__ import annotations

from dataclasses import dataclass, field

from wahanorm.blocks.edition import Edition, own_edition
from wahanorm.contract.models import (
    Datasheet,
    Detachment,
    DetachmentRule,
    Enhancement,
    Rule,
    Stratagem,
)
from wahanorm.errors import Report

Entity = Datasheet | Stratagem | DetachmentRule | Enhancement | Detachment | Rule


@dataclass
class Extraction:
    """The entities read from one input (a dump, a page, an export folder) and its report."""

    path: str
    entities: list[Entity] = field(default_factory=list)
    report: Report = field(default_factory=Report)
    data_version: str | None = None

    def __post_init__(self) -> None:
        if not self.report.path:
            self.report.path = self.path


def with_edition(entity: Entity, page: Edition) -> Entity:
    """``entity`` with its edition: its own heading's (a numbered rule, a core stratagem's
    form), else its page's."""
    edition = own_edition(
        entity.kind,
        getattr(entity, "rule_number", None),
        getattr(entity, "source", None),
        getattr(entity, "category", None),
    )
    edition = page if edition is None else edition
    return entity if entity.edition == edition else entity.model_copy(update={"edition": edition})
