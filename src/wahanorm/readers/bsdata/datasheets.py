"""One ``Datasheet`` per unit of the data set, assembled from its unit tree (``walk.collect``).

Names: the entry's, in the clean spelling, without the tag BSData appends to Legends units
(``Boss Zagstruk [Legends]`` → ``Boss Zagstruk``), so the id is the one the Wahapedia readers give
(``orks/boss-zagstruk``). Keywords: the categories of the unit's entry, and those every model
entry of the unit has; a category only some models have is those models' (``Profile.keywords``);
a category of the root link to the unit (where the roster files it) that some of its model
entries have and others not is those models' (``Epic Hero`` of a unit of a hero and his
guard); when the unit's entry holds the model profiles, the model entry of a profile's name (or
the one whose name holds it: ``Grimaldus`` of ``Chaplain Grimaldus``) is that
profile's (``Marneus Calgar``: CHARACTER is the model's, not the Victrix Honour Guard's);
categories declared hidden are no keywords (``NON-KROOT``, list-building helpers);
``Faction: X`` categories are the faction keywords. The datasheet is made by the one datasheet
builder (``blocks/datasheet.py``) from a draft, as every reader's is: keywords upper case, once
each and sorted; ``Orders`` the orders; a ``Transport`` profile the datasheet ability
``Transport``, after the others (two such profiles, one text). Leader links: the datasheets a ``Leader`` profile names, and those a bodyguard's
``Attached Unit`` ability opens to the same leaders (``leaders``); ``led_by`` is their inverse. 11th edition: a unit with the ``Support``
category is a support character (``is_support``; 10th edition: null, it has none).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field

from wahanorm.blocks.datasheet import (
    TRANSPORT,
    AbilityGroups,
    At,
    CostLine,
    DatasheetDraft,
    build_datasheet,
)
from wahanorm.contract.ids import make_id
from wahanorm.contract.models import Datasheet, Points, Profile, Stat
from wahanorm.contract.vocabulary import Edition
from wahanorm.readers.bsdata.abilities import unit_abilities
from wahanorm.readers.bsdata.catalogue import (
    FACTION_PREFIX,
    Contents,
    Unit,
    catalogue_faction_name,
    has_unit_profile,
    unit_faction,
)
from wahanorm.readers.bsdata.costs import (
    Slot,
    composition,
    cost_rules,
    cost_table,
    point_ids,
    points_of,
    slots,
)
from wahanorm.readers.bsdata.dataset import DataSet, modifiers
from wahanorm.readers.bsdata.leaders import link_leaders
from wahanorm.readers.bsdata.nodes import Document, Node
from wahanorm.readers.bsdata.profiles import (
    invulnerable_save,
    invulnerable_scope,
    is_invulnerable,
    model_profiles,
    weapons,
)
from wahanorm.readers.bsdata.rules import source
from wahanorm.readers.bsdata.text import clean_name, untagged
from wahanorm.readers.bsdata.walk import Part, UnitTree, collect

SUPPORT = "SUPPORT"
"""The 11th-edition keyword of a support character (``Datasheet.is_support``)."""


@dataclass
class _Counts:
    """What is said once for the whole data set, not per datasheet."""

    conditional_costs: int = 0
    conditional_sheets: int = 0
    conditional_keywords: set[int] = field(default_factory=set)
    """``id()`` of the category modifiers that apply only under a condition the default roster
    does not meet or cannot tell (another catalogue primary, a selection)."""
    conditional_keyword_units: set[int] = field(default_factory=set)
    conditional_stats: set[int] = field(default_factory=set)
    """``id()`` of the profiles a modifier changes a characteristic of."""
    profile_modifiers: set[int] = field(default_factory=set)
    """``id()`` of the modifiers of entries that change the profiles below them
    (``affects="self.entries.recursive.profiles.Ranged Weapons"``)."""


def datasheets(data: DataSet, found: Contents, editions: dict[str, Edition]) -> list[Datasheet]:
    """Every unit of ``found`` as a datasheet, with ``led_by`` filled from the others'
    ``leader``; ``editions`` (per file) decide what reads by edition (cost tiers, support
    characters); the chain stamps the edition itself."""
    ids = point_ids(data)
    counts = _Counts()
    primaries: dict[str, str] = {}
    walked: set[int] = set()
    leads: dict[int, list[str]] = {}
    sheets: list[Datasheet] = []
    units: list[Unit] = []
    for unit in found.units:
        data.primary = primary_catalogue(data, found, unit, primaries)
        try:
            built = _datasheet(data, found, unit, ids, editions, counts, walked)
        finally:
            data.primary = None
        if built is not None:
            sheet, names = built
            if names:
                leads[len(sheets)] = names
            sheets.append(sheet)
            units.append(unit)
    _unoffered(data, found, walked)
    sheets = _distinct_ids(data, sheets, units)
    if counts.conditional_keywords:
        data.report.info(
            "dropped-field",
            f"{len(counts.conditional_keywords)} keyword modifiers of "
            f"{len(counts.conditional_keyword_units)} units add or remove a keyword only under a "
            "condition the default roster (its faction's catalogue primary, no detachment, no "
            "option chosen) does not meet or cannot tell (another catalogue primary, a "
            "selection); the contract holds no conditional keyword: the default roster's "
            "keywords are kept",
        )
    if counts.conditional_stats or counts.profile_modifiers:
        data.report.info(
            "dropped-field",
            f"{len(counts.conditional_stats)} model and weapon profiles have a characteristic a "
            f"modifier of theirs changes, and {len(counts.profile_modifiers)} modifiers of "
            "entries change the profiles below them (under a condition such as the bearer "
            "being a CHARACTER, or a selection); the contract holds no conditional "
            "characteristic: the profiles' own values are kept",
        )
    if counts.conditional_costs:
        data.report.info(
            "dropped-field",
            f"{counts.conditional_costs} cost modifiers of {counts.conditional_sheets} units "
            "depend on what else is selected (a detachment, wargear, another unit) or on "
            "another catalogue being the primary one; no cost line of the datasheet, left out "
            "(the default roster's cost is kept)",
        )
    return link_leaders(sheets, leads, data.report)


def _distinct_ids(data: DataSet, sheets: list[Datasheet], units: list[Unit]) -> list[Datasheet]:
    """Two unit entries of one faction that share a name (the Space Marines' and the Black
    Templars' Sternguard Veteran Squad, each in its catalogue) are two units, never variants of
    one, as the export reader reads Wahapedia's: the one its faction's own catalogue holds
    (named as the faction is; of those, one without a tag; else the first) keeps the plain id, each other one gets the name
    of the catalogue holding it (``space-marines/sternguard-veteran-squad-black-templars``, the
    id Wahapedia's export gives), or its tag (``[Legends]``) when their catalogues name one
    faction."""
    groups: dict[str, list[int]] = defaultdict(list)
    for at, sheet in enumerate(sheets):
        groups[sheet.id].append(at)
    taken = {sheet.id for sheet in sheets}
    renamed: dict[int, str] = {}
    for plain, ats in groups.items():
        if len(ats) < 2:
            continue
        holders = [data.document(units[at].entry) for at in ats]
        faction = sheets[ats[0]].faction
        tags = [
            clean_name(units[at].entry.name).removeprefix(sheets[at].name).strip(" []")
            for at in ats
        ]
        first = min(
            range(len(ats)),
            key=lambda i: (catalogue_faction_name(holders[i]) != faction, bool(tags[i]), i),
        )
        for i, at in enumerate(ats):
            if i == first:
                continue
            sheet = sheets[at]
            tag = tags[i]
            book = catalogue_faction_name(holders[i])
            own = book != catalogue_faction_name(holders[first])
            words = [book, tag] if own else [tag, book]
            candidates = [make_id(faction, f"{sheet.name} {word}") for word in words if word]
            distinct = next((c for c in candidates if c not in taken), None)
            if distinct is None:
                continue  # no other name to give: merge says whether the two agree
            taken.add(distinct)
            renamed[at] = distinct
            source = sheet.sources[0] if sheet.sources else None
            data.report.info(
                "distinct-datasheets",
                f"datasheets {plain} and {distinct} share the name {sheet.name!r} but each is "
                f"an entry of its own (this one in {holders[i].name!r}): two units, two ids",
                line=source.line_start if source else None,
                path=source.path if source else None,
            )
    return [
        sheet.model_copy(update={"id": renamed[at]}) if at in renamed else sheet
        for at, sheet in enumerate(sheets)
    ]


def primary_catalogue(data: DataSet, found: Contents, unit: Unit, known: dict[str, str]) -> str:
    """The id of the catalogue a default roster of the unit's faction has as its primary one:
    the catalogue holding the unit's entry, unless it is a library; else, of the catalogues
    that import the library, the one of its faction (its units' faction keyword, else the
    faction its name names: ``Imperium - Imperial Knights`` for ``Imperium - Imperial Knights
    - Library``), else one that imports its root entries; else the catalogue that offers the
    unit (``known``: the answer per library, found once)."""
    holder = data.document(unit.entry)
    if not holder.is_library:
        return holder.id
    answer = known.get(holder.path)
    if answer is None:
        known[holder.path] = answer = _library_primary(data, found, holder)
    return answer or unit.offered_by.id


def _library_primary(data: DataSet, found: Contents, holder: Document) -> str:
    keyword = found.document_factions.get(holder.path)
    name = catalogue_faction_name(holder).casefold()
    best: tuple[int, int] | None = None
    answer = ""
    for order, document in enumerate(data.documents):
        if (
            document.kind != "catalogue"
            or document.is_library
            or holder not in data.reach(document)
        ):
            continue
        imports_roots = any(
            link.get("targetId") == holder.id and link.get("importRootEntries") == "true"
            for link in document.root.items("catalogueLinks")
        )
        score = (
            2 * (keyword is not None and found.document_factions.get(document.path) == keyword)
            + 2 * (catalogue_faction_name(document).casefold() == name)
            + imports_roots
        )
        if best is None or (score, -order) > best:
            best, answer = (score, -order), document.id
    return answer


def datasheet_name(entry: Node) -> str:
    """The unit's name without BSData's trailing tag (``[Legends]``)."""
    return untagged(clean_name(entry.name))


def _datasheet(
    data: DataSet,
    found: Contents,
    unit: Unit,
    ids: set[str],
    editions: dict[str, Edition],
    counts: _Counts,
    walked: set[int],
) -> tuple[Datasheet, list[str]] | None:
    """The datasheet of ``unit`` and the names its Leader text lists (``leaders``)."""
    entry = unit.entry
    walked.add(id(entry))
    document = data.document(entry)
    name = datasheet_name(entry)
    faction = unit_faction(found, unit)
    if faction is None:
        data.report.warning(
            "unplaced-entry",
            f"unit {name!r} has no faction keyword and its catalogue no faction; left out",
            line=entry.line,
            path=document.path,
        )
        return None
    tree = collect(data, entry, unit.link, found.skip)
    for part in tree.rules:
        if part.level != "wargear" and part.link is not None:
            found.rule_users.setdefault(id(part.node), Counter())[faction] += 1
    walked.update(tree.entries)
    told = unit_abilities(data, tree.rules, tree.profiles, document.path)
    keywords, factions, own = _keywords(data, entry, unit.link, tree, counts)
    counts.conditional_stats.update(
        id(part.node) for part in tree.profiles if _changes_characteristics(part.node)
    )
    for owner in {id(part.owner): part.owner for part in tree.profiles}.values():
        if owner.children and (owner.items("modifiers") or owner.items("modifierGroups")):
            counts.profile_modifiers.update(
                id(modifier)
                for modifier, _ in modifiers(owner)
                if "profiles" in modifier.get("affects")
            )
    edition = editions[document.path]
    models = slots(data, entry, unit.link, ids)
    abilities = told.abilities
    # a Transport profile is the datasheet's transport capacity, placed by the builder
    transports = [a for a in abilities.datasheet if a.name == TRANSPORT]
    at = At(entry.line, document.path)
    draft = DatasheetDraft(
        name=name,
        faction=faction,
        sources=[source(data, entry)],
        profiles=_profiles(data, tree, own, document.path),
        weapons=weapons(data, tree.profiles),
        abilities=AbilityGroups(
            core=list(abilities.core),
            faction=list(abilities.faction),
            datasheet=[a for a in abilities.datasheet if a.name != TRANSPORT],
            wargear=list(abilities.wargear),
        ),
        transport="\n".join(a.text for a in transports if a.text) or None,
        orders=told.orders,
        damaged=told.damaged,
        unit_composition=composition(models),
        costs=[
            CostLine(points, at)
            for points in _points(data, entry, unit.link, ids, edition, counts, models)
        ],
        keywords=keywords,
        faction_keywords=factions,
        is_support=_is_support(data, entry, unit.link, keywords) if edition == 11 else None,
    )
    sheet = build_datasheet(draft, data.report)
    return sheet, told.leads


def _unoffered(data: DataSet, found: Contents, walked: set[int]) -> None:
    """A ``unoffered-entry`` warning for each outermost selection entry with a Unit profile
    (its own or a model's below it) that is no datasheet's entry, in no datasheet's tree and
    no unit said hidden."""
    said = walked | set(found.not_units) | found.skip
    for document in data.documents:
        stack = [child for child in reversed(document.root.children) if child.container in _ENTRIES]
        while stack:
            node = stack.pop()
            if id(node) in said:
                continue  # a datasheet's, or said: what is below it too
            if node.tag == "selectionEntry":
                if any(has_unit_profile(entry) for entry in _entries_below(node)):
                    data.report.warning(
                        "unoffered-entry",
                        f"{node.get('type') or 'entry'} {clean_name(node.name)!r} carries a "
                        "Unit profile (or a model of it does), but no catalogue offers it as a "
                        "unit and no unit holds it; no datasheet",
                        line=node.line,
                        path=document.path,
                    )
                continue  # what is below is said with it, or holds no Unit profile either
            stack.extend(c for c in reversed(node.children) if c.container in _ENTRIES)


_ENTRIES = frozenset(
    {
        "selectionEntries",
        "selectionEntryGroups",
        "sharedSelectionEntries",
        "sharedSelectionEntryGroups",
    }
)
"""The containers that hold selection entries (and the groups of them)."""


def _entries_below(entry: Node) -> list[Node]:
    """``entry`` and the selection entries below it (in its entries and groups)."""
    found: list[Node] = []
    stack = [entry]
    while stack:
        node = stack.pop()
        if node.tag == "selectionEntry":
            found.append(node)
        stack.extend(c for c in node.children if c.container in _ENTRIES)
    return found


def _points(
    data: DataSet,
    entry: Node,
    link: Node | None,
    ids: set[str],
    edition: Edition,
    counts: _Counts,
    found: list[Slot],
) -> list[Points]:
    base = points_of(data, entry, link, ids)
    rules, unread = cost_rules(data, entry, link, ids)
    if base is None and (any(slot.cost for slot in found) or rules):
        base = 0.0  # priced by its models alone, or by modifiers that set each size's cost
    if base is None:
        data.report.warning(
            "cost-missing",
            f"unit {clean_name(entry.name)!r} has no pts cost; its datasheet has no cost table",
            line=entry.line,
            path=data.document(entry).path,
        )
        return []
    if unread:
        counts.conditional_costs += unread
        counts.conditional_sheets += 1
    return cost_table(base, found, rules, tiered=edition == 11)


def _category_names(
    data: DataSet, holder: Node | None, counts: _Counts, unit: Node | None = None
) -> list[str]:
    """The keywords ``holder``'s categories give, with those its modifiers add or remove in the
    default roster (a modifier whose conditions hold there); a modifier under any other
    condition is counted in ``counts`` (for ``unit``) and left out."""
    if holder is None:
        return []
    names: list[str] = []
    for link in holder.items("categoryLinks"):
        if data.hidden(link):
            continue
        target = data.lookup(link.get("targetId"))
        if target is not None and data.hidden(target):
            continue  # a category declared hidden: a list-building helper, no keyword
        name = clean_name(target.name if target is not None and target.name else link.name)
        if name:
            names.append(name)
    if holder.children and (holder.items("modifiers") or holder.items("modifierGroups")):
        _category_modifiers(data, holder, names, counts, unit or holder)
    return names


def _category_modifiers(
    data: DataSet, holder: Node, names: list[str], counts: _Counts, unit: Node
) -> None:
    for modifier, guards in modifiers(holder):
        kind = modifier.get("type")
        if modifier.get("field") != "category" or kind not in ("add", "remove"):
            continue
        if modifier.get("scope") not in ("", "self") or not data.always(modifier, guards):
            counts.conditional_keywords.add(id(modifier))
            counts.conditional_keyword_units.add(id(unit))
            continue
        target = data.lookup(modifier.get("value"))
        if target is None or data.hidden(target):
            continue
        name = clean_name(target.name)
        if kind == "add" and name and name not in names:
            names.append(name)
        elif kind == "remove" and name in names:
            names.remove(name)


def _is_support(data: DataSet, entry: Node, link: Node | None, keywords: list[str]) -> bool:
    """Whether the unit is a support character: the ``Support`` keyword, or the game system's
    hidden ``Support`` category (which some 11th-edition units link instead: no keyword shown,
    the same fact)."""
    if SUPPORT in keywords:
        return True
    for holder in (link, entry):
        for category in holder.items("categoryLinks") if holder is not None else []:
            target = data.lookup(category.get("targetId"))
            name = target.name if target is not None and target.name else category.name
            if clean_name(name).upper() == SUPPORT:
                return True
    return False


def _changes_characteristics(profile: Node) -> bool:
    """True when a modifier of ``profile`` changes one of its characteristics (its ``field``
    is a characteristic's type id)."""
    if not profile.children:
        return False
    fields = {c.get("typeId") for c in profile.items("characteristics")}
    return any(modifier.get("field") in fields for modifier, _ in modifiers(profile))


def _keywords(
    data: DataSet, entry: Node, link: Node | None, tree: UnitTree, counts: _Counts
) -> tuple[list[str], list[str], dict[int, list[str]]]:
    """Unit keywords, faction keywords, and each model entry's own keywords (by ``id()``)."""
    placed = _category_names(data, link, counts, entry)
    per_model = {id(model): _category_names(data, model, counts, entry) for model in tree.models}
    sets = [set(names) for names in per_model.values()]
    shared = set.intersection(*sets) if sets else set()
    if len(sets) > 1:  # a root link's category some models have and others not is theirs
        placed = [name for name in placed if name in shared or not any(name in s for s in sets)]
    unit = placed + _category_names(data, entry, counts)
    plain: set[str] = set()
    factions: set[str] = set()
    for name in [*unit, *shared, *(n for names in per_model.values() for n in names)]:
        if name.startswith(FACTION_PREFIX):
            factions.add(clean_name(name.removeprefix(FACTION_PREFIX)).upper())
    for name in [*unit, *shared]:
        if not name.startswith(FACTION_PREFIX):
            plain.add(name.upper())
    own = {
        key: sorted({n.upper() for n in names if not n.startswith(FACTION_PREFIX)} - plain)
        for key, names in per_model.items()
    }
    return list(plain), list(factions), own  # case and order: the builder's


def _profiles(data: DataSet, tree: UnitTree, own: dict[int, list[str]], path: str) -> list[Profile]:
    found = model_profiles(data, tree.profiles)
    saves = [
        part for part in tree.profiles if part.level != "wargear" and is_invulnerable(part.node)
    ]
    profiles: list[Profile] = []
    by_name = {clean_name(model.name).casefold(): id(model) for model in tree.models}
    for profile, part in found:
        update: dict[str, object] = {}
        owner = id(part.owner)
        if owner not in own:  # a profile the unit's entry holds: the model entry of its name
            owner = (
                by_name.get(profile.name.casefold()) or _named_in(profile.name, by_name) or owner
            )
        keywords = own.get(owner)
        if keywords:
            update["keywords"] = keywords
        save = _save_for(data, profile, part, saves, path)
        if save is not None:
            update["invulnerable_save"] = save
        profiles.append(profile.model_copy(update=update) if update else profile)
    return profiles


def _named_in(name: str, by_name: dict[str, int]) -> int | None:
    """The one model entry whose name holds ``name``, or that ``name`` holds (``Grimaldus``,
    ``Chaplain Grimaldus``); None when none or several do."""
    key = name.casefold()
    found = {model for other, model in by_name.items() if key in other or other in key}
    return found.pop() if len(found) == 1 else None


def _save_for(
    data: DataSet, profile: Profile, part: Part, saves: list[Part], path: str
) -> Stat | None:
    """The invulnerable save an ability profile gives ``profile``'s model, merged with the
    profile's own (11th edition's InSv): the characteristic wins, the ability adds its note."""
    for save in saves:
        scope = invulnerable_scope(save.node)
        if scope is not None:
            if (
                scope.casefold() not in profile.name.casefold()
                and profile.name.casefold() not in scope.casefold()
            ):
                continue
        elif save.level == "model" and save.owner is not part.owner:
            continue
        stat = invulnerable_save(save.node)
        if stat is None:
            data.report.warning(
                "characteristic-missing",
                f"{save.node.name!r} names no save this reader can read; the profile "
                f"{profile.name!r} is left without it",
                line=save.node.line,
                path=path,
            )
            return profile.invulnerable_save
        own = profile.invulnerable_save
        if own is None:
            return stat
        return own.model_copy(update={"note": stat.note}) if stat.note and not own.note else own
    return profile.invulnerable_save
