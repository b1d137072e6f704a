"""What each source has at all, and the differences of form that carry no rule.

Two sources never hold the same fields: BSData has no base size, loadout or flavour, and lists
no stratagems on a datasheet; the export writes no text under a faction ability. A field (or a
part of one, as a pattern: ``base_size``, ``abilities.faction[].text``) that one side never
holds in any entity of a kind is not compared: its absence on that side says nothing of the
rule. What both hold is compared, once the differences of form are taken out:

- spelling: typographic quotes and apostrophes as ASCII (``’`` → ``'``), runs of spaces as one;
- keywords in capitals (``Orks Infantry`` and ``ORKS INFANTRY`` are one keyword);
- names in a list matched whatever their letter case and spacing (``Voice Of Command`` /
  ``Voice of Command``, ``Malign Wardings(Psychic)`` / ``Malign Wardings (Psychic)``);
- a model profile named after the unit on one side and after its model on the other: a unit of
  one profile; the one profile left unmatched on each side (``Raveners`` / ``Ravener``); one
  profile on one side where the other gives each model of the unit the same characteristics
  (``Rein and Raus`` / ``Rein``, ``Raus``);
- a cost line's wording where its model count is the same (``1 Spanner and 4 Lootas`` /
  ``5 models``);
- what B names otherwise where the two name a faction or a unit differently (its faction, the
  ids its datasheets list): read as A names it, the naming said once, not on every entity;
- a listed id (a unit a leader can lead) of a faction the other side holds nothing of: that
  side cannot list it;
- punctuation alone in a text (a full stop one source leaves out: ``save.`` / ``save``);
- and each of ``NORMALISATIONS`` (at the end of this module): notations of one text or name
  (``text_form``, ``name_form``), a weapon or ability spelt otherwise, a keyword row, a table
  printed inline, a Designer's Note, an enhancement's "X model only." sentence, a detachment
  rule's restrictions one source prints and the other states as constraints …, each with the
  real pair it was met on.

Order of lists is never a difference (the diff's comparers match items by name).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable
from typing import Any

from wahanorm.outputs.diff.result import WordOp
from wahanorm.outputs.diff.values import Json

Entity = dict[str, Any]

LEFT_OUT = frozenset({"id", "kind", "edition", "sources", "variants"})
"""Not compared: who the entity is (matched on), where it was read, its conflicting versions."""
KEYWORD_FIELDS = frozenset({"keywords", "faction_keywords"})
WEAPON_ABILITIES = "weapons[].abilities[]"
ID_LISTS = frozenset({"leader", "led_by", "stratagems", "enhancements", "detachment_rules"})
"""Fields that list the ids of other entities."""
_PUNCTUATION = ".,;:!?"
_SPELLING = str.maketrans({"’": "'", "‘": "'", "‛": "'", "′": "'", "“": '"', "”": '"', "„": '"'})


class Presence:
    """Every part of the entities added that holds a value, as a pattern (``name``,
    ``profiles[]``, ``profiles[].movement``, ``abilities.core[].parameter``: a list's items
    share one): what a side holds of a kind. A part already found is not made into its pattern
    again, and a path met is made into its string once (``_Path``): an export's 5,000 entities
    hold some 700,000 parts, and a few hundred patterns."""

    def __init__(self) -> None:
        self.found: set[str] = set()
        self._root = _Path("")

    def add(self, entity: Entity) -> None:
        """Add the patterns of one entity."""
        self._add(self._root, {k: v for k, v in entity.items() if k not in LEFT_OUT})

    def _add(self, path: _Path, value: dict[str, Json]) -> None:
        # The parts of one dict at ``path``; a leaf or a list told in this loop rather than in a
        # call of its own. (JSON as read: each value exactly a dict, list, str, int, bool or
        # None.)
        for key, sub in value.items():
            kind = type(sub)
            if kind is dict:
                below = path.dicts.get(key)
                if below is None:
                    below = path.dicts[key] = _Path(f"{path.prefix}{key}.")
                self._add(below, sub)
            elif kind is list:
                if sub:
                    items = path.lists.get(key)
                    if items is None:
                        inner = f"{path.prefix}{key}[]"
                        self.found.add(inner)
                        items = path.lists[key] = _Path(inner + ".")
                    for item in sub:
                        if type(item) is dict:
                            self._add(items, item)
            elif key not in path.leaves and sub is not None and sub != "" and sub is not False:
                path.leaves.add(key)
                self.found.add(f"{path.prefix}{key}")


class _Path:
    """One path of ``Presence``: its prefix (``profiles[].``), the keys below it found holding
    a value, and the paths of its dicts and lists met so far."""

    __slots__ = ("dicts", "leaves", "lists", "prefix")

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self.leaves: set[str] = set()
        self.dicts: dict[str, _Path] = {}
        self.lists: dict[str, _Path] = {}


def field_of(pattern: str) -> str:
    """The entity's field a pattern (or a diff path) is in: ``profiles[].movement`` →
    ``profiles``."""
    return pattern.split(".", 1)[0].split("[", 1)[0]


def one_sided(mine: set[str], theirs: set[str]) -> list[str]:
    """The patterns only ``mine`` has, without those inside one already listed."""
    only = sorted(mine - theirs)
    return [p for p in only if not any(_inside(p, q) for q in only if q != p)]


def _inside(pattern: str, outer: str) -> bool:
    return pattern.startswith((outer + ".", outer + "[")) or (
        outer.endswith("[]") and pattern.startswith(outer)
    )


class Kept(frozenset[str]):
    """The patterns ``pruned`` keeps (``kept``), and below each path met, the path of each of
    its keys (empty: not kept) and of its list's items: made once for all the entities pruned,
    not once per part."""

    __slots__ = ("below", "items")

    def __init__(self, patterns: Iterable[str] = ()) -> None:
        super().__init__()
        self.below: dict[str, dict[str, str]] = {}
        self.items: dict[str, str] = {}

    def keys_below(self, path: str) -> dict[str, str]:
        """The memo of the keys of the dict at ``path``: key → its path, or "" when not kept
        (filled by ``key_path``)."""
        paths = self.below.get(path)
        if paths is None:
            paths = self.below[path] = {}
        return paths

    def key_path(self, path: str, paths: dict[str, str], key: str) -> str:
        """The path of ``key`` of the dict at ``path`` ("" when it is not kept), told once;
        ``paths`` is that dict's ``keys_below``."""
        inner = paths.get(key)
        if inner is None:  # the first time this key is met at this path
            inner = f"{path}.{key}"
            inner = paths[key] = inner if inner in self else ""
        return inner

    def item_path(self, path: str) -> str:
        """The path of the items of the list at ``path``."""
        inner = self.items.get(path)
        if inner is None:
            inner = self.items[path] = f"{path}[]"
        return inner


