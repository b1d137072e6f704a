"""Two sets of output files → one ``DiffReport``: entities matched by (edition, kind, id), then
across editions by (kind, id) (an OLD of one edition against a NEW of the other: the 10th → 11th
edition changes, unit by unit), then probable renames among what is left, then the changes
inside each entity."""

from __future__ import annotations

import functools
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import orjson

from wahanorm.contract.layout import INDEX_NAME, entity_relpath
from wahanorm.contract.migrate import current_entity
from wahanorm.contract.vocabulary import KINDS
from wahanorm.errors import InputError
from wahanorm.outputs.diff.compare import compare_entities
from wahanorm.outputs.diff.groups import Grouper
from wahanorm.outputs.diff.rename import find_renames
from wahanorm.outputs.diff.result import (
    Change,
    Counts,
    DiffReport,
    EntityDiff,
    Side,
    SideSource,
    Status,
)
from wahanorm.outputs.diff.shape import level
from wahanorm.outputs.output import check_depth

if TYPE_CHECKING:
    from pydantic import TypeAdapter

Entity = dict[str, Any]
Key = tuple[str, str, str]
"""(edition, kind, id); the edition is "" in an output written before editions."""


@dataclass
class Snapshot:
    """One side's output files (``relative path → text``) and how they were obtained."""

    spec: str
    source: SideSource
    files: dict[str, str]
    data: dict[str, Entity] | None = None
    """The entity files' JSON values (``relative path → data``) where a conversion in this
    process made them: what the texts parse to (the same values; keys in the model's order,
    which nothing compared depends on), taken instead of parsing the texts again."""


@dataclass
class Entities:
    """The entities of one snapshot by (edition, kind, id), with each file's text to skip equal
    ones."""

    by_key: dict[Key, Entity]
    texts: dict[Key, str]
    data_version: str | None


def read_entities(snap: Snapshot) -> Entities:
    """Parse the entity files of a snapshot; a file that is not JSON is an input error."""
    by_key: dict[Key, Entity] = {}
    texts: dict[Key, str] = {}
    version: str | None = None
    made = snap.data or {}
    for rel, text in sorted(snap.files.items()):
        data = made.get(rel)
        if data is None:
            data = _load_json(snap.spec, rel, text)
        if rel == INDEX_NAME:
            version = data.get("data_version") if isinstance(data, dict) else None
            continue
        if not isinstance(data, dict) or "/" not in rel or "kind" not in data or "id" not in data:
            continue  # not an entity file: nothing of the contract, nothing to compare
        key = _key_of(rel, data)
        _check_identity(snap.spec, rel, data, key in by_key)
        # an older contract version read as the current one; keyed as written (the edition ""
        # of an output written before editions is paired across editions below)
        by_key[key] = current_entity(data)
        texts[key] = text
    return Entities(by_key, texts, version)


def compare_files(old: Entity, new: Entity) -> list[Change]:
    """The changes from one entity file to another, each read as the current contract, the
    layout of their rules text levelled when one was written before it (``shape.level``)."""
    old, new = level(old, new)
    return compare_entities(_as_current(old), _as_current(new))


def _as_current(data: Entity) -> Entity:
    """An entity file read as the current contract: a field it lacks (it was written before the
    field existed) takes its default, so a field added to the contract is no change. A file the
    contract does not read (a newer or damaged one) is compared as it is."""
    from pydantic import ValidationError

    try:
        found: Entity = _entity_adapter().validate_python(data).model_dump(mode="json")
    except ValidationError:
        return data
    return found


@functools.cache
def _entity_adapter() -> TypeAdapter[Any]:
    """The contract's entity models, built when a changed entity is first compared (reading
    outputs, a crosscheck or a diff without changes, needs no model)."""
    from pydantic import TypeAdapter

    from wahanorm.contract.models import AnyEntity

    return TypeAdapter(AnyEntity)


def _check_identity(spec: str, rel: str, data: Entity, seen: bool) -> None:
    """An entity file must sit where the writer puts its id (``emit.entity_relpath``): a copy
    elsewhere, or two files of one id, would hide a change, so the side is refused."""
    try:
        expected = entity_relpath(data)
    except ValueError:
        raise InputError(f"{spec}: {rel} holds an unsafe id {data.get('id')!r}") from None
    if rel != expected:
        raise InputError(
            f"{spec}: {rel} holds {data.get('kind')} {data.get('id')}, whose file is {expected}: "
            "a stray copy? remove it or run wahanorm convert again"
        )
    if seen:
        raise InputError(f"{spec}: two files hold {data['kind']} {data['id']}")


