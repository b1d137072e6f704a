"""One entity per (edition, kind, id) across all inputs.

Copies that say the same thing (same content hash) become one entity with all their sources.
Copies that disagree are all kept: the one most sources agree on (then the first read) is the
entity, the others its ``variants``, and a diagnostic names the sources of both.

A source that cannot mark the shape of rules text (a text dump: no nested lists, no commentary
boxes) does not disagree by lacking it: a copy that marks no shape and says the same as a copy
that does, once the shape is left out of both (``hashing.same_but_shape``), is one more source of
that richer copy.

A parallel run's worker sends an entity it already sent in that run as a ``Repeat``: its key,
content hash, name and sources, not its fields again (the rules and stratagems every page of a
faction prints are most of a batch). Merge adds a repeat's sources to the copies it repeats.
A copy whose name merge must clean is never a repeat (``can_repeat``): each such copy is
cleaned and said at its own source, in the order read.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from itertools import pairwise
from typing import NamedTuple

from wahanorm.contract.hashing import ContentHashes, has_shape, same_but_shape
from wahanorm.contract.ids import escape_unsafe, is_safe, notation_key, plainest, strip_unsafe
from wahanorm.contract.models import SourceRef
from wahanorm.errors import Report
from wahanorm.readers.base import Entity

SourceKey = tuple[str, int, int]
"""A source as (path, first line, last line): what sources are ordered and told apart by."""


def _source_key(ref: SourceRef) -> SourceKey:
    return (ref.path, ref.line_start, ref.line_end)


class Repeat(NamedTuple):
    """A copy of an entity that says what another copy of the same run says (the same content
    hash), given by its key, hash, name and sources only: what a worker sends for an entity it
    sent the main process before (``pipeline.run``). The copy it repeats is in the same run."""

    edition: int
    kind: str
    id: str
    hash: str
    name: str
    sources: tuple[SourceKey, ...]

    @classmethod
    def of(cls, entity: Entity, digest: str) -> Repeat:
        """``entity`` (whose content hash is ``digest``) as a repeat; only for an entity that
        ``can_repeat``."""
        return cls(
            entity.edition,
            entity.kind,
            entity.id,
            digest,
            entity.name,
            tuple(map(_source_key, entity.sources)),
        )


def can_repeat(entity: Entity) -> bool:
    """Whether a copy of ``entity`` may be sent as a ``Repeat``: not if its name holds control
    or bidi characters, which merge takes out of each copy and says at that copy's source."""
    return is_safe(entity.name)


def as_sent(
    entities: list[Entity], hashes: list[str], sent: set[str]
) -> tuple[list[Entity], list[str], list[Repeat]]:
    """``entities`` (with their content ``hashes``) as a worker sends them, ``sent`` the hashes
    it sent before in the run (the new ones added): the whole copies with their hashes, and a
    repeat for each copy of a hash already sent that ``can_repeat``."""
    whole: list[Entity] = []
    whole_hashes: list[str] = []
    repeats: list[Repeat] = []
    for entity, digest in zip(entities, hashes, strict=True):
        if digest in sent and can_repeat(entity):
            repeats.append(Repeat.of(entity, digest))
        else:
            sent.add(digest)
            whole.append(entity)
            whole_hashes.append(digest)
    return whole, whole_hashes, repeats


MAX_SOURCES_LISTED = 5
"""Sources a diagnostic names before "… and N more sources" (every one is in ``index.json``)."""


def _where(refs: list[SourceRef]) -> str:
    shown = ", ".join(f"{r.path}:{r.line_start}" for r in refs[:MAX_SOURCES_LISTED])
    more = len(refs) - MAX_SOURCES_LISTED
    return shown + (f" … and {more} more sources" if more > 0 else "")


def _reads(refs: list[SourceRef]) -> str:
    return "reads" if len(refs) == 1 else "read"


def _safe_names(entities: Iterable[Entity], report: Report) -> Iterable[Entity]:
    """Entities with control characters and bidi overrides taken out of their names."""
    for entity in entities:
        if not is_safe(entity.name):
            source = entity.sources[0] if entity.sources else None
            report.warning(
                "unsafe-characters",
                f"{entity.kind} {entity.id}: control or bidi characters removed from its name "
                f"'{escape_unsafe(entity.name)}'",
                line=source.line_start if source else None,
                path=source.path if source else None,
            )
            entity = entity.model_copy(update={"name": strip_unsafe(entity.name)})
        yield entity