def kept(allowed: Iterable[str]) -> Kept:
    """The patterns ``allowed`` and every part that holds one (what ``pruned`` keeps)."""
    found: set[str] = set()
    for pattern in allowed:
        found.add(pattern)
        for i, char in enumerate(pattern):
            if char in ".[":
                found.add(pattern[:i])
    return Kept(found)


def pruned(entity: Entity, keep: Kept) -> Entity:
    """``entity`` with only the parts whose pattern is in ``keep`` (``kept``)."""
    return {k: _pruned(k, v, keep) for k, v in entity.items() if k not in LEFT_OUT and k in keep}


def _pruned(path: str, value: Json, keep: Kept) -> Json:
    kind = type(value)  # JSON as read: exactly dict, list, str, int, bool or None
    if kind is dict:
        out: dict[str, Json] = {}
        paths = keep.keys_below(path)
        for k, v in value.items():
            inner = keep.key_path(path, paths, k)
            if inner:
                sub = type(v)
                out[k] = _pruned(inner, v, keep) if sub is dict or sub is list else v
        return out
    if kind is list and value and all(type(x) is dict for x in value):
        inner = keep.item_path(path)
        return [_pruned(inner, item, keep) for item in value]
    return value


def plain(value: Json) -> Json:
    """Every text in ``value`` in one spelling: ASCII quotes, one space between words, NFC."""
    kind = type(value)  # JSON as read: exactly dict, list, str, int, bool or None
    if kind is str:
        return _plain_text(value)
    if kind is list:
        return [plain(v) for v in value]
    if kind is dict:
        return {k: plain(v) for k, v in value.items()}
    return value


def _plain_text(value: str) -> str:
    # ASCII is NFC already and holds none of the typographic quotes
    text = value if value.isascii() else unicodedata.normalize("NFC", value).translate(_SPELLING)
    return " ".join(text.split()) if "  " in text or "\n" in text or "\t" in text else text


def plain_in_capitals(value: Json, path: str = "") -> Json:
    """``value`` with every text in one spelling (``plain``) and keywords (and weapon
    abilities' names) in capitals, however a source writes them; every dict and list made
    anew. One walk for both: a crosscheck puts some 250,000 parts through it."""
    kind = type(value)
    if kind is str:
        return _plain_text(value)
    if kind is dict:
        out: dict[str, Json] = {}
        for k, v in value.items():
            sub = type(v)
            if k in KEYWORD_FIELDS and sub is list:
                out[k] = [_plain_text(x).upper() if type(x) is str else plain(x) for x in v]
            elif sub is str and path == WEAPON_ABILITIES and k in ("name", "keyword"):
                out[k] = _plain_text(v).upper()
            elif sub is str:
                out[k] = _plain_text(v)
            elif sub is dict or sub is list:
                out[k] = plain_in_capitals(v, f"{path}.{k}" if path else k)
            else:
                out[k] = v
        return out
    if kind is list:
        inner = f"{path}[]"
        return [plain_in_capitals(v, inner) for v in value]
    return value


def plain_pruned(entity: Entity, keep: Kept) -> Entity:
    """``plain_in_capitals(pruned(entity, keep))`` in one walk: only the parts ``keep`` holds,
    each made anew in one spelling, keywords in capitals (one walk and one copy of each pair's
    entities, where the two made two of each)."""
    out: dict[str, Json] = {}
    for k, v in entity.items():
        if k not in LEFT_OUT and k in keep:  # a field's path is its name
            _plain_pruned_part("", k, k, v, keep, out)
    return out


def _plain_pruned_dict(path: str, value: dict[str, Json], keep: Kept) -> Entity:
    # ``path`` as ``pruned`` names this dict; ``plain_in_capitals`` names it the same way
    out: dict[str, Json] = {}
    paths = keep.keys_below(path)
    for k, v in value.items():
        inner = keep.key_path(path, paths, k)
        if inner:
            _plain_pruned_part(path, k, inner, v, keep, out)
    return out


