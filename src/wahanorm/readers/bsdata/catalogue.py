"""What a data set holds, told by its structure: the units, their factions, the detachments and
enhancements. No unit, faction or catalogue name is known here; these BSData conventions are:

- A **unit** (a datasheet) is an entry a catalogue offers at its root (``entryLinks`` and
  ``selectionEntries`` of the catalogue itself) of type ``unit`` or ``model`` (or of another
  type when it holds a model profile, ``typeName="Unit"``), or a shared entry
  of those types that carries a faction keyword (``Faction: Orks``), so that a library read
  without the catalogue linking it still gives its units. Each entry is one datasheet, however
  many catalogues link it.
  A unit offered by several catalogues (a library linked by two) is read once, through the
  first offer the default roster shows; one no roster shows (the entry or every link hidden
  whatever the force) is no datasheet, said (``hidden-entry``), and neither is one the
  default roster hides on conditions of forces alone (Crusade, Boarding Actions content); one
  it hides until a choice is made (a detachment) is a datasheet.
- The **faction** is the ``Faction: X`` category of the unit; of several, the one most units of
  the data set carry (``Faction: Adeptus Astartes`` before ``Faction: Blood Angels``), among
  those that are the faction of a file (of most units it holds or offers); a unit whose faction
  categories are none of those (``Faction: Plague Legions`` of the daemons in the Death Guard
  catalogue, ``Faction: Harlequins`` in the Aeldari library) takes the
  faction of the file holding it, as Wahapedia files them. A catalogue's faction (for its
  rules and detachments) is the one most of its units carry.
- The faction's **name** (and the namespace of its ids) is that of the catalogue holding most
  of its units, when most units that catalogue holds are of it: the catalogue's own name
  without the grand alliance before it and a library's word for itself (``Imperium - Space
  Marines`` → ``Space Marines``, ``Library - Tyranids`` → ``Tyranids``, ``Aeldari - Aeldari
  Library`` → ``Aeldari``), which is how Wahapedia names the faction its keyword
  (``ADEPTUS ASTARTES``) stands for; else the keyword's own name. A faction named otherwise
  than its keyword is said (``faction-name``); the keyword stays the faction keyword.
- **Detachments** are the entries of a group that a root entry of category ``Configuration``
  links and whose entries hold rules or link them (``infoLinks``; the group of Battle Size
  choices holds none); the default roster has chosen none of them, so what a condition shows
  only with a detachment selected is not on any datasheet (``DataSet.unchosen``); 11th edition
  prices them in ``Detachment Points`` and tags them with their force disposition (a category
  named like an entry of the game system's ``Force Disposition`` choice).
- **Enhancements** are upgrade entries outside any unit, shown only with a detachment (a
  condition of theirs or of a group around them names the detachment) or priced in the
  ``Enhancements`` cost type (11th edition); the detachment is the one named, else the one
  whose name opens the group's (``War Horde Enhancements``).
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field

from wahanorm.blocks.parse.numbers import read_number
from wahanorm.contract.ids import slugify
from wahanorm.readers.bsdata.dataset import DataSet, modifiers, own_conditions
from wahanorm.readers.bsdata.nodes import Document, Node
from wahanorm.readers.bsdata.text import clean_name, untagged

FACTION_PREFIX = "Faction:"
CONFIGURATION = "configuration"
FORCE_DISPOSITION = "force disposition"
ENHANCEMENT_COST = "enhancements"
DETACHMENT_COST = "detachment points"
ENHANCEMENT_WORD = "enhancement"
UNIT_TYPES = ("unit", "model")
"""The types of a selection entry that is a datasheet when a catalogue offers it at its root
(so is one of another type that holds a model profile: ``X-101 [Legends]``, an upgrade)."""
UNIT_PROFILE = "unit"
"""The profile type of a model's characteristics (``typeName="Unit"``), lower case."""
_LIBRARY_WORD = re.compile(r"^library\b\s*|\s*\blibrary$", re.IGNORECASE)
"""How a library catalogue's name says it is one (``Library - Tyranids``, ``… Library``)."""


