"""The after-read chain: run once, in one place, on what every reader read, so that every check
runs on every input, whatever its format.

``STEPS`` in order: the edition stamped (an entity's own sign, else its source's, else its
part's, else ``--edition``, else 10th with a warning); implausible would-be entities (a name the
length of a sentence, an id too long to be a name, a datasheet with neither a profile nor a
weapon) dropped as errors; data a datasheet lacks (a profile, a characteristic, its weapons)
said as warnings; the same entity printed twice in one input kept once; a datasheet that lists
an entity the input holds only in the other edition said.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from wahanorm.blocks.edition import own_edition, settle_edition
from wahanorm.blocks.parse.stats import out_of_range
from wahanorm.contract.hashing import content_hash
from wahanorm.contract.models import Datasheet, Profile, Weapon
from wahanorm.contract.vocabulary import PROFILE_CHARACTERISTICS, WEAPON_CHARACTERISTICS, Edition
from wahanorm.errors import Report
from wahanorm.readers.base import EditionSign, Entity, Part, Reading

if TYPE_CHECKING:
    from wahanorm.pipeline.merge import Repeat


@dataclass
class Extraction:
    """What one input gives after the chain: its entities, its report, the data's version."""

    path: str
    entities: list[Entity] = field(default_factory=list)
    report: Report = field(default_factory=Report)
    data_version: str | None = None
    hashes: list[str] | None = None
    """The content hash of each entity of ``entities``, in order, where it is known (an
    extraction stored in the cache or read from it, whose entities were dumped there anyway, or
    a worker's): merge groups the copies of a batch by them without dumping each copy again.
    (A repeat carries its own.)"""
    repeats: list[Repeat] = field(default_factory=list)
    """The entities a worker had sent the main process before, given again as repeats (their
    sources, not their fields): only an extraction a worker sends holds any
    (``pipeline.run``)."""

    def __post_init__(self) -> None:
        if not self.report.path:
            self.report.path = self.path

    def __getstate__(self) -> dict[str, object]:
        """What a worker sends the main process: its repeats as plain tuples (as a report's
        diagnostics: a named tuple is pickled through a call of its own)."""
        state = dict(self.__dict__)
        state["repeats"] = list(map(tuple, self.repeats))
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        from wahanorm.pipeline.merge import Repeat

        self.__dict__.update(state, repeats=list(map(Repeat._make, state["repeats"])))


Step = Callable[[list[Entity], Report], list[Entity]]


def finish(reading: Reading, said: Edition | None = None) -> Extraction:
    """The chain on one reader's reading: ``said`` is the user's ``--edition``."""
    report = reading.report
    entities = stamp_editions(reading.parts, said, report)
    for _name, step in STEPS:
        entities = step(entities, report)
    return Extraction(reading.path, entities, report, reading.data_version)


def stamp_editions(parts: list[Part], said: Edition | None, report: Report) -> list[Entity]:
    """Each entity with its edition: its own heading's (a numbered rule, a core stratagem's
    form), else what its own source tells (an export row's link), else its part's."""
    stamped: list[Entity] = []
    for part in parts:
        if not part.entities:
            continue  # nothing to stamp: a guess about an empty part's edition says nothing
        sign = part.sign

        def warn(code: str, message: str, at: EditionSign = sign) -> None:
            report.warning(code, message, line=at.line, path=at.path)

        page = settle_edition(sign.edition, said, sign.told, sign.untold, warn)
        for position, entity in enumerate(part.entities):
            edition = own_edition(
                entity.kind,
                _field(entity, "rule_number"),
                _field(entity, "source"),
                _field(entity, "category"),
            )
            edition = edition or part.own.get(position) or page
            if entity.edition != edition:
                entity = entity.model_copy(update={"edition": edition})
            stamped.append(entity)
    return stamped


def _field(entity: Entity, name: str) -> Any:
    """A field of the entity's model, None for a kind that has no such field (asked of the
    model's fields: a missing attribute of a pydantic model is its slow path)."""
    return getattr(entity, name) if name in _fields_of(type(entity)) else None


