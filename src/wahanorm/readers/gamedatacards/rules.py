"""Army rules, detachments, detachment rules, enhancements and stratagems of a Game-Datacards
file, with the ids the other readers give the same entities: a stratagem, a detachment rule and
an enhancement in the namespace of their detachment (a core stratagem in ``core``), a detachment
and an army rule in the faction's."""

from __future__ import annotations

import re
from typing import Any

from wahanorm.blocks import rules_text
from wahanorm.blocks.html_text import TextLine, nested_line
from wahanorm.blocks.parse import labelled_rule
from wahanorm.blocks.parse import stratagems as stratagem_text
from wahanorm.blocks.parse.detachment import split_detachment_text
from wahanorm.blocks.parse.timing import derive_timing
from wahanorm.blocks.rules_text import Part
from wahanorm.contract.ids import make_id
from wahanorm.contract.models import Detachment, DetachmentRule, Enhancement, Rule, Stratagem
from wahanorm.readers.gamedatacards.context import Gdc
from wahanorm.readers.gamedatacards.text import english, name_text, text_lines
from wahanorm.readers.gamedatacards.text import rules_text as text_of

_NUMBER = re.compile(r"^\s*(?P<sign>\+)?\s*(?P<points>\d+)\s*(?:pts|points|CP)?\s*$", re.I)
_LABELS = (
    ("when", "WHEN"),
    ("target", "TARGET"),
    ("effect", "EFFECT"),
    ("restrictions", "RESTRICTIONS"),
)
CORE = "Core"
"""The source of a core stratagem (the file's detachment ``core``), as the other readers name it."""

_STRATAGEM_READ = frozenset(
    {
        "id",
        "name",
        "cost",
        "type",
        "when",
        "target",
        "effect",
        "restrictions",
        "fluff",
        "detachment",
        "source",
    }
)
_STRATAGEM_DROPPED = frozenset(
    {"turn", "phase", "faction_id", "detachment_id", "detachment_faction", "cardType"}
)
_ENHANCEMENT_READ = frozenset(
    {"id", "name", "cost", "description", "detachment", "detachment_faction", "source", "fluff"}
)
_ENHANCEMENT_DROPPED = frozenset(
    {"keywords", "excludes", "faction_id", "detachment_id", "cardType"}
)
_DETACHMENT_READ = frozenset({"id", "name", "faction", "detachmentPoints", "forceDisposition"})
_DETACHMENT_DROPPED = frozenset({"detachment_id", "faction_id", "source"})
_RULE_READ = frozenset({"name", "rules", "source", "cardType", "detachment", "faction"})
_RULE_DROPPED = frozenset({"detachment_id", "id", "faction_id", "order"})


def _entries(data: dict[str, Any], key: str) -> list[dict[str, Any]]:
    found = data.get(key)
    return [e for e in found if isinstance(e, dict)] if isinstance(found, list) else []


def _named(gdc: Gdc, what: str, entry: dict[str, Any]) -> tuple[str, str] | None:
    """(English name for the id, name in the language) of an entry; None with an error for
    an entry without a name."""
    english_name = name_text(english(entry.get("name")))
    if not english_name:
        gdc.report.error("missing-field", f"{what} without a name; left out", line=gdc.line(entry))
        return None
    return english_name, name_text(gdc.pick(entry.get("name"))) or english_name


def _whole_number(gdc: Gdc, what: str, value: object, line: int | None) -> int | None:
    """A cost or count (``1``, ``"25"``, ``"+10"``); None (said) for anything else."""
    if value is None or value == "":
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and (match := _NUMBER.match(value)):
        return int(match.group("points"))
    gdc.report.warning("bad-value", f"{what}: {value!r} is not a whole number; left out", line=line)
    return None


def _order(part: dict[str, Any]) -> int:
    order = part.get("order")
    return order if isinstance(order, int) else 0


