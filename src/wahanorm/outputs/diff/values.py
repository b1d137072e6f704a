"""Small helpers shared by the comparers: value changes, prose changes, multisets."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from wahanorm.outputs.diff.result import Change, WordOp
from wahanorm.outputs.diff.words import elide, same_words, similarity, word_diff, words_of

Json = Any
"""A value read from an entity file: dict, list, str, int, bool or None."""

PROSE_WORDS = 6
"""A string of more words than this is prose: it is shown as a word-level diff."""


def canon(value: Json) -> str:
    """One text per JSON value, to compare and count values regardless of key order."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def show(value: Json) -> str:
    """A value as a player reads it: a characteristic by its text, a bool as yes/no."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict) and isinstance(value.get("text"), str):
        return str(value["text"])
    if isinstance(value, str | int):
        return str(value)
    return canon(value)


def is_prose(*texts: Json) -> bool:
    """True when any of the values is a string long enough to diff word by word."""
    return any(isinstance(t, str) and len(words_of(t)) > PROSE_WORDS for t in texts)


def plain_words(ops: list[WordOp]) -> str:
    """A word diff on one line, git ``--word-diff`` style: ``[-old-]{+new+}``."""
    marks = {"equal": "{}", "delete": "[-{}-]", "insert": "{{+{}+}}"}
    return " ".join(marks[op.op].format(op.text) for op in ops)


def value_change(path: str, label: str, old: Json, new: Json, sep: str = ": ") -> Change | None:
    """The change from ``old`` to ``new`` of one value, or None when they mean the same
    (for text: the same words, whatever their spacing and letter case)."""
    if old == new or (isinstance(old, str) and isinstance(new, str) and same_words(old, new)):
        return None
    if old is None:
        return Change(
            path=path, op="added", label=label, new=show(new), summary=f"{label} added: {show(new)}"
        )
    if new is None:
        return Change(
            path=path,
            op="removed",
            label=label,
            old=show(old),
            summary=f"{label} removed: {show(old)}",
        )
    if isinstance(old, str) and isinstance(new, str) and is_prose(old, new):
        return prose_change(path, label, old, new)
    return Change(
        path=path,
        op="changed",
        label=label,
        old=show(old),
        new=show(new),
        summary=f"{label}{sep}{show(old)} → {show(new)}",
    )


def prose_change(path: str, label: str, old: str, new: str) -> Change | None:
    """A word-level change of prose; None when only spacing differs."""
    if same_words(old, new):
        return None
    ops = word_diff(old, new)
    return Change(
        path=path,
        op="changed",
        label=label,
        old=old,
        new=new,
        words=ops,
        summary=f"{label}: {plain_words(elide(ops))}",
    )


def _item_key(item: Json) -> str:
    # strings (keywords, ids) are most list items: skip json.dumps for them; the quotes json
    # puts around a string keep "1" and 1 apart
    return f'"{item}' if isinstance(item, str) else canon(item)


def multiset_delta(old: list[Json], new: list[Json]) -> tuple[list[Json], list[Json]]:
    """(items only in OLD, items only in NEW), counting duplicates, ignoring order."""
    if old == new:
        return [], []
    old_count = Counter(map(_item_key, old))
    new_count = Counter(map(_item_key, new))
    removed = _take(old, old_count - new_count)
    added = _take(new, new_count - old_count)
    return removed, added


def _take(items: list[Json], wanted: Counter[str]) -> list[Json]:
    if not wanted:
        return []
    taken: list[Json] = []
    for item in items:
        key = _item_key(item)
        if wanted[key] > 0:
            wanted[key] -= 1
            taken.append(item)
    return taken


def pair_similar(
    removed: list[str], added: list[str], threshold: float = 0.5
) -> tuple[list[tuple[str, str]], list[str], list[str]]:
    """Pairs (old, new) of lines alike enough to be one edited line, then the lines left over
    on each side; the most alike pairs are taken first."""
    scored = sorted(
        ((similarity(a, b), i, j) for i, a in enumerate(removed) for j, b in enumerate(added)),
        reverse=True,
    )
    used_old: set[int] = set()
    used_new: set[int] = set()
    pairs: list[tuple[str, str]] = []
    for score, i, j in scored:
        if score < threshold or i in used_old or j in used_new:
            continue
        used_old.add(i)
        used_new.add(j)
        pairs.append((removed[i], added[j]))
    rest_old = [x for i, x in enumerate(removed) if i not in used_old]
    rest_new = [x for j, x in enumerate(added) if j not in used_new]
    return pairs, rest_old, rest_new
