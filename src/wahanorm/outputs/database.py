"""A SQLite database of a conversion: normalised tables with keys and indexes, and an FTS5
full-text index over every rules text (``wahanorm db OUT rules.db``, ``convert --sqlite``).

Built from the output files (an output folder, or the files a conversion is about to write),
read as plain JSON through ``index.json``. One output may hold both editions of the game, with
the same ids in each: every entity table is keyed by ``(edition, id)`` (``entities`` and
``sources`` by ``(edition, kind, id)``), and a datasheet's links name entities of its own
edition. Each table is filled by one function below
(``_datasheet_rows`` … ``_enhancement_rows``), the one place that maps the contract onto
it. Rows go in a fixed order into a temporary file that is renamed over the target at the end,
so the same output gives the same bytes, and a reader never sees half a database.
"""

from __future__ import annotations

import os
import sqlite3
import tempfile
from collections import defaultdict
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from wahanorm.contract.hashing import hash_of, said_of
from wahanorm.contract.vocabulary import PROFILE_CHARACTERISTICS, WEAPON_CHARACTERISTICS
from wahanorm.errors import InputError, OutputError
from wahanorm.outputs.canonical import canonical_json
from wahanorm.outputs.output import JSON, Output

DB_VERSION = 5
"""Version of the table layout; in the ``meta`` table (2: keyed by edition; 4: characteristic
notes, per-model keywords, rule references and variants as rows; 5: the shape of rules text:
``modes``, ``commentary``, ``text_items``, ``stratagem_sections``)."""

