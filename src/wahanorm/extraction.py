"""What reading one input yields: entities and the diagnostics met on the way."""

from __future__ import annotations

from dataclasses import dataclass, field

from wahanorm.errors import Report
from wahanorm.models import Datasheet, DetachmentRule, Enhancement, Rule, Stratagem

Entity = Datasheet | Stratagem | DetachmentRule | Enhancement | Rule


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