@functools.cache
def _fields_of(model: type[Entity]) -> frozenset[str]:
    """The field names of a model, once per model (pydantic's ``model_fields`` is a property
    made each time it is asked)."""
    return frozenset(model.model_fields)


MAX_NAME_WORDS = 10
"""More words than any unit, rule or stratagem name has (the longest are about seven)."""
MAX_NAME_CHARS = 70
MAX_ID_CHARS = 80


def implausible(entity: Entity) -> str | None:
    """Why this would-be entity cannot be one the source holds, or None when it can."""
    words = len(entity.name.split())
    if words > MAX_NAME_WORDS or len(entity.name) > MAX_NAME_CHARS:
        return f"a name of sentence length ({words} words, {len(entity.name)} characters)"
    if entity.name.rstrip().endswith(".") and words > 3:
        return "a name that ends like a sentence"
    if len(entity.id) > MAX_ID_CHARS:
        return f"an id of {len(entity.id)} characters"
    if isinstance(entity, Datasheet) and not entity.profiles and not entity.weapons:
        return "a datasheet with neither a model profile nor a weapon"
    return None


def keep_plausible(entities: list[Entity], report: Report) -> list[Entity]:
    """The entities that pass ``implausible``; each other one is an error with its line."""
    kept: list[Entity] = []
    for entity in entities:
        reason = implausible(entity)
        if reason is None:
            kept.append(entity)
            continue
        source = entity.sources[0] if entity.sources else None
        report.error(
            "implausible-entity",
            f"{entity.kind} {entity.name[:60]!r} not kept: {reason}; the layout of this text "
            "was not understood here",
            line=source.line_start if source else None,
            path=source.path if source else None,
        )
    return kept


def report_missing_data(entities: list[Entity], report: Report) -> list[Entity]:
    """Warnings for what the datasheets show without (``missing_data``); the entities as they
    are. A datasheet without a weapon is a note (fortifications have none), but most of an
    input's datasheets without one is a warning: its weapon table was cut."""
    sheets = [e for e in entities if isinstance(e, Datasheet)]
    for sheet in sheets:
        missing_data(sheet, report)
    unarmed = [s for s in sheets if s.profiles and not s.weapons]
    for sheet in unarmed:
        report.info(
            "weapons-missing",
            f"datasheet {sheet.name!r} has no weapon",
            line=sheet.sources[0].line_start if sheet.sources else None,
            path=sheet.sources[0].path if sheet.sources else None,
        )
    if len(unarmed) >= MANY_UNARMED and len(unarmed) * 10 > len(sheets):
        report.warning(
            "many-without-weapons",
            f"{len(unarmed)} of {len(sheets)} datasheets have no weapon (a few fortifications "
            "have none; this many means the weapons were not read: is the weapon table whole?)",
        )
    return entities


MANY_UNARMED = 2
"""With more than a tenth of an input's datasheets, this many without a weapon is a warning."""


def missing_data(sheet: Datasheet, report: Report) -> None:
    """Warnings for what a datasheet shows without: a model profile, a characteristic of a
    profile, a characteristic of a weapon; and for a characteristic printed as a number no game
    value can be (kept as text only: ``numbers.MAX_GAME_VALUE``)."""
    line = sheet.sources[0].line_start if sheet.sources else None
    path = sheet.sources[0].path if sheet.sources else None
    if not sheet.profiles:
        report.warning(
            "profile-missing",
            f"datasheet {sheet.name!r} has no model profile",
            line=line,
            path=path,
        )
    for profile in sheet.profiles:
        missing = _missing(profile, PROFILE_CHARACTERISTICS)
        if missing and len(missing) < len(PROFILE_CHARACTERISTICS):
            report.warning(
                "characteristic-missing",
                f"{sheet.name!r}, profile {profile.name!r}: no {', '.join(missing)}",
                line=line,
                path=path,
            )
        _report_out_of_range(sheet, "profile", profile, PROFILE_CHARACTERISTICS, report)
    for weapon in sheet.weapons:
        missing = _missing(weapon, WEAPON_CHARACTERISTICS)
        if missing:
            report.warning(
                "characteristic-missing",
                f"{sheet.name!r}, weapon {weapon.name!r}: no {', '.join(missing)}",
                line=line,
                path=path,
            )
        _report_out_of_range(sheet, "weapon", weapon, WEAPON_CHARACTERISTICS, report)


