"""The diff as data (schema version 1): what ``wahanorm diff --format json`` prints.

Every renderer reads these models and nothing else, so the text, markdown and JSON forms always
say the same thing. ``docs/diff.md`` documents the schema; ``DiffReport.model_json_schema()``
prints it.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

DIFF_SCHEMA_VERSION = 1

Status = Literal["added", "removed", "changed", "renamed"]
Op = Literal["added", "removed", "changed"]
SideSource = Literal["output", "inputs", "git-output", "git-inputs"]


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class WordOp(_Model):
    """One run of words of a word-level text diff: kept, deleted from OLD, or inserted in NEW."""

    op: Literal["equal", "delete", "insert"]
    text: str


class Change(_Model):
    """One change inside an entity, named in the game's terms."""

    path: str
    """Where in the entity, keyed by names, never positions: ``weapons[Lash of Khorne].attacks``."""
    op: Op
    label: str
    """What changed, as a player says it: ``Lash of Khorne: A``, ``Points (10 models)``, ``CP``."""
    old: str | None = None
    """The old value as text; None when ``op`` is ``added``."""
    new: str | None = None
    """The new value as text; None when ``op`` is ``removed``."""
    words: list[WordOp] | None = None
    """For prose fields (effect, ability text …): the word-level diff of ``old`` → ``new``."""
    summary: str
    """The whole change in one line: ``Lash of Khorne: A 9 → 8``."""


class EntityDiff(_Model):
    """One entity that was added, removed, renamed (new id, nearly the same content) or changed."""

    status: Status
    kind: str
    id: str
    """The id in NEW (the id in OLD for a removed entity)."""
    name: str
    edition: int | None = None
    """The entity's edition in NEW (in OLD for a removed entity); null before editions."""
    group: str
    """The faction (or Core, or the detachment when no faction is known) the entity is listed
    under."""
    old_id: str | None = None
    """For a rename: the id in OLD."""
    old_name: str | None = None
    """For a rename: the name in OLD."""
    similarity: int | None = None
    """For a rename: how alike OLD and NEW are, in percent."""
    changes: list[Change] = []


class Counts(_Model):
    """How many entities were added, removed, renamed and changed."""

    added: int = 0
    removed: int = 0
    renamed: int = 0
    changed: int = 0

    @property
    def total(self) -> int:
        """Every entity that differs."""
        return self.added + self.removed + self.renamed + self.changed


class Side(_Model):
    """One side of the diff as given on the command line."""

    spec: str
    """The argument: a folder, a file, or ``REV:PATH``."""
    source: SideSource
    """An output folder, raw inputs converted on the fly, or either read from a git revision."""
    data_version: str | None = None
    entities: int
    editions: list[int] = []
    """The game's editions (10, 11) the side's entities are of; empty for an output written
    before editions."""


class DiffReport(_Model):
    """The whole diff between OLD and NEW."""

    schema_version: Literal[1] = 1
    old: Side
    new: Side
    summary: Counts
    by_kind: dict[str, Counts]
    entities: list[EntityDiff]
    """Ordered by group, kind, then id."""

    @property
    def has_changes(self) -> bool:
        """True when any entity differs (exit code 1)."""
        return bool(self.entities)
