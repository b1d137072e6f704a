"""The output contract (schema version 3, ``vocabulary.SCHEMA_VERSION``) as pydantic models.

The models know nothing of Lark, of files or of JSON formatting: parsers build them, ``emit``
serialises them. Every entity has ``kind``, ``id``, ``name`` and ``sources``; everything else is
the data of its kind. Characteristics keep the text the rules print beside any typed value.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from wahanorm.contract.vocabulary import Edition, Kind, Phase, Turn


class Model(BaseModel):
    """Base of every output model: immutable, no unknown fields. The docstring under a field is
    its description in the JSON Schemas (``contract.schema`` reads them when it makes a schema;
    pydantic's ``use_attribute_docstrings`` would read the source of every model at each import
    of this module, a sixth of its cost, in every run)."""

    model_config = ConfigDict(
        frozen=True,
        extra="forbid",
        json_schema_serialization_defaults_required=True,  # an output file has every field
    )


class SourceRef(Model):
    """Where an entity was read: input path (as given, POSIX form) and 1-based line range."""

    path: str
    """The input file as given on the command line, in POSIX form (for an export: the CSV table)."""
    line_start: int
    """First line of the entity in that input (1-based)."""
    line_end: int
    """Last line of the entity in that input (1-based, inclusive)."""


class Dice(Model):
    """A dice expression such as ``D6+1`` or ``2D3``: count × D(sides) + modifier."""

    count: int
    """How many dice are rolled (``2`` in ``2D6``)."""
    sides: int
    """Sides of each die (``6`` in ``D6``, ``3`` in ``D3``)."""
    modifier: int = 0
    """Added to the roll (``1`` in ``D6+1``); 0 when none."""


class Stat(Model):
    """A characteristic: its canonical text (``12"``, ``2+``, ``D6+1``, ``Melee``, ``N/A``, ``-1``)
    and, where it is a fixed number, its value; where it is rolled, its dice."""

    text: str
    """The characteristic as the rules print it, canonical spelling: ``12"``, ``2+``, ``D6+1``, ``Melee``, ``N/A``."""
    value: int | None = None
    """The fixed number it stands for (``12`` for ``12"``, ``2`` for ``2+``, ``-1`` for ``-1``); null when rolled or not a number."""
    dice: Dice | None = None
    """The dice it is rolled with (``D6+1``); null when it is not rolled."""
    note: str | None = None
    """The condition the source prints for a starred value (``4*`` with ``* Against ranged
    attacks only``): the value holds only under it."""


class WeaponAbility(Model):
    """One weapon keyword such as ``[ANTI-MONSTER 4+]``, typed with its parameters."""

    id: str
    """Slug of the ability, without its parameters: ``anti``, ``sustained-hits``, ``devastating-wounds``, ``rapid-fire``."""
    name: str
    """The ability as printed, upper case, parameters included: ``ANTI-INFANTRY 4+``."""
    keyword: str | None = None
    """For ANTI: the keyword it is anti (``INFANTRY``); else null."""
    threshold: int | None = None
    """For ANTI: the unmodified Wound roll that is a Critical Wound (``4`` for ``4+``); else null."""
    value: str | None = None
    """The parameter of SUSTAINED HITS, RAPID FIRE, MELTA and the like (``1``, ``D3``); else null."""
    condition: str | None = None
    """What the ability applies against, as printed after its colon (``LETHAL HITS:
    non-MONSTER/VEHICLE`` → ``non-MONSTER/VEHICLE``); None when it always applies."""


class Weapon(Model):
    """One weapon profile row of a datasheet."""

    name: str
    """The weapon's name without its profile: ``Axe of Khorne``."""
    profile: str | None = None
    """The profile of a weapon with several (``strike`` for ``Axe of Khorne – strike``); null for a single profile."""
    type: Literal["ranged", "melee"]
    """``ranged`` or ``melee``: the table the weapon is listed in."""
    range: Stat
    """Range (``24"``, or ``Melee``)."""
    attacks: Stat
    """Attacks (A): a number or dice (``D6+1``)."""
    skill: Stat
    """Ballistic or Weapon Skill (BS/WS): ``3+``, or ``N/A`` for a weapon that hits automatically."""
    strength: Stat
    """Strength (S)."""
    armour_penetration: Stat
    """Armour Penetration (AP): ``-2``, ``0``."""
    damage: Stat
    """Damage (D): a number or dice."""
    abilities: list[WeaponAbility] = []
    """The weapon's abilities (the keywords in brackets), in the order printed."""


class Ability(Model):
    """A datasheet ability: core abilities carry a parameter (``Deadly Demise D6``)."""

    name: str
    """The ability's name as printed (``Deadly Demise``, ``Feel No Pain``)."""
    parameter: str | None = None
    """The parameter of a core ability (``D6`` in ``Deadly Demise D6``, ``5+``, ``6"``); else null."""
    text: str | None = None
    """The ability's rules text; null for a core ability listed by name only."""
    aura: bool = False
    """True when the page marks the ability as an Aura."""


class Abilities(Model):
    """The abilities of a datasheet, by group."""

    core: list[Ability] = []
    """Core abilities (CORE line: Deep Strike, Leader, Deadly Demise D6 …)."""
    faction: list[Ability] = []
    """Faction abilities (FACTION line: the army rule the unit has, e.g. Blessings of Khorne)."""
    datasheet: list[Ability] = []
    """The unit's own abilities, with their text."""
    wargear: list[Ability] = []
    """Abilities a piece of wargear gives."""


class Profile(Model):
    """The characteristics of one model profile of a datasheet."""

    name: str
    """The model the profile is for (the datasheet's name when it has a single profile)."""
    movement: Stat | None = None
    """Movement (M), e.g. ``6"``."""
    toughness: Stat | None = None
    """Toughness (T)."""
    save: Stat | None = None
    """Save (Sv), e.g. ``3+``."""
    wounds: Stat | None = None
    """Wounds (W)."""
    leadership: Stat | None = None
    """Leadership (Ld), e.g. ``6+``."""
    objective_control: Stat | None = None
    """Objective Control (OC)."""
    invulnerable_save: Stat | None = None
    """Invulnerable save, e.g. ``4+``; null when the model has none."""
    keywords: list[str] = []
    """Keywords the page gives to this model only (``CADIAN COMMANDER: CHARACTER, OFFICER``)."""


class Points(Model):
    """One line of the unit's cost table."""

    models: int | None
    """How many models the line is for; null when the line does not say."""
    points: int
    """The cost in points."""
    text: str
    """The line's label as printed: ``5 models``, ``Tidewall Defence Platform +20``."""
    add_on: bool = False
    """The cost is added to the unit's (``Invader ATV +60``), not the price of a unit."""
    units_from: int | None = None
    """The first unit of this datasheet in an army that the cost applies to (``YOUR 4TH + UNIT
    COSTS`` → 4); None when the source gives no tier."""
    units_to: int | None = None
    """The last unit of this datasheet the cost applies to (``YOUR 1ST TO 3RD UNITS COST`` → 3);
    None for every unit from ``units_from`` on, or when the source gives no tier."""


class Damaged(Model):
    """The DAMAGED profile: the wounds range and what happens."""

    wounds: str
    """The wounds remaining in which the DAMAGED profile applies, as printed: ``1-6``."""
    text: str
    """What happens while the model is damaged."""


class PhaseTiming(Model):
    """One phase a stratagem can be used in, and whose turn that phase must be."""

    phase: Phase
    """The phase the WHEN names (a step such as Reinforcements counts as its phase)."""
    turn: Turn
    """Whose turn the WHEN says for this phase ("your opponent's Shooting phase" → opponent;
    "the Fight phase" → either)."""


class Timing(Model):
    """When a stratagem can be used, derived from its WHEN."""

    turn: Turn
    """Whose turn overall: the one turn all its phases share, else either."""
    phases: list[PhaseTiming] = []
    """Each phase the WHEN names with whose turn it is, in turn order; for "any phase" every
    phase not excluded."""
    any_phase: bool = False
    """The WHEN says "any phase" ("Start of any phase", "End of any of your phases")."""
    excluded_phases: list[Phase] = []
    """Phases an "any phase" WHEN excludes ("(excluding the Command phase)")."""


class Entity(Model):
    """Fields every entity shares."""

    id: str
    """Stable path-safe id, ``<namespace>/<name>`` built from names: ``world-eaters/bloodthirster``, ``core/command-re-roll``."""
    name: str
    """The name as printed."""
    edition: Edition = 10
    """The edition of the game this entity is a rule of (10 or 11), told from the input."""
    sources: list[SourceRef] = []
    """Every place the entity was read, with its lines."""


class Datasheet(Entity):
    """A unit's datasheet: characteristics, weapons, abilities, composition, points, keywords."""

    kind: Literal["datasheet"] = "datasheet"
    """Always ``datasheet``."""
    faction: str
    """The faction the datasheet belongs to: ``World Eaters``."""
    base_size: str | None = None
    """Base size as printed (``100mm``, ``Use model``); null when not given."""
    profiles: list[Profile] = []
    """One characteristics profile per kind of model."""
    weapons: list[Weapon] = []
    """Every weapon profile, ranged then melee, in the order printed."""
    abilities: Abilities = Abilities()
    """Core, faction, datasheet and wargear abilities."""
    damaged: Damaged | None = None
    """The DAMAGED profile; null when the unit has none."""
    wargear_options: list[str] = []
    """The WARGEAR OPTIONS, one entry per option."""
    unit_composition: list[str] = []
    """The UNIT COMPOSITION lines (how many of which model)."""
    loadout: str | None = None
    """What the unit is equipped with, as printed (``Every model is equipped with: …``)."""
    points: list[Points] = []
    """The cost table: one line per unit size."""
    leader: list[str] = []
    """Ids of the units this character can lead (its LEADER section)."""
    led_by: list[str] = []
    """Ids of the characters that can lead this unit."""
    orders: str | None = None
    """The orders text some factions print on a datasheet; null when none."""
    keywords: list[str] = []
    """Keywords, upper case and sorted."""
    faction_keywords: list[str] = []
    """Faction keywords, upper case and sorted."""
    stratagems: list[str] = []
    """Ids of the stratagems the page lists for this unit."""
    detachment_rules: list[str] = []
    """Ids of the detachment rules the page lists."""
    enhancements: list[str] = []
    """Ids of the enhancements the page lists."""
    is_support: bool | None = None
    """11th edition: whether the unit is a support character (``Datasheets.is_support``); null
    where the source does not say."""
    variants: list[Datasheet] = []
    """Other versions seen under the same id when sources disagree."""


class ListItem(Model):
    """One item of a list in a rules text, with its own sub-items under it."""

    text: str = ""
    """The item's text without its label, its own line breaks kept (``\\n``); empty for an
    item that only heads its sub-items (``Into the Fray:``)."""
    label: str | None = None
    """The name the source marks at the item's start (the site's red label), without its
    colon: a mode's name where the mode is offered, the mode the item applies to elsewhere;
    null when the item has none."""
    cost: str | None = None
    """An extra cost the source prints beside the item, as printed (``+1CP``); null when
    none."""
    items: list[ListItem] = []
    """The item's own items, in printed order (a list inside the item)."""


class Block(Model):
    """A run of rules text: a paragraph and the list printed right after it."""

    text: str = ""
    """The paragraph, its lines joined by ``\\n``; empty for a list printed without a lead-in."""
    items: list[ListItem] = []
    """The list printed after the paragraph, in order; empty for a paragraph alone."""
    ordered: bool = False
    """The list is numbered (a sequence of steps)."""


class Mode(Model):
    """One mode a rule or stratagem offers: the first list item that carries a label, with its
    extra cost where it has one (derived from the items, never chosen by words)."""

    name: str
    """The mode's name as printed (``Into the Fray``)."""
    cost: str | None = None
    """Its extra cost as printed (``+1CP``); null when it costs nothing extra."""
    extra_cp: int | None = None
    """The extra cost in command points (``+1CP`` → 1); null when none or not in CP."""
    section: str | None = None
    """The label of the section that offers it (``EFFECT``, ``BEFORE MOVING``); null when the
    text has no labels."""
    text: str = ""
    """The mode's own text (empty when it only heads its items)."""
    items: list[ListItem] = []
    """The mode's items, in printed order."""


class Commentary(Model):
    """A commentary box printed beside a rule (a designer's explanation, an example): not a
    rule, so kept apart from the rule's text and sections."""

    title: str | None = None
    """Its heading as printed (``INDIRECT FIRE``, ``Example``); null when it has none."""
    text: str
    """Its text, a list's items as ``- `` lines (two spaces further in per level)."""


class RuleSection(Model):
    """One labelled section of a rules text (``ELIGIBLE IF: …``, a stratagem's ``WHEN: …``)."""

    label: str
    """The label as printed, upper case, without its colon (``ELIGIBLE IF``, ``AFTER MOVING``)."""
    text: str
    """The section's text up to the next label; a list's items as ``- `` lines, two spaces
    further in per level of nesting."""
    blocks: list[Block] = []
    """The section's text as paragraphs, each with the list printed after it."""


class Stratagem(Entity):
    """A stratagem: its cost, where it comes from, and its WHEN / TARGET / EFFECT / RESTRICTIONS."""

    kind: Literal["stratagem"] = "stratagem"
    """Always ``stratagem``."""
    cp: int | None = None
    """Command points it costs; null when the source does not say."""
    source: str
    """Where it comes from: ``Core``, ``Boarding Actions`` or the detachment's name."""
    category: str | None = None
    """``Battle Tactic``, ``Strategic Ploy``, ``Epic Deed``, ``Wargear``; null when not printed."""
    rule_number: str | None = None
    """The rules' number of a numbered core stratagem (``15.02``); else null."""
    flavour: str | None = None
    """The italic story text; null when none."""
    when: str | None = None
    """The WHEN section: when it can be used."""
    target: str | None = None
    """The TARGET section: what it is used on."""
    effect: str | None = None
    """The EFFECT section: what it does (lists and costs written as in ``Rule.text``)."""
    restrictions: str | None = None
    """The RESTRICTIONS section; null when none."""
    timing: Timing | None = None
    """Turn and phases derived from the WHEN; null when there is no WHEN."""
    sections: list[RuleSection] = []
    """The labelled sections (WHEN, TARGET, EFFECT, RESTRICTIONS) in printed order, each with
    its paragraphs and lists; ``when`` … ``restrictions`` hold the same texts."""
    modes: list[Mode] = []
    """The modes the stratagem offers, in printed order; empty when it offers none."""
    commentary: list[Commentary] = []
    """Commentary boxes printed with the stratagem, out of its sections; empty when none."""
    variants: list[Stratagem] = []
    """Other versions seen under the same id when sources disagree."""


class DetachmentAbility(Model):
    """One named sub-ability of a detachment rule, with its cost where the rule prints one."""

    name: str
    """The sub-ability's name ("Daemonic Rage")."""
    cost: str | None = None
    """Its cost as printed, without brackets ("3BTP"), or None."""
    text: str
    """Its rule text."""


class DetachmentRule(Entity):
    """A detachment's rule (its DETACHMENT ABILITY)."""

    kind: Literal["detachment_rule"] = "detachment_rule"
    """Always ``detachment_rule``."""
    detachment: str
    """The detachment the rule belongs to."""
    flavour: str | None = None
    """The italic story text; null when none."""
    text: str
    """The rule's text."""
    abilities: list[DetachmentAbility] = []
    """The named sub-abilities the rule lists ("- Daemonic Rage [3BTP]: …"), each whole;
    ``text`` keeps the rule's own text before them."""
    restrictions: str | None = None
    """The detachment's RESTRICTIONS, apart from its rule text."""
    tables: list[list[list[str]]] = []
    """Tables the rule prints (``BATTLE SIZE`` / ``NUMBER OF UNITS``), each a list of rows of
    cells as printed, in order, out of ``text``; the same shape as ``Rule.tables``."""
    variants: list[DetachmentRule] = []
    """Other versions seen under the same id when sources disagree."""


class Enhancement(Entity):
    """An enhancement a character of a detachment can take."""

    kind: Literal["enhancement"] = "enhancement"
    """Always ``enhancement``."""
    detachment: str | None = None
    """The detachment it belongs to; null when the source only lists it."""
    faction: str | None = None
    """The faction it belongs to, when known."""
    cost: int | None = None
    """Its cost in points; null when not printed."""
    flavour: str | None = None
    """The italic story text; null when none."""
    text: str | None = None
    """Its rules text; null when the source only lists it."""
    upgrade: bool | None = None
    """11th edition: whether the enhancement is an upgrade (``Enhancements.upgrade``); null
    where the source does not say."""
    support_leader: str | None = None
    """11th edition: the export's ``Enhancements.support_leader`` text, where it has one."""
    variants: list[Enhancement] = []
    """Other versions seen under the same id when sources disagree."""


class Detachment(Entity):
    """A detachment of a faction (id ``<faction>/<detachment>``), with its 11th-edition cost in
    detachment points and its force disposition."""

    kind: Literal["detachment"] = "detachment"
    """Always ``detachment``."""
    faction: str | None = None
    """The faction's name."""
    type: str | None = None
    """What the source calls the detachment's type, e.g. ``Boarding Actions``; null for a
    detachment of the main game."""
    dp: int | None = None
    """Its cost in detachment points (``Detachments.dp``), where the source has one."""
    force_disposition: str | None = None
    """Its force disposition (``Detachments.force_disposition``, e.g. ``Take and Hold``)."""
    flavour: str | None = None
    """Its flavour text (``Detachments.legend``), where the source has one."""
    variants: list[Detachment] = []
    """Other versions seen under the same id when sources disagree."""


class Rule(Entity):
    """A rules entry: a core rule, a core ability, a weapon ability explained, a faction's army rule."""

    kind: Literal["rule"] = "rule"
    """Always ``rule``."""
    rule_number: str | None = None
    """The rules' number (``15.02``); null when unnumbered."""
    text: str
    """The rule's text without its commentary: a list's items as ``- `` lines, two spaces
    further in per level of nesting, an item's extra cost in brackets after its label
    (``- Into the Fray [+1CP]:``)."""
    tables: list[list[list[str]]] = []
    """Tables the rule prints (in dumps: announced "as shown below."), each a list of rows of
    cells, in the order the source prints them, out of ``text``; a caption is a row of one
    cell."""
    category: str | None = None
    """What kind of rule the source says it is, when it says (``Movement Ability``)."""
    sections: list[RuleSection] = []
    """The labelled sections of a move or action, in order; empty for a rule without labels."""
    blocks: list[Block] = []
    """The text outside every labelled section (an intro; the whole text of a rule without
    labels) as paragraphs, each with the list printed after it."""
    modes: list[Mode] = []
    """The modes the rule offers, in printed order; empty when it offers none."""
    commentary: list[Commentary] = []
    """Commentary boxes printed with the rule, out of its text and sections; empty when none."""
    references: list[str] = []
    """The numbered rules the text refers to (``(03.02)`` → ``03.02``), each once, in order."""
    variants: list[Rule] = []
    """Other versions seen under the same id when sources disagree."""


AnyEntity = Annotated[
    Datasheet | Stratagem | DetachmentRule | Enhancement | Detachment | Rule,
    Field(discriminator="kind"),
]
"""Any one entity, told apart by ``kind``."""


class Diagnostic(Model):
    """Something the run could not parse, dropped, or found missing, with where it was."""

    severity: Literal["error", "warning", "info"]
    """``error`` (could not be read), ``warning`` (a hole, a conflict, a guess) or ``info`` (dropped on purpose)."""
    code: str
    """A stable code that names the kind of problem (``conflict``, ``partial-entry``, ``parse-error``)."""
    message: str
    """What happened, in a sentence."""
    path: str
    """The input it was found in."""
    line: int | None = None
    """1-based line in that input; null when it is about the whole input."""
    column: int | None = None
    """1-based column; null when not known."""
    excerpt: str | None = None
    """The line itself, with a caret under the column; null when not given."""


class IndexEntry(Model):
    """One line of ``index.json`` per entity."""

    id: str
    """The entity's id."""
    kind: Kind
    """The entity's kind."""
    name: str
    """The entity's name."""
    edition: Edition = 10
    """The entity's edition (10 or 11): with ``kind`` and ``id`` it names the entity's file."""
    hash: str
    """Hash of what the entity says (its sources and variants left out): two files with the same hash say the same."""
    sources: list[SourceRef]
    """Where the entity was read."""
    variants: int = 0
    """How many other versions were seen under its id (its ``variants``)."""
    path: str | None = None
    """The entity's file, relative to the output folder (what the next run may remove)."""


class Index(Model):
    """``out/index.json``: every entity, the run's diagnostics and counts."""

    schema_version: Literal[3] = 3
    """Version of the output contract (2: editions, per-phase timing, cost tiers, labelled
    rules, detachments; 3: rules text as paragraphs and nested lists, modes, commentary,
    stratagem sections)."""
    generator: str
    """The program and version that wrote the folder: ``wahanorm 0.1.0``."""
    data_version: str | None = None
    """The data's own version where the source gives one (an export's Last_update); else null."""
    language: str | None = None
    """The language names and texts were read in where the run asked for one (``--language
    de``: Game-Datacards files give eight); null for English, the contract's own. Ids are made
    from the English names in every language."""
    entities: list[IndexEntry]
    """One entry per entity file, sorted by kind then id."""
    diagnostics: list[Diagnostic]
    """Every diagnostic of the run, sorted by path and line."""