SCHEMA_SQL = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID;
CREATE TABLE entities (
  edition INTEGER NOT NULL, kind TEXT NOT NULL, id TEXT NOT NULL, name TEXT NOT NULL,
  hash TEXT NOT NULL, variants INTEGER NOT NULL, PRIMARY KEY (edition, kind, id)
) WITHOUT ROWID;
CREATE TABLE sources (
  edition INTEGER NOT NULL, kind TEXT NOT NULL, entity_id TEXT NOT NULL,
  position INTEGER NOT NULL, path TEXT NOT NULL, line_start INTEGER NOT NULL,
  line_end INTEGER NOT NULL, PRIMARY KEY (edition, kind, entity_id, position),
  FOREIGN KEY (edition, kind, entity_id) REFERENCES entities (edition, kind, id)
) WITHOUT ROWID;
CREATE TABLE datasheets (
  edition INTEGER NOT NULL, id TEXT NOT NULL, name TEXT NOT NULL, faction TEXT NOT NULL,
  base_size TEXT, loadout TEXT, orders TEXT, damaged_wounds TEXT, damaged_text TEXT,
  is_support INTEGER, PRIMARY KEY (edition, id)
) WITHOUT ROWID;
CREATE TABLE profiles (
  edition INTEGER NOT NULL, datasheet_id TEXT NOT NULL, position INTEGER NOT NULL,
  name TEXT NOT NULL,
  movement TEXT, movement_value INTEGER, toughness TEXT, toughness_value INTEGER,
  save TEXT, save_value INTEGER, wounds TEXT, wounds_value INTEGER,
  leadership TEXT, leadership_value INTEGER, objective_control TEXT,
  objective_control_value INTEGER, invulnerable_save TEXT, invulnerable_save_value INTEGER,
  PRIMARY KEY (edition, datasheet_id, position),
  FOREIGN KEY (edition, datasheet_id) REFERENCES datasheets (edition, id)
) WITHOUT ROWID;
CREATE TABLE weapons (
  id INTEGER PRIMARY KEY, edition INTEGER NOT NULL, datasheet_id TEXT NOT NULL,
  position INTEGER NOT NULL, name TEXT NOT NULL, profile TEXT, type TEXT NOT NULL,
  range TEXT, range_value INTEGER, attacks TEXT, attacks_value INTEGER,
  skill TEXT, skill_value INTEGER, strength TEXT, strength_value INTEGER,
  armour_penetration TEXT, armour_penetration_value INTEGER, damage TEXT, damage_value INTEGER,
  UNIQUE (edition, datasheet_id, position),
  FOREIGN KEY (edition, datasheet_id) REFERENCES datasheets (edition, id)
);
CREATE TABLE weapon_abilities (
  weapon_id INTEGER NOT NULL REFERENCES weapons (id), position INTEGER NOT NULL,
  ability TEXT NOT NULL, name TEXT NOT NULL, keyword TEXT, threshold INTEGER, value TEXT,
  condition TEXT, PRIMARY KEY (weapon_id, position)
) WITHOUT ROWID;
CREATE TABLE abilities (
  edition INTEGER NOT NULL, datasheet_id TEXT NOT NULL, "group" TEXT NOT NULL,
  position INTEGER NOT NULL, name TEXT NOT NULL, parameter TEXT, text TEXT,
  aura INTEGER NOT NULL, PRIMARY KEY (edition, datasheet_id, "group", position),
  FOREIGN KEY (edition, datasheet_id) REFERENCES datasheets (edition, id)
) WITHOUT ROWID;
CREATE TABLE points (
  edition INTEGER NOT NULL, datasheet_id TEXT NOT NULL, position INTEGER NOT NULL,
  models INTEGER, points INTEGER NOT NULL, text TEXT NOT NULL,
  add_on INTEGER NOT NULL, units_from INTEGER, units_to INTEGER,
  PRIMARY KEY (edition, datasheet_id, position),
  FOREIGN KEY (edition, datasheet_id) REFERENCES datasheets (edition, id)
) WITHOUT ROWID;
CREATE TABLE stat_notes (
  edition INTEGER NOT NULL, datasheet_id TEXT NOT NULL, owner TEXT NOT NULL,
  position INTEGER NOT NULL, characteristic TEXT NOT NULL, note TEXT NOT NULL,
  PRIMARY KEY (edition, datasheet_id, owner, position, characteristic),
  FOREIGN KEY (edition, datasheet_id) REFERENCES datasheets (edition, id)
) WITHOUT ROWID;
CREATE TABLE profile_keywords (
  edition INTEGER NOT NULL, datasheet_id TEXT NOT NULL, position INTEGER NOT NULL,
  keyword TEXT NOT NULL, PRIMARY KEY (edition, datasheet_id, position, keyword),
  FOREIGN KEY (edition, datasheet_id, position) REFERENCES profiles (edition, datasheet_id, position)
) WITHOUT ROWID;
CREATE TABLE keywords (
  edition INTEGER NOT NULL, datasheet_id TEXT NOT NULL, keyword TEXT NOT NULL,
  faction INTEGER NOT NULL, PRIMARY KEY (edition, datasheet_id, faction, keyword),
  FOREIGN KEY (edition, datasheet_id) REFERENCES datasheets (edition, id)
) WITHOUT ROWID;
CREATE TABLE datasheet_lines (
  edition INTEGER NOT NULL, datasheet_id TEXT NOT NULL, section TEXT NOT NULL,
  position INTEGER NOT NULL, text TEXT NOT NULL,
  PRIMARY KEY (edition, datasheet_id, section, position),
  FOREIGN KEY (edition, datasheet_id) REFERENCES datasheets (edition, id)
) WITHOUT ROWID;
CREATE TABLE datasheet_links (
  edition INTEGER NOT NULL, datasheet_id TEXT NOT NULL, relation TEXT NOT NULL,
  target_id TEXT NOT NULL, PRIMARY KEY (edition, datasheet_id, relation, target_id),
  FOREIGN KEY (edition, datasheet_id) REFERENCES datasheets (edition, id)
) WITHOUT ROWID;
CREATE TABLE stratagems (
  edition INTEGER NOT NULL, id TEXT NOT NULL, name TEXT NOT NULL, cp INTEGER,
  source TEXT NOT NULL, category TEXT, rule_number TEXT, flavour TEXT, "when" TEXT,
  target TEXT, effect TEXT, restrictions TEXT, turn TEXT, any_phase INTEGER,
  PRIMARY KEY (edition, id)
) WITHOUT ROWID;
CREATE TABLE stratagem_phases (
  edition INTEGER NOT NULL, stratagem_id TEXT NOT NULL, phase TEXT NOT NULL,
  turn TEXT NOT NULL, PRIMARY KEY (edition, stratagem_id, phase),
  FOREIGN KEY (edition, stratagem_id) REFERENCES stratagems (edition, id)
) WITHOUT ROWID;
CREATE TABLE stratagem_excluded_phases (
  edition INTEGER NOT NULL, stratagem_id TEXT NOT NULL, phase TEXT NOT NULL,
  PRIMARY KEY (edition, stratagem_id, phase),
  FOREIGN KEY (edition, stratagem_id) REFERENCES stratagems (edition, id)
) WITHOUT ROWID;
CREATE TABLE rules (
  edition INTEGER NOT NULL, id TEXT NOT NULL, name TEXT NOT NULL, rule_number TEXT,
  category TEXT, text TEXT NOT NULL, PRIMARY KEY (edition, id)
) WITHOUT ROWID;
CREATE TABLE rule_sections (
  edition INTEGER NOT NULL, rule_id TEXT NOT NULL, position INTEGER NOT NULL,
  label TEXT NOT NULL, text TEXT NOT NULL,
  PRIMARY KEY (edition, rule_id, position),
  FOREIGN KEY (edition, rule_id) REFERENCES rules (edition, id)
) WITHOUT ROWID;
CREATE TABLE stratagem_sections (
  edition INTEGER NOT NULL, stratagem_id TEXT NOT NULL, position INTEGER NOT NULL,
  label TEXT NOT NULL, text TEXT NOT NULL,
  PRIMARY KEY (edition, stratagem_id, position),
  FOREIGN KEY (edition, stratagem_id) REFERENCES stratagems (edition, id)
) WITHOUT ROWID;
CREATE TABLE modes (
  edition INTEGER NOT NULL, kind TEXT NOT NULL, entity_id TEXT NOT NULL,
  position INTEGER NOT NULL, name TEXT NOT NULL, cost TEXT, extra_cp INTEGER, section TEXT,
  text TEXT NOT NULL, PRIMARY KEY (edition, kind, entity_id, position),
  FOREIGN KEY (edition, kind, entity_id) REFERENCES entities (edition, kind, id)
) WITHOUT ROWID;
CREATE TABLE commentary (
  edition INTEGER NOT NULL, kind TEXT NOT NULL, entity_id TEXT NOT NULL,
  position INTEGER NOT NULL, title TEXT, text TEXT NOT NULL,
  PRIMARY KEY (edition, kind, entity_id, position),
  FOREIGN KEY (edition, kind, entity_id) REFERENCES entities (edition, kind, id)
) WITHOUT ROWID;
CREATE TABLE text_items (
  edition INTEGER NOT NULL, kind TEXT NOT NULL, entity_id TEXT NOT NULL, field TEXT NOT NULL,
  part_no INTEGER NOT NULL, block_no INTEGER NOT NULL, item_path TEXT NOT NULL,
  label TEXT, cost TEXT, text TEXT NOT NULL, ordered INTEGER NOT NULL,
  PRIMARY KEY (edition, kind, entity_id, field, part_no, block_no, item_path),
  FOREIGN KEY (edition, kind, entity_id) REFERENCES entities (edition, kind, id)
) WITHOUT ROWID;
CREATE TABLE rule_references (
  edition INTEGER NOT NULL, rule_id TEXT NOT NULL, position INTEGER NOT NULL,
  reference TEXT NOT NULL, PRIMARY KEY (edition, rule_id, position),
  FOREIGN KEY (edition, rule_id) REFERENCES rules (edition, id)
) WITHOUT ROWID;
CREATE TABLE rule_tables (
  edition INTEGER NOT NULL, kind TEXT NOT NULL, entity_id TEXT NOT NULL,
  table_no INTEGER NOT NULL, row_no INTEGER NOT NULL, cell_no INTEGER NOT NULL,
  text TEXT NOT NULL, PRIMARY KEY (edition, kind, entity_id, table_no, row_no, cell_no),
  FOREIGN KEY (edition, kind, entity_id) REFERENCES entities (edition, kind, id)
) WITHOUT ROWID;
CREATE TABLE detachments (
  edition INTEGER NOT NULL, id TEXT NOT NULL, name TEXT NOT NULL, faction TEXT, type TEXT,
  dp INTEGER, force_disposition TEXT, flavour TEXT, PRIMARY KEY (edition, id)
) WITHOUT ROWID;
CREATE TABLE detachment_rules (
  edition INTEGER NOT NULL, id TEXT NOT NULL, name TEXT NOT NULL, detachment TEXT NOT NULL,
  flavour TEXT, text TEXT NOT NULL, restrictions TEXT, PRIMARY KEY (edition, id)
) WITHOUT ROWID;
CREATE TABLE detachment_abilities (
  edition INTEGER NOT NULL, detachment_rule_id TEXT NOT NULL, position INTEGER NOT NULL,
  name TEXT NOT NULL, cost TEXT, text TEXT NOT NULL,
  PRIMARY KEY (edition, detachment_rule_id, position),
  FOREIGN KEY (edition, detachment_rule_id) REFERENCES detachment_rules (edition, id)
) WITHOUT ROWID;
CREATE TABLE enhancements (
  edition INTEGER NOT NULL, id TEXT NOT NULL, name TEXT NOT NULL, detachment TEXT,
  faction TEXT, cost INTEGER, flavour TEXT, text TEXT, upgrade INTEGER, support_leader TEXT,
  PRIMARY KEY (edition, id)
) WITHOUT ROWID;
CREATE TABLE variants (
  edition INTEGER NOT NULL, kind TEXT NOT NULL, entity_id TEXT NOT NULL,
  position INTEGER NOT NULL, hash TEXT NOT NULL, sources TEXT NOT NULL, data TEXT NOT NULL,
  PRIMARY KEY (edition, kind, entity_id, position),
  FOREIGN KEY (edition, kind, entity_id) REFERENCES entities (edition, kind, id)
) WITHOUT ROWID;
CREATE TABLE diagnostics (
  id INTEGER PRIMARY KEY, severity TEXT NOT NULL, code TEXT NOT NULL, message TEXT NOT NULL,
  path TEXT NOT NULL, line INTEGER, "column" INTEGER, excerpt TEXT
);
CREATE VIRTUAL TABLE rules_text USING fts5 (
  edition UNINDEXED, kind UNINDEXED, entity_id UNINDEXED, field UNINDEXED, name, text,
  tokenize = 'unicode61 remove_diacritics 2'
);
"""

INDEXES_SQL = """
CREATE INDEX entities_name ON entities (name COLLATE NOCASE);
CREATE INDEX datasheets_faction ON datasheets (faction, edition);
CREATE INDEX datasheets_name ON datasheets (name COLLATE NOCASE);
CREATE INDEX profiles_toughness ON profiles (toughness_value);
CREATE INDEX weapons_name ON weapons (name COLLATE NOCASE);
CREATE INDEX weapons_datasheet ON weapons (edition, datasheet_id);
CREATE INDEX weapon_abilities_ability ON weapon_abilities (ability, keyword);
CREATE INDEX abilities_name ON abilities (name COLLATE NOCASE);
CREATE INDEX points_points ON points (points);
CREATE INDEX keywords_keyword ON keywords (keyword, faction);
CREATE INDEX datasheet_links_target ON datasheet_links (target_id, relation, edition);
CREATE INDEX stratagems_source ON stratagems (source);
CREATE INDEX stratagem_phases_phase ON stratagem_phases (phase, turn);
CREATE INDEX detachments_faction ON detachments (faction, edition);
CREATE INDEX detachment_rules_detachment ON detachment_rules (detachment);
CREATE INDEX enhancements_detachment ON enhancements (detachment);
CREATE INDEX profile_keywords_keyword ON profile_keywords (keyword);
CREATE INDEX diagnostics_code ON diagnostics (code, severity);
CREATE INDEX modes_name ON modes (name COLLATE NOCASE);
"""

STAT_NAMES = (*PROFILE_CHARACTERISTICS, "invulnerable_save")
DICE_REASON = "- the characteristic's text holds its dice as printed (D6+1)"


def _stat_fields(prefix: str, table: str, names: Iterable[str]) -> dict[str, str]:
    fields: dict[str, str] = {}
    for name in names:
        fields[f"{prefix}.{name}.text"] = f"{table}.{name}"
        fields[f"{prefix}.{name}.value"] = f"{table}.{name}_value"
        fields[f"{prefix}.{name}.note"] = "stat_notes.note"
        for part in ("count", "sides", "modifier"):
            fields[f"{prefix}.{name}.dice.{part}"] = DICE_REASON
    return fields


def _common_fields(kind: str, table: str | None) -> dict[str, str]:
    fields = {
        f"{kind}.id": "entities.id",
        f"{kind}.kind": "entities.kind",
        f"{kind}.name": "entities.name",
        f"{kind}.edition": "entities.edition",
        f"{kind}.sources.path": "sources.path",
        f"{kind}.sources.line_start": "sources.line_start",
        f"{kind}.sources.line_end": "sources.line_end",
        f"{kind}.variants": "variants.data",
    }
    if table:
        fields[f"{kind}.name"] = f"{table}.name"
    return fields


def _item_fields(prefix: str) -> dict[str, str]:
    """A list's items (``ListItem``) in ``text_items``: one row per item, ``item_path`` its place
    in the nesting (``1.2``: the second sub-item of the first item)."""
    fields = {f"{prefix}.{name}": f"text_items.{name}" for name in ("text", "label", "cost")}
    return {**fields, f"{prefix}.items": "text_items.item_path"}


def _block_fields(prefix: str) -> dict[str, str]:
    """Paragraphs with their lists (``Block``) in ``text_items``: a paragraph is the row whose
    ``item_path`` is empty."""
    return {
        f"{prefix}.text": "text_items.text",
        f"{prefix}.ordered": "text_items.ordered",
        **_item_fields(f"{prefix}.items"),
    }


def _shape_fields(kind: str) -> dict[str, str]:
    """The shape of a rule's or stratagem's rules text: its sections' paragraphs and lists, its
    modes and its commentary."""
    return {
        **_block_fields(f"{kind}.sections.blocks"),
        **{f"{kind}.modes.{name}": f"modes.{name}" for name in (
            "name", "cost", "extra_cp", "section", "text")},
        **_item_fields(f"{kind}.modes.items"),
        f"{kind}.commentary.title": "commentary.title",
        f"{kind}.commentary.text": "commentary.text",
    }  # fmt: skip


FIELDS: dict[str, str] = {
    **_common_fields("datasheet", "datasheets"),
    **{
        f"datasheet.{name}": f"datasheets.{name}"
        for name in ("faction", "base_size", "loadout", "orders", "is_support")
    },
    "datasheet.profiles.name": "profiles.name",
    **_stat_fields("datasheet.profiles", "profiles", STAT_NAMES),
    "datasheet.profiles.keywords": "profile_keywords.keyword",
    "datasheet.weapons.name": "weapons.name",
    "datasheet.weapons.profile": "weapons.profile",
    "datasheet.weapons.type": "weapons.type",
    **_stat_fields("datasheet.weapons", "weapons", WEAPON_CHARACTERISTICS),
    "datasheet.weapons.abilities.id": "weapon_abilities.ability",
    **{
        f"datasheet.weapons.abilities.{name}": f"weapon_abilities.{name}"
        for name in ("name", "keyword", "threshold", "value", "condition")
    },
    **{
        f"datasheet.abilities.{group}.{name}": f"abilities.{name}"
        for group in ("core", "faction", "datasheet", "wargear")
        for name in ("name", "parameter", "text", "aura")
    },
    "datasheet.damaged.wounds": "datasheets.damaged_wounds",
    "datasheet.damaged.text": "datasheets.damaged_text",
    "datasheet.wargear_options": "datasheet_lines.text",
    "datasheet.unit_composition": "datasheet_lines.text",
    **{
        f"datasheet.points.{name}": f"points.{name}"
        for name in ("models", "points", "text", "add_on", "units_from", "units_to")
    },
    **{
        f"datasheet.{name}": "datasheet_links.target_id"
        for name in ("leader", "led_by", "stratagems", "detachment_rules", "enhancements")
    },
    "datasheet.keywords": "keywords.keyword",
    "datasheet.faction_keywords": "keywords.keyword",
    **_common_fields("stratagem", "stratagems"),
    **{
        f"stratagem.{name}": f"stratagems.{name}"
        for name in (
            "cp", "source", "category", "rule_number", "flavour", "when", "target", "effect",
            "restrictions",
        )
    },
    "stratagem.sections.label": "stratagem_sections.label",
    "stratagem.sections.text": "stratagem_sections.text",
    **_shape_fields("stratagem"),
    "stratagem.timing.turn": "stratagems.turn",
    "stratagem.timing.any_phase": "stratagems.any_phase",
    "stratagem.timing.phases.phase": "stratagem_phases.phase",
    "stratagem.timing.phases.turn": "stratagem_phases.turn",
    "stratagem.timing.excluded_phases": "stratagem_excluded_phases.phase",
    **_common_fields("detachment", "detachments"),
    **{
        f"detachment.{name}": f"detachments.{name}"
        for name in ("faction", "type", "dp", "force_disposition", "flavour")
    },
    **_common_fields("detachment_rule", "detachment_rules"),
    **{
        f"detachment_rule.{name}": f"detachment_rules.{name}"
        for name in ("detachment", "flavour", "text", "restrictions")
    },
    **{
        f"detachment_rule.abilities.{name}": f"detachment_abilities.{name}"
        for name in ("name", "cost", "text")
    },
    "detachment_rule.tables": "rule_tables.text",
    **_common_fields("enhancement", "enhancements"),
    **{
        f"enhancement.{name}": f"enhancements.{name}"
        for name in (
            "detachment", "faction", "cost", "flavour", "text", "upgrade", "support_leader"
        )
    },
    **_common_fields("rule", "rules"),
    **{f"rule.{name}": f"rules.{name}" for name in ("rule_number", "text", "category")},
    "rule.tables": "rule_tables.text",
    "rule.sections.label": "rule_sections.label",
    "rule.sections.text": "rule_sections.text",
    "rule.references": "rule_references.reference",
    **_shape_fields("rule"),
    **_block_fields("rule.blocks"),
}  # fmt: skip
"""Where each field of the contract (``kind.field.subfield``) is in the database, as
``table.column``, or (starting with ``-``) why it is not; ``tests/test_database.py`` walks the
entity schema and holds every field to this list."""


Row = tuple[Any, ...]
Rows = dict[str, list[Row]]


def build_database(source: Path | str | Output, target: Path | str) -> Path:
    """Write the database of an output folder (or of ``Output.from_files``) to ``target``,
    replacing it whole. An output folder is read under its shared lock (one whole run). The
    target must be new or a database wahanorm wrote (``target_problem``): anything else raises
    ``OutputError`` before anything is written. Returns the target's path."""
    path = Path(target)
    if isinstance(source, Output):
        _refuse(target_problem(path))
        rows = collect_rows(source)
    else:
        with Output.reading(Path(source)) as output:
            _refuse(target_problem(path, out=Path(source)))
            rows = collect_rows(output)
    path.parent.mkdir(parents=True, exist_ok=True)  # as convert makes --out
    # Written beside the target, then moved over it whole: a reader of the target never sees
    # half a database, and a failed build leaves the old one.
    fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    os.close(fd)
    tmp = Path(name)
    os.chmod(tmp, 0o666 & ~_umask())  # as a file written with open(): mkstemp makes it 0600
    try:
        _write(tmp, rows)
        _refuse(target_problem(path))  # the target may have changed while the rows were made
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return path


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _refuse(problem: str | None) -> None:
    if problem:
        raise OutputError(problem)


