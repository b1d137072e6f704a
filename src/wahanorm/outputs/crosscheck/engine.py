"""Two snapshots → one ``CrosscheckReport``: entities paired (``match``), each pair reduced to
the fields both sources have and the differences of form taken out (``form``), then compared
field by field by the diff's comparers (``outputs.diff.compare``), each difference said naming
the two sides by their labels."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any, get_args

import orjson

from wahanorm.contract.ids import slugify
from wahanorm.contract.layout import INDEX_NAME
from wahanorm.contract.vocabulary import CHARACTERISTIC_NAMES, KINDS, skill_name
from wahanorm.errors import UsageError
from wahanorm.outputs.crosscheck import form
from wahanorm.outputs.crosscheck.labels import distinct, side_label
from wahanorm.outputs.crosscheck.match import Key, Pair, faction_pairs, pair_entities
from wahanorm.outputs.crosscheck.result import (
    NUMBERS,
    CrosscheckReport,
    Disagreement,
    EntityCheck,
    FactionNames,
    FieldCounts,
    Headline,
    KindCounts,
    NotCompared,
    OneSided,
    Side,
    Summary,
    Which,
)
from wahanorm.outputs.diff.compare import compare_entities
from wahanorm.outputs.diff.engine import Snapshot, read_entities
from wahanorm.outputs.diff.groups import CORE_GROUP, Grouper
from wahanorm.outputs.diff.result import Change
from wahanorm.outputs.diff.values import plain_words
from wahanorm.outputs.diff.words import elide

Entity = dict[str, Any]


def known_fields() -> set[str]:
    """Every field an entity of the contract has (what ``--field`` may name)."""
    from wahanorm.contract.models import AnyEntity  # only when a field is named

    models = get_args(get_args(AnyEntity)[0])
    return {name for model in models for name in model.model_fields} - form.LEFT_OUT


def crosscheck(
    a_snap: Snapshot, b_snap: Snapshot, kinds: Sequence[str] = (), fields: Sequence[str] = ()
) -> CrosscheckReport:
    """Where ``a_snap`` and ``b_snap`` disagree; ``kinds`` and ``fields`` keep to those."""
    return crosscheck_pairs(a_snap, b_snap, kinds, fields)[0]


def crosscheck_pairs(
    a_snap: Snapshot, b_snap: Snapshot, kinds: Sequence[str] = (), fields: Sequence[str] = ()
) -> tuple[CrosscheckReport, list[Pair]]:
    """The crosscheck of two sides, and every pair of entities it compared (what a crosscheck
    of more sides joins across its pairs of sides: ``many``)."""
    _check_names(kinds, fields)
    a_read, b_read = read_entities(a_snap), read_entities(b_snap)
    labels = distinct(
        side_label(a_snap.spec, a_read.by_key.values(), a_read.data_version),
        side_label(b_snap.spec, b_read.by_key.values(), b_read.data_version),
        (a_read.data_version, b_read.data_version),
        (a_snap.spec, b_snap.spec),
    )
    a = {Key(*k): e for k, e in a_read.by_key.items() if not kinds or k[1] in kinds}
    b = {Key(*k): e for k, e in b_read.by_key.items() if not kinds or k[1] in kinds}
    both = {k.kind for k in a} & {k.kind for k in b}
    a_both = {k: e for k, e in a.items() if k.kind in both}
    b_both = {k: e for k, e in b.items() if k.kind in both}
    # what each side holds of the kinds both hold: a kind only one side holds (an export's
    # 1,400 stratagems against BSData) is counted as not compared, its parts never asked
    presence = _presence(a_both), _presence(b_both)
    shared = _shared_patterns(presence, both, fields)
    pairing = pair_entities(a_both, b_both, lambda k, e: form.pruned(e, shared[k.kind]))
    named = faction_pairs(pairing.pairs, a, b)
    b_factions: dict[str, str] = {}
    for (mine, theirs), _ in named.most_common():
        b_factions.setdefault(theirs, mine)
    b_ids = _b_ids_as_a(pairing.pairs, pairing.namespaces, b)
    b_as_a = {k: form.as_a_names(e, b_factions, b_ids) for k, e in b.items()}
    spaces = (
        {k.id.split("/", 1)[0] for k in a},
        {b_ids.get(k.id, k.id).split("/", 1)[0] for k in b},
    )
    grouper = Places([*a_read.by_key.values(), *b_as_a.values()])
    names = {
        str(e.get("id")): str(e.get("name"))
        for e in [*b_as_a.values(), *a.values()]
        if e.get("kind") == "datasheet"
    }
    by_kind = {kind: KindCounts() for kind in sorted(both, key=_kind_rank)}
    held = ({k.id for k in a}, {b_ids.get(k.id, k.id) for k in b})
    checks = _checks(
        pairing.pairs, a, b_as_a, (spaces, held), shared, grouper, labels, names, by_kind
    )
    for kind, counts in by_kind.items():
        one_sided = _one_sided_fields(presence[0].get(kind, set()), presence[1].get(kind, set()))
        by_kind[kind] = counts.model_copy(update={"one_sided_fields": one_sided})
    only_a, only_b, not_compared = _one_sided(a, b_as_a, pairing.only_a, pairing.only_b, grouper)
    for entity in only_a:
        by_kind[entity.kind] = _add(by_kind[entity.kind], only_a=1)
    for entity in only_b:
        by_kind[entity.kind] = _add(by_kind[entity.kind], only_b=1)
    for kind in sorted({k.kind for k in a} ^ {k.kind for k in b}, key=_kind_rank):
        side: Which = "a" if any(k.kind == kind for k in a) else "b"
        count = sum(1 for k in (a if side == "a" else b) if k.kind == kind)
        not_compared.insert(0, NotCompared(side=side, kind=kind, entities=count))
    disagreeing = sum(1 for c in checks if c.disagreements)
    sheets = by_kind.get("datasheet", KindCounts())
    report = CrosscheckReport(
        a=_side(a_snap, a_read.by_key.values(), labels[0]),
        b=_side(b_snap, b_read.by_key.values(), labels[1]),
        kinds=list(kinds),
        fields=list(fields),
        summary=Summary(
            compared=len(pairing.pairs),
            agreeing=len(pairing.pairs) - disagreeing,
            disagreeing=disagreeing,
            only_a=len(only_a),
            only_b=len(only_b),
            named_differently=sum(1 for p in pairing.pairs if p.how != "id"),
        ),
        headline=_headline(checks, sheets),
        by_kind=by_kind,
        factions=[
            FactionNames(a=mine, b=theirs, datasheets=count)
            for (mine, theirs), count in sorted(named.items())
        ],
        entities=sorted(checks, key=lambda c: (c.group.lower(), _kind_rank(c.kind), c.id)),
        only_a=only_a,
        only_b=only_b,
        not_compared=not_compared,
    )
    return report, pairing.pairs


def _headline(checks: list[EntityCheck], sheets: KindCounts) -> Headline:
    """How many datasheets disagree on characteristics, points and weapons."""
    fields = [{d.field for d in c.disagreements} for c in checks if c.kind == "datasheet"]
    return Headline(
        datasheets=sheets.compared,
        disagreeing=sheets.disagreeing,
        characteristics=sum(1 for f in fields if "profiles" in f),
        points=sum(1 for f in fields if "points" in f),
        weapons=sum(1 for f in fields if "weapons" in f),
        numbers=sum(1 for f in fields if f & set(NUMBERS)),
    )


class Places:
    """The group (faction, Core rules) each entity is listed under: the diff's ``Grouper``,
    learning from both sides, with a faction's rules under their faction (``orks/waaagh``:
    Orks) and a detachment's rules and enhancements under the faction of its detachment."""

    def __init__(self, entities: list[Entity]) -> None:
        self.grouper = Grouper(entities)
        self.detachments: dict[str, str] = {}
        self.factions: dict[str, str] = {}
        for e in entities:
            faction = e.get("faction")
            if not isinstance(faction, str) or not faction:
                continue
            if e.get("kind") == "detachment":
                self.detachments.setdefault(str(e.get("name")), faction)
            self.factions.setdefault(slugify(faction), faction)

    def group(self, entity: Entity) -> str:
        """The group ``entity`` is listed under."""
        kind = entity.get("kind")
        if kind == "rule":
            space = str(entity.get("id", "")).split("/", 1)[0]
            if space == "core":
                return CORE_GROUP
            return self.factions.get(space) or space.replace("-", " ").title()
        group = self.grouper.group(entity)
        if kind != "datasheet" and group == entity.get("detachment"):
            return self.detachments.get(group, group)
        return group


