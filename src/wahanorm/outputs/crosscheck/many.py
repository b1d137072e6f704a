"""Three sources or more → one ``ManyReport``: every pair of sides crosschecked as ``crosscheck
A B`` checks them (``engine.crosscheck_pairs``), then joined. The entities paired across the
pairs of sides are one entity; for each field the sides differ on, the sides are grouped by the
value they hold (two sides a pair compares and finds alike hold one value), so that a report
says "Toughness 10 in A and B, 9 in C", and names the majority where one value is held by more
sides than any other."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import PurePosixPath

from wahanorm.errors import UsageError
from wahanorm.outputs.crosscheck.engine import crosscheck_pairs, item_label
from wahanorm.outputs.crosscheck.labels import side_label, version_words
from wahanorm.outputs.crosscheck.match import Key
from wahanorm.outputs.crosscheck.result import (
    NUMBERS,
    CrosscheckReport,
    Difference,
    Disagreement,
    EntityCheck,
    Headline,
    Holding,
    ManyEntity,
    ManyReport,
    ManySummary,
    OneSided,
    PairCounts,
    Side,
)
from wahanorm.outputs.diff.engine import Snapshot, read_entities
from wahanorm.outputs.diff.values import plain_words
from wahanorm.outputs.diff.words import elide

Node = tuple[int, Key]
"""An entity of one side: the side's place on the command line, and the entity's key there."""


@dataclass(frozen=True)
class PairRun:
    """One pair of sides, crosschecked: side ``a`` before side ``b`` on the command line."""

    a: int
    b: int
    report: CrosscheckReport
    paired: dict[Key, Key]
    """A's key → B's, for every pair of entities compared."""
    checks: dict[Key, EntityCheck]
    """A's key → what the two said of it, for the pairs they disagree on."""


@dataclass
class Joined:
    """One entity across the sides: its key on each side that holds it."""

    keys: dict[int, Key] = field(default_factory=dict)


class _Sets:
    """Union-find over the entities of the sides: what the pairs of sides tell is one."""

    def __init__(self) -> None:
        self.parent: dict[Node, Node] = {}

    def find(self, item: Node) -> Node:
        root = self.parent.setdefault(item, item)
        while root != self.parent[root]:
            root = self.parent[root]
        while item != root:  # shorten the path walked
            item, self.parent[item] = self.parent[item], root
        return root

    def join(self, one: Node, other: Node) -> None:
        a, b = self.find(one), self.find(other)
        if a != b:
            # the smaller root stays: the result never depends on the order of joining
            small, large = sorted((a, b))
            self.parent[large] = small


def crosscheck_many(
    snaps: Sequence[Snapshot], kinds: Sequence[str] = (), fields: Sequence[str] = ()
) -> ManyReport:
    """Where the sides ``snaps`` (three or more) disagree; ``kinds`` and ``fields`` keep to
    those."""
    if len(snaps) < 3:
        raise UsageError("a crosscheck of many sources needs three sides or more")
    labels, names = _labels(snaps)
    runs = [
        _run(i, j, snaps[i], snaps[j], kinds, fields) for i, j in combinations(range(len(snaps)), 2)
    ]
    sides = [
        (runs[0].report.a if i == 0 else _side_report(runs, i)).model_copy(
            update={"label": labels[i]}
        )
        for i in range(len(snaps))
    ]
    joined = _join(runs)
    entities: list[ManyEntity] = []
    held_by_all = agreeing = held_by_some = majority = 0
    sheets = Counter[str]()
    for entity in joined:
        checks = [(run, run.checks.get(entity.keys[run.a])) for run in _runs_of(entity, runs)]
        differences = _differences(entity, checks, labels, names)
        everyone = len(entity.keys) == len(snaps)
        held_by_all += everyone
        held_by_some += not everyone
        if everyone and not differences:
            agreeing += 1
        majority += sum(d.majority for d in differences)
        if everyone and _kind(entity) == "datasheet":
            found = {d.field for d in differences}
            sheets["datasheets"] += 1
            sheets["disagreeing"] += bool(differences)
            sheets.update(f for f in NUMBERS if f in found)
            sheets["numbers"] += bool(found & set(NUMBERS))
        if differences:
            entities.append(_entity(entity, checks, labels, differences))
    return ManyReport(
        sides=sides,
        kinds=list(kinds),
        fields=list(fields),
        summary=ManySummary(
            sides=len(snaps),
            held_by_all=held_by_all,
            agreeing=agreeing,
            differing=len(entities),
            held_by_some=held_by_some,
            majority=majority,
        ),
        headline=Headline(
            datasheets=sheets["datasheets"],
            disagreeing=sheets["disagreeing"],
            characteristics=sheets["profiles"],
            points=sheets["points"],
            weapons=sheets["weapons"],
            numbers=sheets["numbers"],
        ),
        pairs=[_pair_counts(run, labels) for run in runs],
        entities=sorted(entities, key=lambda e: (e.group.lower(), e.kind, e.id)),
        only_one=_only_one(runs, labels, len(snaps)),
    )


