"""wahanorm: Warhammer 40,000 rules data → canonical JSON, what changed, and where sources
disagree.

The public API (everything in ``__all__``; other modules are internal)::

    import wahanorm

    result = wahanorm.convert("raw/")              # paths → entities and diagnostics
    result = wahanorm.parse_text(text)             # one dump (or format="html") as a string
    wahanorm.write("out", result)                  # an output folder, as `wahanorm convert`
    loaded = wahanorm.load("out")                  # an output folder → models
    report = wahanorm.diff("old-out", "out")       # what changed, in the game's terms
    report = wahanorm.crosscheck("export/", "bsdata/")  # where two sources disagree
    wahanorm.build_database("out", "rules.db")     # SQLite with full-text search

Names load on first use, so ``import wahanorm`` stays cheap.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from wahanorm.contract.version import __version__

if TYPE_CHECKING:
    from wahanorm.api import Loaded, Result, convert, crosscheck, diff, load, parse_text, write
    from wahanorm.contract.models import (
        Abilities,
        Ability,
        AnyEntity,
        Damaged,
        Datasheet,
        Detachment,
        DetachmentAbility,
        DetachmentRule,
        Diagnostic,
        Dice,
        Enhancement,
        Index,
        IndexEntry,
        PhaseTiming,
        Points,
        Profile,
        Rule,
        SourceRef,
        Stat,
        Stratagem,
        Timing,
        Weapon,
        WeaponAbility,
    )
    from wahanorm.contract.schema import entity_schema, index_schema
    from wahanorm.errors import WahanormError
    from wahanorm.outputs.crosscheck.result import CrosscheckReport
    from wahanorm.outputs.database import build_database
    from wahanorm.outputs.diff.result import DiffReport

_WHERE = {
    "wahanorm.api": (
        "Loaded",
        "Result",
        "convert",
        "crosscheck",
        "diff",
        "load",
        "parse_text",
        "write",
    ),
    "wahanorm.outputs.crosscheck.result": ("CrosscheckReport",),
    "wahanorm.outputs.database": ("build_database",),
    "wahanorm.outputs.diff.result": ("DiffReport",),
    "wahanorm.errors": ("WahanormError",),
    "wahanorm.contract.models": (
        "Abilities",
        "Ability",
        "AnyEntity",
        "Damaged",
        "Datasheet",
        "Detachment",
        "DetachmentAbility",
        "DetachmentRule",
        "Diagnostic",
        "Dice",
        "Enhancement",
        "Index",
        "IndexEntry",
        "PhaseTiming",
        "Points",
        "Profile",
        "Rule",
        "SourceRef",
        "Stat",
        "Stratagem",
        "Timing",
        "Weapon",
        "WeaponAbility",
    ),
    "wahanorm.contract.schema": ("entity_schema", "index_schema"),
}
_MODULE_OF = {name: module for module, names in _WHERE.items() for name in names}

__all__ = [
    "Abilities",
    "Ability",
    "AnyEntity",
    "CrosscheckReport",
    "Damaged",
    "Datasheet",
    "Detachment",
    "DetachmentAbility",
    "DetachmentRule",
    "Diagnostic",
    "Dice",
    "DiffReport",
    "Enhancement",
    "Index",
    "IndexEntry",
    "Loaded",
    "PhaseTiming",
    "Points",
    "Profile",
    "Result",
    "Rule",
    "SourceRef",
    "Stat",
    "Stratagem",
    "Timing",
    "WahanormError",
    "Weapon",
    "WeaponAbility",
    "__version__",
    "build_database",
    "convert",
    "crosscheck",
    "diff",
    "entity_schema",
    "index_schema",
    "load",
    "parse_text",
    "write",
]


def __getattr__(name: str) -> Any:
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module 'wahanorm' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value  # once: later lookups do not come here
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
