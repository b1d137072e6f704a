"""Leader links read as the game reads them: the units a ``Leader`` ability names, and the
units a bodyguard's ``Attached Unit`` ability lets those leaders join instead.

A Leader text (clean, see ``text.clean_text``) opens with a sentence ending in a colon ("This
model can be attached to the following units:"), then lists the units: one per line (``- BOYZ``,
the ``■`` items made ``-``) or on the rest of that line (``PLAGUE MARINES, POXWALKERS``,
``INFRACTORS; TORMENTORS``). What follows the list (a note, "You can attach this model to …
even if …") is no unit. A name is matched against the datasheets read, in the leader's faction
first, then in any (``KHORNE BERSERKERS`` of a Chaos Space Marines lord are World Eaters), its
spelling aside (case, spaces, hyphens, a plural: ``PLAGUE BEARERS`` is Plaguebearers,
``Sternguard Veterans Squad`` the Sternguard Veteran Squad), or the datasheets named after it
with their wargear (``ACOLYTE HYBRIDS``: Acolyte Hybrids with Autopistols, … with Hand
Flamers); a name no datasheet has that is a
keyword class (``IMPERIUM BATTLELINE INFANTRY``: every word a keyword) stands for every
datasheet whose keywords hold it. An ``Attached Unit`` ability ("If a CHARACTER unit from your
army with the Leader ability can be attached to a TERMINATOR SQUAD, it can be attached to this
unit instead") adds its unit to every leader of that kind that can lead the unit it names.

A leader link is a datasheet of the output: a name none of the datasheets answers is said
(``missing-entry``, once per faction and name) and left out. Ids and their order are the shared builder's
(``blocks.datasheet.unit_ids``).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable

from wahanorm.blocks.datasheet import UnitRef, unit_ids
from wahanorm.contract.models import Datasheet
from wahanorm.errors import Report

_LIST_ITEM = re.compile(r"^-\s*(?P<item>.+)$")
_INTRO = re.compile(r"^(?P<intro>[^:\n]*\battached\b[^:\n]*):(?P<rest>.*)$", re.IGNORECASE)
"""The sentence that opens the list, and what follows its colon on the same line."""
_MORE = re.compile(r"^[^.:]*,[^.:]*$")
"""A line that goes on with an inline list: names between commas, no sentence's stop."""
_NOTE = re.compile(r"\s*[(\[*].*$")
_SEPARATORS = re.compile(r"\s*[,;]\s*|\s+and\s+|\s+or\s+")
_ATTACHED = re.compile(
    r"^if an? (?:(?P<who>.+?) )?(?:(?:unit|model)s? )?from your army\b.*?\bcan be attached to "
    r"(?:an? |the )?(?P<units>.+?)(?: units?)?, it can (?:instead )?be attached to this unit",
    re.IGNORECASE,
)
ATTACHED_UNIT = "attached unit"
"""How the name of a bodyguard's ability that opens it to other leaders begins."""
ANY_LEADER = "CHARACTER"
"""The kind of leader that is any leader (every leader is a CHARACTER): what "If a model from
your army with the Leader ability …" names."""


def leader_targets(text: str) -> list[str]:
    """The units a Leader text lists, as printed, each without a note after it; the sentences
    after the list are not units (see the module's doc)."""
    lines = [line.strip() for line in text.split("\n")]
    start = next((i for i, line in enumerate(lines) if _INTRO.match(line)), None)
    items: list[str] = []
    if start is None:  # no opening sentence: the list items alone
        items = [m.group("item") for line in lines if (m := _LIST_ITEM.match(line))]
    else:
        rest = _INTRO.match(lines[start])
        inline = rest.group("rest").strip() if rest else ""
        if inline:
            # an inline list the source wraps goes on while a line ends within it (a comma)
            # or the next one is more of it (names between commas, no full stop)
            for line in lines[start + 1 :]:
                if not line or not (inline.endswith(",") or _MORE.match(line)):
                    break
                inline = f"{inline} {line}"
            items = _SEPARATORS.split(inline)
        else:
            for line in lines[start + 1 :]:
                match = _LIST_ITEM.match(line)
                if match is None:
                    break  # the list ends at the first line that is no item
                items.append(match.group("item"))
    names: list[str] = []
    for item in items:
        for part in _SEPARATORS.split(_NOTE.sub("", item)):
            name = part.strip(" .,;:")
            if name:
                names.append(name)
    return names


def attached_unit(text: str) -> tuple[str, list[str]] | None:
    """What an ``Attached Unit`` text says: the kind of leader (``CHARACTER``, ``CHAPLAIN``)
    and the units it could lead, which may lead this one instead; None for another text."""
    match = _ATTACHED.match(" ".join(text.split()))
    if match is None:
        return None
    units = [u.strip(" .") for u in _SEPARATORS.split(match.group("units")) if u.strip(" .")]
    who = (match.group("who") or "").strip()
    return (ANY_LEADER if who.casefold() in ("", "unit", "model") else who), units


def _key(name: str) -> str:
    """A name compared with its spelling aside: letters and digits only, lower case, no
    plural ``s`` at the end of a word (``-men`` as ``-man``), no ``Squad`` at the end
    (``SWORD BRETHREN``: the Sword Brethren Squad)."""
    words = re.findall(r"[a-z0-9]+", name.casefold().replace("'", ""))
    if len(words) > 1 and words[-1] in _GENERIC:
        words.pop()
    return "".join(_singular(word) for word in words)


_GENERIC = frozenset({"squad", "squads", "unit", "units"})
_WITH = "with"
"""A name no datasheet has stands for those named after it with their wargear
(``ACOLYTE HYBRIDS``: Acolyte Hybrids with Autopistols, Acolyte Hybrids with Hand Flamers)."""