@dataclass(frozen=True, eq=False)
class Unit:
    """A datasheet's entry, the root link it was offered by (if any) and that link's file."""

    entry: Node
    link: Node | None
    offered_by: Document

    @functools.cached_property
    def factions(self) -> list[str]:
        """The factions its categories name (``faction_names``), found once."""
        return faction_names(self.entry, self.link)


@dataclass(frozen=True, eq=False)
class DetachmentEntry:
    """A detachment's entry and the faction of the catalogue that offers it."""

    entry: Node
    faction: str
    document: Document
    mode: str | None = None
    """The force it is offered in when not in the default roster (``Boarding Actions``)."""


@dataclass(frozen=True, eq=False)
class EnhancementEntry:
    """An enhancement's entry and the detachment it belongs to (None when not told)."""

    entry: Node
    detachment: DetachmentEntry | None
    document: Document


@dataclass
class Contents:
    """The units, detachments and enhancements of a data set, and the factions."""

    units: list[Unit] = field(default_factory=list)
    faction_counts: Counter[str] = field(default_factory=Counter)
    document_factions: dict[str, str] = field(default_factory=dict)
    """Display path → the faction of that file's units (or of the units it offers)."""
    held_factions: dict[str, str] = field(default_factory=dict)
    """Display path → the faction most unit entries that file holds carry."""
    main_factions: set[str] = field(default_factory=set)
    """The faction keywords that are a file's main faction (of the units it holds or offers);
    a keyword that is none (``Plague Legions``, ``Harlequins``) names a part of the faction of the file that
    holds its units, as Wahapedia files them (a Great Unclean One of the Death Guard
    catalogue is ``death-guard/great-unclean-one``)."""
    detachments: list[DetachmentEntry] = field(default_factory=list)
    enhancements: list[EnhancementEntry] = field(default_factory=list)
    skip: set[int] = field(default_factory=set)
    """``id()`` of the entries and groups no unit tree goes into (detachments, enhancements)."""
    names: dict[str, str] = field(default_factory=dict)
    """Faction keyword (``Adeptus Astartes``) → the faction's name (``Space Marines``), where
    they differ."""
    not_units: dict[int, str] = field(default_factory=dict)
    """``id()`` of the unit entries that give no datasheet, with the reason said for each."""
    dispositions: set[str] = field(default_factory=set)
    hidden_detachments: set[str] = field(default_factory=set)
    """Ids of the detachments no roster offers (left out with their enhancements)."""
    chosen_by_none: set[str] = field(default_factory=set)
    """Ids of every detachment entry: the default roster has chosen none of them."""
    rule_users: dict[int, Counter[str]] = field(default_factory=dict)
    """``id()`` of a catalogue's rule → the factions of the datasheets that show it, with how
    many (filled as the datasheets are read: a rule's faction is its users')."""
    detachment_rule_nodes: set[int] = field(default_factory=set)
    """``id()`` of the shared rules a detachment links: detachment rules, no faction's rules."""


def faction_names(entry: Node, link: Node | None) -> list[str]:
    """The factions an entry's categories name (``Faction: Orks`` → ``Orks``), in order."""
    names: list[str] = []
    for holder in (link, entry):
        if holder is None:
            continue
        for category in holder.items("categoryLinks"):
            name = category.name.strip()
            if name.startswith(FACTION_PREFIX):
                faction = clean_name(name.removeprefix(FACTION_PREFIX))
                if faction and faction not in names:
                    names.append(faction)
    return names


def contents(data: DataSet) -> Contents:
    """Read what ``data`` holds (see the module's doc)."""
    found = Contents()
    _units(data, found)
    for unit in found.units:
        found.faction_counts.update(unit.factions)
    _document_factions(data, found)
    _faction_names(data, found)
    configurations = _configurations(data)  # asked twice: found once
    _dispositions(data, found, configurations)
    _detachments(data, found, configurations)
    data.choose_none(found.chosen_by_none)
    _enhancements(data, found)
    return found


def unit_faction(found: Contents, unit: Unit) -> str | None:
    """The faction of ``unit`` by its name (``Contents.names``): its faction category most units
    share; else its catalogue's."""
    keyword = _unit_keyword(found, unit)
    return None if keyword is None else found.names.get(keyword, keyword)