def _plain_pruned_part(
    path: str, key: str, inner: str, value: Json, keep: Kept, out: dict[str, Json]
) -> None:
    # one part kept, ``key`` of the dict at ``path``, itself at ``inner``: as
    # ``plain_in_capitals`` writes the part ``pruned`` keeps of it
    kind = type(value)
    if kind is str:
        upper = path == WEAPON_ABILITIES and key in ("name", "keyword")
        out[key] = _plain_text(value).upper() if upper else _plain_text(value)
    elif kind is list and key in KEYWORD_FIELDS:
        words = _pruned(inner, value, keep)
        out[key] = [_plain_text(x).upper() if type(x) is str else plain(x) for x in words]
    elif kind is dict:
        out[key] = _plain_pruned_dict(inner, value, keep)
    elif kind is list and value and all(type(x) is dict for x in value):
        items = keep.item_path(inner)
        out[key] = [_plain_pruned_dict(items, item, keep) for item in value]
    elif kind is list:
        out[key] = plain_in_capitals(value, inner)  # ``pruned`` keeps it whole
    else:
        out[key] = value


def as_a_names(entity: Entity, factions: dict[str, str], ids: dict[str, str]) -> Entity:
    """B's entity with the factions and ids the two name differently written as A names them
    (``factions``, ``ids``: B's name → A's)."""
    out = dict(entity)
    if isinstance(out.get("faction"), str) and out["faction"] in factions:
        out["faction"] = factions[out["faction"]]
    for key in ID_LISTS & out.keys():
        if isinstance(out[key], list):
            out[key] = [ids.get(x, x) if isinstance(x, str) else x for x in out[key]]
    return out


def known_only(entity: Entity, spaces: set[str]) -> Entity:
    """``entity`` without the ids it lists in a namespace (a faction, a detachment) the other
    side holds nothing of."""
    out = dict(entity)
    for key in ID_LISTS & out.keys():
        if isinstance(out[key], list):
            out[key] = [x for x in out[key] if not isinstance(x, str) or _space(x) in spaces]
    return out


def _space(entity_id: str) -> str:
    return entity_id.split("/", 1)[0]


def is_wording(path: str) -> bool:
    """True for the wording of a cost line (the diff's ``points[10].text``): the line is
    matched by its model count, so its wording is only how a source prints it."""
    return path.startswith("points[") and path.endswith("].text")


def same_but_punctuation(a: Json, b: Json) -> bool:
    """True for two texts that differ only in punctuation around their words (and spacing and
    letter case)."""
    if not (isinstance(a, str) and isinstance(b, str)):
        return False
    return _bare_words(a) == _bare_words(b)


def _bare_words(text: str) -> list[str]:
    words = (w.strip(_PUNCTUATION).casefold() for w in text.split())
    return [w for w in words if w]


def in_one_form(
    a: Entity, b: Entity, keep: Kept | None = None, context: Context | None = None
) -> tuple[Entity, Entity]:
    """``a`` and ``b`` (with only the parts ``keep`` holds, when given: ``pruned``) of one
    kind (``context``) with the differences of form taken out (see the module's doc and
    ``NORMALISATIONS``); B's list items take A's spelling of a name that differs only in
    letter case. (Both are new values: ``plain_in_capitals`` and ``plain_pruned`` make every
    dict and list anew, so the entities given are never changed.)"""
    if keep is None:
        a, b = plain_in_capitals(a), plain_in_capitals(b)
    else:
        a, b = plain_pruned(a, keep), plain_pruned(b, keep)
    _same_names(a, b)
    profiles_a, profiles_b = a.get("profiles"), b.get("profiles")
    if isinstance(profiles_a, list) and isinstance(profiles_b, list):
        a["profiles"], b["profiles"] = _profiles_paired(profiles_a, profiles_b)
    context = context or Context()
    for normalisation in NORMALISATIONS:
        normalisation.apply(a, b, context)
    return a, b


def _profiles_paired(a: list[Json], b: list[Json]) -> tuple[list[Json], list[Json]]:
    """Model profiles named after the unit on one side and after its models on the other,
    under A's names (see the module's doc)."""
    if not all(isinstance(p, dict) for p in [*a, *b]):
        return a, b
    if len(a) == 1 and len(b) > 1 and _alike(b):
        b = [b[0]]
    elif len(b) == 1 and len(a) > 1 and _alike(a):
        a = [a[0]]
    names_a = {_name_of(p) for p in a}
    names_b = {_name_of(q) for q in b}
    left_a = [p for p in a if _name_of(p) not in names_b]
    left_b = [p for p in b if _name_of(p) not in names_a]
    if len(left_a) == 1 and len(left_b) == 1:
        left_b[0]["name"] = left_a[0].get("name")
    return a, b


def _name_of(profile: dict[str, Any]) -> str | None:
    """A profile's name, None when it has none (or one not a text, in a damaged file)."""
    name = profile.get("name")
    return name if isinstance(name, str) else None


def _alike(profiles: list[Json]) -> bool:
    """True when every profile has the same characteristics (their names and keywords aside)."""
    stats = [{k: v for k, v in p.items() if k not in ("name", "keywords")} for p in profiles]
    return all(s == stats[0] for s in stats[1:])


