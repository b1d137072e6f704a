"""Pairing the entities of A and B.

1. By ``(edition, kind, id)``: ids are slugs of names, so one unit read from two sources has one
   id wherever the two name it and its faction alike.
2. By ``(edition, kind, name)`` among the rest, where the two name a faction differently
   (``agents-of-the-imperium/vindicare-assassin`` / ``imperial-agents/vindicare-assassin``):
   when each side has one such entity, and a datasheet's faction keywords overlap (the keyword
   both sources print, ``AGENTS OF THE IMPERIUM``), or another entity's namespace pair is one
   the datasheets paired.
3. By likeness of content among the rest (the diff's ``find_renames``), in the same namespace
   or a paired one: a unit the two name differently.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from wahanorm.outputs.crosscheck.result import Matched
from wahanorm.outputs.diff.rename import find_renames


class Key(NamedTuple):
    """An entity as the two sides are paired on: its edition (as its folder names it), kind
    and id."""

    edition: str
    kind: str
    id: str


Entity = dict[str, Any]


@dataclass(frozen=True)
class Pair:
    """One entity of A and its counterpart in B."""

    a: Key
    b: Key
    how: Matched
    similarity: int | None = None


@dataclass
class Pairing:
    """Every pair, what is left on each side, and what the pairs tell of naming."""

    pairs: list[Pair] = field(default_factory=list)
    only_a: list[Key] = field(default_factory=list)
    only_b: list[Key] = field(default_factory=list)
    namespaces: set[tuple[str, str]] = field(default_factory=set)
    """(A's namespace, B's) of the entities paired across namespaces."""


Form = Callable[[Key, Entity], Entity]
"""An entity as it is compared (for its likeness)."""


def pair_entities(a: dict[Key, Entity], b: dict[Key, Entity], as_compared: Form) -> Pairing:
    """Pair ``a`` with ``b`` (see the module's doc); ``as_compared`` gives an entity as it is
    compared, for its likeness."""
    found = Pairing()
    found.pairs = [Pair(key, key, "id") for key in sorted(a.keys() & b.keys())]
    left_a = sorted(a.keys() - b.keys(), key=_datasheets_first)
    left_b = set(b.keys() - a.keys())
    by_name: dict[Key, list[Key]] = {}
    for key in left_b:
        by_name.setdefault(_name_key(key), []).append(key)
    mine = Counter(_name_key(key) for key in left_a)
    for key in left_a:
        theirs = by_name.get(_name_key(key), [])
        if len(theirs) == 1 and mine[_name_key(key)] == 1:
            other = theirs[0]
            if _same_thing(a[key], b[other], key, other, found.namespaces):
                found.pairs.append(Pair(key, other, "name"))
                found.namespaces.add((_namespace(key), _namespace(other)))
                left_b.discard(other)
    paired_a = {p.a for p in found.pairs}
    # only in namespaces the other side holds (or paired): a faction one side lacks is no rename
    spaces_a = {_namespace(k) for k in b} | {mine for mine, _ in found.namespaces}
    spaces_b = {_namespace(k) for k in a} | {theirs for _, theirs in found.namespaces}
    rest_a = [k for k in sorted(a) if k not in paired_a and _namespace(k) in spaces_a]
    rest_b = [k for k in sorted(left_b) if _namespace(k) in spaces_b]
    forms = (
        {k: as_compared(k, a[k]) for k in rest_a},
        {k: as_compared(k, b[k]) for k in rest_b},
    )
    _by_likeness(rest_a, rest_b, forms, found)
    paired_a = {p.a for p in found.pairs}
    paired_b = {p.b for p in found.pairs}
    found.only_a = [k for k in sorted(a) if k not in paired_a]
    found.only_b = [k for k in sorted(b) if k not in paired_b]
    return found


def _by_likeness(
    rest_a: list[Key],
    rest_b: list[Key],
    forms: tuple[dict[Key, Entity], dict[Key, Entity]],
    found: Pairing,
) -> None:
    """Pairs of what is left, alike in content, of one edition, kind and namespace (or a
    namespace pair the others told)."""
    a_forms = [{**forms[0][k], "kind": k.kind, "name": forms[0][k].get("name")} for k in rest_a]
    b_forms = [{**forms[1][k], "kind": k.kind, "name": forms[1][k].get("name")} for k in rest_b]
    index_a = {id(e): k for e, k in zip(a_forms, rest_a, strict=True)}
    index_b = {id(e): k for e, k in zip(b_forms, rest_b, strict=True)}
    for mine, theirs, score in find_renames(a_forms, b_forms):
        key, other = index_a[id(mine)], index_b[id(theirs)]
        spaces = (_namespace(key), _namespace(other))
        if key.edition != other.edition or (
            spaces[0] != spaces[1] and spaces not in found.namespaces
        ):
            continue
        found.pairs.append(Pair(key, other, "likeness", round(score * 100)))


def _same_thing(
    a: Entity, b: Entity, key: Key, other: Key, namespaces: set[tuple[str, str]]
) -> bool:
    """Whether two entities of one name in namespaces named differently are one: datasheets
    that share a faction keyword; others in a namespace pair the datasheets told."""
    if key.kind == "datasheet":
        return bool(_keywords(a) & _keywords(b))
    return (_namespace(key), _namespace(other)) in namespaces


def _keywords(entity: Entity) -> set[str]:
    return {str(k).upper() for k in entity.get("faction_keywords") or []}


def _namespace(key: Key) -> str:
    return key.id.split("/", 1)[0]


def _name_key(key: Key) -> Key:
    """The key with the name part of the id only (its namespace left out)."""
    return Key(key.edition, key.kind, key.id.split("/", 1)[-1])


def _datasheets_first(key: Key) -> tuple[bool, Key]:
    return (key.kind != "datasheet", key)


def faction_pairs(
    pairs: list[Pair], a: dict[Key, Entity], b: dict[Key, Entity]
) -> Counter[tuple[str, str]]:
    """(A's faction, B's) of the datasheets paired that name their faction differently."""
    found: Counter[tuple[str, str]] = Counter()
    for pair in pairs:
        if pair.a.kind != "datasheet":
            continue
        mine, theirs = a[pair.a].get("faction"), b[pair.b].get("faction")
        if (
            isinstance(mine, str)
            and isinstance(theirs, str)
            and mine.casefold() != theirs.casefold()
        ):
            found[(mine, theirs)] += 1
    return found