def _unit_keyword(found: Contents, unit: Unit) -> str | None:
    names = unit.factions
    main = [name for name in names if name in found.main_factions]
    if main:
        return max(main, key=lambda name: (found.faction_counts[name], -names.index(name)))
    held = found.held_factions.get(unit.entry.file)
    if held is not None:
        return held  # a sub-faction's keyword (Plague Legions): the faction of its catalogue
    if names:
        return max(names, key=lambda name: (found.faction_counts[name], -names.index(name)))
    return found.document_factions.get(unit.offered_by.path)


def catalogue_faction_name(document: Document) -> str:
    """The faction a catalogue's name names: its last part, without the grand alliance before it
    (``Xenos - Orks`` → ``Orks``); a library's without the word that says it is one
    (``Library - Tyranids``, ``Imperium - Astra Militarum - Library``, ``Aeldari - Aeldari
    Library``)."""
    parts = [clean_name(part) for part in document.name.split(" - ")]
    if document.is_library:
        parts = [_LIBRARY_WORD.sub("", part) for part in parts]
    named = [part for part in parts if part]
    return named[-1] if named else clean_name(document.name)


def _faction_names(data: DataSet, found: Contents) -> None:
    """``found.names``: each faction keyword named after the catalogue that holds most of its
    units, when most of the units that catalogue holds are of it (see the module's doc)."""
    held: dict[str, Counter[str]] = {}
    documents: dict[str, Document] = {}
    for unit in found.units:
        keyword = _unit_keyword(found, unit)
        if keyword is None:
            continue
        holder = data.document(unit.entry)
        documents[holder.path] = holder
        held.setdefault(holder.path, Counter())[keyword] += 1
    best: dict[str, tuple[int, str]] = {}
    for path, counts in held.items():
        keyword, count = counts.most_common(1)[0]
        if keyword not in best or count > best[keyword][0]:
            best[keyword] = (count, path)
    taken = {keyword.casefold() for keyword in found.faction_counts}
    for keyword, (_, path) in sorted(best.items()):
        name = catalogue_faction_name(documents[path])
        if name.casefold() == keyword.casefold() or name.casefold() in taken:
            continue  # the same name, or one another faction has: the keyword names it
        taken.add(name.casefold())
        found.names[keyword] = name
        data.report.info(
            "faction-name",
            f"the faction keyword {keyword!r} is named {name!r}, after the catalogue "
            f"{documents[path].name!r} that holds most of its units (ids {slugify(name)}/…, "
            "as Wahapedia names factions); the keyword stays its faction keyword",
            line=documents[path].root.line,
            path=path,
        )


def _units(data: DataSet, found: Contents) -> None:
    """Every unit entry once, with the offer it is read through: the first (in the order of the
    files) that the default roster shows, else the first of all. A library linked by several
    catalogues is offered by each of them, shown by some only under a condition (the Astra
    Militarum units Genestealer Cults offer only with the Brood Brother Auxilia detachment):
    the unit is the library's entry, read once, whole, through the offer that shows it."""
    offers: dict[int, list[Unit]] = {}
    for document in data.documents:
        for child in document.root.children:
            entry, link = child, None
            if child.container == "entryLinks":
                target = data.target(child)
                if target is None or target.tag != "selectionEntry":
                    continue
                entry, link = target, child
            elif child.container != "selectionEntries":
                continue
            if entry.get("type") in UNIT_TYPES or has_unit_profile(entry):
                offers.setdefault(id(entry), []).append(Unit(entry, link, document))
    for document in data.documents:
        for entry in document.root.items("sharedSelectionEntries"):
            if (
                entry.get("type") in UNIT_TYPES
                and id(entry) not in offers
                and faction_names(entry, None)
            ):
                offers[id(entry)] = [Unit(entry, None, document)]
    for units in offers.values():
        shown = [u for u in units if u.link is None or not data.hidden(u.link)]
        unit = shown[0] if shown else units[0]
        offered = bool(shown) or any(u.link is not None and data.only_in(u.link) for u in units)
        mode = _only_elsewhere(data, unit.entry)
        if mode is not None:
            found.not_units[id(unit.entry)] = "mode"
            data.report.info(
                "hidden-entry",
                f"unit {clean_name(unit.entry.name)!r} is offered only in {mode!r} (the "
                "default roster hides it whatever is chosen); no datasheet",
                line=unit.entry.line,
                path=data.document(unit.entry).path,
            )
            continue
        if not offered or (data.hidden(unit.entry) and data.only_in(unit.entry) is None):
            found.not_units[id(unit.entry)] = "hidden"
            data.report.info(
                "hidden-entry",
                f"unit {clean_name(unit.entry.name)!r} is hidden in every roster (not offered "
                "yet, or kept for reference); no datasheet",
                line=unit.entry.line,
                path=data.document(unit.entry).path,
            )
            continue
        found.units.append(unit)
    _variants_out(data, found)


