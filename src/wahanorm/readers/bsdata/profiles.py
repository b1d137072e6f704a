"""Model profiles (``typeName="Unit"``), invulnerable saves and weapons (``Ranged Weapons`` /
``Melee Weapons``) of a unit tree, as the contract's ``Profile`` and ``Weapon``.

Characteristics are found by their names, whatever their case (``SV`` in 10th edition, ``Sv``
in 11th; ``InSv``, the 11th edition's invulnerable save). An invulnerable save of 10th edition
is an ability profile named ``Invulnerable Save (5+)`` (or ``Invulnerable Save 5+``, or with
the value only in its text: ``… has a 4+ invulnerable save``, ``… an invulnerable save of 4+``,
or ``4+`` alone): on the unit's entry it is every model's, on a model's entry that model's, and
a name ending in ``: Makari`` names the model it is for. What follows the save in the sentence
that gives it (``against ranged attacks``) and the text's other sentences are the save's
condition (``Stat.note``), as the export's ``inv_sv_descr`` is.
"""

from __future__ import annotations

import functools
import re

from wahanorm.blocks.datasheet import At, build_profile
from wahanorm.blocks.parse.stats import parse_stat
from wahanorm.blocks.weapons import AbilityText, WeaponDraft, build_weapon
from wahanorm.contract.models import Profile, Stat, Weapon
from wahanorm.contract.vocabulary import (
    INVULNERABLE_LABELS,
    PROFILE_LABELS,
    WEAPON_CHARACTERISTICS,
    WEAPON_LABELS,
)
from wahanorm.errors import Report
from wahanorm.readers.bsdata.dataset import DataSet, ProfileKey
from wahanorm.readers.bsdata.nodes import Node
from wahanorm.readers.bsdata.text import clean_name, clean_text
from wahanorm.readers.bsdata.walk import Part

UNIT_TYPE = "unit"
WEAPON_TYPES = {"ranged weapons": "ranged", "melee weapons": "melee"}
INVULNERABLE = "invulnerable save"
"""How the data names an invulnerable save's ability profile (its start, any case)."""

_PROFILE_FIELDS = {**PROFILE_LABELS, **INVULNERABLE_LABELS}
"""A model profile's characteristics by name, in capitals (``vocabulary``)."""
_SAVE = re.compile(r"(\d)\s*\+\s*(\*?)")
_SAVE_SENTENCE = re.compile(
    r"[^.\n]*?(?:\b(?P<before>\d)\+\s*invulnerable save|invulnerable save\s+of\s+(?P<after>\d)\+)"
    r"(?P<tail>[^.\n]*)(?:\.|$)",
    re.IGNORECASE | re.MULTILINE,
)
"""The sentence that gives the save: ``… has a 4+ invulnerable save against ranged attacks.``,
``… have an invulnerable save of 4+``; what follows the save in it (``against ranged
attacks``) is its condition."""
_BRACKETED_SAVE = re.compile(r"^(?P<value>\d\+\*?)\s*\((?P<note>[^()]+)\)$")
"""An ``InSv`` value with its condition in brackets (``5+ (Ranged)``)."""
_BARE_SAVE = re.compile(r"^\s*(?P<value>\d)\s*\+\s*\*?\s*$", re.MULTILINE)
"""A line that is the save alone (``4+``), as some profiles give it."""
_SCOPE = re.compile(r":\s*(?P<model>[^:()]+)$")
_PROFILE_MARK = "➤"


def characteristics(profile: Node) -> list[tuple[str, str]]:
    """(name, value) of each characteristic of ``profile``, in order."""
    return [(c.name, c.text) for c in profile.items("characteristics")]


def is_invulnerable(profile: Node) -> bool:
    """True for an ability profile that gives an invulnerable save (its name may carry the
    star of the starred value it explains: ``*Invulnerable Save``)."""
    return profile.name.strip().lstrip("*").strip().lower().startswith(INVULNERABLE)


def profile_key(data: DataSet, node: Node) -> ProfileKey:
    """What makes two profiles the same: name and characteristics (memoised per node)."""
    key = data.profile_keys.get(id(node))
    if key is None:
        key = data.profile_keys[id(node)] = (node.name, tuple(characteristics(node)))
    return key


def model_profiles(data: DataSet, parts: list[Part]) -> list[tuple[Profile, Part]]:
    """One ``Profile`` per distinct model profile, in the order met, each with its part."""
    found: list[tuple[Profile, Part]] = []
    seen: set[tuple[str, tuple[tuple[str, str], ...]]] = set()
    for part in parts:
        if part.node.get("typeName").lower() != UNIT_TYPE:
            continue
        key = profile_key(data, part.node)
        if key in seen:
            continue
        seen.add(key)
        profile = data.profiles.get(id(part.node))
        if profile is None:
            # once per distinct name and characteristics: catalogues define a profile again
            profile = data.profiles[id(part.node)] = data.report.read_once(
                data.profiles_by_content, key, functools.partial(_profile, data, part.node)
            )
        found.append((profile, part))
    return found


