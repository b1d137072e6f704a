"""The crosscheck as data (schema version 1): what ``wahanorm crosscheck --format json`` prints.

Every renderer reads these models and nothing else, so the text, markdown and JSON forms always
say the same thing. ``docs/crosscheck.md`` documents the schema;
``CrosscheckReport.model_json_schema()`` prints it.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from wahanorm.outputs.diff.result import SideSource, WordOp

CROSSCHECK_SCHEMA_VERSION = 1

Matched = Literal["id", "name", "likeness"]
Which = Literal["a", "b"]


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Side(_Model):
    """One side of the crosscheck as given on the command line."""

    spec: str
    """The argument: an output folder, raw inputs, or ``REV:PATH``."""
    source: SideSource
    """An output folder, raw inputs converted on the fly, or either read from a git revision."""
    label: str
    """What the side is, in a few words from its data: the folder it was read from and its
    data version (``wahapedia-10ed-2026-02-14``, ``wh40k-10e-2026-02-14 (Warhammer 40,000 10th
    Edition r87)``); every disagreement names the sides by it."""
    data_version: str | None = None
    """From ``index.json``: an export's ``Last_update.csv``, a BSData game system and revision."""
    generator: str | None = None
    """The program that wrote the output (``wahanorm 0.1.0``)."""
    entities: int
    editions: list[int] = []


class Disagreement(_Model):
    """One field (or one part of a field) on which the two sides disagree."""

    path: str
    """Where in the entity, keyed by names, never positions (as ``diff``):
    ``profiles[Boy].movement``, ``weapons[Kannon – frag].abilities[blast]``, ``points[10]``."""
    field: str
    """The entity's field it is in (``profiles``, ``points``, ``keywords``): what ``--field``
    keeps and ``by_field`` counts."""
    label: str
    """What it is, as a player says it: ``Boy: Movement``, ``Points (10 models)``, ``Keyword``."""
    a: str | None = None
    """A's value as printed; null when only B has it."""
    b: str | None = None
    """B's value as printed; null when only A has it."""
    words: list[WordOp] | None = None
    """For prose: the word-level diff from A's text to B's (``delete``: A's words,
    ``insert``: B's)."""
    summary: str
    """The whole disagreement in one line, naming each side by its label:
    ``Boy: Movement 6" (A) vs 8" (B)``."""


class EntityCheck(_Model):
    """One entity both sides hold that they disagree on, or that they name differently."""

    kind: str
    id: str
    """A's id."""
    name: str
    """A's name."""
    edition: int | None = None
    group: str
    """The faction (or Core rules, or the detachment) it is listed under, as A names it."""
    matched_by: Matched
    """How the two were paired: the same ``id``; the same ``name`` in a faction the two name
    differently; or ``likeness`` of content (a unit named differently)."""
    b_id: str | None = None
    """B's id, where it differs from A's."""
    b_name: str | None = None
    """B's name, where it differs from A's (other than in letter case)."""
    similarity: int | None = None
    """For ``likeness``: how alike the two are, in percent."""
    disagreements: list[Disagreement] = []


class OneSided(_Model):
    """An entity only one side holds, in a faction and kind both sides hold."""

    kind: str
    id: str
    name: str
    edition: int | None = None
    group: str


class NotCompared(_Model):
    """A kind (``group`` null) or a kind in one faction that only one side holds at all: not
    compared, its entities not listed one by one (a source without stratagems, a data set of
    three factions against one of all)."""

    side: Which
    kind: str
    group: str | None = None
    entities: int


class FactionNames(_Model):
    """A faction the two sides name differently, told by the datasheets paired by name."""

    a: str
    b: str
    datasheets: int
    """How many datasheets were paired across the two names."""


class FieldCounts(_Model):
    """How the entity pairs of one kind fare on one field."""

    compared: int
    """Pairs where at least one side has a value."""
    agreeing: int
    disagreeing: int


class KindCounts(_Model):
    """The entities of one kind: pairs compared, agreeing, disagreeing, and those one side
    holds alone."""

    compared: int = 0
    agreeing: int = 0
    disagreeing: int = 0
    only_a: int = 0
    only_b: int = 0
    by_field: dict[str, FieldCounts] = {}
    one_sided_fields: dict[str, Which] = {}
    """Parts of the entity (as patterns: ``base_size``, ``abilities.core[].text``) only one
    side ever has: not compared, and which side has them."""


NUMBERS = ("profiles", "points", "weapons")
"""The fields a player looks up first (characteristics, points, weapons): what a report opens
with, before abilities, keywords and texts."""


