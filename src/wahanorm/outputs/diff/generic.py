"""Comparing any JSON value by meaning: objects key by key, lists by content (never by
position), scalars directly, prose word by word. Entity-specific comparers fall back on these."""

from __future__ import annotations

from wahanorm.outputs.diff.result import Change
from wahanorm.outputs.diff.values import (
    Json,
    multiset_delta,
    pair_similar,
    prose_change,
    show,
    value_change,
)

LABELS = {
    "cp": "CP",
    "cost": "Cost",
    "dp": "DP",
    "force_disposition": "Force disposition",
    "is_support": "Support character",
    "upgrade": "Upgrade",
    "base_size": "Base size",
    "rule_number": "Rule number",
    "faction_keywords": "Faction keyword",
    "keywords": "Keyword",
    "leader": "Can lead",
    "led_by": "Can be led by",
    "stratagems": "Listed stratagem",
    "detachment_rules": "Listed detachment rule",
    "enhancements": "Listed enhancement",
    "wargear_options": "Wargear option",
    "unit_composition": "Unit composition",
}

SHORT_SEP = {"cp", "cost", "dp"}
"""Numbers read as ``CP 1 → 2`` rather than ``CP: 1 → 2``."""


def label_of(key: str) -> str:
    """A field's name as a player reads it."""
    return LABELS.get(key, key.replace("_", " ").capitalize())


def compare_value(path: str, label: str, old: Json, new: Json, out: list[Change]) -> None:
    """Any value: objects key by key, lists by content, scalars and prose directly."""
    if isinstance(old, dict) and isinstance(new, dict):
        for key in sorted(set(old) | set(new)):
            if old.get(key) != new.get(key):
                sub = f"{label} {label_of(key).lower()}"
                compare_value(f"{path}.{key}", sub, old.get(key), new.get(key), out)
        return
    if isinstance(old, list) and isinstance(new, list):
        compare_list(path, label, old, new, out)
        return
    sep = " " if path in SHORT_SEP else ": "
    change = value_change(path, label, old, new, sep)
    if change:
        out.append(change)


def compare_list(
    path: str, label: str, old: list[Json], new: list[Json], out: list[Change]
) -> None:
    """A list as a multiset: items added and removed; edited lines of text as word diffs."""
    removed, added = multiset_delta(old, new)
    if all(isinstance(x, str) for x in removed + added):
        pairs, removed, added = pair_similar(removed, added)
        for a, b in pairs:
            change = prose_change(f"{path}[{a}]", label, a, b)
            if change:
                out.append(change)
    _membership(path, label, removed, added, out)


def compare_set(path: str, label: str, old: Json, new: Json, out: list[Change]) -> None:
    """Keywords, ids and names: only membership counts; no pairing of edited items."""
    removed, added = multiset_delta(old or [], new or [])
    _membership(path, label, removed, added, out)


def _membership(
    path: str, label: str, removed: list[Json], added: list[Json], out: list[Change]
) -> None:
    """One change per item removed, then one per item added."""
    for op, items in (("removed", removed), ("added", added)):
        for item in items:
            shown = show(item)
            out.append(
                Change(
                    path=f"{path}[{shown}]",
                    op=op,
                    label=label,
                    old=shown if op == "removed" else None,
                    new=shown if op == "added" else None,
                    summary=f"{label} {op}: {shown}",
                )
            )
