"""One entity per (edition, kind, id) across all inputs.

Copies that say the same thing (same content hash) become one entity with all their sources.
Copies that disagree are all kept: the one most sources agree on (then the first read) is the
entity, the others its ``variants``, and a diagnostic names the sources of both.

A source that cannot mark the shape of rules text (a text dump: no nested lists, no commentary
boxes) does not disagree by lacking it: a copy that marks no shape and says the same as a copy
that does, once the shape is left out of both (``hashing.same_but_shape``), is one more source of
that richer copy.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from itertools import pairwise

from wahanorm.contract.hashing import ContentHashes, has_shape, same_but_shape
from wahanorm.contract.ids import escape_unsafe, strip_unsafe
from wahanorm.contract.models import SourceRef
from wahanorm.errors import Report
from wahanorm.readers.base import Entity


def _source_key(ref: SourceRef) -> tuple[str, int, int]:
    return (ref.path, ref.line_start, ref.line_end)


MAX_SOURCES_LISTED = 5
"""Sources a diagnostic names before "… and N more sources" (every one is in ``index.json``)."""


def _where(refs: list[SourceRef]) -> str:
    shown = ", ".join(f"{r.path}:{r.line_start}" for r in refs[:MAX_SOURCES_LISTED])
    more = len(refs) - MAX_SOURCES_LISTED
    return shown + (f" … and {more} more sources" if more > 0 else "")


def _one_name(name: str) -> str:
    """A name as compared for collisions: letter case and spacing are the source's typography
    (the dumps print stratagem names in capitals, the export in title case)."""
    return " ".join(name.casefold().split())


def _safe_names(entities: Iterable[Entity], report: Report) -> Iterable[Entity]:
    """Entities with control characters and bidi overrides taken out of their names."""
    for entity in entities:
        clean = strip_unsafe(entity.name)
        if clean != entity.name:
            source = entity.sources[0] if entity.sources else None
            report.warning(
                "unsafe-characters",
                f"{entity.kind} {entity.id}: control or bidi characters removed from its name "
                f"'{escape_unsafe(entity.name)}'",
                line=source.line_start if source else None,
                path=source.path if source else None,
            )
            entity = entity.model_copy(update={"name": clean})
        yield entity


def _report_collisions(kind: str, entity_id: str, versions: list[Entity], report: Report) -> None:
    """Different names that give one id are an error naming both, never a silent merge."""
    seen: dict[str, Entity] = {}
    for version in versions:
        seen.setdefault(_one_name(version.name), version)
    first, *others = seen.values()
    for other in others:
        report.error(
            "id-collision",
            f"{kind} {entity_id}: the names {first.name!r} ({_where(first.sources)}) and "
            f"{other.name!r} ({_where(other.sources)}) give one id; both kept, the second as a "
            "variant: rename one in its source",
            line=other.sources[0].line_start if other.sources else None,
            path=other.sources[0].path if other.sources else None,
        )


def merge_entities(
    entities: Iterable[Entity], report: Report, known: Mapping[int, str] | None = None
) -> list[Entity]:
    """Merge by (edition, kind, id): the two editions of a rule are two entities, never variants
    of each other. Report every conflict and every id two names share; order the result by
    edition, kind and id. ``known`` holds content hashes already worked out (an extraction's
    from the cache) by the ``id`` of entity objects that stay alive while merge runs; any
    other entity is hashed here."""
    groups: dict[tuple[int, str, str], list[Entity]] = defaultdict(list)
    for entity in _safe_names(entities, report):
        groups[(entity.edition, entity.kind, entity.id)].append(entity)
    merged: list[Entity] = []
    for (edition, kind, entity_id), group in sorted(groups.items()):
        versions = _fold_shapeless([_combine(c) for c in _by_content(group, known or {})])
        if len(versions) > 1:
            versions.sort(key=lambda e: (-len(e.sources), [_source_key(s) for s in e.sources]))
        head, *others = versions
        if others:
            _report_collisions(kind, entity_id, versions, report)
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


def _fold_shapeless(versions: list[Entity]) -> list[Entity]:
    """Versions without a copy that marks no shape of its rules text where a copy that marks it
    says the same (``hashing.same_but_shape``): its sources are added to that copy's."""
    if len(versions) < 2:
        return versions
    shaped = [v for v in versions if has_shape(v)]
    if not shaped:
        return versions
    kept: list[Entity] = []
    folded: dict[int, list[Entity]] = defaultdict(list)
    for version in versions:
        host = None
        if not any(version is s for s in shaped):
            host = next((s for s in shaped if same_but_shape(version, s)), None)
        if host is None:
            kept.append(version)
        else:
            folded[id(host)].append(version)
    return [_combine([v, *folded[id(v)]]) if folded[id(v)] else v for v in kept]


def _by_content(group: list[Entity], known: Mapping[int, str]) -> list[list[Entity]]:
    """The copies of one entity grouped by content hash (``known``'s where it has one), in the
    order first read (an entity read once is not hashed)."""
    if len(group) == 1:
        return [group]
    hashes = ContentHashes()
    by_hash: dict[str, list[Entity]] = {}
    for entity in group:
        digest = known.get(id(entity)) or hashes(entity)
        by_hash.setdefault(digest, []).append(entity)
    return list(by_hash.values())


def _combine(copies: list[Entity]) -> Entity:
    """Identical copies → the first, with every source once, in path and line order."""
    first = copies[0]
    if len(copies) == 1 and _in_order(first.sources):
        return first  # already so: most entities, read once from one place
    # each source once, by its key (keys are distinct: no two sources are compared)
    once = sorted({_source_key(s): s for c in copies for s in c.sources}.items())
    return first.model_copy(update={"sources": [source for _, source in once]})


def _in_order(sources: list[SourceRef]) -> bool:
    """Every source once, in path and line order (as ``_combine`` would leave them)."""
    keys = [_source_key(s) for s in sources]
    return all(a < b for a, b in pairwise(keys))
