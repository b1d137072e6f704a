"""Two sets of output files → one ``DiffReport``: entities matched by (kind, id), then probable
renames among what is left, then the changes inside each entity."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from typing import Any

from wahanorm.diff.compare import compare_entities
from wahanorm.diff.groups import Grouper
from wahanorm.diff.rename import find_renames
from wahanorm.diff.result import Change, Counts, DiffReport, EntityDiff, Side, SideSource, Status
from wahanorm.emit import INDEX_NAME, entity_relpath
from wahanorm.errors import InputError
from wahanorm.models import KINDS

Entity = dict[str, Any]
Key = tuple[str, str]


@dataclass
class Snapshot:
    """One side's output files (``relative path → text``) and how they were obtained."""

    spec: str
    source: SideSource
    files: dict[str, str]


@dataclass
class Entities:
    """The entities of one snapshot by (kind, id), with each file's text to skip equal ones."""

    by_key: dict[Key, Entity]
    texts: dict[Key, str]
    data_version: str | None


def read_entities(snap: Snapshot) -> Entities:
    """Parse the entity files of a snapshot; a file that is not JSON is an input error."""
    by_key: dict[Key, Entity] = {}
    texts: dict[Key, str] = {}
    version: str | None = None
    for rel, text in sorted(snap.files.items()):
        data = _load_json(snap.spec, rel, text)
        if rel == INDEX_NAME:
            version = data.get("data_version") if isinstance(data, dict) else None
            continue
        if not isinstance(data, dict) or "/" not in rel or "kind" not in data or "id" not in data:
            continue  # not an entity file: nothing of the contract, nothing to compare
        key = _key_of(rel, data)
        _check_identity(snap.spec, rel, data, by_key)
        by_key[key] = data
        texts[key] = text
    return Entities(by_key, texts, version)


def _check_identity(spec: str, rel: str, data: Entity, seen: dict[Key, Entity]) -> None:
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
    if (str(data["kind"]), str(data["id"])) in seen:
        raise InputError(f"{spec}: two files hold {data['kind']} {data['id']}")


def _load_json(spec: str, rel: str, text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{spec}: {rel} is not valid JSON ({exc.msg}, line {exc.lineno})") from exc


def _key_of(rel: str, data: Entity) -> Key:
    kind, _, rest = rel.partition("/")
    return str(data.get("kind", kind)), str(data.get("id", rest.removesuffix(".json")))


def diff_snapshots(old: Snapshot, new: Snapshot) -> DiffReport:
    """Everything that differs from ``old`` to ``new``, in the game's terms."""
    a, b = read_entities(old), read_entities(new)
    grouper = Grouper([*b.by_key.values(), *a.by_key.values()])
    diffs = _changed(a, b, grouper) + _added_removed_renamed(a, b, grouper)
    diffs = _drop_implied(
        diffs, a.by_key.keys() - b.by_key.keys(), b.by_key.keys() - a.by_key.keys()
    )
    diffs = _name_led_units(diffs, {**_names(a), **_names(b)})
    diffs.sort(key=_order)
    return DiffReport(
        old=_side(old, a),
        new=_side(new, b),
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
        changes = compare_entities(a.by_key[key], new)
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
                changes=compare_entities(old, new),
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
    gone_ids = {entity_id for _, entity_id in gone}
    came_ids = {entity_id for _, entity_id in came}
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


def _names(entities: Entities) -> dict[str, str]:
    return {
        i: str(e.get("name")) for (kind, i), e in entities.by_key.items() if kind == "datasheet"
    }


def _name_led_units(diffs: list[EntityDiff], names: dict[str, str]) -> list[EntityDiff]:
    """``Can lead added: Celestian Insidiants`` rather than the unit's id; the path keeps the id."""
    out: list[EntityDiff] = []
    for d in diffs:
        changes = [_with_unit_name(ch, names) for ch in d.changes]
        out.append(d.model_copy(update={"changes": changes}) if changes != d.changes else d)
    return out


def _with_unit_name(ch: Change, names: dict[str, str]) -> Change:
    unit = ch.new if ch.op == "added" else ch.old
    if not ch.path.rsplit("].", 1)[-1].startswith("leader[") or unit not in names:
        return ch
    return ch.model_copy(update={"summary": f"{ch.label} {ch.op}: {names[unit]}"})


def _entity_diff(status: Status, e: Entity, grouper: Grouper, **extra: Any) -> EntityDiff:
    return EntityDiff(
        status=status,
        kind=str(e.get("kind")),
        id=str(e.get("id")),
        name=str(e.get("name")),
        group=grouper.group(e),
        **extra,
    )


def _order(d: EntityDiff) -> tuple[str, int, str]:
    kind_rank = KINDS.index(d.kind) if d.kind in KINDS else len(KINDS)
    return (d.group.lower(), kind_rank, d.id)


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
        entities=len(entities.by_key),
    )
