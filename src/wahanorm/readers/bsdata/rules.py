"""Rules, detachments, detachment rules and enhancements of a data set as entities.

- A game system's shared rules are core rules (``core/deep-strike``); a catalogue's own rules
  (``rules``, ``sharedRules``) are its faction's (``orks/waaagh``), as the Wahapedia readers name
  the same rules; a shared rule a detachment links is that detachment's rule, not a faction's.
  A catalogue's rules are the faction's of the units it holds (a catalogue that also offers a
  library's units keeps its own faction); a rule of a library several factions share is the
  faction's whose datasheets show it, or
  whose catalogue, as the roster's primary one, shows what the rule's modifiers hide under the
  others (``rule_faction``); only when neither tells does its file's faction name it.
- A detachment (``orks/war-horde``) holds its rules, or links shared ones (``infoLinks``, as the
  Necrons' catalogue does), as detachment rules (``war-horde/get-stuck-in``,
  sub-abilities and RESTRICTIONS split by the shared ``split_detachment_text``); the tables a
  detachment prints (profiles of its own type, such as a D6 roll: ``1-2`` → ``[SUSTAINED HITS 1]
  ability``) are the rules' ``tables``, one row per profile under a row of the type's
  characteristic names. In 11th edition its cost in Detachment Points is ``dp``, the force
  disposition it is tagged with ``force_disposition``.
- An enhancement (``war-horde/supa-cybork-body``) has the text of its ability profiles and its
  ``pts`` cost.
"""

from __future__ import annotations

from collections import Counter

from wahanorm.blocks.parse.detachment import split_detachment_text
from wahanorm.contract.ids import make_id
from wahanorm.contract.models import Detachment, DetachmentRule, Enhancement, Rule, SourceRef
from wahanorm.readers.bsdata.catalogue import (
    DETACHMENT_COST,
    Contents,
    EnhancementEntry,
    cost_type_names,
    cost_value,
    detachment_rules,
    document_faction,
    unit_faction,
)
from wahanorm.readers.bsdata.costs import point_ids, points_of
from wahanorm.readers.bsdata.dataset import DataSet
from wahanorm.readers.bsdata.nodes import Document, Node
from wahanorm.readers.bsdata.profiles import characteristics
from wahanorm.readers.bsdata.text import clean_name, clean_text

CORE = "core"


def source(data: DataSet, node: Node) -> SourceRef:
    """Where ``node`` is: its file as shown and its first and last lines."""
    document = data.document(node)
    return SourceRef(path=document.path, line_start=node.line, line_end=max(node.end, node.line))


def shared_rules(data: DataSet, found: Contents) -> list[Rule]:
    """One ``Rule`` per rule of a game system (``core/…``) or catalogue (``<faction>/…``, the
    faction ``rule_faction`` gives)."""
    rules: list[Rule] = []
    for document in data.documents:
        holders = document.root.items("sharedRules") + document.root.items("rules")
        if not holders:
            continue
        core = document.kind == "gameSystem"
        faction = None if core else document_faction(data, found, document)
        if not core and not document.is_library:
            faction = _held_faction(data, found, document) or faction
        unplaced = 0
        for rule in holders:
            if id(rule) in found.detachment_rule_nodes:
                continue  # a detachment's rule, linked from its entry (``detachments``)
            name = clean_name(rule.name)
            if not name:
                _unnamed(data, rule, "rule")
                continue
            if core:
                namespace: str | None = CORE
            elif document.is_library:
                namespace = rule_faction(data, found, rule) or faction
            else:
                namespace = faction or rule_faction(data, found, rule)
            if namespace is None:
                unplaced += 1
                continue
            rules.append(
                Rule(
                    id=make_id(namespace, name),
                    name=name,
                    sources=[source(data, rule)],
                    text=_description(data, rule),
                )
            )
        if unplaced:
            data.report.warning(
                "unplaced-entry",
                f"{document.name!r} has rules but no unit with a faction keyword (nor does a "
                "catalogue that imports it), so their faction is not known; left out",
                line=document.root.line,
                path=document.path,
            )
    return rules


def _held_faction(data: DataSet, found: Contents, document: Document) -> str | None:
    """The faction most of the units whose entries ``document`` holds are of (a catalogue that
    also offers a library's units is still its own units' faction)."""
    counts: Counter[str] = Counter()
    for unit in found.units:
        if data.document(unit.entry) is document:
            faction = unit_faction(found, unit)
            if faction is not None:
                counts[faction] += 1
    return min(counts, key=lambda name: (-counts[name], name)) if counts else None


