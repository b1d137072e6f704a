"""The files of one data set read together: their ids, links resolved across files, and what an
entry looks like in the default army roster.

Links (``entryLink``, ``infoLink``) name their target by ``targetId``; BattleScribe resolves it in
the catalogue itself, the catalogues it imports (``catalogueLink``) and its game system. Here every
shared element of every file is indexed by id once; a target is looked up in the link's own file
first, then in the files that file imports (transitively), then in its game system, then in any
file of the data set. A target none of them holds is a ``dangling-link`` warning (once per
file and target); a catalogue that a file imports and the files lack is one ``missing-import``
warning for the whole set, with what it costs: the links of the files importing it (directly
or through another catalogue) whose target none of the files holds are counted there, not said
one by one. The data set is incomplete, nothing is guessed.

Visibility: an element is in the default roster (the game system's first force entry, "Army
Roster") unless it is ``hidden`` or a ``set hidden`` modifier says so; conditions on forces are
decided (the default force is there, the others, such as Crusade or Boarding Actions, are not),
and so are conditions on the roster's primary catalogue (``scope="primary-catalogue"``: the
catalogue of the unit's faction that offers it, ``DataSet.primary``; unknown outside a unit)
and on the detachments (``DataSet.unchosen``: the default roster has chosen none, so a rule
shown only once a detachment is selected is hidden); other conditions on selections are not
known. A ``set hidden true`` whose conditions hold because another force is absent marks the
element as that force's content (Crusade relics, battle honours): it is left out, whatever
unknown conditions come with it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from wahanorm.contract.models import Profile, Weapon
from wahanorm.errors import Report
from wahanorm.readers.bsdata.nodes import Document, Node
from wahanorm.readers.bsdata.text import clean_name

SHARED_CONTAINERS = frozenset(
    {
        "sharedSelectionEntries",
        "sharedSelectionEntryGroups",
        "sharedProfiles",
        "sharedRules",
        "sharedInfoGroups",
        "selectionEntries",
        "rules",
        "profiles",
        "infoGroups",
        "forceEntries",
        "categoryEntries",
    }
)
"""Root containers whose elements links may target."""

ProfileKey = tuple[str, tuple[tuple[str, str], ...]]
"""A profile's name and characteristics (name, value), in order: what makes two the same."""

Truth = bool | None
"""True, False, or None for a condition the reader cannot decide (it depends on selections)."""


@dataclass(eq=False)
class Missing:
    """A catalogue the files import and lack: the first link to it, the files importing it,
    and the targets of their links none of the files holds (by id, with the first link)."""

    name: str
    link: Node
    document: Document
    importers: list[Document] = field(default_factory=list)
    targets: dict[str, Node] = field(default_factory=dict)


