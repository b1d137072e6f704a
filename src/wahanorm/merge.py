"""One entity per (edition, kind, id) across all inputs.

Copies that say the same thing (same content hash) become one entity with all their sources.
Copies that disagree are all kept: the one most sources agree on (then the first read) is the
entity, the others its ``variants``, and a diagnostic names the sources of both.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from wahanorm.emit import content_hash
from wahanorm.errors import Report
from wahanorm.extraction import Entity
from wahanorm.models import SourceRef


def _source_key(ref: SourceRef) -> tuple[str, int, int]:
    return (ref.path, ref.line_start, ref.line_end)


def _where(refs: list[SourceRef]) -> str:
    return ", ".join(f"{r.path}:{r.line_start}" for r in refs)


def merge_entities(entities: Iterable[Entity], report: Report) -> list[Entity]:
    """Merge by (edition, kind, id): the two editions of a rule are two entities, never variants
    of each other. Report every conflict; order the result by edition, kind and id."""
    groups: dict[tuple[int, str, str], dict[str, list[Entity]]] = defaultdict(dict)
    for entity in entities:
        by_hash = groups[(entity.edition, entity.kind, entity.id)]
        by_hash.setdefault(content_hash(entity), []).append(entity)
    merged: list[Entity] = []
    for (edition, kind, entity_id), by_hash in sorted(groups.items()):
        versions = [_combine(copies) for copies in by_hash.values()]
        versions.sort(key=lambda e: (-len(e.sources), [_source_key(s) for s in e.sources]))
        head, *others = versions
        if others:
            for other in others:
                report.warning(
                    "conflict",
                    f"{kind} {entity_id} ({edition}th edition) differs between sources: {_where(head.sources)} "
                    f"and {_where(other.sources)}; both kept, the second as a variant",
                    line=other.sources[0].line_start if other.sources else None,
                    path=other.sources[0].path if other.sources else None,
                )
            head = head.model_copy(update={"variants": others})
        merged.append(head)
    return merged


def _combine(copies: list[Entity]) -> Entity:
    """Identical copies → the first, with every source once, in path and line order."""
    sources = sorted(
        {_source_key(s): s for c in copies for s in c.sources}.values(), key=_source_key
    )
    return copies[0].model_copy(update={"sources": sources})