def _only_elsewhere(data: DataSet, entry: Node) -> str | None:
    """The force that alone shows ``entry`` (``Crusade Force``, ``Boarding Actions``) when a
    modifier hides it from the default roster on conditions of forces alone (whatever is
    chosen); None when the default roster shows it, or hides it only on conditions that depend
    on what is chosen (a detachment: the unit is a datasheet all the same)."""
    if not data.hidden(entry):
        return None
    mode = data.only_in(entry)
    if mode is None:
        return None
    for modifier, guards in modifiers(entry):
        if (
            modifier.get("field") == "hidden"
            and modifier.get("type") == "set"
            and modifier.get("value") == "true"
            and own_conditions(modifier)
            and data.always(modifier, guards)
        ):
            return mode
    return None


def _variants_out(data: DataSet, found: Contents) -> None:
    """A unit the default roster hides but another force shows (a Crusade variant) that has
    the name of a unit of its file the default roster shows (the Space Wolves' Wolf Guard
    Headtakers) is that unit's variant, no datasheet of its own (two datasheets would share one
    id): said (``hidden-entry``) and left out."""
    shown = {_unit_name(u.entry) for u in found.units if not data.hidden(u.entry)}
    kept: list[Unit] = []
    for unit in found.units:
        if data.hidden(unit.entry) and _unit_name(unit.entry) in shown:
            found.not_units[id(unit.entry)] = "variant"
            data.report.info(
                "hidden-entry",
                f"unit {clean_name(unit.entry.name)!r} is offered only in "
                f"{data.only_in(unit.entry)!r}, a variant of the unit of that name the default "
                "roster offers; no datasheet of its own",
                line=unit.entry.line,
                path=data.document(unit.entry).path,
            )
            continue
        kept.append(unit)
    found.units = kept


def _unit_name(entry: Node) -> tuple[str, str]:
    """The file holding a unit's entry and the unit's name, as two variants share them."""
    return entry.file, untagged(clean_name(entry.name)).casefold()


def has_unit_profile(entry: Node) -> bool:
    """True when ``entry`` holds a model profile of its own (``typeName="Unit"``)."""
    return any(p.get("typeName").strip().lower() == UNIT_PROFILE for p in entry.items("profiles"))


def _document_factions(data: DataSet, found: Contents) -> None:
    per_document: dict[str, Counter[str]] = {}
    for unit in found.units:
        names = unit.factions
        if not names:
            continue
        best = max(names, key=lambda name: found.faction_counts[name])
        for document in {unit.offered_by.path, data.document(unit.entry).path}:
            per_document.setdefault(document, Counter())[best] += 1
    for path, counts in per_document.items():
        found.document_factions[path] = counts.most_common(1)[0][0]
    held: dict[str, Counter[str]] = {}
    for unit in found.units:
        names = unit.factions
        if names:
            best = max(names, key=lambda name: found.faction_counts[name])
            held.setdefault(unit.entry.file, Counter())[best] += 1
    for path, counts in held.items():
        found.held_factions[path] = counts.most_common(1)[0][0]
    found.main_factions = {*found.held_factions.values(), *found.document_factions.values()}


def document_faction(data: DataSet, found: Contents, document: Document) -> str | None:
    """The faction of a file by its name: its units' or those it offers; else that of a file
    importing it."""
    keyword = found.document_factions.get(document.path)
    if keyword is None:
        for other in data.documents:
            if other is not document and document in data.reach(other):
                keyword = found.document_factions.get(other.path)
                if keyword is not None:
                    break
    return None if keyword is None else found.names.get(keyword, keyword)