def _labels(snaps: Sequence[Snapshot]) -> tuple[list[str], dict[str, str]]:
    """A label for each side that tells it from every other: the folder its rules were read
    from; with its data version, or as its argument names it, where two read alike; else
    numbered. And the name of each datasheet by its id (a leader's unit is listed by id)."""
    read = [read_entities(snap) for snap in snaps]
    names = {
        str(e.get("id")): str(e.get("name"))
        for r in reversed(read)
        for e in r.by_key.values()
        if e.get("kind") == "datasheet"
    }
    labels = [
        side_label(s.spec, r.by_key.values(), r.data_version)
        for s, r in zip(snaps, read, strict=True)
    ]
    versions = [version_words(r.data_version) for r in read]
    arguments = [PurePosixPath(s.spec.rstrip("/")).name for s in snaps]
    for way in ("version", "argument", "number"):
        alike = {label for label, n in Counter(labels).items() if n > 1}
        if not alike:
            break
        labels = [
            _told_apart(label, way, versions[i], arguments[i], i) if label in alike else label
            for i, label in enumerate(labels)
        ]
    return labels, names


def _told_apart(label: str, way: str, version: str, name: str, i: int) -> str:
    if way == "version":
        return f"{label}, {version}" if version else label
    if way == "argument":
        return name or label
    return f"{label} ({i + 1})"


def _run(
    i: int, j: int, a: Snapshot, b: Snapshot, kinds: Sequence[str], fields: Sequence[str]
) -> PairRun:
    report, pairs = crosscheck_pairs(a, b, kinds, fields)
    paired = {p.a: p.b for p in pairs}
    checks = {Key(_edition(c.edition), c.kind, c.id): c for c in report.entities}
    return PairRun(i, j, report, paired, checks)


def _edition(edition: int | None) -> str:
    return str(edition) if edition is not None else ""


def _side_report(runs: list[PairRun], i: int) -> Side:
    run = next(r for r in runs if r.b == i)
    return run.report.b


def _join(runs: list[PairRun]) -> list[Joined]:
    """The entities paired across the pairs of sides, each one entity; only those that more
    than one side holds."""
    sets = _Sets()
    for run in runs:
        for mine, theirs in run.paired.items():
            sets.join((run.a, mine), (run.b, theirs))
    groups: dict[Node, Joined] = {}
    for node in sorted(sets.parent):
        side, key = node
        entity = groups.setdefault(sets.find(node), Joined())
        entity.keys.setdefault(side, key)  # a side with two keys in one: its first
    return sorted(groups.values(), key=lambda e: (min(e.keys), e.keys[min(e.keys)]))


def _runs_of(entity: Joined, runs: list[PairRun]) -> Iterable[PairRun]:
    """The pairs of sides that compared this entity with one another."""
    for run in runs:
        mine, theirs = entity.keys.get(run.a), entity.keys.get(run.b)
        if mine is not None and theirs is not None and run.paired.get(mine) == theirs:
            yield run


def _kind(entity: Joined) -> str:
    return entity.keys[min(entity.keys)].kind


def _differences(
    entity: Joined,
    checks: list[tuple[PairRun, EntityCheck | None]],
    labels: list[str],
    names: dict[str, str],
) -> list[Difference]:
    """The fields the sides holding ``entity`` differ on, each with the sides grouped by value."""
    said: dict[str, list[tuple[PairRun, Disagreement]]] = {}
    for run, check in checks:
        for d in check.disagreements if check else []:
            # a path is keyed by names, each pair's in its first side's letter case
            said.setdefault(d.path.casefold(), []).append((run, d))
    kind = _kind(entity)
    differences = []
    for found in said.values():
        path = found[0][1].path
        one_field = found[0][1].field
        values: dict[int, str | None] = {}
        apart: set[tuple[int, int]] = set()
        for run, d in found:
            values.setdefault(run.a, d.a)
            values.setdefault(run.b, d.b)
            apart.add((run.a, run.b))
        groups = _grouped(values, apart, _alike(checks, kind, one_field, apart))
        if len(groups) < 2:
            continue  # alike through a third side: a difference of form between these two
        top = len(groups[0][1])
        most = top > 1 and all(len(g[1]) < top for g in groups[1:])
        label = found[0][1].label
        if any(d.a is None or d.b is None for _, d in found):  # an item held or not: by its key
            label = item_label(label, path, names)
        words = next((d.words for run, d in found if _apart(run, groups[0][1], groups[1][1])), None)
        holdings = [Holding(value=v, sides=[labels[s] for s in m]) for v, m in groups]
        differences.append(
            Difference(
                path=path,
                field=one_field,
                label=label,
                values=holdings,
                majority=most,
                words=words,
                summary=_summary(label, holdings, most, words),
            )
        )
    order = {f: n for n, f in enumerate(NUMBERS)}
    return sorted(differences, key=lambda d: (order.get(d.field, len(order)), d.path))