def _rule_lines(gdc: Gdc, what: str, parts: object) -> list[TextLine]:
    """The lines of a rule's parts (``rules: [{order, type, text, title}]``) in their order:
    text parts read, a title a line of its own, any other type (an image) said."""
    lines: list[TextLine] = []
    found = [p for p in parts if isinstance(p, dict)] if isinstance(parts, list) else []
    found.sort(key=_order)
    for part in found:
        if part.get("type", "text") == "header":
            # a heading inside the rule (an Orders list's ``MOVE! MOVE! MOVE!``): a line
            heading = name_text(gdc.pick(part.get("text")))
            if heading:
                lines.append(TextLine(heading))
            continue
        if part.get("type", "text") != "text":
            gdc.dropped[f"{what}.rules[type={part.get('type')}]"] += 1
            continue
        title = name_text(gdc.pick(part.get("title")))
        if title:
            lines.append(TextLine(title))
        lines.extend(text_lines(gdc.pick(part.get("text"))))
    return lines


def army_rules(gdc: Gdc, data: dict[str, Any]) -> list[Rule]:
    """One ``Rule`` per army rule (``rules.army``), in the faction's namespace."""
    rules = data.get("rules")
    found: list[Rule] = []
    for entry in _entries(rules if isinstance(rules, dict) else {}, "army"):
        gdc.keys("rules.army", entry, _RULE_READ, _RULE_DROPPED)
        named = _named(gdc, "army rule", entry)
        if named is None:
            continue
        lines = _rule_lines(gdc, "rules.army", entry.get("rules"))
        if not lines:
            gdc.report.warning("empty-text", f"army rule {named[0]!r} has no text")
        shape = rules_text.build(lines, labelled_rule.line_parts)
        found.append(
            Rule(
                id=make_id(gdc.faction or "core", named[0]),
                name=named[1],
                sources=[gdc.source(entry)],
                **labelled_rule.rule_fields(shape),
            )
        )
    return found


def detachment_rules(gdc: Gdc, data: dict[str, Any]) -> list[DetachmentRule]:
    """One ``DetachmentRule`` per rule of each detachment (``rules.detachment``)."""
    rules = data.get("rules")
    found: list[DetachmentRule] = []
    for group in _entries(rules if isinstance(rules, dict) else {}, "detachment"):
        gdc.keys("rules.detachment", group, _RULE_READ | {"detachment_id"}, _RULE_DROPPED)
        detachment = name_text(english(group.get("detachment")))
        for entry in _entries(group, "rules"):
            gdc.keys("rules.detachment.rules", entry, _RULE_READ, _RULE_DROPPED)
            named = _named(gdc, "detachment rule", entry)
            if named is None:
                continue
            if not detachment:
                gdc.report.error(
                    "missing-field",
                    f"detachment rule {named[0]!r} names no detachment; left out",
                )
                continue
            text = "\n".join(
                nested_line(x) for x in _rule_lines(gdc, "rules.detachment", entry.get("rules"))
            )
            if not text:
                gdc.report.warning("empty-text", f"detachment rule {named[0]!r} has no text")
            split = split_detachment_text(text)
            found.append(
                DetachmentRule(
                    id=make_id(detachment, named[0]),
                    name=named[1],
                    sources=[gdc.source(group)],
                    detachment=detachment,
                    text=split.text,
                    abilities=split.abilities,
                    restrictions=split.restrictions,
                )
            )
    return found


def detachments(gdc: Gdc, data: dict[str, Any]) -> list[Detachment]:
    """One ``Detachment`` per entry of ``detachments``, with its DP and force disposition."""
    found: list[Detachment] = []
    for entry in _entries(data, "detachments"):
        gdc.keys("detachments", entry, _DETACHMENT_READ, _DETACHMENT_DROPPED)
        named = _named(gdc, "detachment", entry)
        if named is None:
            continue
        faction = name_text(english(entry.get("faction"))) or gdc.faction
        disposition = entry.get("forceDisposition")
        force = (
            name_text(gdc.pick(disposition.get("name")))
            if isinstance(disposition, dict)
            else name_text(gdc.pick(disposition))
        )
        found.append(
            Detachment(
                id=make_id(faction, named[0]),
                name=named[1],
                sources=[gdc.source(entry)],
                faction=faction,
                dp=_whole_number(
                    gdc,
                    f"detachment {named[0]!r}: detachmentPoints",
                    entry.get("detachmentPoints"),
                    gdc.line(entry),
                ),
                force_disposition=force or None,
            )
        )
    return found