@dataclass
class DataSet:
    """Every document of one data set, indexed for links."""

    documents: list[Document]
    report: Report
    by_id: dict[str, list[Node]] = field(default_factory=dict)
    by_path: dict[str, Document] = field(default_factory=dict)
    """Each document by the path it is shown as (``Node.file``)."""
    catalogues: dict[str, Document] = field(default_factory=dict)
    game_systems: dict[str, Document] = field(default_factory=dict)
    default_forces: set[str] = field(default_factory=set)
    other_forces: set[str] = field(default_factory=set)
    modes: dict[str, set[str]] = field(default_factory=dict)
    """The name of each force other than the default, with the ids of it and its sub-forces."""
    _present: set[str] = field(default_factory=set)
    weapons: dict[int, Weapon] = field(default_factory=dict)
    """Each weapon profile read, by ``id()`` of its node: a shared weapon is linked by dozens
    of units and read once."""
    profiles: dict[int, Profile] = field(default_factory=dict)
    """Each model profile read, by ``id()`` of its node."""
    profile_keys: dict[int, ProfileKey] = field(default_factory=dict)
    """Name and characteristics of each profile compared, by ``id()`` of its node."""
    profiles_by_content: dict[ProfileKey, Profile] = field(default_factory=dict)
    """Each model profile read, by its ``ProfileKey`` (``Report.read_once``)."""
    weapons_by_content: dict[tuple[str, ProfileKey], Weapon] = field(default_factory=dict)
    """Each weapon read, by its kind and ``ProfileKey``: the same weapon defined in several
    catalogues is read once (``Report.read_once``)."""
    primary: str | None = None
    """The id of the roster's primary catalogue while a unit is read (the catalogue that
    offers it); None when not known (conditions on it are not decided)."""
    unchosen: frozenset[str] = frozenset()
    """Ids of the entries the default roster has no selection of (the detachments), set once
    they are known (``catalogue.contents``)."""
    _hidden: dict[tuple[int, str | None], bool] = field(default_factory=dict)
    """``hidden`` of each node asked about, in the default roster, per primary catalogue."""
    _reach: dict[str, list[Document]] = field(default_factory=dict)
    missing: dict[str, Missing] = field(default_factory=dict)
    """The catalogues the files import and lack, by id, in the order first imported."""
    _missing_of: dict[str, list[Missing]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for document in self.documents:
            self.by_path.setdefault(document.path, document)
            book = self.game_systems if document.kind == "gameSystem" else self.catalogues
            if document.id in book:
                self.report.warning(
                    "duplicate-file",
                    f"{document.path} has the id {document.id} of {book[document.id].path} "
                    f"({document.name!r}); links resolve to the first",
                    line=document.root.line,
                    path=document.path,
                )
            else:
                book[document.id] = document
            for container_item in document.root.children:
                if container_item.container in SHARED_CONTAINERS and container_item.id:
                    self.by_id.setdefault(container_item.id, []).append(container_item)
        self._forces()
        self._check_links()

    # ------------------------------------------------------------------------------ files

    def document(self, node: Node) -> Document:
        """The document ``node`` belongs to."""
        return self.by_path[node.file]

    def ancestors(self, node: Node) -> list[Node]:
        """The nodes above ``node``, nearest first, up to its file's root."""
        parents = self.by_path[node.file].parents
        found: list[Node] = []
        while (up := parents.get(id(node))) is not None:
            found.append(up)
            node = up
        return found

    def game_system(self, document: Document) -> Document | None:
        """The game system of ``document`` (itself for a game system), if among the files."""
        if document.kind == "gameSystem":
            return document
        return self.game_systems.get(document.root.get("gameSystemId"))

    def reach(self, document: Document) -> list[Document]:
        """``document``, the catalogues it imports (transitively) and its game system, in the
        order links resolve in."""
        found = self._reach.get(document.path)
        if found is not None:
            return found
        order: list[Document] = []
        todo = [document]
        while todo:
            current = todo.pop(0)
            if current in order:
                continue
            order.append(current)
            for link in current.root.items("catalogueLinks"):
                target = self.catalogues.get(link.get("targetId"))
                if target is not None:
                    todo.append(target)
        system = self.game_system(document)
        if system is not None and system not in order:
            order.append(system)
        self._reach[document.path] = order
        return order

    def _check_links(self) -> None:
        for document in self.documents:
            for link in document.root.items("catalogueLinks"):
                target_id = link.get("targetId")
                if target_id not in self.catalogues:
                    missing = self.missing.get(target_id)
                    if missing is None:
                        missing = self.missing[target_id] = Missing(link.name, link, document)
                    if document not in missing.importers:
                        missing.importers.append(document)
            system = document.root.get("gameSystemId")
            if document.kind == "catalogue" and system and system not in self.game_systems:
                self.report.warning(
                    "missing-import",
                    f"{document.name!r} belongs to the game system {system}, which is not "
                    "among the files; core rules and shared profiles stay unresolved (name "
                    "the folder of the data set, or its .gst with the catalogues)",
                    line=document.root.line,
                    path=document.path,
                )

    # ------------------------------------------------------------------------------ links

    def lookup(self, target_id: str) -> Node | None:
        """The shared element of id ``target_id``, if a file holds one (no diagnostic)."""
        candidates = self.by_id.get(target_id)
        return candidates[0] if candidates else None

    def target(self, link: Node) -> Node | None:
        """The element ``link`` (an entryLink, infoLink, categoryLink) targets; None, with a
        ``dangling-link`` warning once per file and target, when no file holds it."""
        target_id = link.attrs.get("targetId", "")
        candidates = self.by_id.get(target_id)
        if candidates and len(candidates) == 1:
            return candidates[0]
        document = self.document(link)
        if candidates:
            owners = {id(self.document(node).root): node for node in candidates}
            for place in self.reach(document):
                if id(place.root) in owners:
                    return owners[id(place.root)]
            return candidates[0]
        lacking = self._missing_in_reach(document)
        if lacking:  # said once for each catalogue lacking, by ``say_missing``
            for missing in lacking:
                missing.targets.setdefault(target_id, link)
            return None
        if self.report.first_time("dangling-link", f"{document.path}\x00{target_id}"):
            self.report.warning(
                "dangling-link",
                f"{link.tag} {link.name!r} targets {target_id}, which none of the files holds "
                "(a catalogue it comes from is not among them); left out",
                line=link.line,
                path=document.path,
            )
        return None

    def _missing_in_reach(self, document: Document) -> list[Missing]:
        """The catalogues ``document`` imports (itself or through the catalogues it imports)
        that are not among the files, in the order imported."""
        if not self.missing:
            return []
        key = document.path
        found = self._missing_of.get(key)
        if found is None:
            found = self._missing_of[key] = []
            for place in self.reach(document):
                for link in place.root.items("catalogueLinks"):
                    missing = self.missing.get(link.get("targetId"))
                    if missing is not None and missing not in found:
                        found.append(missing)
        return found

    def say_missing(self) -> None:
        """One ``missing-import`` warning per catalogue the files import and lack, with what it
        costs: the entries their links target that none of the files holds (said here, not
        once per link), and how many of them a catalogue offers at its root."""
        for target_id, missing in self.missing.items():
            importers = ", ".join(repr(d.name) for d in missing.importers[:4])
            more = len(missing.importers) - 4
            if more > 0:
                importers += f" and {more} more"
            lost = len(missing.targets)
            root = sorted(
                {clean_name(link.name) for link in missing.targets.values() if self._at_root(link)}
            )
            names = root or sorted({clean_name(link.name) for link in missing.targets.values()})
            shown = ", ".join(names[:5]) + (", …" if len(names) > 5 else "")
            cost = (
                f"their links to {lost} entries none of the files holds (held by it, or by "
                f"another catalogue they lack) are left out, {len(root)} of them entries a "
                f"catalogue offers at its root (units): {shown}"
                if lost
                else "no link of theirs was left unresolved"
            )
            self.report.warning(
                "missing-import",
                f"the catalogue {missing.name!r} (id {target_id}) is not among the files; "
                f"{len(missing.importers)} import it ({importers}): {cost} (the files of one "
                "folder, or those named together, are read as one data set)",
                line=missing.link.line,
                path=missing.document.path,
            )

    def _at_root(self, link: Node) -> bool:
        """True when ``link`` sits at its file's root (an entry the catalogue offers)."""
        return self.document(link).parents.get(id(link)) is self.document(link).root

    # ------------------------------------------------------------------------- visibility

    def _forces(self) -> None:
        for system in self.game_systems.values():
            forces = system.root.items("forceEntries")
            default = next((f for f in forces if f.get("hidden") != "true"), None)
            for force in forces:
                ids = {node.id for node in force.walk() if node.tag == "forceEntry"}
                (self.default_forces if force is default else self.other_forces).update(ids)
                if force is not default:
                    self.modes.setdefault(force.name, set()).update(ids)
        self._present = self.default_forces

    def only_in(self, node: Node) -> str | None:
        """The force (other than the default) ``node`` is shown in when the default roster does
        not show it (``Boarding Actions``); None when the default roster shows it, or none does."""
        if not self.hidden(node):
            return None
        try:
            for name, ids in self.modes.items():
                self._present = ids
                if not self.hidden(node):
                    return name
        finally:
            self._present = self.default_forces
        return None

    def hidden(self, node: Node) -> bool:
        """True when ``node`` is not in the default army roster (see the module's doc)."""
        if not node.children:  # no modifier: its own attribute says
            return node.attrs.get("hidden") == "true"
        if self._present is self.default_forces:
            key = (id(node), self.primary)
            known = self._hidden.get(key)
            if known is None:
                known = self._hidden[key] = self._hidden_now(node)
            return known
        return self._hidden_now(node)

    def _hidden_now(self, node: Node) -> bool:
        hidden = node.attrs.get("hidden") == "true"
        if not node.children or (not node.items("modifiers") and not node.items("modifierGroups")):
            return hidden
        for modifier, guards in _modifiers(node):
            if modifier.get("field") != "hidden" or modifier.get("type") != "set":
                continue
            truth = _all([self._conditions(modifier), *(self._conditions(g) for g in guards)])
            if truth is True:
                hidden = modifier.get("value") == "true"
        return hidden

    def always(self, modifier: Node, guards: list[Node]) -> bool:
        """True when ``modifier`` applies in the default roster whatever is selected: it has
        no conditions, or only conditions on forces that hold."""
        holders = [modifier, *guards]
        conditions = [c for h in holders for c in own_conditions(h)]
        return all(self._condition(c) is True for c in conditions)

    def holds(self, condition: Node) -> Truth:
        """Whether one condition holds in the default roster (None: it depends on selections)."""
        return self._condition(condition)

    def _conditions(self, holder: Node) -> Truth:
        """Whether the conditions and condition groups of ``holder`` (all must hold) hold."""
        return _all(
            [self._condition(c) for c in holder.items("conditions")]
            + [self._group(g) for g in holder.items("conditionGroups")]
        )

    def _group(self, group: Node) -> Truth:
        parts = [self._condition(c) for c in group.items("conditions")] + [
            self._group(g) for g in group.items("conditionGroups")
        ]
        return _any(parts) if group.get("type") == "or" else _all(parts)

    def choose_none(self, ids: Iterable[str]) -> None:
        """Say that the default roster selects none of ``ids`` (its detachments): conditions on
        them are decided from now on (the answers kept so far are dropped)."""
        self.unchosen = frozenset(ids)
        self._hidden.clear()

    def _condition(self, condition: Node) -> Truth:
        child = condition.get("childId")
        if condition.get("scope") == "primary-catalogue" or child in self.catalogues:
            if self.primary is None:
                return None
            present = child == self.primary
        elif child in self.unchosen:
            present = False
        elif child not in self.default_forces and child not in self.other_forces:
            return None
        else:
            present = child in self._present
        kind = condition.get("type")
        if kind in ("instanceOf", "notInstanceOf"):
            return present if kind == "instanceOf" else not present
        return compare(kind, 1 if present else 0, condition.get("value"))


def own_conditions(holder: Node, local: bool = True) -> list[Node]:
    """Every condition of a modifier (or modifier group), in its condition groups too (and in
    its local condition groups, unless ``local`` is false), not those of the modifiers a group
    holds."""
    groups = ("conditionGroups", "localConditionGroups") if local else ("conditionGroups",)
    found: list[Node] = []
    stack = [holder]
    while stack:
        node = stack.pop()
        for child in node.children:
            if child.container == "conditions":
                found.append(child)
            elif child.container in groups:
                stack.append(child)
    return found


def _modifiers(node: Node) -> Iterable[tuple[Node, list[Node]]]:
    """The modifiers of ``node``, each with the modifier groups around it (whose conditions
    must hold too)."""
    for modifier in node.items("modifiers"):
        yield modifier, []
    stack: list[tuple[Node, list[Node]]] = [(g, [g]) for g in node.items("modifierGroups")]
    while stack:
        group, guards = stack.pop()
        for modifier in group.items("modifiers"):
            yield modifier, guards
        stack.extend((g, [*guards, g]) for g in group.items("modifierGroups"))


def modifiers(node: Node) -> list[tuple[Node, list[Node]]]:
    """The modifiers of ``node`` with the groups around each (see ``_modifiers``)."""
    return list(_modifiers(node))


def _all(parts: list[Truth]) -> Truth:
    """All must hold: False if one fails; True if none fails and one holds (a condition on
    forces decides: what else it is joined with are selections, which the default roster
    does not fix); None when every part is unknown. No part at all holds."""
    if not parts:
        return True
    if any(part is False for part in parts):
        return False
    if any(part is True for part in parts):
        return True
    return None


def _any(parts: list[Truth]) -> Truth:
    if any(part is True for part in parts):
        return True
    if parts and all(part is False for part in parts):
        return False
    return None


def compare(kind: str, count: float, raw: str) -> Truth:
    """A condition's comparison of ``count`` with its ``value``; None for a kind not known."""
    try:
        value = float(raw)
    except ValueError:
        return None
    table = {
        "lessThan": count < value,
        "greaterThan": count > value,
        "equalTo": count == value,
        "notEqualTo": count != value,
        "atLeast": count >= value,
        "atMost": count <= value,
    }
    return table.get(kind)