def _singular(word: str) -> str:
    if len(word) > 3 and word.endswith("men"):
        return word[:-3] + "man"
    return word[:-1] if len(word) > 3 and word.endswith("s") else word


class _Index:
    """The datasheets read, by name and by keyword."""

    def __init__(self, sheets: list[Datasheet]) -> None:
        self.by_key: dict[str, list[Datasheet]] = defaultdict(list)
        for sheet in sheets:
            self.by_key[_key(sheet.name)].append(sheet)
        self.sheets = sheets
        self._named: dict[tuple[str, str], list[str]] = {}

    def named(self, name: str, faction: str) -> list[str]:
        """The ids of the datasheets ``name`` names: in ``faction`` if any there, else in any
        faction; else those of the keyword class it is; none if it is neither."""
        asked = (name, faction)
        known = self._named.get(asked)
        if known is None:
            known = self._named[asked] = self._find(name, faction)
        return known

    def _find(self, name: str, faction: str) -> list[str]:
        key = _key(name)
        found = self.by_key.get(key) or [
            sheet
            for other, sheets in self.by_key.items()
            if other.startswith(key + _WITH)
            for sheet in sheets
        ]
        own = [s.id for s in found if s.faction == faction]
        if own or found:
            return own or [s.id for s in found]
        words = name.upper().split()
        if len(words) < 2:
            return []
        return [s.id for s in self.sheets if _covers(words, s)]

    def is_kind(self, sheet: Datasheet, kind: str) -> bool:
        """True when ``sheet`` is a leader of ``kind`` (``CHARACTER``, ``CAPTAIN OR CHAPTER
        MASTER``, ``MINISTORUM PRIEST OR INQUISITOR``)."""
        for part in _SEPARATORS.split(kind.upper()):
            words = part.split()
            if not words:
                continue
            if part == ANY_LEADER or _key(part) == _key(sheet.name) or _covers(words, sheet):
                return True
        return False


def _covers(words: list[str], sheet: Datasheet) -> bool:
    """True when the keywords of ``sheet`` (faction keywords too) hold every word of ``words``,
    each keyword whole (``IMPERIUM BATTLELINE INFANTRY``, ``ADEPTUS ASTARTES INFANTRY``)."""
    keywords = {*sheet.keywords, *sheet.faction_keywords}
    rest = list(words)
    while rest:
        for size in range(len(rest), 0, -1):
            if " ".join(rest[:size]) in keywords:
                rest = rest[size:]
                break
        else:
            return False
    return True


def link_leaders(
    sheets: list[Datasheet], leads: dict[int, list[str]], report: Report
) -> list[Datasheet]:
    """``sheets`` with ``leader`` (from ``leads``: each sheet's index → the names its Leader
    text lists, and the ``Attached Unit`` abilities of the others) and ``led_by``, the inverse;
    a name no datasheet answers is said once per faction (with the first leader naming it)
    and left out."""
    index = _Index(sheets)
    targets: dict[int, set[str]] = defaultdict(set)
    for at, names in leads.items():
        sheet = sheets[at]
        for name in names:
            named = index.named(name, sheet.faction)
            if not named:
                _unanswered(sheet, name, report)
            targets[at].update(named)
    _attached_units(sheets, index, targets)
    led_by: dict[str, set[str]] = defaultdict(set)
    for at, ids in targets.items():
        for target in ids:
            led_by[target].add(sheets[at].id)
    return [
        sheet.model_copy(
            update={
                "leader": _ids(targets.get(at, ()), sheet.faction),
                "led_by": _ids(led_by.get(sheet.id, ()), sheet.faction),
            }
        )
        if at in targets or sheet.id in led_by or sheet.leader or sheet.led_by
        else sheet
        for at, sheet in enumerate(sheets)
    ]


def _attached_units(sheets: list[Datasheet], index: _Index, targets: dict[int, set[str]]) -> None:
    """Each bodyguard's ``Attached Unit`` ability: its unit added to what every leader of the
    kind it names leads, when that leader can lead a unit it names (through another such
    ability too: the Decimus Kill Team's names the Fortis Kill Team, whose names the
    Intercessor Squad; read again until nothing is added, at most once per ability)."""
    rules: list[tuple[str, str, set[str]]] = []
    for sheet in sheets:
        for ability in sheet.abilities.datasheet:
            if not ability.name.casefold().startswith(ATTACHED_UNIT) or not ability.text:
                continue
            said = attached_unit(ability.text)
            if said is not None:
                kind, names = said
                instead = {i for name in names for i in index.named(name, sheet.faction)}
                rules.append((sheet.id, kind, instead))
    for _ in range(len(rules)):
        added = False
        for unit, kind, instead in rules:
            for at, ids in targets.items():
                if unit not in ids and ids & instead and index.is_kind(sheets[at], kind):
                    ids.add(unit)
                    added = True
        if not added:
            break


def _ids(ids: Iterable[str], faction: str) -> list[str]:
    return unit_ids([UnitRef(id=i) for i in ids], faction)


def _unanswered(sheet: Datasheet, name: str, report: Report) -> None:
    source = sheet.sources[0] if sheet.sources else None
    if report.first_time("missing-entry", f"{sheet.faction}\x00{_key(name)}"):
        report.warning(
            "missing-entry",
            f"{sheet.name!r} can lead {name!r}, which names no datasheet read (nor a keyword "
            "class of them: a unit named otherwise, or in a file not given); left out",
            line=source.line_start if source else None,
            path=source.path if source else None,
        )