def rule_faction(data: DataSet, found: Contents, rule: Node) -> str | None:
    """The faction a library's rule belongs to, where the source says it: that of the
    datasheets that show it (most of them), else that of the catalogue which, as the primary
    one, is the first to show a rule its modifiers hide under other primaries (``Templar
    Vows`` of a library shared by several factions), when those catalogues are of one faction;
    None when neither tells (the rule's file then names it)."""
    users = found.rule_users.get(id(rule))
    if users:
        return min(users, key=lambda name: (-users[name], name))
    if not rule.children or (not rule.items("modifiers") and not rule.items("modifierGroups")):
        return None
    primaries = [d for d in data.documents if d.kind == "catalogue" and not d.is_library]
    shown: list[Document] = []
    try:
        for catalogue in primaries:
            data.primary = catalogue.id
            if not data.hidden(rule):
                shown.append(catalogue)
    finally:
        data.primary = None
    factions = {document_faction(data, found, catalogue) for catalogue in shown}
    if len(shown) == len(primaries) or len(factions) != 1:
        return None  # shown by every primary, by none, or by several factions': its file's
    return factions.pop()


def _description(data: DataSet, rule: Node) -> str:
    text = clean_text(rule.child_text("description"))
    if not text:
        data.report.warning(
            "empty-text",
            f"rule {rule.name!r} has no description",
            line=rule.line,
            path=data.document(rule).path,
        )
    return text


def _unnamed(data: DataSet, node: Node, what: str) -> None:
    data.report.error(
        "missing-field",
        f"a {what} without a name (id {node.id or '?'}); left out",
        line=node.line,
        path=data.document(node).path,
    )


def detachments(data: DataSet, found: Contents) -> list[Detachment | DetachmentRule]:
    """Each detachment and its detachment rules."""
    names = cost_type_names(data)
    entities: list[Detachment | DetachmentRule] = []
    for detachment in found.detachments:
        entry = detachment.entry
        name = clean_name(entry.name)
        dp = cost_value(entry, names, DETACHMENT_COST, data)
        entities.append(
            Detachment(
                id=make_id(detachment.faction, name),
                name=name,
                sources=[source(data, entry)],
                faction=detachment.faction,
                type=detachment.mode,
                dp=round(dp) if dp else None,
                force_disposition=_disposition(entry, found),
            )
        )
        tables = _tables(entry)
        for index, (rule, _) in enumerate(detachment_rules(data, entry)):
            entities.append(_detachment_rule(data, rule, name, tables if index == 0 else []))
    return entities


def _disposition(entry: Node, found: Contents) -> str | None:
    for category in entry.items("categoryLinks"):
        name = clean_name(category.name)
        if name in found.dispositions:
            return name
    return None


def _tables(entry: Node) -> list[list[list[str]]]:
    """The detachment's profiles of a type of its own, as tables: one per type, a header row
    (the type's name, then its characteristic names) and a row per profile."""
    tables: dict[str, list[list[str]]] = {}
    for profile in entry.items("profiles"):
        kind = clean_name(profile.get("typeName"))
        pairs = characteristics(profile)
        rows = tables.setdefault(kind, [[kind, *(clean_name(n) for n, _ in pairs)]])
        rows.append([clean_name(profile.name), *(clean_text(v) for _, v in pairs)])
    return list(tables.values())


def _detachment_rule(
    data: DataSet, rule: Node, detachment: str, tables: list[list[list[str]]]
) -> DetachmentRule:
    name = clean_name(rule.name) or detachment
    split = split_detachment_text(_description(data, rule))
    return DetachmentRule(
        id=make_id(detachment, name),
        name=name,
        sources=[source(data, rule)],
        detachment=detachment,
        text=split.text,
        abilities=split.abilities,
        restrictions=split.restrictions,
        tables=tables,
    )


def enhancements(data: DataSet, found: Contents) -> list[Enhancement]:
    """Each enhancement with its detachment, faction, cost and text."""
    ids = point_ids(data)
    entities: list[Enhancement] = []
    for enhancement in found.enhancements:
        entity = _enhancement(data, found, enhancement, ids)
        if entity is not None:
            entities.append(entity)
    return entities


def _enhancement(
    data: DataSet,
    found: Contents,
    enhancement: EnhancementEntry,
    ids: set[str],
) -> Enhancement | None:
    entry = enhancement.entry
    name = clean_name(entry.name)
    detachment = enhancement.detachment
    if detachment is None:
        data.report.warning(
            "unplaced-entry",
            f"enhancement {name!r}: no detachment among the files shows it (its catalogue may "
            "not be among them), so its detachment and faction are not known; left out",
            line=entry.line,
            path=data.document(entry).path,
        )
        return None
    faction = detachment.faction
    namespace = clean_name(detachment.entry.name)
    cost = points_of(data, entry, None, ids)
    texts = [
        clean_text("\n".join(value for _, value in characteristics(profile)))
        for profile in entry.items("profiles")
    ]
    return Enhancement(
        id=make_id(namespace, name),
        name=name,
        sources=[source(data, entry)],
        detachment=namespace,
        faction=faction,
        cost=round(cost) if cost is not None else None,
        text="\n".join(t for t in texts if t) or None,
    )