def _alike(
    checks: list[tuple[PairRun, EntityCheck | None]],
    kind: str,
    one_field: str,
    apart: set[tuple[int, int]],
) -> list[tuple[int, int]]:
    """The pairs of sides that compared the entity on ``one_field`` and found it alike."""
    return [
        (run.a, run.b)
        for run, _ in checks
        if kind in run.report.by_kind
        and one_field in run.report.by_kind[kind].by_field
        and (run.a, run.b) not in apart
    ]


def _grouped(
    values: dict[int, str | None], apart: set[tuple[int, int]], alike: list[tuple[int, int]]
) -> list[tuple[str | None, list[int]]]:
    """The sides grouped by the value they hold: each side a pair found apart gives a value, and
    a side found alike with one joins its group (never two sides found apart: where a pair is
    alike only in form, the value said stays). The largest group first."""
    groups: dict[int, list[int]] = {side: [side] for side in sorted(values)}
    where = {side: side for side in values}
    for mine, theirs in alike:
        for side, other in ((mine, theirs), (theirs, mine)):
            if side in where and other not in where:
                group = where[side]
                if not any((min(s, other), max(s, other)) in apart for s in groups[group]):
                    groups[group].append(other)
                    where[other] = group
    for mine, theirs in alike:  # two groups of values found alike in a pair: one
        first, second = where.get(mine), where.get(theirs)
        if first is None or second is None or first == second:
            continue
        if any((min(s, t), max(s, t)) in apart for s in groups[first] for t in groups[second]):
            continue
        groups[first].extend(groups.pop(second))
        for side in groups[first]:
            where[side] = first
    found = [(values[g], sorted(members)) for g, members in groups.items()]
    return sorted(found, key=lambda g: (-len(g[1]), g[1]))


def _apart(run: PairRun, one: list[int], other: list[int]) -> bool:
    return (run.a in one and run.b in other) or (run.a in other and run.b in one)


def _summary(label: str, values: list[Holding], majority: bool, words: object) -> str:
    """``Hive Tyrant: Toughness 10 in A and B (the majority), 9 in C``."""
    parts = []
    for n, holding in enumerate(values):
        who = _and(holding.sides)
        if holding.value is None:
            parts.append(f"not in {who}")
        elif words is not None:
            parts.append(f"one wording in {who}" if n == 0 else f"another in {who}")
        else:
            parts.append(f"{holding.value} in {who}")
        if n == 0 and majority:
            parts[-1] += " (the majority)"
    text = f"{label}: {', '.join(parts)}"
    if isinstance(words, list):
        text += f": {plain_words(elide(words))}"
    return text


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _entity(
    entity: Joined,
    checks: list[tuple[PairRun, EntityCheck | None]],
    labels: list[str],
    differences: list[Difference],
) -> ManyEntity:
    first = min(entity.keys)
    key = entity.keys[first]
    named = next(
        (c for run, c in checks if c is not None and run.a == first),
        next((c for _, c in checks if c is not None), None),
    )
    assert named is not None  # an entity that differs was said by some pair
    return ManyEntity(
        kind=key.kind,
        id=key.id,
        name=named.name if named.id == key.id else key.id,
        edition=int(key.edition) if key.edition.isdigit() else None,
        group=named.group,
        held_by=[labels[s] for s in sorted(entity.keys)],
        ids={labels[s]: k.id for s, k in sorted(entity.keys.items()) if k.id != key.id},
        differences=differences,
    )


def _pair_counts(run: PairRun, labels: list[str]) -> PairCounts:
    s = run.report.summary
    return PairCounts(
        a=labels[run.a],
        b=labels[run.b],
        compared=s.compared,
        agreeing=s.agreeing,
        disagreeing=s.disagreeing,
        only_a=s.only_a,
        only_b=s.only_b,
    )


def _only_one(runs: list[PairRun], labels: list[str], n: int) -> dict[str, dict[str, int]]:
    """Per side, per kind: entities no other side holds, of the kinds another side holds."""
    lone: dict[int, set[Key]] | None = None
    seen: dict[int, set[Key]] = {i: set() for i in range(n)}
    alone: dict[int, set[Key]] = {i: set() for i in range(n)}
    for run in runs:
        seen[run.a].update(run.paired)
        seen[run.b].update(run.paired.values())
        alone[run.a].update(_keys(run.report.only_a))
        alone[run.b].update(_keys(run.report.only_b))
    lone = {i: alone[i] - seen[i] for i in range(n)}
    found: dict[str, dict[str, int]] = {}
    for i in range(n):
        counts = Counter(k.kind for k in lone[i])
        if counts:
            found[labels[i]] = dict(sorted(counts.items()))
    return found


def _keys(items: Iterable[OneSided]) -> set[Key]:
    return {Key(_edition(o.edition), o.kind, o.id) for o in items}