SQLITE_HEADER = b"SQLite format 3\x00"


def is_wahanorm_database(path: Path) -> bool:
    """True when ``path`` is a regular file holding a SQLite database whose ``meta`` table
    names wahanorm as its generator (a database this module wrote)."""
    try:
        if path.is_symlink() or not path.is_file():
            return False
        with path.open("rb") as handle:
            if handle.read(len(SQLITE_HEADER)) != SQLITE_HEADER:
                return False
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    except (OSError, sqlite3.Error):
        return False
    try:
        found = db.execute("SELECT value FROM meta WHERE key = 'generator'").fetchone()
    except sqlite3.Error:
        return False
    finally:
        db.close()
    return bool(found) and str(found[0]).startswith("wahanorm ")


def target_problem(
    target: Path, inputs: Iterable[Path] = (), out: Path | None = None
) -> str | None:
    """Why the database may not be written at ``target``, or None. It is wahanorm's only when
    it is new or a database wahanorm wrote; a link, a device, a folder, a file below a file,
    an input of the run, a file inside an input folder or inside the output folder is never its."""
    redo = "give the path of a new file, or of a database wahanorm wrote"
    if target.is_symlink():
        return (
            f"the database {target} is a symbolic link: wahanorm never writes through one; {redo}"
        )
    if target.is_dir():
        return f"the database {target} is a folder: give the path of a file, e.g. {target}/rules.db"
    for parent in target.parents:
        if parent.exists():
            if not parent.is_dir():
                return f"cannot write the database {target}: {parent} is a file, not a folder"
            break
    if target.exists() and not target.is_file():
        return f"the database {target} is not a regular file (a device or a pipe); {redo}"
    here = target.resolve()
    for given in inputs:
        if given.resolve() == here:
            return f"the database {target} is an input of this run; {redo}"
        if given.is_dir() and given.resolve() in here.parents:
            return (
                f"the database {target} lies inside the input folder {given} (the next run "
                "would read it); give a path outside it"
            )
    if out is not None and out.resolve() in here.parents:
        return f"the database {target} lies inside the output folder {out}; give a path outside it"
    if target.exists() and not is_wahanorm_database(target):
        return f"{target} already exists and is not a database wahanorm wrote; {redo}"
    return None