def enhancements(gdc: Gdc, data: dict[str, Any]) -> list[Enhancement]:
    """One ``Enhancement`` per entry of ``enhancements``, in its detachment's namespace."""
    found: list[Enhancement] = []
    for entry in _entries(data, "enhancements"):
        gdc.keys("enhancements", entry, _ENHANCEMENT_READ, _ENHANCEMENT_DROPPED)
        named = _named(gdc, "enhancement", entry)
        if named is None:
            continue
        detachment = name_text(english(entry.get("detachment")))
        if not detachment:
            gdc.report.error(
                "missing-field",
                f"enhancement {named[0]!r} names no detachment; left out",
                line=gdc.line(entry),
            )
            continue
        cost = _cost(gdc, named[0], entry)
        text = text_of(gdc.pick(entry.get("description")))
        found.append(
            Enhancement(
                id=make_id(detachment, named[0]),
                name=named[1],
                sources=[gdc.source(entry)],
                detachment=detachment,
                faction=name_text(english(entry.get("detachment_faction"))) or gdc.faction or None,
                cost=cost,
                flavour=name_text(gdc.pick(entry.get("fluff"))) or None,
                text=text or None,
            )
        )
    return found


def _cost(gdc: Gdc, name: str, entry: dict[str, Any]) -> int | None:
    raw = entry.get("cost")
    if isinstance(raw, str) and raw.strip().startswith("+"):
        gdc.report.info(
            "upgrade-cost",
            f"enhancement {name!r}: cost {raw!r} is written as an addition; read as points",
            line=gdc.line(entry),
        )
    if raw is None or raw == "":
        gdc.report.warning("bad-cost", f"enhancement {name!r} has no cost", line=gdc.line(entry))
        return None
    return _whole_number(gdc, f"enhancement {name!r}: cost", raw, gdc.line(entry))


def stratagems(gdc: Gdc, data: dict[str, Any]) -> list[Stratagem]:
    """One ``Stratagem`` per entry of ``stratagems``: its sections from the file's own WHEN,
    TARGET, EFFECT and RESTRICTIONS fields, its timing derived from WHEN as for every source
    (the file's ``turn`` and ``phase`` are not read: said once)."""
    found: list[Stratagem] = []
    for entry in _entries(data, "stratagems"):
        gdc.keys("stratagems", entry, _STRATAGEM_READ, _STRATAGEM_DROPPED)
        named = _named(gdc, "stratagem", entry)
        if named is None:
            continue
        detachment = name_text(english(entry.get("detachment")))
        source = CORE if detachment.casefold() == CORE.casefold() else detachment
        if not source:
            source = "Unknown"
            gdc.report.warning(
                "no-detachment",
                f"stratagem {named[0]!r} names no detachment; source 'Unknown'",
                line=gdc.line(entry),
            )
        parts: list[Part] = []
        for key, label in _LABELS:
            lines = list(text_lines(gdc.pick(entry.get(key))))
            if not lines:
                continue
            if lines[0].depth == 0 and not lines[0].item:
                first = lines.pop(0).text
                parts.append(Part(label, TextLine(f"{label}: {first}"), first, tuple(lines)))
            else:
                parts.append(Part(label, TextLine(f"{label}:"), "", tuple(lines)))
        if not parts:
            gdc.report.warning(
                "empty-text", f"stratagem {named[0]!r} has no text", line=gdc.line(entry)
            )
        shape = rules_text.build_parts(parts)
        fields = stratagem_text.stratagem_fields(shape)
        cp = _whole_number(gdc, f"stratagem {named[0]!r}: cost", entry.get("cost"), gdc.line(entry))
        if cp is None:
            gdc.report.info(
                "no-cp",
                f"stratagem {named[0]!r} has no CP cost; cp left empty",
                line=gdc.line(entry),
            )
        category = name_text(gdc.pick(entry.get("type")))
        found.append(
            Stratagem(
                id=make_id(source, named[0]),
                name=named[1],
                sources=[gdc.source(entry)],
                cp=cp,
                source=source,
                category=category or None,
                flavour=name_text(gdc.pick(entry.get("fluff"))) or None,
                # from the English WHEN: the timing's words are English in every language
                timing=derive_timing(text_of(english(entry.get("when"))) or None),
                variants=[],
                **fields,
            )
        )
    return found