def _report_out_of_range(
    sheet: Datasheet,
    what: str,
    model: Profile | Weapon,
    fields: tuple[str, ...],
    report: Report,
) -> None:
    values = model.__dict__
    for name in fields:
        stat = values[name]
        if stat is not None and stat.value is None and stat.dice is None and out_of_range(stat):
            report.warning(
                "out-of-range",
                f"{sheet.name!r}, {what} {model.name!r}: {name.replace('_', ' ')} "
                f"{stat.text[:40]!r} is no value a characteristic can be; kept as text only",
                line=sheet.sources[0].line_start if sheet.sources else None,
                path=sheet.sources[0].path if sheet.sources else None,
            )


def _missing(model: Profile | Weapon, fields: tuple[str, ...]) -> list[str]:
    values = model.__dict__  # the fields as stored: no attribute look-up per characteristic
    names = []
    for name in fields:
        stat = values[name]
        if stat is None or not stat.text.strip():
            names.append(name.replace("_", " "))
    return names


def drop_repeats(entities: list[Entity], report: Report) -> list[Entity]:
    """The same entity printed twice in one input (same kind, id, edition and content: a page
    repeats a rule under each tooltip that links it) is kept once, said as a note. Same id with
    different content stays twice, for merge to report."""
    # An entity's content is hashed only once another one has its kind and id: most have none.
    first_of: dict[tuple[str, str], Entity] = {}
    hashed: dict[tuple[str, str], dict[str, Entity]] = {}
    kept: list[Entity] = []
    for entity in entities:
        key = (entity.kind, entity.id)
        first = first_of.setdefault(key, entity)
        if first is entity:
            kept.append(entity)
            continue
        copies = hashed.get(key)
        if copies is None:
            copies = hashed[key] = {content_hash(first): first}
        digest = content_hash(entity)  # the hash holds the edition
        if digest in copies:
            earlier = copies[digest]
            line = earlier.sources[0].line_start if earlier.sources else 0
            source = entity.sources[0] if entity.sources else None
            report.info(
                "duplicate-dropped",
                f"{entity.kind} {entity.name!r} printed again (first at line {line})",
                source.line_start if source else None,
                path=source.path if source else None,
            )
            continue
        copies[digest] = entity
        kept.append(entity)
    return kept


LISTS = (
    ("stratagem", "stratagems"),
    ("enhancement", "enhancements"),
    ("detachment_rule", "detachment_rules"),
)


def check_edition_links(entities: list[Entity], report: Report) -> list[Entity]:
    """A datasheet lists the entities of its own edition; one that lists an entity the input
    holds only in the other edition is said (the link is kept)."""
    held = {(e.edition, e.kind, e.id) for e in entities}
    for sheet in entities:
        if not isinstance(sheet, Datasheet):
            continue
        other = 21 - sheet.edition  # 10 ↔ 11
        for kind, field_name in LISTS:
            for entity_id in getattr(sheet, field_name):
                if (sheet.edition, kind, entity_id) in held or (other, kind, entity_id) not in held:
                    continue
                report.warning(
                    "edition-link",
                    f"datasheet {sheet.id} ({sheet.edition}th edition) lists {kind} "
                    f"{entity_id}, which the input holds only in {other}th edition",
                    line=sheet.sources[0].line_start if sheet.sources else None,
                    path=sheet.sources[0].path if sheet.sources else None,
                )
    return entities


STEPS: list[tuple[str, Step]] = [
    ("keep_plausible", keep_plausible),
    ("report_missing_data", report_missing_data),
    ("drop_repeats", drop_repeats),
    ("check_edition_links", check_edition_links),
]
"""The chain after the edition is stamped, in order; each name is the function's name."""
