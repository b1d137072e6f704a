"""Rules, detachments, detachment rules and enhancements of a data set as entities.

- A game system's shared rules are core rules (``core/deep-strike``); a catalogue's own rules
  (``rules``, ``sharedRules``) are its faction's (``orks/waaagh``), as the Wahapedia readers name
  the same rules; a shared rule a detachment links is that detachment's rule, not a faction's.
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
)
from wahanorm.readers.bsdata.costs import point_ids, points_of
from wahanorm.readers.bsdata.dataset import DataSet
from wahanorm.readers.bsdata.nodes import Node
from wahanorm.readers.bsdata.profiles import characteristics
from wahanorm.readers.bsdata.text import clean_name, clean_text

CORE = "core"


def source(data: DataSet, node: Node) -> SourceRef:
    """Where ``node`` is: its file as shown and its first and last lines."""
    document = data.document(node)
    return SourceRef(path=document.path, line_start=node.line, line_end=max(node.end, node.line))


def shared_rules(data: DataSet, found: Contents) -> list[Rule]:
    """One ``Rule`` per rule of a game system (``core/…``) or catalogue (``<faction>/…``)."""
    rules: list[Rule] = []
    for document in data.documents:
        holders = document.root.items("sharedRules") + document.root.items("rules")
        if not holders:
            continue
        namespace = (
            CORE if document.kind == "gameSystem" else document_faction(data, found, document)
        )
        if namespace is None:
            data.report.warning(
                "unplaced-entry",
                f"{document.name!r} has rules but no unit with a faction keyword (nor does a "
                "catalogue that imports it), so their faction is not known; left out",
                line=document.root.line,
                path=document.path,
            )
            continue
        for rule in holders:
            if id(rule) in found.detachment_rule_nodes:
                continue  # a detachment's rule, linked from its entry (``detachments``)
            name = clean_name(rule.name)
            if not name:
                _unnamed(data, rule, "rule")
                continue
            rules.append(
                Rule(
                    id=make_id(namespace, name),
                    name=name,
                    sources=[source(data, rule)],
                    text=_description(data, rule),
                )
            )
    return rules


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
        dp = cost_value(entry, names, DETACHMENT_COST)
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
    cost = points_of(entry, None, ids)
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
