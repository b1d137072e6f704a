"""``wahanorm diff``: what changed in the rules between two versions, in the game's terms.

Module map:

- ``sides``: what OLD/NEW name (output folder, raw inputs, ``REV:PATH``) → output files
- ``gitrev``: reading ``REV:PATH`` through ``git ls-tree`` and ``git cat-file --batch``
- ``engine``: output files → ``DiffReport``: match by (kind, id), renames, changes
- ``compare``, ``generic``, ``datasheet``: changes inside one entity
- ``rename``: probable renames by likeness of content
- ``groups``: the faction each entity is listed under
- ``words``, ``values``: word-level diffs and value helpers
- ``result``: the diff as pydantic models (the JSON schema)
- ``render_text``, ``render_markdown``: the two human formats
- ``command``: the ``diff`` subcommand (``add_parser``, ``run``)
"""

import sys
from types import ModuleType
from typing import Any

# Exports are loaded on first use: the CLI reads this package for the subcommand's arguments on
# every run, and the diff engine is not needed to convert.
_EXPORTS = {
    "EXIT_CHANGED": "wahanorm.outputs.diff.command",
    "EXIT_ERROR": "wahanorm.outputs.diff.command",
    "EXIT_SAME": "wahanorm.outputs.diff.command",
    "add_parser": "wahanorm.outputs.diff.command",
    "run": "wahanorm.outputs.diff.command",
    "Snapshot": "wahanorm.outputs.diff.engine",
    "diff_snapshots": "wahanorm.outputs.diff.engine",
    "DiffReport": "wahanorm.outputs.diff.result",
    "load_side": "wahanorm.outputs.diff.sides",
}


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        import importlib

        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'wahanorm.diff' has no attribute {name!r}")


__all__ = [
    "EXIT_CHANGED",
    "EXIT_ERROR",
    "EXIT_SAME",
    "DiffReport",
    "Snapshot",
    "add_parser",
    "diff_snapshots",
    "load_side",
    "run",
]


class _CallablePackage(ModuleType):
    """``wahanorm.diff`` is both this package and the public function ``wahanorm.diff(old,
    new)``: importing the package sets it as the attribute of ``wahanorm``, so the package
    itself calls the function."""

    def __call__(self, old: Any, new: Any) -> Any:
        from wahanorm.api import diff

        return diff(old, new)


sys.modules[__name__].__class__ = _CallablePackage
