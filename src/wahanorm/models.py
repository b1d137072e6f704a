"""The output contract (schema version 1) as pydantic models.

The models know nothing of Lark, of files or of JSON formatting: parsers build them, ``emit``
serialises them. Every entity has ``kind``, ``id``, ``name`` and ``sources``; everything else is
the data of its kind. Characteristics keep the text the rules print beside any typed value.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

SCHEMA_VERSION = 1


class Model(BaseModel):
    """Base of every output model: immutable, no unknown fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class SourceRef(Model):
    """Where an entity was read: input path (as given, POSIX form) and 1-based line range."""

    path: str
    line_start: int
    line_end: int


class Dice(Model):
    """A dice expression such as ``D6+1`` or ``2D3``: count × D(sides) + modifier."""

    count: int
    sides: int
    modifier: int = 0


class Stat(Model):
    """A characteristic: its canonical text (``12"``, ``2+``, ``D6+1``, ``Melee``, ``N/A``, ``-1``)
    and, where it is a fixed number, its value; where it is rolled, its dice."""

    text: str
    value: int | None = None
    dice: Dice | None = None


class WeaponAbility(Model):
    """One weapon keyword such as ``[ANTI-MONSTER 4+]``, typed with its parameters."""

    id: str
    name: str
    keyword: str | None = None
    threshold: int | None = None
    value: str | None = None


class Weapon(Model):
    """One weapon profile row of a datasheet."""

    name: str
    profile: str | None = None
    type: Literal["ranged", "melee"]
    range: Stat
    attacks: Stat
    skill: Stat
    strength: Stat
    armour_penetration: Stat
    damage: Stat
    abilities: list[WeaponAbility] = []


class Ability(Model):
    """A datasheet ability: core abilities carry a parameter (``Deadly Demise D6``)."""

    name: str
    parameter: str | None = None
    text: str | None = None
    aura: bool = False


class Abilities(Model):
    """The abilities of a datasheet, by group."""

    core: list[Ability] = []
    faction: list[Ability] = []
    datasheet: list[Ability] = []
    wargear: list[Ability] = []


class Profile(Model):
    """The characteristics of one model profile of a datasheet."""

    name: str
    movement: Stat | None = None
    toughness: Stat | None = None
    save: Stat | None = None
    wounds: Stat | None = None
    leadership: Stat | None = None
    objective_control: Stat | None = None
    invulnerable_save: Stat | None = None


class Points(Model):
    """One line of the unit's cost table."""

    models: int | None
    points: int
    text: str


class Damaged(Model):
    """The DAMAGED profile: the wounds range and what happens."""

    wounds: str
    text: str


class Timing(Model):
    """When a stratagem can be used, derived from its WHEN."""

    turn: Literal["your", "opponent", "either"]
    phases: list[str] = []


class Entity(Model):
    """Fields every entity shares."""

    id: str
    name: str
    sources: list[SourceRef] = []


class Datasheet(Entity):
    kind: Literal["datasheet"] = "datasheet"
    faction: str
    base_size: str | None = None
    profiles: list[Profile] = []
    weapons: list[Weapon] = []
    abilities: Abilities = Abilities()
    damaged: Damaged | None = None
    wargear_options: list[str] = []
    unit_composition: list[str] = []
    loadout: str | None = None
    points: list[Points] = []
    leader: list[str] = []
    led_by: list[str] = []
    orders: str | None = None
    keywords: list[str] = []
    faction_keywords: list[str] = []
    stratagems: list[str] = []
    detachment_rules: list[str] = []
    enhancements: list[str] = []
    variants: list[Datasheet] = []
    """Other versions seen under the same id when sources disagree."""


class Stratagem(Entity):
    kind: Literal["stratagem"] = "stratagem"
    cp: int | None = None
    source: str
    category: str | None = None
    rule_number: str | None = None
    flavour: str | None = None
    when: str | None = None
    target: str | None = None
    effect: str | None = None
    restrictions: str | None = None
    timing: Timing | None = None
    variants: list[Stratagem] = []
    """Other versions seen under the same id when sources disagree."""


class DetachmentRule(Entity):
    kind: Literal["detachment_rule"] = "detachment_rule"
    detachment: str
    flavour: str | None = None
    text: str
    variants: list[DetachmentRule] = []
    """Other versions seen under the same id when sources disagree."""


class Enhancement(Entity):
    kind: Literal["enhancement"] = "enhancement"
    detachment: str | None = None
    faction: str | None = None
    cost: int | None = None
    flavour: str | None = None
    text: str | None = None
    variants: list[Enhancement] = []
    """Other versions seen under the same id when sources disagree."""


class Rule(Entity):
    kind: Literal["rule"] = "rule"
    rule_number: str | None = None
    text: str
    variants: list[Rule] = []
    """Other versions seen under the same id when sources disagree."""


AnyEntity = Annotated[
    Datasheet | Stratagem | DetachmentRule | Enhancement | Rule, Field(discriminator="kind")
]
"""Any one entity, told apart by ``kind``."""

KINDS: tuple[str, ...] = ("datasheet", "stratagem", "detachment_rule", "enhancement", "rule")


class Diagnostic(Model):
    """Something the run could not parse, dropped, or found missing, with where it was."""

    severity: Literal["error", "warning", "info"]
    code: str
    message: str
    path: str
    line: int | None = None
    column: int | None = None
    excerpt: str | None = None


class IndexEntry(Model):
    """One line of ``index.json`` per entity."""

    id: str
    kind: str
    name: str
    hash: str
    sources: list[SourceRef]
    variants: int = 0
    path: str | None = None
    """The entity's file, relative to the output folder (what the next run may remove)."""


class Index(Model):
    """``out/index.json``: every entity, the run's diagnostics and counts."""

    schema_version: Literal[1] = 1
    generator: str
    data_version: str | None = None
    entities: list[IndexEntry]
    diagnostics: list[Diagnostic]