def _b_ids_as_a(
    pairs: list[Pair], namespaces: set[tuple[str, str]], b: dict[Key, Entity]
) -> dict[str, str]:
    """B's id → A's, for what the two name differently: each pair's, and any id of B (a unit
    listed by a leader) in a namespace the pairs put in another."""
    spaces: dict[str, str] = {}
    for mine, theirs in sorted(namespaces):
        spaces.setdefault(theirs, mine)
    found: dict[str, str] = {}
    for entity in b.values():
        for key in form.ID_LISTS & entity.keys():
            for item in entity[key] or []:
                space, _, rest = str(item).partition("/")
                if space in spaces and rest:
                    found[str(item)] = f"{spaces[space]}/{rest}"
    found.update({p.b.id: p.a.id for p in pairs if p.a.id != p.b.id})
    return found


def _check_names(kinds: Sequence[str], fields: Sequence[str]) -> None:
    unknown_kinds = sorted(set(kinds) - set(KINDS))
    if unknown_kinds:
        raise UsageError(f"no such kind: {', '.join(unknown_kinds)} (kinds: {', '.join(KINDS)})")
    if not fields:
        return
    known = known_fields()
    unknown = sorted(set(fields) - known)
    if unknown:
        raise UsageError(
            f"no such field: {', '.join(unknown)} (fields: {', '.join(sorted(known))})"
        )


