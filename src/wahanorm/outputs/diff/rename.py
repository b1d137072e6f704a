"""Probable renames: an entity gone from OLD and one new in NEW, of the same kind, that say
nearly the same thing. Names and ids are left out of the likeness, since they are what a
rename changes.

Likeness is the Jaccard index of two sets of features (each list item whole, each short value,
word pairs of prose). Candidates come from an inverted index of the rarer features, so a full
export's hundreds of additions and removals are not compared all against all.
"""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from typing import Any

from wahanorm.outputs.diff.values import canon
from wahanorm.outputs.diff.words import words_of

RENAME_THRESHOLD = 0.7
"""Likeness above which a removal and an addition are one rename."""

SAME_NAME_THRESHOLD = 0.4
"""A lower bar when the name is unchanged and only the id moved (e.g. another namespace)."""

RARE_FEATURE = 25
"""Features shared by more additions than this are too common to find candidates by."""

LEFT_OUT = frozenset({"id", "name", "sources", "variants", "kind"})

Entity = dict[str, Any]


def features(entity: Entity) -> frozenset[str]:
    """What an entity says, as a set of small comparable facts."""
    found: set[str] = set()
    for key, value in entity.items():
        if key not in LEFT_OUT:
            _add_features(key, value, found)
    return frozenset(found)


def _add_features(path: str, value: Any, found: set[str]) -> None:
    if isinstance(value, str) and len(words_of(value)) > 3:
        words = words_of(value.lower())
        found.update(f"{path}:{a} {b}" for a, b in itertools.pairwise(words))
    elif isinstance(value, list):
        for item in value:
            found.add(f"{path}[]={canon(item)}")
            if isinstance(item, str | dict):
                _add_features(f"{path}[]", item, found)
    elif isinstance(value, dict):
        for key, sub in value.items():
            if key != "sources":
                _add_features(f"{path}.{key}", sub, found)
    else:
        found.add(f"{path}={canon(value)}")


def likeness(a: frozenset[str], b: frozenset[str]) -> float:
    """Jaccard index of two feature sets, 0.0 to 1.0."""
    if not a and not b:
        return 1.0
    return len(a & b) / len(a | b)


def find_renames(removed: list[Entity], added: list[Entity]) -> list[tuple[Entity, Entity, float]]:
    """(old, new, likeness) for each probable rename, the most alike first; each entity in at
    most one pair. Only entities of the same kind pair."""
    old_f = [features(e) for e in removed]
    new_f = [features(e) for e in added]
    scored: list[tuple[float, int, int]] = []
    for i, j in _candidates(removed, added, old_f, new_f):
        score = likeness(old_f[i], new_f[j])
        same_name = removed[i].get("name") == added[j].get("name")
        if score >= (SAME_NAME_THRESHOLD if same_name else RENAME_THRESHOLD):
            scored.append((score, i, j))
    scored.sort(key=lambda s: (-s[0], s[1], s[2]))
    used_old: set[int] = set()
    used_new: set[int] = set()
    pairs: list[tuple[Entity, Entity, float]] = []
    for score, i, j in scored:
        if i not in used_old and j not in used_new:
            used_old.add(i)
            used_new.add(j)
            pairs.append((removed[i], added[j], score))
    return pairs


def _candidates(
    removed: list[Entity],
    added: list[Entity],
    old_f: list[frozenset[str]],
    new_f: list[frozenset[str]],
) -> set[tuple[int, int]]:
    """Pairs sharing a rare feature or a name, of the same kind."""
    index: dict[str, list[int]] = defaultdict(list)
    for j, feats in enumerate(new_f):
        for f in feats:
            index[f].append(j)
    by_name: dict[tuple[Any, Any], list[int]] = defaultdict(list)
    for j, e in enumerate(added):
        by_name[(e.get("kind"), e.get("name"))].append(j)
    pairs: set[tuple[int, int]] = set()
    for i, feats in enumerate(old_f):
        kind = removed[i].get("kind")
        hits: Counter[int] = Counter()
        for f in feats:
            posting = index.get(f, [])
            if len(posting) <= RARE_FEATURE:
                hits.update(posting)
        hits.update(by_name.get((kind, removed[i].get("name")), []))
        pairs.update((i, j) for j in hits if added[j].get("kind") == kind)
    return pairs
