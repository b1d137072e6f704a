"""A unit's composition (from constraints) and its cost table (from costs and modifiers).

Composition: the model entries of the unit, each a *slot* with the number of models it may take
(``constraint`` min/max of ``selections`` in its ``parent``; a group of model entries with a
range of its own is one slot, named after the group: ``Boyz (9-19)`` → ``9-19 Boyz``). A unit
that is itself a model is one model.

Costs: the entry's ``pts`` cost (the game system's cost type named ``pts``) is the price of the
smallest unit; a model entry's own cost is paid per model. Modifiers of the ``pts`` cost whose
conditions count the unit's models (``childId="model"``, or the id of a group that holds every
model of the unit: ``set 160 if at least 6 Intercessors``) price the other sizes: ``set 170 if
more than 10 models`` prices the next size up (the band above 10 ends at the next breakpoint or
the largest unit), ``at least 10`` / ``equal to 10`` the size they name. 11th-edition modifiers
that count the units of the same datasheet taken before (``before`` in a local condition group)
are the cost tiers (``YOUR 3RD + UNIT COSTS``: ``units_from`` 3). A cost modifier with other
conditions (a detachment, a selection) is no price of the datasheet and is left out, counted
in one ``dropped-field`` note for the whole data set.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from wahanorm.blocks.parse.numbers import OUT_OF_RANGE, read_number
from wahanorm.contract.models import Points
from wahanorm.readers.bsdata.dataset import DataSet, compare, modifiers, own_conditions
from wahanorm.readers.bsdata.nodes import Node
from wahanorm.readers.bsdata.text import clean_name, untagged
from wahanorm.readers.bsdata.walk import MAX_LINK_DEPTH

POINTS = "pts"
"""The name of the points cost type."""
EPIC_HERO = "epic hero"
"""The keyword a unit composition line names after a model (``– EPIC HERO``)."""
WITH = " w/ "
"""How BattleScribe names a model with its wargear: ``Navis Armsman w/ heavy shotgun``."""
MAX_LINES = 30
"""A unit priced per model lists each size up to this many; a larger range only its ends."""

_COUNTED = re.compile(r"^\s*\d+\s*(?:[-–]\s*\d+)?\s+|\s*\(\s*\d+\s*(?:[-–]\s*\d+)?\s*\)\s*$")


@dataclass(frozen=True)
class Slot:
    """Models of one kind (or one group) in a unit."""

    name: str
    low: int
    high: int | None
    cost: float
    """Points paid per model of the slot (0 when the unit's own cost covers them)."""
    lines: tuple[str, ...] = ()
    """The slot's composition lines when it is a choice between compositions (``1 Sergeant
    and 9 Troopers`` / ``OR`` / ``2 Sergeants and 18 Troopers``); else empty."""
    option: bool = False
    """An upgrade that holds models: one of the compositions a group offers."""
    epic: bool = False
    """The model is an EPIC HERO (its line says so: ``1 Ghazghkull Thraka – EPIC HERO``)."""


@dataclass(frozen=True)
class CostRule:
    """One modifier of the unit's cost: what it does and when."""

    kind: str
    """``set``, ``increment`` or ``decrement``."""
    value: float
    models: tuple[tuple[str, str], ...]
    """(comparison, value) on the number of models; all must hold."""
    units: tuple[tuple[str, str], ...]
    """(comparison, value) on the number of units of the datasheet taken before this one."""


def point_ids(data: DataSet) -> set[str]:
    """The ids of the cost types named ``pts`` in the game systems."""
    return {
        cost.id
        for system in data.game_systems.values()
        for cost in system.root.items("costTypes")
        if cost.name.strip().lower() == POINTS
    }


def _is_points(cost: Node, ids: set[str]) -> bool:
    return cost.get("typeId") in ids or cost.name.strip().lower() == POINTS


def value_of(data: DataSet, node: Node, what: str, default: str = "0") -> float | None:
    """The number in ``node``'s ``value`` (a cost, a constraint's count, a modifier's value);
    None when it is no number, or a number no game value can be (``numbers.MAX_GAME_VALUE``,
    ``inf``, ``nan``: an ``out-of-range`` warning at the node, once)."""
    raw = node.attrs.get("value", default)
    value = read_number(raw)
    if value is OUT_OF_RANGE:
        if data.report.first_time("out-of-range", f"{node.file}\x00{node.line}\x00{what}"):
            data.report.warning(
                "out-of-range",
                f"{node.tag} {node.name!r}: {what} {raw[:40]!r} is no value a game can have; "
                "left out",
                line=node.line,
                path=node.file,
            )
        return None
    return value if isinstance(value, float) else None


def points_of(data: DataSet, entry: Node, link: Node | None, ids: set[str]) -> float | None:
    """The ``pts`` cost of ``entry`` (its link's, when the link gives one); None when none, or
    when it is no number (or none a cost can be: ``value_of``)."""
    for holder in (link, entry):
        if holder is None:
            continue
        for cost in holder.items("costs"):
            if _is_points(cost, ids):
                return value_of(data, cost, "cost")
    return None


def slots(data: DataSet, entry: Node, link: Node | None, ids: set[str]) -> list[Slot]:
    """The model slots of a unit entry, in order."""
    if entry.get("type") == "model":
        return [Slot(untagged(clean_name(entry.name)), 1, 1, 0.0, epic=_is_epic(entry, link))]
    return _merged(_inner(data, entry, link, ids, set()))


def _merged(found: list[Slot]) -> list[Slot]:
    """Slots of the same model as one (``1 Lesk's Hero`` four times: ``4 Lesk's Hero``)."""
    merged: dict[str, Slot] = {}
    kept: list[Slot] = []
    for slot in found:
        same = merged.get(slot.name)
        if same is None or slot.lines or same.lines or slot.cost != same.cost:
            merged.setdefault(slot.name, slot)
            kept.append(slot)
            continue
        high = None if same.high is None or slot.high is None else same.high + slot.high
        joined = Slot(same.name, same.low + slot.low, high, same.cost, epic=same.epic)
        kept[kept.index(same)] = joined
        merged[slot.name] = joined
    return kept


def _slot_child(
    data: DataSet, child: Node, ids: set[str], found: list[Slot], seen: set[int]
) -> None:
    if child.container == "selectionEntries":
        _slot_entry(data, child, None, ids, found, seen)
    elif child.container == "selectionEntryGroups":
        _slot_group(data, child, None, ids, found, seen)
    elif child.container == "entryLinks":
        target = data.target(child)
        if target is None:
            return
        if target.tag == "selectionEntry":
            _slot_entry(data, target, child, ids, found, seen)
        elif target.tag == "selectionEntryGroup":
            _slot_group(data, target, child, ids, found, seen)


def _inner(
    data: DataSet, node: Node, link: Node | None, ids: set[str], seen: set[int]
) -> list[Slot]:
    inner: list[Slot] = []
    for child in in_order(data, (link.children if link is not None else []) + node.children):
        _slot_child(data, child, ids, inner, seen)
    return inner


def in_order(data: DataSet, children: list[Node]) -> list[Node]:
    """``children`` in the order BattleScribe shows them: by ``sortIndex`` (of the link, else
    of its target) where one is given, the others after them in document order."""

    def key(indexed: tuple[int, Node]) -> tuple[float, int]:
        position, child = indexed
        raw = child.get("sortIndex")
        if not raw and child.container == "entryLinks":
            target = data.lookup(child.get("targetId"))
            raw = target.get("sortIndex") if target is not None else ""
        try:
            return float(raw), position
        except ValueError:
            return float("inf"), position

    return [child for _, child in sorted(enumerate(children), key=key)]


def _slot_entry(
    data: DataSet, entry: Node, link: Node | None, ids: set[str], found: list[Slot], seen: set[int]
) -> None:
    # ``seen`` holds the entries and groups open around this one: a cycle ends, and so does a
    # chain longer than the walk of the unit follows (``walk.MAX_LINK_DEPTH``, said there)
    if _hidden(data, entry, link) or id(entry) in seen or len(seen) >= MAX_LINK_DEPTH:
        return
    if entry.get("type") in ("model", "unit") or _has_unit_profile(data, entry):
        low, high = bounds(data, entry, link)
        cost = points_of(data, entry, link, ids) or 0.0
        found.append(Slot(clean_name(entry.name), low, high, cost, epic=_is_epic(entry, link)))
        return
    seen.add(id(entry))
    inner = _inner(data, entry, link, ids, seen)  # an upgrade that holds models: one option
    seen.discard(id(entry))
    if inner:
        low, high = _total(inner)
        found.append(Slot(clean_name(entry.name), low, high, 0.0, option=True))


def _has_unit_profile(data: DataSet, entry: Node) -> bool:
    """True for an upgrade that stands for models: it has a model profile (``Unit``) itself."""
    for profile in entry.items("profiles"):
        if profile.get("typeName").strip().lower() == "unit":
            return True
    for link in entry.items("infoLinks"):
        if link.get("type") == "profile":
            target = data.lookup(link.get("targetId"))
            if target is not None and target.get("typeName").strip().lower() == "unit":
                return True
    return False


def _slot_group(
    data: DataSet,
    group: Node,
    link: Node | None,
    ids: set[str],
    found: list[Slot],
    seen: set[int],
) -> None:
    if id(group) in seen or len(seen) >= MAX_LINK_DEPTH or _hidden(data, group, link):
        return
    seen.add(id(group))
    inner = _inner(data, group, link, ids, seen)
    seen.discard(id(group))
    if not inner:
        return
    options = [slot for slot in inner if slot.option]
    if options and len(options) == len(inner):
        # a choice between whole compositions, each named by what it holds
        lines: list[str] = []
        for option in options:
            lines.extend(["OR", option.name] if lines else [option.name])
        lows = [o.low for o in options]
        highs = [o.high for o in options]
        high = None if None in highs else max(h for h in highs if h is not None)
        found.append(Slot(clean_name(group.name), min(lows), high, 0.0, tuple(lines)))
        return
    name = clean_name(group.name)
    if not _has_bounds(data, group, link) and _uncounted(name) == name:
        found.extend(inner)
        return
    own = _constraints(data, group, link)
    if own and _split(data, group, name, own, inner, found):
        return
    low_in, high_in = _total(inner)
    high = own.get("max", high_in if high_in is not None else -1)
    costs = {slot.cost for slot in inner}
    cost = costs.pop() if len(costs) == 1 else 0.0
    found.append(Slot(_uncounted(name), own.get("min", low_in), high if high >= 0 else None, cost))


def _split(
    data: DataSet,
    group: Node,
    name: str,
    own: dict[str, int],
    inner: list[Slot],
    found: list[Slot],
) -> bool:
    """A counted group of models that holds models of a fixed count (a sergeant: ``1
    Intercessor Sergeant``) and others: the fixed ones are lines of their own and the others
    one line of what the group's count leaves them (``Intercessors`` 5-10 → ``4-9``), named
    after the group's default entry, else the only other model, else the group. False (nothing
    added) when the group is no such group."""
    if any(slot.option or slot.lines for slot in inner):
        return False
    fixed = [s for s in inner if s.high is not None and s.low == s.high and s.low >= 1]
    rest = [s for s in inner if s not in fixed]
    if not fixed or not rest or any(_variant(f.name, rest) for f in fixed):
        return False
    taken = sum(slot.low for slot in fixed)
    low = max(own.get("min", sum(s.low for s in inner)) - taken, 0)
    _, high_rest = _total(rest)
    high_own = own.get("max", -1)
    high = high_own - taken if high_own >= 0 else high_rest
    if high is not None and (high < low or high == 0):
        return False
    default = data.lookup(group.get("defaultSelectionEntryId"))
    named = clean_name(default.name) if default is not None else ""
    if named in {slot.name for slot in rest}:
        rest_name = named
    elif len(rest) == 1:
        rest_name = rest[0].name
    else:
        rest_name = _uncounted(name)
    costs = {slot.cost for slot in rest}
    cost = costs.pop() if len(costs) == 1 else 0.0
    found.extend(fixed)
    found.append(Slot(rest_name, low, high, cost))
    return True


def _variant(name: str, others: list[Slot]) -> bool:
    """``name`` is one of ``others`` with its wargear (``Navis Armsman w/ heavy shotgun``
    beside ``Navis Armsman``): a model of the same kind, not one of its own (a sergeant)."""
    return any(name.lower().startswith(f"{o.name.lower()}{WITH}") for o in others)


def _is_epic(entry: Node, link: Node | None) -> bool:
    holders = [h for h in (link, entry) if h is not None]
    return any(
        c.name.strip().lower() == EPIC_HERO for h in holders for c in h.items("categoryLinks")
    )


def _total(slots: list[Slot]) -> tuple[int, int | None]:
    """The fewest and most models ``slots`` hold together (most None when unbounded)."""
    highs = [slot.high for slot in slots]
    high = None if None in highs else sum(h for h in highs if h is not None)
    return sum(slot.low for slot in slots), high


def _hidden(data: DataSet, node: Node, link: Node | None) -> bool:
    return data.hidden(node) or (link is not None and data.hidden(link))


def _constraints(data: DataSet, node: Node, link: Node | None) -> dict[str, int]:
    found: dict[str, int] = {}
    for holder in (node, link):  # the link's constraints win over its target's
        if holder is None:
            continue
        for constraint in holder.items("constraints"):
            kind = constraint.get("type")
            if (
                kind in ("min", "max")
                and constraint.get("field") == "selections"
                and constraint.get("scope") == "parent"
            ):
                value = value_of(data, constraint, "count of selections", "")
                if value is not None:  # a count beyond any unit's is no bound (said)
                    found[kind] = int(value)
    return found


def _has_bounds(data: DataSet, node: Node, link: Node | None) -> bool:
    return bool(_constraints(data, node, link))


def bounds(data: DataSet, node: Node, link: Node | None) -> tuple[int, int | None]:
    """(min, max) selections of ``node`` in its parent; max None when unbounded (-1 or none)."""
    found = _constraints(data, node, link)
    high = found.get("max")
    return found.get("min", 0), high if high is not None and high >= 0 else None


def _uncounted(name: str) -> str:
    """A group's name without the count it carries: ``Boyz (9-19)``, ``9-19 Boyz`` → ``Boyz``."""
    return _COUNTED.sub("", name).strip() or name


def composition(found: list[Slot]) -> list[str]:
    """The UNIT COMPOSITION lines: ``1 Boss Nob``, ``9-19 Boyz``."""
    lines: list[str] = []
    for slot in found:
        if slot.lines:
            lines.extend(slot.lines)
            continue
        if slot.high is None:
            count = f"{slot.low}+"
        elif slot.high == slot.low:
            count = str(slot.low)
        else:
            count = f"{slot.low}-{slot.high}"
        lines.append(f"{count} {slot.name}" + (" – EPIC HERO" if slot.epic else ""))
    return lines


def cost_rules(
    data: DataSet, entry: Node, link: Node | None, ids: set[str]
) -> tuple[list[CostRule], int]:
    """The modifiers of the unit's ``pts`` cost it can price, and how many it cannot."""
    rules: list[CostRule] = []
    unread = 0
    counters = _model_counters(data, entry)
    for holder in (entry, link):
        if holder is None:
            continue
        for modifier, guards in modifiers(holder):
            if modifier.get("field") not in ids or modifier.get("type") not in (
                "set",
                "increment",
                "decrement",
            ):
                continue
            rule = _cost_rule(data, modifier, guards, entry, counters)
            if rule is None:
                unread += 1
            else:
                rules.append(rule)
    return rules, unread


def _model_counters(data: DataSet, entry: Node) -> set[str]:
    """The ids whose selections in ``entry`` count all of its models: ``model``, and a group
    of model entries alone that holds every model entry of the unit (``set 160 if at least 6
    selections of Intercessors``, the group of the sergeant and the others). A group that
    offers compositions (``5 models`` / ``10 models``) counts the choices, not models."""
    models = 0
    groups: list[tuple[Node, int]] = []  # each group of models alone, with how many it holds

    def resolved(node: Node) -> Node:
        if node.container == "entryLinks":
            target = data.lookup(node.get("targetId"))
            return target if target is not None else node
        return node

    def visit(node: Node, depth: int) -> None:
        nonlocal models
        inside = resolved(node)
        if inside.tag == "selectionEntry" and inside.get("type") == "model":
            models += 1
            return
        if depth >= MAX_LINK_DEPTH:
            return
        children = [
            child
            for child in inside.children
            if child.container in ("selectionEntries", "selectionEntryGroups", "entryLinks")
        ]
        if inside.tag == "selectionEntryGroup" and children:
            kinds = [resolved(child) for child in children]
            if all(k.tag == "selectionEntry" and k.get("type") == "model" for k in kinds):
                groups.append((node, len(children)))
        for child in children:
            visit(child, depth + 1)

    visit(entry, 0)
    counters = {"model"}
    for node, held in groups:
        if held == models:
            counters.update(i for i in (node.id, node.get("targetId")) if i)
    return counters


def _cost_rule(
    data: DataSet, modifier: Node, guards: list[Node], entry: Node, counters: set[str]
) -> CostRule | None:
    value = value_of(data, modifier, "cost", "")
    if value is None:
        return None
    models: list[tuple[str, str]] = []
    units: list[tuple[str, str]] = []
    for holder in (modifier, *guards):
        for group in _local_groups(holder):
            if not _counts_earlier_units(group, entry):
                return None
            units.append((group.get("type"), group.get("value")))
    for condition in (c for h in (modifier, *guards) for c in own_conditions(h, local=False)):
        if condition.get("childId") in counters and condition.get("scope") in (
            "self",
            "parent",
            entry.id,
        ):
            models.append((condition.get("type"), condition.get("value")))
        elif data.holds(condition) is True:
            continue  # a condition on forces that holds in the default roster
        else:
            return None
    if modifier.items("repeats"):
        return None
    return CostRule(modifier.get("type"), value, tuple(models), tuple(units))


def _local_groups(holder: Node) -> list[Node]:
    return [node for node in holder.walk() if node.container == "localConditionGroups"]


def _counts_earlier_units(group: Node, entry: Node) -> bool:
    """A local condition group that counts the units of ``entry`` taken before this one."""
    kinds = [(c.get("type"), c.get("childId")) for c in group.items("conditions")]
    return any(kind == "before" for kind, _ in kinds) and any(
        kind == "instanceOf" and child == entry.id for kind, child in kinds
    )


def price(base: float, rules: list[CostRule], models: int, earlier: int) -> float:
    """The cost of a unit of ``models`` models when ``earlier`` units of it were taken before."""
    cost = base
    for rule in rules:
        if not all(compare(kind, models, value) is True for kind, value in rule.models):
            continue
        if not all(compare(kind, earlier, value) is True for kind, value in rule.units):
            continue
        if rule.kind == "set":
            cost = rule.value
        elif rule.kind == "increment":
            cost += rule.value
        else:
            cost -= rule.value
    return cost


def sizes(found: list[Slot], rules: list[CostRule]) -> list[int]:
    """The unit sizes a cost table prints: the smallest, each size a model-count condition
    names, the end of each band above a ``greater than`` breakpoint; every size when models
    are priced one by one."""
    low = sum(slot.low for slot in found) or 1
    highs = [slot.high for slot in found]
    high = sum(h for h in highs if h is not None) if all(h is not None for h in highs) else None
    if any(slot.cost for slot in found):
        if high is not None and high - low <= MAX_LINES:
            return list(range(low, high + 1))
        return [low] if high is None else [low, high]
    printed = {low}
    starts: set[int] = set()
    for rule in rules:
        for kind, raw in rule.models:
            number = read_number(raw)
            if not isinstance(number, float):
                continue
            value = int(number)
            if kind == "equalTo":
                printed.add(value)
            elif kind in ("greaterThan", "atMost"):
                starts.add(value + 1)
            elif kind in ("atLeast", "lessThan"):
                starts.add(value)
    # a band above a breakpoint is printed at its end: the next breakpoint, or the largest unit
    ordered = sorted(s for s in starts if s > low)
    for index, start in enumerate(ordered):
        end = ordered[index + 1] - 1 if index + 1 < len(ordered) else high
        printed.add(end if end is not None else start)
    return sorted(size for size in printed if size >= low and (high is None or size <= high))


def unit_tiers(rules: list[CostRule]) -> list[tuple[int, int | None]]:
    """The (first, last) units of the datasheet each cost tier is for; [(1, None)] when the
    cost does not change with the number of units."""
    starts = {1}
    for rule in rules:
        for kind, raw in rule.units:
            number = read_number(raw)
            if not isinstance(number, float):
                continue
            value = int(number)
            # ``atLeast N`` earlier units: the (N+1)th unit on; ``greaterThan N``: the (N+2)th
            starts.add(
                value + 1 if kind == "atLeast" else value + 2 if kind == "greaterThan" else value
            )
    ordered = sorted(s for s in starts if s >= 1)
    return [
        (s, ordered[i + 1] - 1 if i + 1 < len(ordered) else None) for i, s in enumerate(ordered)
    ]


def cost_table(
    base: float,
    found: list[Slot],
    rules: list[CostRule],
    tiered: bool,
) -> list[Points]:
    """The cost lines: one per unit size (and per cost tier, when ``tiered``: 11th edition)."""
    per_model = {slot.name: slot.cost for slot in found if slot.cost}
    lines: list[Points] = []
    tiers = unit_tiers(rules) if tiered else [(0, None)]
    for first, last in tiers:
        for size in sizes(found, rules):
            cost = price(base, rules, size, max(first - 1, 0))
            if per_model:
                cost += _model_costs(found, size)
            lines.append(
                Points(
                    models=size,
                    points=round(cost),
                    text=f"{size} model{'s' if size != 1 else ''}",
                    units_from=first if tiered else None,
                    units_to=last if tiered else None,
                )
            )
    return lines


def _model_costs(found: list[Slot], size: int) -> float:
    """Per-model costs of a unit of ``size`` models: each slot's minimum, then the rest from
    the cheapest slots that have room."""
    total = sum(slot.cost * slot.low for slot in found)
    left = size - sum(slot.low for slot in found)
    for slot in sorted(found, key=lambda s: s.cost):
        room = (slot.high - slot.low) if slot.high is not None else left
        taken = max(0, min(room, left))
        total += taken * slot.cost
        left -= taken
    return total