def collect_rows(output: Output) -> Rows:
    """Every row of every table, in the order they are inserted (the index's order)."""
    rows: Rows = defaultdict(list)
    index = output.index
    rows["meta"] = [
        ("data_version", index.get("data_version")),
        ("db_version", str(DB_VERSION)),
        ("generator", index.get("generator")),
        ("schema_version", str(index.get("schema_version"))),
    ]
    next_weapon = [1]
    for entry in output.entries:
        try:
            _entity_rows(output.entity(entry), entry, rows, next_weapon)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            raise output.not_the_contract(entry, exc) from exc
    diagnostics = index.get("diagnostics", [])
    for number, d in enumerate(diagnostics if isinstance(diagnostics, list) else [], start=1):
        try:
            rows["diagnostics"].append(
                (
                    number,
                    d["severity"],
                    d["code"],
                    d["message"],
                    d["path"],
                    d.get("line"),
                    d.get("column"),
                    d.get("excerpt"),
                )
            )
        except (KeyError, TypeError, AttributeError) as exc:
            raise InputError(
                f"{output.label}: diagnostic {number} of index.json is damaged ({exc!r} missing)"
            ) from exc
    return rows


def _entity_rows(entity: JSON, entry: JSON, rows: Rows, next_weapon: list[int]) -> None:
    """The rows of one entity file (its ``index.json`` entry gives its hash)."""
    kind = str(entry["kind"])
    ed = _edition(entity)
    rows["entities"].append(
        (ed, kind, entry["id"], entry["name"], entry["hash"], entry.get("variants", 0))
    )
    for position, src in enumerate(entity.get("sources", [])):
        rows["sources"].append(
            (ed, kind, entity["id"], position, src["path"], src["line_start"], src["line_end"])
        )
    for position, variant in enumerate(entity.get("variants", [])):
        said = said_of(variant)
        rows["variants"].append(
            (
                ed,
                kind,
                entity["id"],
                position,
                hash_of(said),
                canonical_json(variant.get("sources", [])).rstrip("\n"),
                canonical_json(variant).rstrip("\n"),
            )
        )
    filler = _FILLERS.get(kind)
    if filler is not None:
        filler(entity, rows, next_weapon)


