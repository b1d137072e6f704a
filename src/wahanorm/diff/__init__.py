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

from wahanorm.diff.command import EXIT_CHANGED, EXIT_ERROR, EXIT_SAME, add_parser, run
from wahanorm.diff.engine import Snapshot, diff_snapshots
from wahanorm.diff.result import DiffReport
from wahanorm.diff.sides import load_side

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