class Headline(_Model):
    """How many datasheet pairs disagree on what a player looks up first (``NUMBERS``)."""

    datasheets: int = 0
    """Datasheet pairs compared."""
    disagreeing: int = 0
    """Of those, how many disagree on anything."""
    characteristics: int = 0
    """How many disagree on their model profiles (characteristics, invulnerable saves)."""
    points: int = 0
    """How many disagree on their costs."""
    weapons: int = 0
    """How many disagree on their weapons."""
    numbers: int = 0
    """How many disagree on at least one of the three."""


class Summary(_Model):
    """Entities compared, agreeing and disagreeing, those one side holds alone, and those
    paired under another name."""

    compared: int = 0
    agreeing: int = 0
    disagreeing: int = 0
    only_a: int = 0
    only_b: int = 0
    named_differently: int = 0


class CrosscheckReport(_Model):
    """Where A and B disagree."""

    schema_version: Literal[1] = 1
    a: Side
    b: Side
    kinds: list[str] = []
    """``--kind``: the kinds kept (empty: every kind)."""
    fields: list[str] = []
    """``--field``: the fields kept (empty: every field both sides have)."""
    summary: Summary
    headline: Headline = Headline()
    """The datasheets that disagree on characteristics, points and weapons: what a report
    opens with."""
    by_kind: dict[str, KindCounts]
    factions: list[FactionNames] = []
    entities: list[EntityCheck]
    """Ordered by group, kind, then id."""
    only_a: list[OneSided] = []
    only_b: list[OneSided] = []
    not_compared: list[NotCompared] = []

    @property
    def disagrees(self) -> bool:
        """True when a pair disagrees or an entity is on one side only (exit code 1)."""
        return bool(self.summary.disagreeing or self.only_a or self.only_b)


# --- three sources or more -----------------------------------------------------------------


class Holding(_Model):
    """One value of a field that differs, and the sides that hold it."""

    value: str | None = None
    """The value as printed; null: these sides do not hold it at all."""
    sides: list[str]
    """The labels of the sides that hold it, in the order of the command line."""


class Difference(_Model):
    """One field (or part of one) on which the sides that hold an entity do not all agree."""

    path: str
    """Where in the entity, keyed by names (as ``Disagreement.path``)."""
    field: str
    label: str
    """What it is, as a player says it: ``Hive Tyrant: Toughness``, ``Keyword``."""
    values: list[Holding]
    """Each value with the sides that hold it: the majority's first, then by how many hold it."""
    majority: bool = False
    """True when one value is held by more sides than any other (two against one): it is
    ``values[0]``, and the sides of the other values are the ones that differ."""
    words: list[WordOp] | None = None
    """For prose: the word-level diff from the first value's text to the second's."""
    summary: str
    """The whole difference in one line: ``Hive Tyrant: Toughness 10 in A and B, 9 in C``."""


class ManyEntity(_Model):
    """One entity as the sides hold it: listed when the sides that hold it differ on it."""

    kind: str
    id: str
    """The id the first side that holds it gives it."""
    name: str
    edition: int | None = None
    group: str
    """The faction (or Core rules) it is listed under, as the first side that holds it names it."""
    held_by: list[str]
    """The labels of the sides that hold it."""
    ids: dict[str, str] = {}
    """The id each side gives it, where a side names it otherwise than ``id``."""
    differences: list[Difference] = []


class PairCounts(_Model):
    """One pair of sides, as ``wahanorm crosscheck A B`` would count them."""

    a: str
    b: str
    compared: int
    agreeing: int
    disagreeing: int
    only_a: int
    only_b: int


class ManySummary(_Model):
    """What every side holds and agrees on, and what only some hold."""

    sides: int
    held_by_all: int = 0
    """Entities every side holds (paired across every pair of sides)."""
    agreeing: int = 0
    """Of those, how many every side agrees on, in every field the pairs compare."""
    differing: int = 0
    """Entities (held by all or by some) on which the sides that hold them differ."""
    held_by_some: int = 0
    """Entities that more than one side, but not every side, holds."""
    majority: int = 0
    """Differences where one value is held by more sides than any other."""


class ManyReport(_Model):
    """Where three sources or more disagree: every pair of sides compared as ``crosscheck A B``
    compares them, joined entity by entity."""

    schema_version: Literal[1] = 1
    sides: list[Side]
    kinds: list[str] = []
    fields: list[str] = []
    summary: ManySummary
    headline: Headline = Headline()
    """Of the datasheets every side holds, how many differ on characteristics, points, weapons."""
    pairs: list[PairCounts]
    entities: list[ManyEntity]
    """The entities the sides differ on, ordered by group, kind, then id."""
    only_one: dict[str, dict[str, int]] = {}
    """Per side label, per kind: entities only that side holds (in kinds another side holds)."""

    @property
    def disagrees(self) -> bool:
        """True when any pair of sides disagrees, as ``crosscheck A B`` says it (exit code 1)."""
        return any(p.disagreeing or p.only_a or p.only_b for p in self.pairs)