def _edition(entity: JSON) -> int:
    """The entity's edition (the reader of out/ gives one to an entity of an older output)."""
    return int(entity["edition"])


def _flag(value: object) -> int | None:
    """A yes/no/unknown field as 1, 0 or NULL."""
    return None if value is None else int(bool(value))


# --- one function per kind: the contract → rows ---------------------------------------------
# Every row of an entity starts with its edition: the same id may be in both editions, and a
# datasheet's links name entities of its own edition (join on edition and id).


def _datasheet_rows(d: JSON, rows: Rows, next_weapon: list[int]) -> None:
    did, ed = d["id"], _edition(d)
    damaged = d.get("damaged") or {}
    rows["datasheets"].append(
        (
            ed,
            did,
            d["name"],
            d["faction"],
            d.get("base_size"),
            d.get("loadout"),
            d.get("orders"),
            damaged.get("wounds"),
            damaged.get("text"),
            _flag(d.get("is_support")),
        )
    )
    for position, profile in enumerate(d.get("profiles", [])):
        stats = [x for name in STAT_NAMES for x in _stat(profile.get(name))]
        rows["profiles"].append((ed, did, position, profile["name"], *stats))
        rows["stat_notes"].extend(_notes(ed, did, "profile", position, profile, STAT_NAMES))
        for keyword in sorted(set(profile.get("keywords", []))):
            rows["profile_keywords"].append((ed, did, position, keyword))
    for position, weapon in enumerate(d.get("weapons", [])):
        weapon_id = next_weapon[0]
        next_weapon[0] += 1
        stats = [x for name in WEAPON_CHARACTERISTICS for x in _stat(weapon.get(name))]
        rows["stat_notes"].extend(
            _notes(ed, did, "weapon", position, weapon, WEAPON_CHARACTERISTICS)
        )
        rows["weapons"].append(
            (
                weapon_id,
                ed,
                did,
                position,
                weapon["name"],
                weapon.get("profile"),
                weapon["type"],
                *stats,
            )
        )
        for number, ab in enumerate(weapon.get("abilities", [])):
            rows["weapon_abilities"].append(
                (
                    weapon_id,
                    number,
                    ab["id"],
                    ab["name"],
                    ab.get("keyword"),
                    ab.get("threshold"),
                    ab.get("value"),
                    ab.get("condition"),
                )
            )
    for group, abilities in sorted((d.get("abilities") or {}).items()):
        for position, ab in enumerate(abilities):
            rows["abilities"].append(
                (
                    ed,
                    did,
                    group,
                    position,
                    ab["name"],
                    ab.get("parameter"),
                    ab.get("text"),
                    int(bool(ab.get("aura"))),
                )
            )
            _text(rows, d, f"ability:{group}", ab["name"], ab.get("text"))
    _text(rows, d, "damaged", d["name"], damaged.get("text"))
    for position, p in enumerate(d.get("points", [])):
        rows["points"].append(
            (
                ed,
                did,
                position,
                p.get("models"),
                p["points"],
                p["text"],
                int(bool(p.get("add_on"))),
                p.get("units_from"),
                p.get("units_to"),
            )
        )
    for flag, field in ((0, "keywords"), (1, "faction_keywords")):
        for keyword in sorted(set(d.get(field, []))):
            rows["keywords"].append((ed, did, keyword, flag))
    for section in ("unit_composition", "wargear_options"):
        for position, line in enumerate(d.get(section, [])):
            rows["datasheet_lines"].append((ed, did, section, position, line))
    for relation in ("leader", "led_by", "stratagems", "detachment_rules", "enhancements"):
        for target in sorted(set(d.get(relation, []))):
            rows["datasheet_links"].append((ed, did, relation, target))