def _configurations(data: DataSet) -> list[tuple[Node, Document]]:
    """Root entries of category ``Configuration`` (what a roster is set up with; the category
    on the entry or on the root link to it), each with the file that offers it."""
    found: list[tuple[Node, Document]] = []
    for document in data.documents:
        for child in document.root.children:
            if child.container not in ("entryLinks", "selectionEntries", "sharedSelectionEntries"):
                continue
            entry = data.target(child) if child.container == "entryLinks" else child
            if entry is None or entry.tag != "selectionEntry":
                continue
            holders = (child, entry) if child is not entry else (entry,)
            # the category on the entry, or on the root link to it (Adeptus Custodes)
            if any(
                category.attrs.get("name", "").strip().lower() == CONFIGURATION
                for holder in holders
                for category in holder.items("categoryLinks")
            ):
                found.append((entry, document))
    return found


def _choices(data: DataSet, entry: Node) -> list[Node]:
    """The entries a configuration entry offers (in the groups it holds or links)."""
    groups: list[Node] = list(entry.items("selectionEntryGroups"))
    for link in entry.items("entryLinks"):
        target = data.target(link)
        if target is not None and target.tag == "selectionEntryGroup":
            groups.append(target)
    choices: list[Node] = []
    for group in groups:
        choices.extend(node for node in group.walk() if node.container == "selectionEntries")
    return choices


def _dispositions(
    data: DataSet, found: Contents, configurations: list[tuple[Node, Document]]
) -> None:
    for entry, _ in configurations:
        if entry.name.strip().lower() == FORCE_DISPOSITION:
            found.dispositions.update(clean_name(choice.name) for choice in _choices(data, entry))


def _detachments(
    data: DataSet, found: Contents, configurations: list[tuple[Node, Document]]
) -> None:
    seen: set[int] = set()
    for entry, document in configurations:
        faction = document_faction(data, found, document)
        for choice in _choices(data, entry):
            if not detachment_rules(data, choice) or id(choice) in seen:
                continue
            seen.add(id(choice))
            found.chosen_by_none.add(choice.id)
            found.detachment_rule_nodes.update(
                id(rule) for rule, link in detachment_rules(data, choice) if link is not None
            )
            found.skip.add(id(choice))
            mode = data.only_in(choice)
            if mode is None and data.hidden(choice):
                data.report.info(
                    "hidden-entry",
                    f"detachment {choice.name!r} is hidden in every roster (not offered yet, "
                    "or kept for reference); left out, with its enhancements",
                    line=choice.line,
                    path=data.document(choice).path,
                )
                found.hidden_detachments.add(choice.id)
                continue
            if faction is None:
                data.report.warning(
                    "unplaced-entry",
                    f"detachment {choice.name!r}: its catalogue {document.name!r} has no unit "
                    "with a faction keyword, so its faction is not known; left out",
                    line=choice.line,
                    path=data.document(choice).path,
                )
                found.hidden_detachments.add(choice.id)
                continue
            found.detachments.append(DetachmentEntry(choice, faction, document, mode))


def detachment_rules(data: DataSet, choice: Node) -> list[tuple[Node, Node | None]]:
    """The rules a detachment's entry holds; else those it links from a catalogue (``infoLinks``
    of type rule, as the Necrons' catalogue gives them), each with its link (None for its own
    rules). Links beside rules of its own, and links to the game system's rules (``Deep
    Strike``), explain the detachment's text: they are no rules of its own."""
    own: list[tuple[Node, Node | None]] = [(rule, None) for rule in choice.items("rules")]
    if own:
        return own
    found: list[tuple[Node, Node | None]] = []
    for link in choice.items("infoLinks"):
        if link.get("type") != "rule":
            continue
        target = data.target(link)
        if (
            target is not None
            and target.tag == "rule"
            and data.document(target).kind != "gameSystem"
        ):
            found.append((target, link))
    return found


