"""Which faction an entity is listed under in a review.

Datasheets and enhancements name their faction. Stratagems and detachment rules do not: they
take the faction of the datasheets that list them, or of the other entities of their
detachment; Core and Boarding Actions rules are their own group.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from typing import Any

Entity = dict[str, Any]

CORE_GROUP = "Core rules"

_REFERENCE_FIELDS = ("stratagems", "detachment_rules", "enhancements")


class Grouper:
    """Names the group of each entity, learning faction links from every entity it is given."""

    def __init__(self, entities: Iterable[Entity]) -> None:
        by_id: dict[str, Counter[str]] = defaultdict(Counter)
        by_detachment: dict[str, Counter[str]] = defaultdict(Counter)
        listed: list[Entity] = []
        for e in entities:
            faction = e.get("faction")
            if e.get("kind") == "datasheet" and isinstance(faction, str):
                for field in _REFERENCE_FIELDS:
                    for ref in e.get(field) or []:
                        by_id[str(ref)][faction] += 1
            if e.get("kind") in ("stratagem", "detachment_rule", "enhancement"):
                listed.append(e)
        for e in listed:
            faction = e.get("faction") or _most(by_id.get(str(e.get("id"))))
            if faction and _detachment(e):
                by_detachment[_detachment(e)][str(faction)] += 1
        self._by_id = {k: _most(v) for k, v in by_id.items()}
        self._by_detachment = {k: _most(v) for k, v in by_detachment.items()}

    def group(self, entity: Entity) -> str:
        """The faction (or ``Core rules``, or the detachment when no faction is known)."""
        kind = entity.get("kind")
        if kind == "rule":
            return CORE_GROUP
        faction = entity.get("faction") if kind != "stratagem" else None
        if isinstance(faction, str) and faction:
            return faction
        if kind == "stratagem" and entity.get("source") in ("Core", "Boarding Actions"):
            return CORE_GROUP if entity["source"] == "Core" else "Boarding Actions"
        known = self._by_id.get(str(entity.get("id"))) or self._by_detachment.get(
            _detachment(entity)
        )
        return known or _detachment(entity) or _namespace(entity)


def _detachment(e: Entity) -> str:
    value = e.get("detachment") or (e.get("source") if e.get("kind") == "stratagem" else None)
    return str(value) if value else ""


def _namespace(e: Entity) -> str:
    return str(e.get("id", "")).split("/", 1)[0].replace("-", " ").title() or "Other"


def _most(counts: Counter[str] | None) -> str:
    if not counts:
        return ""
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[0][0]