def _stratagem_rows(s: JSON, rows: Rows, _: list[int]) -> None:
    timing = s.get("timing") or {}
    ed = _edition(s)
    rows["stratagems"].append(
        (
            ed,
            s["id"],
            s["name"],
            s.get("cp"),
            s["source"],
            s.get("category"),
            s.get("rule_number"),
            s.get("flavour"),
            s.get("when"),
            s.get("target"),
            s.get("effect"),
            s.get("restrictions"),
            timing.get("turn"),
            _flag(timing.get("any_phase")) if timing else None,
        )
    )
    rows["stratagem_phases"].extend(_stratagem_phase_rows(ed, s["id"], timing))
    for phase in sorted(set(timing.get("excluded_phases", []))):
        rows["stratagem_excluded_phases"].append((ed, s["id"], phase))
    for field in ("when", "target", "effect", "restrictions"):
        _text(rows, s, field, s["name"], s.get(field))
    for position, section in enumerate(s.get("sections", [])):
        rows["stratagem_sections"].append(
            (ed, s["id"], position, section["label"], section["text"])
        )
    _shape_rows(s, rows)


def _stratagem_phase_rows(edition: int, stratagem_id: str, timing: JSON) -> Iterator[Row]:
    """(edition, stratagem_id, phase, turn) for each phase the stratagem is used in, with whose
    turn that phase must be (an "any phase" WHEN lists every phase it does not exclude)."""
    for item in timing.get("phases", []):
        yield (edition, stratagem_id, item["phase"], item["turn"])