def _kind_rank(kind: str) -> tuple[int, str]:
    return (KINDS.index(kind) if kind in KINDS else len(KINDS), kind)


def _presence(entities: dict[Key, Entity]) -> dict[str, set[str]]:
    found: dict[str, form.Presence] = {}
    for key, entity in entities.items():
        presence = found.get(key.kind)
        if presence is None:
            presence = found[key.kind] = form.Presence()
        presence.add(entity)
    return {kind: presence.found for kind, presence in found.items()}


def _shared_patterns(
    presence: tuple[dict[str, set[str]], dict[str, set[str]]],
    both: set[str],
    fields: Sequence[str],
) -> dict[str, form.Kept]:
    """Per kind, the parts both sides have (those ``fields`` are in, when given), as ``pruned``
    keeps them."""
    mine, theirs = presence
    shared: dict[str, form.Kept] = {}
    for kind in both:
        patterns = mine.get(kind, set()) & theirs.get(kind, set())
        if fields:
            patterns = {p for p in patterns if form.field_of(p) in fields}
        shared[kind] = form.kept(patterns | {"name"})  # an entity is named by it: compared
    return shared


def _one_sided_fields(mine: set[str], theirs: set[str]) -> dict[str, Which]:
    found: dict[str, Which] = dict.fromkeys(form.one_sided(mine, theirs), "a")
    found.update(dict.fromkeys(form.one_sided(theirs, mine), "b"))
    return dict(sorted(found.items()))