def _profile(data: DataSet, node: Node) -> Profile:
    path = data.document(node).path
    report = data.report
    texts: dict[str, str] = {}
    invulnerable: Stat | None = None
    for name, text in characteristics(node):
        field = _PROFILE_FIELDS.get(name.strip().upper())
        if field is None:
            _unknown_characteristic(name, node, path, report)
            continue
        text = clean_name(text)
        if field == "invulnerable_save":
            # 11th edition: an empty InSv (or "-") is a model without an invulnerable save
            invulnerable = _invulnerable_characteristic(text) if text not in ("", "-") else None
        else:
            texts[field] = text  # an empty one is left out: the chain's missing data says it
    return build_profile(clean_name(node.name), texts, invulnerable)


def _invulnerable_characteristic(text: str) -> Stat:
    """An ``InSv`` characteristic: ``4+``, ``5+*``, or ``5+ (Ranged)``, the value with its
    condition in brackets (the condition is the note)."""
    bracketed = _BRACKETED_SAVE.match(text)
    if bracketed is None:
        return parse_stat(text)
    stat = parse_stat(bracketed.group("value"))
    return stat.model_copy(update={"note": bracketed.group("note").strip()})


def _unknown_characteristic(name: str, node: Node, path: str, report: Report) -> None:
    if report.first_time("unknown-characteristic", f"{node.get('typeName')}:{name}"):
        report.warning(
            "unknown-characteristic",
            f"{node.get('typeName')} profile {node.name!r}: characteristic {name!r} has no field "
            "in the contract; left out (reported once per name)",
            line=node.line,
            path=path,
        )


def invulnerable_save(profile: Node) -> Stat | None:
    """The save an ``Invulnerable Save …`` ability profile gives, with its condition as note;
    None when neither its name nor its text says a save. The value is the name's (``Invulnerable
    Save (4+)``), else the sentence's (``… a 4+ invulnerable save``, ``… an invulnerable save of
    4+``), else a line of the text that is the value alone (``4+``); the condition is what
    follows the save in its sentence (``against ranged attacks``) and the text's other
    sentences (``This invulnerable save is improved to 4+ against melee attacks.``)."""
    text = clean_text("\n".join(value for _, value in characteristics(profile)))
    named = _SAVE.search(profile.name)
    sentence = _SAVE_SENTENCE.search(text)
    bare = _BARE_SAVE.search(text)
    if named:
        value = named.group(1)
    elif sentence:
        value = sentence.group("before") or sentence.group("after")
    elif bare:
        value = bare.group("value")
    else:
        return None
    parts = [sentence.group("tail").strip(" ,;:")] if sentence else []
    rest = text
    for match in sorted(filter(None, (sentence, bare)), key=lambda m: -m.start()):
        rest = rest[: match.start()] + " " + rest[match.end() :]  # the later span first
    parts.append(" ".join(rest.split()).lstrip("* "))
    note = " ".join(part for part in parts if part) or None
    return parse_stat(f"{value}+").model_copy(update={"note": note})


def invulnerable_scope(profile: Node) -> str | None:
    """The model an invulnerable save's name is scoped to (``…: Makari`` → ``Makari``)."""
    match = _SCOPE.search(profile.name)
    return match.group("model").strip() if match else None


def weapons(data: DataSet, parts: list[Part]) -> list[Weapon]:
    """Every distinct weapon profile, ranged first then melee, each in the order met."""
    found: dict[str, list[Weapon]] = {"ranged": [], "melee": []}
    seen: set[tuple[str, tuple[tuple[str, str], ...]]] = set()
    for part in parts:
        kind = WEAPON_TYPES.get(part.node.get("typeName").lower())
        if kind is None:
            continue
        key = profile_key(data, part.node)
        if key in seen:
            continue
        seen.add(key)
        weapon = data.weapons.get(id(part.node))
        if weapon is None:
            read = data.report.read_once(
                data.weapons_by_content,
                (kind, key),
                functools.partial(_weapon, data, part.node, kind),
            )
            if read is None:
                continue
            weapon = data.weapons[id(part.node)] = read
        found[kind].append(weapon)
    return found["ranged"] + found["melee"]


def _weapon(data: DataSet, node: Node, kind: str) -> Weapon | None:
    path = data.document(node).path
    report = data.report
    values: dict[str, str] = {}
    keywords = ""
    for name, text in characteristics(node):
        field = WEAPON_LABELS.get(name.strip().upper())
        if name.strip().lower() == "keywords":
            keywords = text
        elif field is None:
            _unknown_characteristic(name, node, path, report)
        else:
            values[field] = clean_name(text)
    at = At(node.line, path)
    return build_weapon(
        WeaponDraft(
            name=clean_name(node.name).removeprefix(_PROFILE_MARK).strip(),
            type="ranged" if kind == "ranged" else "melee",
            # a characteristic the profile lacks is kept empty: the chain's missing data says it
            characteristics=[values.get(field, "") for field in WEAPON_CHARACTERISTICS],
            abilities=[AbilityText(clean_name(keywords), at)],
            hyphen=True,  # BSData joins name and profile by a hyphen: ``➤ Plasma gun - standard``
            at=at,
        ),
        report,
    )