def _rule_rows(r: JSON, rows: Rows, _: list[int]) -> None:
    ed = _edition(r)
    rows["rules"].append(
        (ed, r["id"], r["name"], r.get("rule_number"), r.get("category"), r["text"])
    )
    _text(rows, r, "text", r["name"], r["text"])
    for position, section in enumerate(r.get("sections", [])):
        rows["rule_sections"].append((ed, r["id"], position, section["label"], section["text"]))
    for position, reference in enumerate(r.get("references", [])):
        rows["rule_references"].append((ed, r["id"], position, reference))
    _block_rows(r, rows, "blocks", 0, r.get("blocks", []))
    _shape_rows(r, rows)
    _table_rows(r, rows)


def _shape_rows(e: JSON, rows: Rows) -> None:
    """A rule's or stratagem's sections' lists, modes and commentary. ``text_items.field`` says
    what holds the item: ``sections`` (``part_no`` the section's position), ``blocks`` (the text
    outside sections), ``modes`` (``part_no`` the mode's position). Each mode and commentary box
    also goes to the full-text index (``mode:NAME``, ``commentary:TITLE``), apart from the
    rule's own text."""
    key = (_edition(e), e["kind"], e["id"])
    for position, section in enumerate(e.get("sections", [])):
        _block_rows(e, rows, "sections", position, section.get("blocks", []))
    for position, mode in enumerate(e.get("modes", [])):
        rows["modes"].append(
            (*key, position, mode["name"], mode.get("cost"), mode.get("extra_cp"),
             mode.get("section"), mode.get("text", ""))
        )  # fmt: skip
        _item_rows(rows, (*key, "modes", position, 0), mode.get("items", []), "")
        said = "\n".join(x for x in (mode.get("text"), *_item_texts(mode.get("items", []))) if x)
        _text(rows, e, f"mode:{mode['name']}", e["name"], said or mode["name"])
    for position, box in enumerate(e.get("commentary", [])):
        rows["commentary"].append((*key, position, box.get("title"), box["text"]))
        _text(rows, e, f"commentary:{box.get('title') or ''}", e["name"], box["text"])


def _block_rows(e: JSON, rows: Rows, field: str, part_no: int, blocks: list[JSON]) -> None:
    for block_no, block in enumerate(blocks):
        key = (_edition(e), e["kind"], e["id"], field, part_no, block_no)
        ordered = int(bool(block.get("ordered")))
        rows["text_items"].append((*key, "", None, None, block.get("text", ""), ordered))
        _item_rows(rows, key, block.get("items", []), "", ordered)


def _item_rows(rows: Rows, key: Row, items: list[JSON], parent: str, ordered: int = 0) -> None:
    """One row per list item, depth first; ``item_path`` numbers from 1 at each level."""
    for number, item in enumerate(items, start=1):
        path = f"{parent}.{number}" if parent else str(number)
        rows["text_items"].append(
            (*key, path, item.get("label"), item.get("cost"), item.get("text", ""), ordered)
        )
        _item_rows(rows, key, item.get("items", []), path)