def _checks(
    pairs: list[Pair],
    a: dict[Key, Entity],
    b: dict[Key, Entity],
    known: tuple[tuple[set[str], set[str]], tuple[set[str], set[str]]],
    shared: dict[str, form.Kept],
    grouper: Places,
    labels: tuple[str, str],
    names: dict[str, str],
    by_kind: dict[str, KindCounts],
) -> list[EntityCheck]:
    """Each pair compared; the pairs that disagree or are named differently, and the counts.
    ``known``: the namespaces each side holds, and the ids (B's as A names them)."""
    spaces, held = known
    checks: list[EntityCheck] = []
    fields: dict[str, Counter[str]] = {kind: Counter() for kind in by_kind}
    wrong: dict[str, Counter[str]] = {kind: Counter() for kind in by_kind}
    names_of = {kind: {form.field_of(p) for p in shared[kind]} for kind in by_kind}
    for pair in pairs:
        kind = pair.a.kind
        mine, theirs = a[pair.a], b[pair.b]
        a_form, b_form = form.in_one_form(
            form.known_only(mine, spaces[1]),
            form.known_only(theirs, spaces[0]),
            shared[kind],
            form.Context(kind, held),
        )
        changes = [
            _in_one_form(ch)
            for ch in compare_entities(a_form, b_form)
            if not form.same_but_punctuation(ch.old, ch.new) and not form.is_wording(ch.path)
        ]
        changes = [ch for ch in changes if not (ch.words is not None and form.only_form(ch.words))]
        said = [_disagreement(ch, labels, names) for ch in changes]
        for name in names_of[kind]:
            if not (_empty(a_form.get(name)) and _empty(b_form.get(name))):
                fields[kind][name] += 1
        for name in {d.field for d in said}:
            wrong[kind][name] += 1
        by_kind[kind] = _add(by_kind[kind], compared=1, disagreeing=int(bool(said)))
        if said or pair.how != "id":
            checks.append(_check(pair, mine, theirs, grouper, said))
    for kind, counts in by_kind.items():
        by_field = {
            name: FieldCounts(
                compared=n, agreeing=n - wrong[kind][name], disagreeing=wrong[kind][name]
            )
            for name, n in sorted(fields[kind].items())
        }
        agreeing = counts.compared - counts.disagreeing
        by_kind[kind] = counts.model_copy(update={"by_field": by_field, "agreeing": agreeing})
    return checks


def _in_one_form(change: Change) -> Change:
    """A text's change with its word diff in one form (``form.words_in_one_form``)."""
    if change.words is None:
        return change
    return change.model_copy(update={"words": form.words_in_one_form(change.words)})


def _empty(value: Any) -> bool:
    return value is None or value == [] or value == "" or value == {}


def _add(counts: KindCounts, **more: int) -> KindCounts:
    return counts.model_copy(update={k: getattr(counts, k) + v for k, v in more.items()})


def _check(
    pair: Pair, mine: Entity, theirs: Entity, grouper: Places, said: list[Disagreement]
) -> EntityCheck:
    name, other = str(mine.get("name")), str(theirs.get("name"))
    return EntityCheck(
        kind=pair.a.kind,
        id=pair.a.id,
        name=name,
        edition=int(pair.a.edition) if pair.a.edition.isdigit() else None,
        group=grouper.group(mine),
        matched_by=pair.how,
        b_id=pair.b.id if pair.b.id != pair.a.id else None,
        b_name=other if other.casefold() != name.casefold() else None,
        similarity=pair.similarity,
        disagreements=said,
    )


def _one_sided(
    a: dict[Key, Entity],
    b: dict[Key, Entity],
    only_a: list[Key],
    only_b: list[Key],
    grouper: Places,
) -> tuple[list[OneSided], list[OneSided], list[NotCompared]]:
    """The entities one side holds alone: listed when the other side holds their kind in their
    faction; otherwise counted, per kind and faction, as not compared."""
    groups: dict[Which, set[tuple[str, str]]] = {
        "a": {(k.kind, grouper.group(e)) for k, e in a.items()},
        "b": {(k.kind, grouper.group(e)) for k, e in b.items()},
    }
    kinds = {k.kind for k in a} & {k.kind for k in b}
    listed: dict[Which, list[OneSided]] = {"a": [], "b": []}
    uncovered: Counter[tuple[Which, str, str]] = Counter()
    for side, keys, entities in (("a", only_a, a), ("b", only_b, b)):
        other: Which = "b" if side == "a" else "a"
        for key in keys:
            if key.kind not in kinds:
                continue
            entity = entities[key]
            group = grouper.group(entity)
            if (key.kind, group) not in groups[other]:
                uncovered[(side, key.kind, group)] += 1  # type: ignore[index]
                continue
            listed[side].append(  # type: ignore[index]
                OneSided(
                    kind=key.kind,
                    id=key.id,
                    name=str(entity.get("name")),
                    edition=int(key.edition) if key.edition.isdigit() else None,
                    group=group,
                )
            )
    order = sorted(uncovered, key=lambda x: (x[0], _kind_rank(x[1]), x[2].lower()))
    not_compared = [
        NotCompared(side=side, kind=kind, group=group, entities=uncovered[(side, kind, group)])
        for side, kind, group in order
    ]
    by_place = lambda e: (e.group.lower(), _kind_rank(e.kind), e.id)  # noqa: E731
    return sorted(listed["a"], key=by_place), sorted(listed["b"], key=by_place), not_compared