def cost_value(
    entry: Node, cost_names: dict[str, str], wanted: str, data: DataSet | None = None
) -> float:
    """The value of the cost named ``wanted`` (lower case) of ``entry``; 0 when none, or when
    it is no number a cost can be (said, when ``data`` is given: ``costs.value_of``)."""
    from wahanorm.readers.bsdata.costs import value_of

    for cost in entry.items("costs"):
        name = cost_names.get(cost.get("typeId"), cost.name).strip().lower()
        if name == wanted:
            if data is None:
                value = read_number(cost.get("value", "0"))
                return value if isinstance(value, float) else 0.0
            return value_of(data, cost, "cost") or 0.0
    return 0.0


def cost_type_names(data: DataSet) -> dict[str, str]:
    """Cost type id → its name, in every game system and catalogue."""
    return {
        cost.id: cost.name
        for document in data.documents
        for cost in document.root.items("costTypes")
    }


def _enhancements(data: DataSet, found: Contents) -> None:
    by_id = {detachment.entry.id: detachment for detachment in found.detachments}
    by_name = {clean_name(d.entry.name).casefold(): d for d in found.detachments}
    names = cost_type_names(data)
    for document in data.documents:
        for group in document.root.items("sharedSelectionEntryGroups"):
            _enhancement_group(data, found, group, by_id, by_name, names, document)


def _enhancement_group(
    data: DataSet,
    found: Contents,
    group: Node,
    by_id: dict[str, DetachmentEntry],
    by_name: dict[str, DetachmentEntry],
    names: dict[str, str],
    document: Document,
) -> None:
    hit = False
    for entry, above in _below(group, [document.root]):
        if entry.container != "selectionEntries" or entry.attrs.get("type") != "upgrade":
            continue
        if id(entry) in found.skip or any(id(a) in found.skip for a in above):
            continue  # a detachment, or inside an enhancement already read
        if _names_any(entry, above, found.hidden_detachments):
            found.skip.add(id(entry))  # an enhancement of a detachment no roster offers
            hit = True
            continue
        detachment = _named_detachment(entry, above, by_id)
        priced = cost_value(entry, names, ENHANCEMENT_COST) > 0
        if not priced and (detachment is None or not _has_ability(entry)):
            continue
        if detachment is None:
            detachment = _detachment_by_group_name(above, by_name)
        found.enhancements.append(EnhancementEntry(entry, detachment, document))
        found.skip.add(id(entry))
        hit = True
    if hit or ENHANCEMENT_WORD in group.name.lower():
        found.skip.add(id(group))


def _below(group: Node, above: list[Node]) -> Iterator[tuple[Node, list[Node]]]:
    """``group`` and every node below it, in document order, each with the nodes above it,
    nearest first, up to its file's root (``above``: those above ``group``)."""
    stack = [(group, above)]
    while stack:
        node, up = stack.pop()
        yield node, up
        if node.children:
            inner = [node, *up]
            stack.extend((child, inner) for child in reversed(node.children))


def _has_ability(entry: Node) -> bool:
    """True when ``entry`` holds an ability profile of its own (what an enhancement gives)."""
    return any(p.get("typeName").strip().lower() == "abilities" for p in entry.items("profiles"))


def _named_detachment(
    entry: Node, above: list[Node], by_id: dict[str, DetachmentEntry]
) -> DetachmentEntry | None:
    """The detachment a condition of ``entry`` or of a group around it (``above``) names."""
    for holder in [entry, *above]:
        for modifier in holder.items("modifiers"):
            for condition in own_conditions(modifier):
                detachment = by_id.get(condition.get("childId"))
                if detachment is not None:
                    return detachment
    return None


def _names_any(entry: Node, above: list[Node], ids: set[str]) -> bool:
    """True when a condition of ``entry`` or of a group around it (``above``) names one of
    ``ids``."""
    return bool(ids) and any(
        condition.get("childId") in ids
        for holder in [entry, *above]
        for modifier in holder.items("modifiers")
        for condition in own_conditions(modifier)
    )


def _detachment_by_group_name(
    above: list[Node], by_name: dict[str, DetachmentEntry]
) -> DetachmentEntry | None:
    for group in above:
        if group.tag != "selectionEntryGroup":
            continue
        name = clean_name(group.name).casefold()
        for detachment_name, detachment in by_name.items():
            if name.startswith(detachment_name):
                return detachment
    return None