def _item_texts(items: list[JSON]) -> Iterator[str]:
    for item in items:
        yield str(item.get("text") or "")
        yield from _item_texts(item.get("items", []))


def _table_rows(r: JSON, rows: Rows) -> None:
    """A rule's or detachment rule's tables, one row per cell (table, row and cell numbered
    from 0 in printed order); each table's rows also go to the full-text index."""
    for table_no, table in enumerate(r.get("tables", [])):
        for row_no, row in enumerate(table):
            for cell_no, cell in enumerate(row):
                key = (_edition(r), r["kind"], r["id"], table_no, row_no, cell_no)
                rows["rule_tables"].append((*key, cell))
        lines = "\n".join(" | ".join(row) for row in table)
        _text(rows, r, f"table:{table_no}", r["name"], lines)


def _detachment_rows(d: JSON, rows: Rows, _: list[int]) -> None:
    rows["detachments"].append(
        (
            _edition(d),
            d["id"],
            d["name"],
            d.get("faction"),
            d.get("type"),
            d.get("dp"),
            d.get("force_disposition"),
            d.get("flavour"),
        )
    )


def _detachment_rule_rows(r: JSON, rows: Rows, _: list[int]) -> None:
    ed = _edition(r)
    rows["detachment_rules"].append(
        (
            ed,
            r["id"],
            r["name"],
            r["detachment"],
            r.get("flavour"),
            r["text"],
            r.get("restrictions"),
        )
    )
    _text(rows, r, "text", r["name"], r["text"])
    _text(rows, r, "restrictions", r["name"], r.get("restrictions"))
    for position, ab in enumerate(r.get("abilities", [])):
        rows["detachment_abilities"].append(
            (ed, r["id"], position, ab["name"], ab.get("cost"), ab["text"])
        )
        _text(rows, r, f"ability:{position}", ab["name"], ab["text"])
    _table_rows(r, rows)


def _enhancement_rows(e: JSON, rows: Rows, _: list[int]) -> None:
    rows["enhancements"].append(
        (
            _edition(e),
            e["id"],
            e["name"],
            e.get("detachment"),
            e.get("faction"),
            e.get("cost"),
            e.get("flavour"),
            e.get("text"),
            _flag(e.get("upgrade")),
            e.get("support_leader"),
        )
    )
    _text(rows, e, "text", e["name"], e.get("text"))


_FILLERS = {
    "datasheet": _datasheet_rows,
    "stratagem": _stratagem_rows,
    "rule": _rule_rows,
    "detachment": _detachment_rows,
    "detachment_rule": _detachment_rule_rows,
    "enhancement": _enhancement_rows,
}


def _notes(
    ed: int, did: str, owner: str, position: int, item: JSON, names: Iterable[str]
) -> Iterator[Row]:
    """The notes of a profile's or weapon's characteristics (``4*``: "Against ranged attacks
    only"), one row each."""
    for name in names:
        stat = item.get(name)
        if stat and stat.get("note"):
            yield (ed, did, owner, position, name, stat["note"])


def _stat(stat: JSON | None) -> tuple[str | None, int | None]:
    return (stat["text"], stat.get("value")) if stat else (None, None)


def _text(rows: Rows, entity: JSON, field: str, name: str, text: str | None) -> None:
    if text:
        rows["rules_text"].append(
            (_edition(entity), entity["kind"], entity["id"], field, name, text)
        )


# --- writing --------------------------------------------------------------------------------


def _write(path: Path, rows: Rows) -> None:
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("PRAGMA journal_mode = OFF")
        db.execute("PRAGMA synchronous = OFF")
        db.execute("BEGIN")
        _script(db, SCHEMA_SQL)
        for table in _tables(db):
            _insert(db, table, rows.get(table, []))
        _script(db, INDEXES_SQL)
        db.execute("INSERT INTO rules_text (rules_text) VALUES ('optimize')")
        db.execute("COMMIT")
        # Checked once at the end (cheaper than on every insert): the rows come from one
        # index, so a row without its parent is a bug here, not in the input.
        problems = db.execute("PRAGMA foreign_key_check").fetchall()
        if problems:
            raise ValueError(f"database rows without their parent: {problems[:3]}")
    finally:
        db.close()


def _script(db: sqlite3.Connection, sql: str) -> None:
    # executescript would commit the open transaction; one statement at a time keeps it.
    for statement in sql.split(";"):
        if statement.strip():
            db.execute(statement)


def _tables(db: sqlite3.Connection) -> list[str]:
    """The tables in the order they were created (parents before children)."""
    found = db.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%' "
        "AND name NOT LIKE 'rules_text_%' ORDER BY rowid"
    ).fetchall()
    return [name for (name,) in found] + ["rules_text"]


def _insert(db: sqlite3.Connection, table: str, rows: Iterable[Row]) -> None:
    rows = list(rows)
    if not rows:
        return
    marks = ", ".join("?" * len(rows[0]))
    db.executemany(f"INSERT INTO {table} VALUES ({marks})", rows)
