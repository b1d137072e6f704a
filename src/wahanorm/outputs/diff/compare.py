"""Changes inside one entity, in the game's terms.

Entities are compared as the JSON their files hold (not as models), so an output folder written
by an older or newer wahanorm still diffs: a field this module does not know is compared
generically. Lists are compared by what they hold, never by position, so reordering alone is no
change; ``sources`` (where a rule was read) is not a rule and is never compared.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from wahanorm.contract.vocabulary import timing_text
from wahanorm.outputs.diff import datasheet, shape
from wahanorm.outputs.diff.generic import compare_set, compare_value, label_of
from wahanorm.outputs.diff.result import Change
from wahanorm.outputs.diff.tables import compare_tables
from wahanorm.outputs.diff.values import Json, canon, value_change

Handler = Callable[[str, str, Json, Json, list[Change]], None]
"""(path, label, old value, new value, changes found so far) → appends its changes."""

IGNORED = frozenset({"id", "kind", "sources"})

FIELD_ORDER = (
    "name",
    "cp",
    "cost",
    "dp",
    "force_disposition",
    "points",
    "profiles",
    "weapons",
    "abilities",
    "keywords",
    "faction_keywords",
    "leader",
    "modes",
    "when",
    "target",
    "effect",
    "restrictions",
    "text",
    "sections",
    "commentary",
    "tables",
)
"""Fields shown first, in this order: the numbers players look for, then the rules text."""


def compare_entities(old: dict[str, Any], new: dict[str, Any]) -> list[Change]:
    """Every change from ``old`` to ``new`` of one entity (same kind), in a stable order."""
    changes: list[Change] = []
    for key in _ordered_keys(old, new):
        a, b = old.get(key), new.get(key)
        if key in IGNORED or a == b or (_is_empty(a) and _is_empty(b)):
            continue  # a field an older wahanorm did not write is the same as an empty one
        if a is None and isinstance(b, list):
            a = []
        elif b is None and isinstance(a, list):
            b = []
        handler = HANDLERS.get(key, compare_value)
        found = len(changes)
        try:
            handler(key, label_of(key), a, b, changes)
        except (AttributeError, IndexError, KeyError, TypeError, ValueError):
            # a field not of the contract's shape (a damaged or foreign file): compared as JSON
            del changes[found:]
            compare_value(key, label_of(key), a, b, changes)
    return shape.drop_implied(new.get("kind"), old, new, changes)


def _is_empty(value: Any) -> bool:
    return value is None or value == [] or value == "" or value == {}


def _ordered_keys(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    rest = sorted((set(old) | set(new)) - set(FIELD_ORDER))
    return [k for k in FIELD_ORDER if k in old or k in new] + rest


def compare_variants(path: str, label: str, old: Json, new: Json, out: list[Change]) -> None:
    """Conflicting versions kept beside an entity: as many on both sides → each compared with
    its counterpart (by content order); otherwise the count."""
    a = sorted(old or [], key=_without_sources)
    b = sorted(new or [], key=_without_sources)
    if [_without_sources(x) for x in a] == [_without_sources(x) for x in b]:
        return
    if len(a) != len(b):
        out.append(
            Change(
                path=path,
                op="changed",
                label="Conflicting versions",
                old=str(len(a)),
                new=str(len(b)),
                summary=f"Conflicting versions (variants): {len(a)} → {len(b)}",
            )
        )
        return
    for i, (x, y) in enumerate(zip(a, b, strict=True)):
        for ch in compare_entities(x, y):
            out.append(
                ch.model_copy(
                    update={
                        "path": f"{path}[{i}].{ch.path}",
                        "label": f"Conflicting version: {ch.label}",
                        "summary": f"Conflicting version: {ch.summary}",
                    }
                )
            )


def _without_sources(entity: Json) -> str:
    return canon({k: v for k, v in entity.items() if k != "sources"})


def compare_timing(path: str, label: str, old: Json, new: Json, out: list[Change]) -> None:
    """A stratagem's timing in a player's words, whose turn for each phase:
    ``Timing: your opponent's Shooting phase → either player's Shooting phase``. Two timings
    the words cannot tell apart are compared field by field."""
    said_old, said_new = timing_text(old) or None, timing_text(new) or None
    if said_old == said_new:
        compare_value(path, label, old, new, out)
        return
    if said_old is None or said_new is None:
        change = value_change(path, label, said_old, said_new)
        if change:
            out.append(change)
        return
    out.append(
        Change(
            path=path,
            op="changed",
            label=label,
            old=said_old,
            new=said_new,
            summary=f"{label}: {said_old} → {said_new}",
        )
    )


HANDLERS: dict[str, Handler] = {
    "keywords": compare_set,
    "faction_keywords": compare_set,
    "leader": compare_set,
    "stratagems": compare_set,
    "detachment_rules": compare_set,
    "enhancements": compare_set,
    "variants": compare_variants,
    "points": datasheet.compare_points,
    "profiles": datasheet.compare_profiles,
    "weapons": datasheet.compare_weapons,
    "abilities": datasheet.compare_abilities,
    "tables": compare_tables,
    "timing": compare_timing,
    "modes": shape.compare_modes,
    "commentary": shape.compare_commentary,
    "sections": shape.compare_sections,
    "blocks": shape.compare_blocks,
}