def _side(snap: Snapshot, entities: Any, label: str) -> Side:
    index = _index(snap)
    found = list(entities)
    return Side(
        spec=snap.spec,
        source=snap.source,
        label=label,
        data_version=index.get("data_version")
        if isinstance(index.get("data_version"), str)
        else None,
        generator=index.get("generator") if isinstance(index.get("generator"), str) else None,
        entities=len(found),
        editions=sorted({int(e["edition"]) for e in found if isinstance(e.get("edition"), int)}),
    )


def _index(snap: Snapshot) -> dict[str, Any]:
    try:
        # orjson, as ``read_entities`` has read it already (a text it cannot read is an input
        # error there): the same values
        index = orjson.loads(snap.files.get(INDEX_NAME, "{}"))
    except orjson.JSONDecodeError:
        return {}
    return index if isinstance(index, dict) else {}


# --- what a difference reads as ------------------------------------------------------------


def _disagreement(change: Change, labels: tuple[str, str], names: dict[str, str]) -> Disagreement:
    """A change of the diff's (A as old, B as new) as a disagreement naming both sides."""
    label = _full_label(change)
    mine, theirs = labels
    if change.op == "changed" and change.old and label.endswith(f": {change.old}"):
        who = label[: -len(change.old) - 2]  # a weapon ability, named by its value
        label = f"{who}: ability"
        summary = f"{who}: {change.old} ({mine}) vs {change.new} ({theirs})"
    elif change.op == "changed" and change.words is not None:
        summary = f"{label}: {plain_words(elide(change.words))}"
    elif change.op == "changed":
        sep = " " if ": " in label else ": "
        summary = f"{label}{sep}{change.old} ({mine}) vs {change.new} ({theirs})"
    else:
        value = change.old if change.op == "removed" else change.new
        what = item_label(label, change.path, names)
        where = mine if change.op == "removed" else theirs
        shown = f" ({value})" if value and value not in what else ""
        summary = f"{what}: only in {where}{shown}"
    return Disagreement(
        path=change.path,
        field=form.field_of(change.path),
        label=label,
        a=change.old,
        b=change.new,
        words=change.words,
        summary=summary,
    )


def _full_label(change: Change) -> str:
    """The diff's label with a characteristic by its whole name: ``Boy: M`` → ``Boy:
    Movement``."""
    last = change.path.rsplit(".", 1)[-1]
    if ": " not in change.label or "[" in last:
        return change.label
    who, short = change.label.rsplit(": ", 1)
    if last == "skill":
        return f"{who}: {skill_name('melee' if short == 'WS' else 'ranged')}"
    if last in CHARACTERISTIC_NAMES:
        return f"{who}: {CHARACTERISTIC_NAMES[last]}"
    return change.label


def item_label(label: str, path: str, names: dict[str, str]) -> str:
    """A list item by its label and key: ``Keyword SMOKE``, ``Can lead Nobz``; a cost by its
    label alone, which says its key in words (``Points (1 model, units 1-2)``, never with
    ``(1, 1, 2)`` after it)."""
    if not path.endswith("]") or path.startswith("points["):
        return label
    key = path[path.rfind("[") + 1 : -1]
    key = names.get(key, key)
    return label if key in label else f"{label} {key}"