def _report_collisions(kind: str, entity_id: str, versions: list[Entity], report: Report) -> None:
    """Different names that give one id are an error naming both, never a silent merge; names
    that differ only in notation (``ids.notation_key``: case, spacing, brackets, hyphens,
    accents) are one name."""
    seen: dict[str, Entity] = {}
    for version in versions:
        seen.setdefault(notation_key(version.name), version)
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
    entities: Iterable[Entity],
    report: Report,
    known: Mapping[int, str] | None = None,
    repeats: Iterable[Repeat] = (),
) -> list[Entity]:
    """Merge by (edition, kind, id): the two editions of a rule are two entities, never variants
    of each other. Report every conflict and every id two names share; order the result by
    edition, kind and id. ``known`` holds content hashes already worked out (an extraction's
    from the cache, a worker's) by the ``id`` of entity objects that stay alive while merge
    runs; any other entity is hashed here. ``repeats`` are more copies of entities among
    ``entities`` (a worker's, none of them one whose name must be cleaned: ``can_repeat``), each
    merged as that copy would be: one more source of the copies of its content hash. The first
    copy of each hash in input order is always whole (a worker sends its first copy whole, and
    takes its inputs in input order)."""
    known = known or {}
    extra = _repeated(repeats)
    groups: dict[tuple[int, str, str], list[Entity]] = defaultdict(list)
    for entity in _safe_names(entities, report):
        groups[(entity.edition, entity.kind, entity.id)].append(entity)
    if lost := sorted(extra.keys() - groups.keys()):  # a bug of whatever made the repeats
        _, kind, entity_id = lost[0]
        raise RuntimeError(f"a repeat of {kind} {entity_id} whose copy is not in the run")
    merged: list[Entity] = []
    for key, group in sorted(groups.items()):
        edition, kind, entity_id = key
        copies = _by_content(group, known, extra.get(key, {}))
        versions = _fold_shapeless(
            _one_spelling([(digest, _combine(c, sources)) for digest, c, sources in copies])
        )
        if len(versions) > 1:
            versions.sort(key=lambda e: (-len(e.sources), [_source_key(s) for s in e.sources]))
        head, *others = versions
        if others:
            _report_collisions(kind, entity_id, versions, report)
            for number, other in enumerate(others, 1):
                report.warning(
                    "conflict",
                    f"{kind} {entity_id} ({edition}th edition) differs between sources: "
                    f"{_where(other.sources)} {_reads(other.sources)} it otherwise than "
                    f"{_where(head.sources)}; the entity is the latter's text, this one kept as "
                    f"variant {number} of {len(others)}",
                    line=other.sources[0].line_start if other.sources else None,
                    path=other.sources[0].path if other.sources else None,
                )
            head = head.model_copy(update={"variants": others})
        merged.append(head)
    return merged


def _one_spelling(versions: list[tuple[str, Entity]]) -> list[Entity]:
    """Versions (each with its content hash) whose names are one name in notation
    (``ids.notation_key``: the export's ``Lethal Hits``, a faction page's ``[LETHAL HITS]``,
    the ``.gst``'s ``Anti-``) under one spelling, the ``plainest``; those that then say the
    same are one version with the sources of all (one rule from two sources is one entity;
    texts that differ stay variants). Only a version renamed is hashed again."""
    if len(versions) < 2:
        return [version for _, version in versions]
    spellings: dict[str, set[str]] = defaultdict(set)
    for _, version in versions:
        spellings[notation_key(version.name)].add(version.name)
    kept = {key: plainest(sorted(names)) for key, names in spellings.items() if len(names) > 1}
    if not kept:
        return [version for _, version in versions]
    hashes = ContentHashes()
    by_hash: dict[str, list[Entity]] = {}
    for digest, version in versions:
        name = kept.get(notation_key(version.name), version.name)
        if name != version.name:
            version = version.model_copy(update={"name": name})
            digest = hashes(version)
        by_hash.setdefault(digest, []).append(version)
    return [_combine(same) for same in by_hash.values()]


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


Repeated = dict[tuple[int, str, str], dict[str, list[tuple[SourceKey, ...]]]]
"""The sources of repeats, by their entity's key and then content hash."""


def _repeated(repeats: Iterable[Repeat]) -> Repeated:
    """The sources of ``repeats`` by key and hash."""
    extra: Repeated = defaultdict(lambda: defaultdict(list))
    checked: set[str] = set()
    for repeat in repeats:
        if repeat.name not in checked:
            if not is_safe(repeat.name):  # a bug of whatever made the repeat (``can_repeat``)
                raise RuntimeError(
                    f"a repeat of {repeat.kind} {repeat.id}, whose name merge must clean"
                )
            checked.add(repeat.name)
        extra[(repeat.edition, repeat.kind, repeat.id)][repeat.hash].append(repeat.sources)
    return extra


def _source_ref(key: SourceKey) -> SourceRef:
    path, line_start, line_end = key
    return SourceRef(path=path, line_start=line_start, line_end=line_end)


Copies = list[tuple[str, list[Entity], list[tuple[SourceKey, ...]]]]
"""Copies that say the same (their content hash: "" for a copy read once, not hashed), and the
sources of the repeats of them."""


def _by_content(
    group: list[Entity],
    known: Mapping[int, str],
    repeats: Mapping[str, list[tuple[SourceKey, ...]]],
) -> Copies:
    """The copies of one entity grouped by content hash (``known``'s where it has one), in the
    order first read (an entity read once is not hashed), each group with the sources of its
    ``repeats`` (by hash)."""
    if len(group) == 1 and not repeats:
        return [("", group, [])]
    hashes = ContentHashes()
    by_hash: dict[str, list[Entity]] = {}
    for entity in group:
        digest = known.get(id(entity)) or hashes(entity)
        by_hash.setdefault(digest, []).append(entity)
    if repeats.keys() - by_hash.keys():  # a bug of whatever made the repeats
        raise RuntimeError(
            f"a repeat of {group[0].kind} {group[0].id} whose copy is not in the run"
        )
    return [(digest, copies, repeats.get(digest, [])) for digest, copies in by_hash.items()]


def _combine(copies: list[Entity], repeated: list[tuple[SourceKey, ...]] | None = None) -> Entity:
    """Identical copies → the first, with every source once (theirs and their repeats'), in
    path and line order."""
    first = copies[0]
    if len(copies) == 1 and not repeated and _in_order(first.sources):
        return first  # already so: most entities, read once from one place
    # each source once, by its key (keys are distinct: no two sources are compared)
    once: dict[SourceKey, SourceRef | None] = {_source_key(s): s for c in copies for s in c.sources}
    for sources in repeated or ():
        for key in sources:
            once.setdefault(key, None)
    ordered = [_source_ref(key) if ref is None else ref for key, ref in sorted(once.items())]
    return first.model_copy(update={"sources": ordered})


def _in_order(sources: list[SourceRef]) -> bool:
    """Every source once, in path and line order (as ``_combine`` would leave them)."""
    keys = [_source_key(s) for s in sources]
    return all(a < b for a, b in pairwise(keys))