def _load_json(spec: str, rel: str, text: str) -> Any:
    try:
        data = orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        raise InputError(f"{spec}: {rel} is not valid JSON ({exc.msg}, line {exc.lineno})") from exc
    check_depth(f"{spec}: {rel}", text, data)  # a deep file stops here, not in a recursion
    return data


def _key_of(rel: str, data: Entity) -> Key:
    parts = rel.removesuffix(".json").split("/")
    if len(parts) > 3:  # <edition>ed/<kind>/<namespace>/<name>
        parts = parts[1:]
    kind, rest = parts[0], "/".join(parts[1:])
    edition = data.get("edition")
    return (
        str(edition) if edition is not None else "",
        str(data.get("kind", kind)),
        str(data.get("id", rest)),
    )


def editions(entities: Entities) -> list[int]:
    """The editions a side's entities are of."""
    return sorted({int(e) for e, _, _ in entities.by_key if e.isdigit()})


def _across_editions(a: Entities, b: Entities) -> dict[Key, Key]:
    """OLD key → NEW key for an entity of one (kind, id) that is in one edition in OLD and
    another in NEW: the same rule, now in the other edition. Matched before renames, so a 10th →
    11th diff is one change per entity. Where one side holds the (kind, id) in both editions
    (or an output written before editions holds it once), the other side's one entity pairs
    with the version it differs least from."""
    gone: dict[tuple[str, str], list[Key]] = {}
    came: dict[tuple[str, str], list[Key]] = {}
    for key in sorted(a.by_key.keys() - b.by_key.keys()):
        gone.setdefault(key[1:], []).append(key)
    for key in sorted(b.by_key.keys() - a.by_key.keys()):
        came.setdefault(key[1:], []).append(key)
    pairs: dict[Key, Key] = {}
    for kind_id, old in gone.items():
        new = came.get(kind_id, [])
        if len(old) == 1 and new:
            pairs[old[0]] = min(new, key=lambda k: _distance(a.by_key[old[0]], b.by_key[k]))
        elif len(new) == 1 and old:
            pairs[min(old, key=lambda k: _distance(a.by_key[k], b.by_key[new[0]]))] = new[0]
    return pairs


def _distance(old: Entity, new: Entity) -> int:
    return len(compare_files(old, new))


def diff_snapshots(old: Snapshot, new: Snapshot) -> DiffReport:
    """Everything that differs from ``old`` to ``new``, in the game's terms."""
    a, b = read_entities(old), read_entities(new)
    sides = _side(old, a), _side(new, b)
    across = _across_editions(a, b)
    # said once for the whole diff (``Side.editions``), not per entity: one edition against the
    # other, or an output written before editions against one with them
    whole_side = (len(sides[0].editions) == len(sides[1].editions) == 1) or not (
        sides[0].editions and sides[1].editions
    )
    for old_key, new_key in across.items():  # the same rule in the other edition: one key
        a.by_key[new_key] = a.by_key.pop(old_key)
        a.texts[new_key] = a.texts.pop(old_key)
        if whole_side:
            a.by_key[new_key] = {**a.by_key[new_key], "edition": b.by_key[new_key].get("edition")}
    grouper = Grouper([*b.by_key.values(), *a.by_key.values()])
    diffs = _changed(a, b, grouper) + _added_removed_renamed(a, b, grouper)
    diffs = _drop_implied(
        diffs, a.by_key.keys() - b.by_key.keys(), b.by_key.keys() - a.by_key.keys()
    )
    diffs = _name_linked(diffs, {**_names(a), **_names(b)})
    diffs.sort(key=_order)
    return DiffReport(
        old=sides[0],
        new=sides[1],
        summary=_count(diffs),
        by_kind={k: _count([d for d in diffs if d.kind == k]) for k in _kinds(diffs)},
        entities=diffs,
    )


def _changed(a: Entities, b: Entities, grouper: Grouper) -> list[EntityDiff]:
    diffs: list[EntityDiff] = []
    for key in a.by_key.keys() & b.by_key.keys():
        if a.texts[key] == b.texts[key]:
            continue  # canonical JSON: equal text is equal content, no need to look inside
        new = b.by_key[key]
        changes = compare_files(a.by_key[key], new)
        if changes:  # differences of order or spacing alone are no change
            diffs.append(_entity_diff("changed", new, grouper, changes=changes))
    return diffs


def _added_removed_renamed(a: Entities, b: Entities, grouper: Grouper) -> list[EntityDiff]:
    removed = [a.by_key[k] for k in sorted(a.by_key.keys() - b.by_key.keys())]
    added = [b.by_key[k] for k in sorted(b.by_key.keys() - a.by_key.keys())]
    diffs: list[EntityDiff] = []
    paired_old: set[int] = set()
    paired_new: set[int] = set()
    for old, new, score in find_renames(removed, added):
        paired_old.add(id(old))
        paired_new.add(id(new))
        diffs.append(
            _entity_diff(
                "renamed",
                new,
                grouper,
                changes=compare_files(old, new),
                old_id=str(old.get("id")),
                old_name=str(old.get("name")),
                similarity=round(score * 100),
            )
        )
    diffs += [_entity_diff("removed", e, grouper) for e in removed if id(e) not in paired_old]
    diffs += [_entity_diff("added", e, grouper) for e in added if id(e) not in paired_new]
    return diffs