def _same_names(a: Json, b: Json) -> None:
    """Recursively, in every list of named items both hold, B's names spelt as A's where they
    differ only in letter case."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in a.keys() & b.keys():
            _same_names(a[key], b[key])
    elif isinstance(a, list) and isinstance(b, list):
        spelt = {_folded(x): x for x in a if isinstance(x, dict) and "name" in x}
        for item in b:
            if isinstance(item, dict) and "name" in item:
                theirs = spelt.get(_folded(item))
                if theirs is not None:
                    item["name"] = theirs.get("name")
                    if "profile" in theirs:
                        item["profile"] = theirs.get("profile")
                    _same_names(theirs, item)


def _folded(item: dict[str, Any]) -> tuple[str, str]:
    """A list item's name and profile as matched: whatever their letter case and spacing
    (``Malign Wardings(Psychic)`` / ``Malign Wardings (Psychic)``)."""
    name, profile = (
        "".join(str(item.get(k) or "").split()).casefold() for k in ("name", "profile")
    )
    return name, profile


# --- the differences of form a crosscheck takes out, each in one place ----------------------
#
# Every normalisation below is one difference of form met between a Wahapedia export and the
# BSData of the same day (issue 34), each with its test from the real rows in
# ``tests/fixtures/crosscheck_form`` (``tests/test_crosscheck_form.py``). Each makes B's value
# A's where the two say one thing (or drops a part that only says how a source prints), so
# what is left to compare is what a player would care about.

_NUMBER_WORDS = {
    w: str(n)
    for n, w in enumerate(
        [
            "zero",
            "one",
            "two",
            "three",
            "four",
            "five",
            "six",
            "seven",
            "eight",
            "nine",
            "ten",
            "eleven",
            "twelve",
        ]
    )
}
_FRACTIONS = str.maketrans({"½": "1/2", "¼": "1/4", "¾": "3/4"})
_BRACKETS = re.compile(r"[\[\]]")
_INCH_PLUS = re.compile(r'(\d)"\+')  # 20"+ → 20+"
_INCHES = re.compile(r'(?<=[\d+])"')
_WORD_HYPHEN = re.compile(r"(?<=[^\W\d])-(?=[^\W\d])")
_BROKEN_HYPHEN = re.compile(r"(?<=[^\W\d])- (?=[^\W\d])")  # "Battle- shocked"
_SETUP = re.compile(r"\bsetup\b", re.IGNORECASE)  # the verb written as one word
_POSSESSIVE = re.compile(r"(?<=[^\W\d])['’]s\b")  # "bearer's" as "bearers"
_EDGE = "\"'.,;:!?()"


@functools.lru_cache(maxsize=65536)
def text_form(text: str) -> tuple[str, ...]:
    """A text's words as compared: keywords without their brackets (``[HAZARDOUS]`` /
    ``HAZARDOUS``), fractions as digits (``½"`` / ``1/2"``), numbers as digits (``two`` /
    ``2``), an inch mark before or after a ``+`` (``20+"`` / ``20"+``) or none, a hyphen
    between letters as a space (``TWIN-LINKED`` / ``TWIN LINKED``; ``Battle- shocked`` /
    ``Battle-shocked``), ``setup`` as ``set up`` (``must be setup wholly within`` / ``must be
    set up wholly within``), a possessive ``'s`` with or without its apostrophe (``the bearer's
    melee weapons`` / ``the bearers melee weapons``; a plural's ``models'`` is ``models`` already,
    its apostrophe punctuation), letter case, spacing and the punctuation around words."""
    return tuple(_NUMBER_WORDS.get(w, w) for w in _words(text))


@functools.lru_cache(maxsize=65536)
def _words(text: str) -> tuple[str, ...]:
    """``text_form`` but for the numbers in words."""
    text = _INCH_PLUS.sub(r"\1+", text.translate(_FRACTIONS))
    text = _BROKEN_HYPHEN.sub("-", _INCHES.sub("", _BRACKETS.sub("", text)))
    text = _POSSESSIVE.sub("s", _SETUP.sub("set up", _WORD_HYPHEN.sub(" ", text)))
    words = (w.strip(_EDGE).casefold() for w in text.split())
    return tuple(w for w in words if w)


@functools.lru_cache(maxsize=65536)
def name_words(name: str) -> tuple[str, ...]:
    """A name's words as compared (``text_form``), each without a plural ``s``
    (``2 Eliminators`` / ``2 Eliminator``, ``Spiked wheels`` / ``Spiked wheel``), without a
    closing ``– KEYWORDS`` in capitals that one source adds (``1 Aestred Thurga – EPIC
    HERO``, ``1 Bjorn the Fell-Handed– EPIC HERO``)."""
    name = _KEYWORD_TAIL.sub("", name)
    return tuple(_singular(w) for w in _words(name))  # a name's number words are its words


@functools.lru_cache(maxsize=65536)
def name_form(name: str) -> tuple[str, ...]:
    """A name as compared: its ``name_words`` run together, so that a word one source splits
    with a hyphen is one (``Sevenfold Chant`` / ``Seven-fold Chant``, ``Panspectral`` /
    ``Pan-spectral``)."""
    return ("".join(name_words(name)),)


_KEYWORD_TAIL = re.compile(r"(?:\s+[–-]|\s*–)\s+[A-Z][A-Z '-]*$")


def _singular(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


class Context:
    """What a normalisation may need besides the pair: its kind, and the ids each side holds
    (B's as A names them)."""

    __slots__ = ("held", "kind")

    def __init__(self, kind: str = "", held: tuple[set[str], set[str]] | None = None) -> None:
        self.kind = kind
        self.held = held


class Normalisation:
    """One difference of form: its name, what it is (with the real pair it was met on), and
    what it does to the two plain copies (``apply(a, b, context)``, changing them in
    place)."""

    def __init__(self, name: str, example: str, apply: Any) -> None:
        self.name = name
        self.example = example
        self.apply = apply


def _one_text(a: Entity, b: Entity, context: Context) -> None:
    """B's texts, list items and names spelt as A's wherever the two read as one
    (``text_form``; list items and names also ``name_form``), in every part both hold."""
    _one_spelling(a, b)


def _one_spelling(a: Json, b: Json) -> None:
    if isinstance(a, dict) and isinstance(b, dict):
        for key in a.keys() & b.keys():
            x, y = a[key], b[key]
            if isinstance(x, str) and isinstance(y, str):
                if x != y and _read_alike(x, y, key == "name"):
                    b[key] = x
            else:
                _one_spelling(x, y)
    elif isinstance(a, list) and isinstance(b, list):
        if all(isinstance(x, str) for x in [*a, *b]):
            forms = {name_form(x): x for x in a if isinstance(x, str)}
            b[:] = [y if y in a else forms.get(name_form(y), y) for y in b]
            return
        mine = {_item_key(x): x for x in a if isinstance(x, dict)}
        mine.pop(None, None)
        for item in b:
            if isinstance(item, dict) and _item_key(item) is not None:
                other = mine.get(_item_key(item))
                if other is not None:
                    if "name" in other and "name" in item:
                        item["name"] = other["name"]
                    _one_spelling(other, item)


def _read_alike(x: str, y: str, is_name: bool) -> bool:
    if text_form(x) == text_form(y):
        return True
    return is_name and name_form(x) == name_form(y)


def _item_key(item: dict[str, Any]) -> tuple[str, ...] | None:
    """A list item as paired across the two: a weapon ability by its id, else by its name (and
    profile) in ``name_form``; None for an item of neither (a cost line)."""
    if not isinstance(item.get("id"), str) and not isinstance(item.get("name"), str):
        return None
    if isinstance(item.get("id"), str):
        return ("id", item["id"], str(item.get("keyword") or "").casefold())
    return (
        *name_form(str(item.get("name") or "")),
        "|",
        *name_form(str(item.get("profile") or "")),
    )


def _ability_groups(a: Entity, b: Entity, context: Context) -> None:
    """An ability one source files under one group (``wargear``) and the other under another
    (``datasheet``) is one ability: B's goes under A's group."""
    mine, theirs = a.get("abilities"), b.get("abilities")
    if not (isinstance(mine, dict) and isinstance(theirs, dict)):
        return
    groups_a = {
        name_form(str(x.get("name"))): g
        for g, items in mine.items()
        if isinstance(items, list)
        for x in items
        if isinstance(x, dict)
    }
    for group, items in list(theirs.items()):
        if not isinstance(items, list):
            continue
        kept: list[Json] = []
        for item in items:
            name = name_form(str(item.get("name"))) if isinstance(item, dict) else ()
            there = groups_a.get(name)
            target = theirs.setdefault(there, []) if there is not None else None
            if isinstance(target, list) and there != group and not _holds(mine.get(group), name):
                target.append(item)
            else:
                kept.append(item)
        theirs[group] = kept


def _near_ability_names(a: Entity, b: Entity, context: Context) -> None:
    """An ability of one group left unpaired on each side whose names are one but for words
    one source adds (``Multiwave Comms Array`` / ``Comms array``) or a near spelling: B's takes
    A's name. Only when it is the one such pair in the group."""
    mine, theirs = a.get("abilities"), b.get("abilities")
    if not (isinstance(mine, dict) and isinstance(theirs, dict)):
        return
    for group, items in theirs.items():
        ours = mine.get(group)
        if not (isinstance(items, list) and isinstance(ours, list)):
            continue
        names_a = {name_form(str(x.get("name"))) for x in ours if isinstance(x, dict)}
        names_b = {name_form(str(x.get("name"))) for x in items if isinstance(x, dict)}
        left_a = [
            x for x in ours if isinstance(x, dict) and name_form(str(x.get("name"))) not in names_b
        ]
        left_b = [
            x for x in items if isinstance(x, dict) and name_form(str(x.get("name"))) not in names_a
        ]
        near = {
            id(y): [x for x in left_a if _near(str(x.get("name")), str(y.get("name")))]
            for y in left_b
        }
        for y in left_b:
            found = near[id(y)]
            if len(found) == 1 and sum(1 for z in left_b if found[0] in near[id(z)]) == 1:
                y["name"] = found[0].get("name")


_DESIGNERS_NOTE = re.compile(r"\s*Designer's Note:.*$", re.S)


def _designers_note(a: Entity, b: Entity, context: Context) -> None:
    """A closing "Designer's Note: …" (how to mark a used ability on the table) one source
    prints and the other leaves out: commentary, not a rule, dropped from the one that has
    it, in every text of the pair."""
    _drop_note(a, b)


def _drop_note(a: Json, b: Json) -> None:
    if isinstance(a, dict) and isinstance(b, dict):
        for key in a.keys() & b.keys():
            x, y = a[key], b[key]
            if isinstance(x, str) and isinstance(y, str):
                if ("Designer's Note:" in x) != ("Designer's Note:" in y):
                    a[key], b[key] = _DESIGNERS_NOTE.sub("", x), _DESIGNERS_NOTE.sub("", y)
            else:
                _drop_note(x, y)
    elif isinstance(a, list) and isinstance(b, list):
        mine = {_item_key(x): x for x in a if isinstance(x, dict)}
        for item in b:
            if isinstance(item, dict) and _item_key(item) is not None:
                other = mine.get(_item_key(item))
                if other is not None:
                    _drop_note(other, item)


def _holds(items: Json, name: tuple[str, ...]) -> bool:
    return isinstance(items, list) and any(
        isinstance(x, dict) and name_form(str(x.get("name"))) == name for x in items
    )


def _weapon_keyword_rows(a: Entity, b: Entity, context: Context) -> None:
    """A "Wargear profile" row of Wahapedia's that only defines a keyword one of the unit's
    weapons carries (``One Shot``: "The bearer can only shoot with this weapon once per
    battle"), where the other side has no ability of that name: dropped, the weapon's keyword
    being compared with the weapon."""
    for side, other in ((a, b), (b, a)):
        abilities = side.get("abilities")
        if not isinstance(abilities, dict) or not isinstance(abilities.get("wargear"), list):
            continue
        keywords = {
            text_form(str(k.get("name")))
            for w in _list(side.get("weapons"))
            if isinstance(w, dict)
            for k in _list(w.get("abilities"))
            if isinstance(k, dict)
        }
        held = _all_names(other.get("abilities"))
        abilities["wargear"] = [
            x
            for x in abilities["wargear"]
            if not (
                isinstance(x, dict)
                and text_form(str(x.get("name"))) in keywords
                and name_form(str(x.get("name"))) not in held
            )
        ]


def _list(value: Json) -> list[Json]:
    """``value`` when it is a list, else none (a damaged file's field)."""
    return value if isinstance(value, list) else []


def _all_names(abilities: Json) -> set[tuple[str, ...]]:
    if not isinstance(abilities, dict):
        return set()
    return {
        name_form(str(x.get("name")))
        for items in abilities.values()
        if isinstance(items, list)
        for x in items
        if isinstance(x, dict)
    }


_ONLY_SENTENCE = re.compile(r"^[^.]*?\bmodels? only\b[^.]*\.\s*", re.IGNORECASE)


def _model_only_sentence(a: Entity, b: Entity, context: Context) -> None:
    """An enhancement's opening "X model only." sentence (``CHAOS KNIGHTS model only.``,
    ``HERETIC ASTARTES model only (excluding DAMNED models).``) that the other source states
    as a condition of the enhancement rather than in its text: dropped where only one text
    opens with it."""
    if context.kind != "enhancement":
        return
    x, y = a.get("text"), b.get("text")
    if not (isinstance(x, str) and isinstance(y, str)):
        return
    mx, my = _ONLY_SENTENCE.match(x), _ONLY_SENTENCE.match(y)
    if mx and not my:
        a["text"] = x[mx.end() :]
    elif my and not mx:
        b["text"] = y[my.end() :]


def _one_sided_restrictions(a: Entity, b: Entity, context: Context) -> None:
    """A detachment rule's restrictions one source prints (the export's "Your army can include
    Ultramarines units, but it cannot include any ADEPTUS ASTARTES units drawn from any other
    Chapter.") and the other states as constraints of its roster, printing none: not compared;
    where the other prints them inside its rule's text instead (Cosmic Distortion's "When
    mustering your army, …"), that passage is taken out of its text too."""
    if context.kind != "detachment_rule":
        return
    x, y = a.get("restrictions"), b.get("restrictions")
    if bool(x) == bool(y):
        return
    printed, other = (x, b) if x else (y, a)
    a["restrictions"] = b["restrictions"] = None
    text = other.get("text")
    if not (isinstance(printed, str) and isinstance(text, str)):
        return
    words = [re.escape(w) for w in re.sub(r"^\s*[-–•]\s*", "", printed).split()]
    if words:
        found = re.search(r"\s+".join(words), text, re.IGNORECASE)
        if found is not None:
            other["text"] = (text[: found.start()] + " " + text[found.end() :]).strip()


_CLOSING_ONLY = re.compile(r"\s+only\s*\.?\s*$", re.IGNORECASE)


def _invulnerable_note_only(a: Entity, b: Entity, context: Context) -> None:
    """An invulnerable save's note one source closes with "only" and the other not (the
    export's "Against ranged attacks only", BSData's "against ranged attacks"): B's note takes
    A's, on the profiles both name alike."""
    mine, theirs = a.get("profiles"), b.get("profiles")
    if not (isinstance(mine, list) and isinstance(theirs, list)):
        return
    saves: dict[str, dict[str, Any]] = {}
    for profile in mine:
        save = profile.get("invulnerable_save") if isinstance(profile, dict) else None
        if isinstance(save, dict):
            saves.setdefault(str(profile.get("name")).casefold(), save)
    for profile in theirs:
        save = profile.get("invulnerable_save") if isinstance(profile, dict) else None
        other = saves.get(str(profile.get("name")).casefold()) if isinstance(save, dict) else None
        if other is None or save is None:
            continue
        x, y = other.get("note"), save.get("note")
        if (
            isinstance(x, str)
            and isinstance(y, str)
            and x != y
            and text_form(_CLOSING_ONLY.sub("", x)) == text_form(_CLOSING_ONLY.sub("", y))
        ):
            save["note"] = x


def _zero_cost(a: Entity, b: Entity, context: Context) -> None:
    """A cost of 0 one source prints and the other leaves out (an enhancement free in its
    detachment): one cost."""
    for key in ("cost",):
        x, y = a.get(key), b.get(key)
        if (x == 0 and y is None) or (x is None and y == 0):
            a[key] = b[key] = 0


def _near_weapon_names(a: Entity, b: Entity, context: Context) -> None:
    """A weapon left unpaired on each side with the same characteristics whose names are one
    but for a plural (``Spiked wheels`` / ``Spiked wheel``), a near spelling (``Absolvor bolt
    pistol`` / ``Absolver bolt pistol``) or words one source adds before or after
    (``Boomstikks`` / ``Deffkilla boomstikks``, ``Missile launcher`` / ``Aeldari Missile
    Launcher``; a profile ``particle`` / ``particle hurricane``): B's takes A's name and
    profile. Taken only when it is the one such pair: a weapon that has a match of its own, or
    two candidates, is never renamed."""
    mine, theirs = a.get("weapons"), b.get("weapons")
    if not (isinstance(mine, list) and isinstance(theirs, list)):
        return
    keys_b = {_item_key(w) for w in theirs if isinstance(w, dict)}
    keys_a = {_item_key(w) for w in mine if isinstance(w, dict)}
    left_a = [w for w in mine if isinstance(w, dict) and _item_key(w) not in keys_b]
    left_b = [w for w in theirs if isinstance(w, dict) and _item_key(w) not in keys_a]
    if not left_a or not left_b:
        return
    candidates: dict[int, list[dict[str, Any]]] = {}
    for w in left_b:
        candidates[id(w)] = [
            v
            for v in left_a
            if _stats(v) == _stats(w)
            and _near(str(v.get("name")), str(w.get("name")))
            and _near(str(v.get("profile") or ""), str(w.get("profile") or ""))
        ]
    for w in left_b:
        near = candidates[id(w)]
        if len(near) == 1 and sum(1 for x in left_b if near[0] in candidates[id(x)]) == 1:
            w["name"], w["profile"] = near[0].get("name"), near[0].get("profile")


def _stats(weapon: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in weapon.items() if k not in ("name", "profile", "abilities")}


def _near(x: str, y: str) -> bool:
    if name_form(x) == name_form(y):
        return True
    one, two = name_words(x), name_words(y)
    if not one or not two:
        return False
    short, long = sorted((one, two), key=len)
    if 2 * len(short) >= len(long) and (
        long[: len(short)] == short or long[-len(short) :] == short
    ):
        return True  # words added before or after (at most as many as the shorter has)
    joined, other = " ".join(one), " ".join(two)
    return len(joined) >= 8 and _distance(joined, other) <= max(1, len(joined) // 12)


def _distance(x: str, y: str) -> int:
    """Levenshtein distance."""
    row = list(range(len(y) + 1))
    for i, cx in enumerate(x, 1):
        prev, row[0] = row[0], i
        for j, cy in enumerate(y, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (cx != cy))
    return row[-1]


def _only_model_keywords(a: Entity, b: Entity, context: Context) -> None:
    """A unit of one model profile: the keywords one source gives its model (the export's
    keywords scoped to ``GRIMNYR MODEL``) are the unit's, as the other source gives them."""
    for side in (a, b):
        profiles = side.get("profiles")
        if not (isinstance(profiles, list) and len(profiles) == 1):
            continue
        (only,) = profiles
        words = only.get("keywords") if isinstance(only, dict) else None
        if isinstance(words, list) and words:
            unit = side.get("keywords")
            unit = unit if isinstance(unit, list) else []
            side["keywords"] = [*unit, *(w for w in words if w not in unit)]
            only["keywords"] = []


def _faction_named_twice(a: Entity, b: Entity, context: Context) -> None:
    """A faction one source names twice among the faction keywords, the second time by the
    first words of its name (the export's ``UNALIGNED`` beside ``UNALIGNED FORCES``), where the
    other names it once: the shorter name is none of the other's."""
    for side, other in ((a, b), (b, a)):
        mine, theirs = side.get("faction_keywords"), other.get("faction_keywords")
        if not (isinstance(mine, list) and isinstance(theirs, list)):
            continue
        shared = [k for k in mine if isinstance(k, str) and k in theirs]
        side["faction_keywords"] = [
            k
            for k in mine
            if k in theirs
            or not isinstance(k, str)
            or not any(s.casefold().startswith(f"{k.casefold()} ") for s in shared)
        ]


_OVAL_BASE = re.compile(r"(\d+(?:\.\d+)? ?x ?\d+(?:\.\d+)? ?mm)(?: oval base)?", re.IGNORECASE)


def _oval_base(a: Entity, b: Entity, context: Context) -> None:
    """A base of two dimensions is oval: ``105 x 70mm`` in one source is ``105 x 70mm Oval
    Base`` in the other."""
    x, y = a.get("base_size"), b.get("base_size")
    if not (isinstance(x, str) and isinstance(y, str)) or x == y:
        return
    one, other = _OVAL_BASE.fullmatch(x.strip()), _OVAL_BASE.fullmatch(y.strip())
    if one and other and one.group(1).casefold() == other.group(1).casefold():
        b["base_size"] = x


def _unheld_links(a: Entity, b: Entity, context: Context) -> None:
    """An id one side's datasheet lists (a unit it can lead, be led by) of an entity that side
    holds and the other side holds nothing of, where the other side does not list it either:
    the other side cannot list it, and the entity is listed as one side's alone already. (An
    id both list is kept on both; an id of nothing stays a finding: a link that names no
    entity.)"""
    if context.held is None:
        return
    held = context.held
    for key in ID_LISTS & (a.keys() | b.keys()):
        mine, theirs = a.get(key), b.get(key)
        mine = mine if isinstance(mine, list) else []
        theirs = theirs if isinstance(theirs, list) else []
        if key in a:
            a[key] = [x for x in mine if not _unheld(x, held[0], held[1], theirs)]
        if key in b:
            b[key] = [x for x in theirs if not _unheld(x, held[1], held[0], mine)]


def _unheld(item: Json, own: set[str], other: set[str], listed: list[Json]) -> bool:
    return isinstance(item, str) and item in own and item not in other and item not in listed


def _inline_tables(a: Entity, b: Entity, context: Context) -> None:
    """A table one source prints as a table and the other inline in its text, a row a line
    (``- Incursion - 3``): the table is dropped and its rows taken out of the other text."""
    for side, other in ((a, b), (b, a)):
        tables, text = side.get("tables"), other.get("text")
        theirs = other.get("tables")
        if not (isinstance(tables, list) and tables and isinstance(text, str)):
            continue
        if isinstance(theirs, list) and theirs:
            continue
        kept = []
        for table in tables:
            found = _rows_inline(table, text)
            if found is None:
                kept.append(table)
            else:
                text = found
        side["tables"], other["text"] = kept, text


def _rows_inline(table: Json, text: str) -> str | None:
    """``text`` without the body rows of ``table`` where every one of them is in it as a line
    of its cells (``- Incursion - 3``, ``Incursion - Up to 1 unit``); None when one is not."""
    if not (isinstance(table, list) and len(table) > 1):
        return None
    for row in table[1:]:
        if not (isinstance(row, list) and row and all(isinstance(c, str) for c in row)):
            return None
        cells = [re.escape(" ".join(c.split())) for c in row if c.strip()]
        line = re.compile(
            r"(?:^|\s)(?:[-–•■]\s*)?" + r"\s*[-–:|]\s*".join(cells) + r"(?=\s|$)", re.I
        )
        found = line.search(text)
        if found is None:
            return None
        text = (text[: found.start()] + text[found.end() :]).strip()
    return text


NORMALISATIONS: tuple[Normalisation, ...] = (
    Normalisation(
        "faction-named-twice",
        "Ambull: faction keywords UNALIGNED and UNALIGNED FORCES in the export, UNALIGNED "
        "FORCES in BSData",
        _faction_named_twice,
    ),
    Normalisation(
        "oval-base",
        "Carnifexes: '105 x 70mm' in the export, '105 x 70mm Oval Base' in Game-Datacards",
        _oval_base,
    ),
    Normalisation(
        "unheld-links",
        "Marneus Calgar can lead 'Crusader Squad (Legendary)', a datasheet BSData lacks",
        _unheld_links,
    ),
    Normalisation(
        "weapon-keyword-rows",
        "Wahapedia's wargear ability 'One Shot' beside a weapon [ONE SHOT]; BSData: the keyword",
        _weapon_keyword_rows,
    ),
    Normalisation(
        "ability-group",
        "'Achillan Eye' a wargear ability in one source, a datasheet ability in the other",
        _ability_groups,
    ),
    Normalisation(
        "near-ability-name",
        "'Multiwave Comms Array' / 'Comms array', wargear abilities of Hernkyn Pioneers",
        _near_ability_names,
    ),
    Normalisation(
        "designers-note",
        "Deathwing Knights' Watcher in the Dark: 'Designer's Note: Place a … token' in the export",
        _designers_note,
    ),
    Normalisation(
        "only-model-keywords",
        "Grimnyr: CHARACTER, PSYKER on its model (the export) or on the unit (BSData)",
        _only_model_keywords,
    ),
    Normalisation(
        "near-weapon-name",
        "'Absolvor bolt pistol' / 'Absolver bolt pistol'; 'Spiked wheels' / 'Spiked wheel'; "
        "'Boomstikks' / 'Deffkilla boomstikks'",
        _near_weapon_names,
    ),
    Normalisation(
        "inline-table",
        "Strands of Fate: the export's table BATTLE SIZE | NUMBER OF D6, BSData's '- Incursion - 3'",
        _inline_tables,
    ),
    Normalisation(
        "model-only-sentence",
        "'CHAOS KNIGHTS model only.' opening an enhancement's text on one side only",
        _model_only_sentence,
    ),
    Normalisation(
        "one-sided-restrictions",
        "Mastered Doctrines: the export's restriction 'Your army can include Ultramarines units, "
        "but …', which BSData states as constraints",
        _one_sided_restrictions,
    ),
    Normalisation(
        "invulnerable-note-only",
        "Phantom Titan's invulnerable save 'Against ranged attacks only' / 'against ranged "
        "attacks'",
        _invulnerable_note_only,
    ),
    Normalisation("zero-cost", "an enhancement's cost 0 / no cost", _zero_cost),
    Normalisation(
        "one-text",
        "'[HAZARDOUS]' / 'HAZARDOUS', 'two' / '2', '½\"' / '1/2\"', '20+\"' / '20\"+', "
        "'TWIN-LINKED' / 'TWIN LINKED', '2 Eliminators' / '2 Eliminator', 'set up' / 'setup', 'bearer's' / 'bearers'",
        _one_text,
    ),
)
"""Every normalisation a crosscheck makes besides spelling (``plain``) and pairing, in the
order made (a weapon renamed before the texts are aligned)."""


def words_in_one_form(words: list[WordOp]) -> list[WordOp]:
    """A word diff of two texts with each change that is one only in form (``text_form``:
    ``[-two-] {+2+}``, ``[-1/2"-] {+½"+}``, ``[-save.-] {+save+}``) made one run of A's words:
    what is left to show is what the texts say otherwise. (A text whose every change is of
    form is no finding.)"""
    out: list[WordOp] = []
    i = 0
    while i < len(words):
        op = words[i]
        nxt = words[i + 1] if i + 1 < len(words) else None
        if (
            nxt is not None
            and {op.op, nxt.op} == {"delete", "insert"}
            and text_form(op.text) == text_form(nxt.text)
        ):
            mine = op if op.op == "delete" else nxt
            out.append(WordOp(op="equal", text=mine.text))
            i += 2
            continue
        if op.op != "equal" and not text_form(op.text):  # punctuation alone
            out.append(WordOp(op="equal", text=op.text) if op.op == "delete" else op)
            if op.op == "insert":
                out.pop()
            i += 1
            continue
        out.append(op)
        i += 1
    merged: list[WordOp] = []
    for op in out:
        if merged and merged[-1].op == op.op == "equal":
            merged[-1] = WordOp(op="equal", text=f"{merged[-1].text} {op.text}")
        else:
            merged.append(op)
    return merged


def only_form(words: list[WordOp]) -> bool:
    """True for a word diff left with no change (``words_in_one_form``)."""
    return all(op.op == "equal" for op in words)
