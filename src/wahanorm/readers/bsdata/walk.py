"""Everything a unit's entry holds, through its links: profiles, rules, model and wargear entries.

A datasheet in BSData is a selection entry (type ``unit`` or ``model``) whose parts sit below it
or behind links to shared entries, groups, profiles and rules. ``collect`` walks that tree once
(each entry and group at most once per unit, so a cycle of links ends; an info group that links
back to itself ends at the link, and a chain of links or nested entries longer than
``MAX_LINK_DEPTH`` at its last: a ``link-loop`` warning) and files every profile and rule
it meets with its *level*: ``unit`` (the datasheet's own entry), ``model`` (a model entry of the
unit) or ``wargear`` (an upgrade: a weapon, a piece of wargear). What the default roster does
not show is left out (``DataSet.hidden``: Crusade and Boarding Actions content), but for the
unit's own entry, which is the datasheet wherever it is offered; so are the
entries the data set reads as enhancements or detachments (they are entities of their own).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from wahanorm.readers.bsdata.dataset import DataSet
from wahanorm.readers.bsdata.nodes import Node

Level = Literal["unit", "model", "wargear"]


@dataclass(frozen=True, eq=False)
class Part:
    """A profile or rule met in a unit's tree."""

    node: Node
    """The profile or rule itself (the link's target when it came through an infoLink)."""
    level: Level
    owner: Node
    """The selection entry it belongs to (the unit, a model, a weapon)."""
    link: Node | None = None
    """The infoLink that brought it, whose modifiers may change its name."""


@dataclass
class UnitTree:
    """The profiles and rules of one unit, in the order met."""

    profiles: list[Part] = field(default_factory=list)
    rules: list[Part] = field(default_factory=list)
    models: list[Node] = field(default_factory=list)
    """The model entries met (type ``model``), each once."""
    entries: set[int] = field(default_factory=set)
    """``id()`` of every entry and group walked (the unit's, its models', its wargear)."""


def collect(data: DataSet, entry: Node, link: Node | None, skip: set[int]) -> UnitTree:
    """The unit tree of ``entry`` (reached through ``link``, a root entryLink, if any);
    ``skip`` holds the ``id()`` of entries and groups that are not part of any unit (the
    enhancements and detachments)."""
    walker = _Walker(data, skip)
    walker.entry(entry, "unit", link, root=True)
    walker.tree.entries = walker.seen
    return walker.tree


MAX_LINK_DEPTH = 64
"""The longest chain of entries and groups (nested or linked) a unit's tree is followed down,
and of info groups: far beyond the real data sets' (8 entries and groups, one info group, in
the 47 files of BSData's 10th edition and the 42 of its 11th), and far within Python's
recursion limit."""

_INFO = frozenset({"profiles", "rules", "infoGroups", "infoLinks"})
"""The containers of an entry that hold (or link) its profiles and rules."""


@dataclass
class _Walker:
    data: DataSet
    skip: set[int]
    tree: UnitTree = field(default_factory=UnitTree)
    seen: set[int] = field(default_factory=set)
    depth: int = 0
    """How many entries and groups are open around the one being walked."""
    open_groups: set[int] = field(default_factory=set)
    """``id()`` of the info groups open around the one being walked."""

    def entry(self, entry: Node, level: Level, link: Node | None, root: bool = False) -> None:
        """An entry and what it holds; the unit's own entry (``root``) whether or not the
        default roster shows it (``contents`` decided it is a datasheet)."""
        key = id(entry)
        if key in self.seen or key in self.skip:
            return
        hidden = self.data.hidden
        if not root and (hidden(entry) or (link is not None and hidden(link))):
            return
        if self.depth >= MAX_LINK_DEPTH:
            self.too_deep(link or entry)
            return
        self.seen.add(key)
        if entry.attrs.get("type") == "model" and level != "unit":
            self.tree.models.append(entry)
        self.depth += 1
        if link is not None and link.children:
            self.children(link.children, level, entry)
        self.children(entry.children, level, entry)
        self.depth -= 1

    def group(self, group: Node, level: Level, link: Node | None) -> None:
        key = id(group)
        if key in self.seen or key in self.skip:
            return
        hidden = self.data.hidden
        if hidden(group) or (link is not None and hidden(link)):
            return
        if self.depth >= MAX_LINK_DEPTH:
            self.too_deep(link or group)
            return
        self.seen.add(key)
        self.depth += 1
        if link is not None and link.children:
            self.children(link.children, level, None)
        self.children(group.children, level, None)
        self.depth -= 1

    def too_deep(self, node: Node, loop: bool = False) -> None:
        """A ``link-loop`` warning at ``node`` (once per element, however many units meet it)."""
        report = self.data.report
        if report.first_time("link-loop", f"{node.file}\x00{node.line}\x00{node.id}"):
            why = (
                "links back to an info group it is inside"
                if loop
                else f"is deeper than {MAX_LINK_DEPTH} nested or linked entries and groups"
            )
            report.warning(
                "link-loop",
                f"{node.tag} {node.name!r} {why}; not followed further",
                line=node.line,
                path=node.file,
            )

    def children(self, children: list[Node], level: Level, owner: Node | None) -> None:
        """The children of an entry (``owner``) or of a group (``owner`` None: its entries
        keep the level of the entry around the group)."""
        for child in children:
            container = child.container
            if container == "selectionEntries":
                self.entry(child, _level_of(child), None)
            elif container == "selectionEntryGroups":
                self.group(child, level, None)
            elif container == "entryLinks":
                target = self.data.target(child)
                if target is None:
                    continue
                if target.tag == "selectionEntryGroup":
                    self.group(target, level, child)
                elif target.tag == "selectionEntry":
                    self.entry(target, _level_of(target), child)
            elif owner is not None and container in _INFO:
                self.info(child, level, owner)

    def info(self, child: Node, level: Level, owner: Node) -> None:
        """A profile, rule, infoLink or infoGroup of ``owner``."""
        container = child.container
        hidden = self.data.hidden
        if container in ("profiles", "rules") and not hidden(child):
            parts = self.tree.profiles if container == "profiles" else self.tree.rules
            parts.append(Part(child, level, owner))
        elif container == "infoGroups" and not hidden(child):
            for item in child.children:
                self.info(item, level, owner)
        elif container == "infoLinks" and not hidden(child):
            target = self.data.target(child)
            if target is None or hidden(target):
                return
            if target.tag == "profile":
                self.tree.profiles.append(Part(target, level, owner, child))
            elif target.tag == "rule":
                self.tree.rules.append(Part(target, level, owner, child))
            elif target.tag == "infoGroup":
                key = id(target)
                if key in self.open_groups or len(self.open_groups) >= MAX_LINK_DEPTH:
                    self.too_deep(child, loop=key in self.open_groups)
                    return
                self.open_groups.add(key)
                for item in target.children:
                    self.info(item, level, owner)
                self.open_groups.discard(key)


def _level_of(entry: Node) -> Level:
    """A model (or a unit inside a unit) is a model of the unit; anything else is wargear."""
    return "model" if entry.attrs.get("type") in ("model", "unit") else "wargear"