REFERENCE_FIELDS = ("stratagems", "detachment_rules", "enhancements")
"""The ids of other entities a datasheet lists; a new detachment adds its stratagems to every
datasheet of the faction."""


def _drop_implied(diffs: list[EntityDiff], gone: set[Key], came: set[Key]) -> list[EntityDiff]:
    """Without the listings that only follow from an entity added, removed or renamed (already
    reported once): a review would otherwise read the same new stratagem on every datasheet."""
    gone_ids = {entity_id for _, _, entity_id in gone}
    came_ids = {entity_id for _, _, entity_id in came}
    kept: list[EntityDiff] = []
    for d in diffs:
        changes = [ch for ch in d.changes if not _implied(ch, gone_ids, came_ids)]
        if changes or d.status != "changed":
            kept.append(d.model_copy(update={"changes": changes}))
    return kept


def _implied(ch: Change, gone_ids: set[str], came_ids: set[str]) -> bool:
    # the last field of the path: a conflicting version's listings are ``variants[0].stratagems[…]``
    field = ch.path.rsplit("].", 1)[-1].split("[", 1)[0]
    if field not in REFERENCE_FIELDS:
        return False
    return (ch.op == "added" and ch.new in came_ids) or (ch.op == "removed" and ch.old in gone_ids)


LINKED_KINDS = {
    "leader": "datasheet",
    "led_by": "datasheet",
    "stratagems": "stratagem",
    "detachment_rules": "detachment_rule",
    "enhancements": "enhancement",
}
"""The fields of a datasheet that list other entities by id, and the kind each lists."""


def _names(entities: Entities) -> dict[tuple[str, str], str]:
    return {(kind, i): str(e.get("name")) for (_, kind, i), e in entities.by_key.items()}


def _name_linked(diffs: list[EntityDiff], names: dict[tuple[str, str], str]) -> list[EntityDiff]:
    """``Can lead added: Celestian Insidiants``, ``Listed stratagem removed: Battlefield Command
    (boarding-actions/battlefield-command)`` rather than an id alone; the path keeps the id."""
    out: list[EntityDiff] = []
    for d in diffs:
        changes = [_with_name(ch, names) for ch in d.changes]
        out.append(d.model_copy(update={"changes": changes}) if changes != d.changes else d)
    return out


def _with_name(ch: Change, names: dict[tuple[str, str], str]) -> Change:
    field = ch.path.rsplit(".", 1)[-1].split("[", 1)[0]
    linked = ch.new if ch.op == "added" else ch.old
    name = names.get((LINKED_KINDS.get(field, ""), str(linked)))
    if name is None:
        return ch
    # A unit is named alone (a faction's units have names of their own); a stratagem, rule or
    # enhancement with its id, since several detachments give one name (Command Re-roll).
    shown = name if LINKED_KINDS[field] == "datasheet" else f"{name} ({linked})"
    return ch.model_copy(update={"summary": f"{ch.label} {ch.op}: {shown}"})


def _entity_diff(status: Status, e: Entity, grouper: Grouper, **extra: Any) -> EntityDiff:
    return EntityDiff(
        status=status,
        kind=str(e.get("kind")),
        id=str(e.get("id")),
        name=str(e.get("name")),
        edition=e.get("edition") if isinstance(e.get("edition"), int) else None,
        group=grouper.group(e),
        **extra,
    )


def _order(d: EntityDiff) -> tuple[str, int, str, int]:
    kind_rank = KINDS.index(d.kind) if d.kind in KINDS else len(KINDS)
    return (d.group.lower(), kind_rank, d.id, d.edition or 0)


def _kinds(diffs: list[EntityDiff]) -> list[str]:
    return sorted(
        {d.kind for d in diffs},
        key=lambda k: (k not in KINDS, KINDS.index(k) if k in KINDS else 0, k),
    )


def _count(diffs: list[EntityDiff]) -> Counts:
    c = Counter(d.status for d in diffs)
    return Counts(
        added=c["added"], removed=c["removed"], renamed=c["renamed"], changed=c["changed"]
    )


def _side(snap: Snapshot, entities: Entities) -> Side:
    return Side(
        spec=snap.spec,
        source=snap.source,
        data_version=entities.data_version,
        editions=editions(entities),
        entities=len(entities.by_key),
    )
