"""One entity of an output folder as a card (``wahanorm show NAME-OR-ID``).

The entity is found through ``index.json`` by id or by a forgiving name match (case, spacing
and punctuation do not matter; a part of the name or a near miss will do); when several match,
the choices are listed (exit 2), unless one of them is a core rule or stratagem: that one is
shown, with a note naming the others and how to show them. One output may hold both editions of the game under the same
ids: when everything that matches is one entity in both editions, the current edition's
(``CURRENT_EDITION``, the 11th) is shown, with a note naming the other edition and how to see it
(``--edition``); entities told apart by more than their edition are listed as choices, each with
its edition. A datasheet shows its profiles and weapons as tables, its
abilities, composition, keywords and points; a stratagem its cost, timing and WHEN / TARGET /
EFFECT / RESTRICTIONS; other kinds their text. Bold headings only on a terminal. Every value is
printed with its control characters escaped, so no rules text can drive the terminal.
"""

from __future__ import annotations

import dataclasses
import difflib
import re
import textwrap
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from wahanorm.contract.ids import escape_line
from wahanorm.contract.vocabulary import (
    CURRENT_EDITION,
    ability_title,
    cost_text,
    edition_name,
    kind_words,
    mode_title,
    timing_text,
    weapon_title,
)
from wahanorm.outputs.output import JSON, Output

MAX_CHOICES = 30
MAX_ALSO = 5
"""How many other matches the note under a card names."""
CLOSE_TIE = 0.05
"""Two spellings whose likeness to the query is within this of each other are equally close."""


@dataclass
class Lookup:
    """What a query found: the entry to show (None when it names no single entity), notes
    on it (its other editions), and the lines that say why none is shown (the choices)."""

    shown: JSON | None
    notes: list[str] = dataclasses.field(default_factory=list)
    problem: list[str] = dataclasses.field(default_factory=list)


def look_up(output: Output, query: str, kind: str | None, edition: int | None) -> Lookup:
    """The entity ``query`` names in ``output`` (among one ``kind``, one ``edition`` when
    given), or why there is not one."""
    if not query.strip():
        return Lookup(None, problem=["give a name or an id to show (e.g. 'command re-roll')"])
    entries = [e for e in output.entries if _wanted(e, kind, edition)]
    match = find(entries, query, lambda: _keyword_names(output, entries))
    found = match.best
    chosen, others = pick(found)
    notes: list[str] = []
    if chosen is None and found:
        # A player who names a core rule or stratagem means it, not a variant of it (the
        # core COMMAND RE-ROLL, not Boarding Actions'): the core one, with the others named.
        chosen, others = pick([e for e in found if _is_core(e)])
        if chosen is not None:
            rest = sorted({(str(e["id"]), str(e["kind"])) for e in found if not _is_core(e)})
            notes = [
                f"also named so: {_clean(i)} ({k}); 'wahanorm show {_clean(i)}' shows it"
                for i, k in rest
            ]
    if chosen is None and not match.entries and (kind or edition):
        beyond = find(output.entries, query).entries
        if beyond:
            return Lookup(None, problem=_filtered_out(query, kind, edition, beyond))
    if chosen is None:
        return Lookup(None, problem=_choices(output, query, found, entries))
    notes += [
        f"{_clean(str(other['id']))} is also in the {_ordinal(_edition(other))} edition "
        f"(--edition {_edition(other)} shows it)"
        for other in others
    ]
    named = {(e["kind"], e["id"]) for e in found}  # the one shown, or said above
    notes += _also_matched(query, [e for e in match.entries if (e["kind"], e["id"]) not in named])
    return Lookup(chosen, notes)


def _also_matched(query: str, entries: list[JSON]) -> list[str]:
    """The note naming what else ``query`` matched, less well than the entity shown."""
    rest = sorted({(str(e["id"]), str(e["kind"]), str(e["name"])) for e in entries})
    if not rest:
        return []
    lines = [f"{_clean(query)!r} also matches (give an id to show one):"]
    lines += [f"  {_clean(i)}  ({k}: {_clean(n)})" for i, k, n in rest[:MAX_ALSO]]
    if len(rest) > MAX_ALSO:
        lines.append(f"  … and {len(rest) - MAX_ALSO} more")
    return lines


def _keyword_names(output: Output, entries: list[JSON]) -> dict[str, list[JSON]]:
    """Each datasheet keyword of ``entries`` (slugged), with the entries that carry it: the
    names players give units that the data itself holds (read only when no name matched)."""
    names: dict[str, list[JSON]] = {}
    for entry in entries:
        if entry.get("kind") != "datasheet":
            continue
        try:
            keywords = output.entity(entry).get("keywords") or []
        except (OSError, ValueError, KeyError, TypeError):
            continue  # an entity file off the contract is said when it is shown, not here
        for keyword in keywords:
            names.setdefault(_slug(str(keyword)), []).append(entry)
    return names


def _is_core(entry: JSON) -> bool:
    return str(entry["id"]).startswith("core/")


def card_of(output: Output, entry: JSON, bold: bool, width: int) -> str:
    """The card of one index entry's entity; an entity file off the contract raises the
    ``InputError`` that says where."""
    try:
        return render(output.entity(entry), Style(bold, max(60, min(width, 140))))
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        raise output.not_the_contract(entry, exc) from exc


# --- finding ----------------------------------------------------------------------------------


def _wanted(entry: JSON, kind: str | None, edition: int | None) -> bool:
    """Whether an index entry is of the kind and edition asked for (an entry that names no
    edition is of any)."""
    if kind is not None and entry.get("kind") != kind:
        return False
    return edition is None or entry.get("edition") in (None, edition)


def _edition(entry: JSON) -> int:
    return int(entry["edition"])  # the reader of out/ gives every entry its edition


def _ordinal(edition: int) -> str:
    return edition_name(edition).removesuffix(" edition")


def pick(found: Sequence[JSON]) -> tuple[JSON | None, list[JSON]]:
    """The entry to show of those ``find`` gave, and the other editions of it: the one entry;
    or, when all are one entity (kind and id) in several editions, the current edition's (else
    the latest). None when they are different entities (the user must choose)."""
    if len(found) == 1:
        return found[0], []
    if not found or len({(e["kind"], e["id"]) for e in found}) != 1:
        return None, []
    editions = sorted({_edition(e) for e in found})
    if len(editions) != len(found):  # the same entity twice in one edition: not ours to pick
        return None, []
    chosen = CURRENT_EDITION if CURRENT_EDITION in editions else editions[-1]
    first = next(e for e in found if _edition(e) == chosen)
    return first, sorted((e for e in found if e is not first), key=_edition)


def _slug(text: str) -> str:
    """Lower-case words of letters and digits joined by single spaces: ``'Iron Hand' Straken``
    → ``iron hand straken``."""
    folded = unicodedata.normalize("NFKD", text).casefold()
    return " ".join(re.findall(r"[^\W_]+", folded))


def _singular(word: str) -> str:
    """A word of a slug without its plural ending, so that ``intercessors`` and ``intercessor``,
    ``bodies`` and ``body`` are one word (both sides of a comparison go through it)."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def _words(text: str) -> list[str]:
    return [_singular(w) for w in _slug(text).split()]


@dataclass
class Match:
    """What a query matched: every entry of the first way of naming that found anything
    (``entries``), and those of them that it names best (``best``: all of them, but for the
    loose ways, where fewer extra words or a closer spelling win)."""

    entries: list[JSON]
    best: list[JSON]


def _ranked(scored: list[tuple[float, JSON]]) -> Match:
    """The entries with their scores (lower is better), the best of them apart."""
    top = min(score for score, _ in scored)
    return Match([e for _, e in scored], [e for score, e in scored if score == top])


def find(
    entries: Sequence[JSON],
    query: str,
    keyword_names: Callable[[], dict[str, list[JSON]]] | None = None,
) -> Match:
    """The entries ``query`` names, from the most exact way of naming to the loosest: the id;
    the whole name (or the name part of the id), plurals aside; every word of the query a word
    of the name, in any order (fewest other words first); every word of the query inside the
    name; a keyword of a datasheet (``keyword_names``); then names alike in spelling (the
    closest first). The first way that finds anything decides."""
    wanted = query.strip().casefold()
    slug = _slug(query)
    if not slug:
        return Match([], [])
    words = _words(query)
    exact: tuple[Callable[[JSON], bool], ...] = (
        lambda e: str(e["id"]).casefold() == wanted,
        lambda e: words in (_words(str(e["name"])), _words(str(e["id"]).rpartition("/")[2])),
    )
    for matches in exact:
        found = [e for e in entries if matches(e)]
        if found:
            return Match(found, found)
    by_words = [
        (float(len(name) - len(words)), e)
        for e in entries
        if all(w in (name := _words(str(e["name"]))) for w in words)
    ]
    if by_words:
        return _ranked(by_words)
    inside = [e for e in entries if all(w in _slug(str(e["name"])) for w in slug.split())]
    if inside:
        return Match(inside, inside)
    if keyword_names is not None:
        carriers = keyword_names().get(slug) or keyword_names().get(" ".join(words))
        if carriers:
            return Match(carriers, carriers)
    return _closest(entries, slug)


def _closest(entries: Sequence[JSON], slug: str) -> Match:
    """Names alike in spelling (``termagaunts`` → Termagants, then Hormagaunts); the closest
    is best when no other is about as close."""
    names = sorted({_slug(str(e["name"])) for e in entries})
    ratios = {
        name: difflib.SequenceMatcher(None, slug, name).ratio()
        for name in difflib.get_close_matches(slug, names, n=5, cutoff=0.75)
    }
    if not ratios:
        return Match([], [])
    top = max(ratios.values())
    scored = [
        (0.0 if ratios[name] > top - CLOSE_TIE else 1.0 - ratios[name], e)
        for e in entries
        if (name := _slug(str(e["name"]))) in ratios
    ]
    return _ranked(scored)


def _filtered_out(
    query: str, kind: str | None, edition: int | None, beyond: list[JSON]
) -> list[str]:
    """Nothing named so among the kind or edition asked for, though the query names entities
    outside them: say which, and which option kept them out."""
    among = " and ".join(
        [
            *([f"of kind {kind}"] if kind else []),
            *([f"of the {_ordinal(edition)} edition"] if edition else []),
        ]
    )
    options = " and ".join([*(["--kind"] if kind else []), *(["--edition"] if edition else [])])
    lines = [f"nothing {among} is named {_clean(query)!r}; without {options}:"]
    seen = sorted({(str(e["id"]), str(e["kind"]), _edition(e)) for e in beyond})
    lines += [f"  {_clean(i)}  ({k}, {_ordinal(ed)} edition)" for i, k, ed in seen[:MAX_CHOICES]]
    if len(seen) > MAX_CHOICES:
        lines.append(f"  … and {len(seen) - MAX_CHOICES} more")
    return lines


def _choices(output: Output, query: str, found: list[JSON], entries: list[JSON]) -> list[str]:
    """Why nothing is shown: nothing named so (with near names), or the entities to choose
    from, one line per entity (kind and id) naming its editions, the current one first, and
    for entities whose names print alike, what tells them apart."""
    if not found:
        lines = [f"nothing is named {_clean(query)!r}"]
        hints = difflib.get_close_matches(
            _slug(query), sorted({_slug(str(e["name"])) for e in entries}), n=5, cutoff=0.6
        )
        if hints:
            lines.append(f"  did you mean: {', '.join(hints)}?")
        return lines
    groups: dict[tuple[str, str], list[JSON]] = {}
    for entry in found:
        groups.setdefault((str(entry["id"]), str(entry["kind"])), []).append(entry)
    shown_groups = sorted(groups.items())[:MAX_CHOICES]
    firsts = {key: pick(group)[0] or group[0] for key, group in shown_groups}
    apart = _what_tells_apart(output, list(firsts.values()))
    lines = [f"{len(groups)} entities match {_clean(query)!r}; give an id:"]
    for (entity_id, kind), group in shown_groups:
        first = firsts[(entity_id, kind)]
        editions = sorted({_edition(e) for e in group}, key=lambda ed: (ed != _edition(first), -ed))
        said = " and ".join(_ordinal(ed) for ed in editions)
        plural = "s" if len(editions) > 1 else ""
        tags = apart.get(id(first))
        told = f"; {_clean(', '.join(tags))}" if tags else ""
        lines.append(
            f"  {_clean(entity_id)}  ({kind}, {said} edition{plural}: "
            f"{_clean(str(first['name']))}{told})"
        )
    if len(groups) > MAX_CHOICES:
        lines.append(f"  … and {len(groups) - MAX_CHOICES} more")
    return lines


def _what_tells_apart(output: Output, shown: list[JSON]) -> dict[int, list[str]]:
    """For each entry whose name prints as another's does, what its entity has that the others
    of that name lack: a faction, a faction keyword, a source book, the file it was read from
    (keyed by the entry's identity)."""
    by_name: dict[str, list[JSON]] = {}
    for entry in shown:
        by_name.setdefault(_slug(str(entry["name"])), []).append(entry)
    apart: dict[int, list[str]] = {}
    for alike in by_name.values():
        if len(alike) < 2:
            continue
        facts = {id(entry): _facts(output, entry) for entry in alike}
        common = set.intersection(*(set(f) for f in facts.values()))
        for entry in alike:
            apart[id(entry)] = [f for f in facts[id(entry)] if f not in common]
    return apart


def _facts(output: Output, entry: JSON) -> list[str]:
    """What a player can tell an entity by: its faction, faction keywords, source book, and the
    files it was read from."""
    try:
        entity = output.entity(entry)
    except (OSError, ValueError, KeyError, TypeError):
        return []
    facts = [str(entity[key]) for key in ("faction", "source") if isinstance(entity.get(key), str)]
    facts += [str(k) for k in entity.get("faction_keywords") or []]
    facts += sorted(
        {str(s.get("path", "")).rpartition("/")[2] for s in entity.get("sources") or []}
    )
    return facts


# --- rendering --------------------------------------------------------------------------------


def _clean(text: str) -> str:
    """``text`` with every control character, bidirectional override and line separator
    escaped as ``\\x1b`` or ``\\u202e`` (``ids.escape_line``): rules text cannot move the cursor,
    start a line or colour the terminal."""
    return escape_line(text)


class Style:
    """How to print: bold headings or not, and the width to wrap text at."""

    def __init__(self, bold: bool, width: int) -> None:
        self.bold = bold
        self.width = width

    def heading(self, text: str) -> str:
        """A heading, bold on a terminal."""
        return f"\x1b[1m{text}\x1b[0m" if self.bold else text

    def wrap(self, text: str, indent: str = "  ") -> list[str]:
        """Wrapped lines of a text, its own line breaks kept; a list item wrapped at its own
        indent (its text's column), however deep it is nested."""
        lines: list[str] = []
        for para in _clean_lines(text):
            body = para.lstrip(" ")
            inner = indent + " " * (len(para) - len(body))
            follow = inner + "  " if body.startswith("- ") else inner
            # Never inside a word or at its hyphens: an id (``drukhari/incubi``) or a keyword
            # stays whole on one line.
            wrapped = textwrap.wrap(
                body,
                self.width,
                initial_indent=inner,
                subsequent_indent=follow,
                break_long_words=False,
                break_on_hyphens=False,
            )
            lines.extend(wrapped or [indent])
        return lines


def _clean_lines(text: str) -> list[str]:
    return [_clean(line) for line in text.split("\n")]


def render(entity: JSON, style: Style) -> str:
    """The card of one entity, as text ending in a newline."""
    renderer = {"datasheet": _datasheet, "stratagem": _stratagem}.get(
        str(entity.get("kind")), _generic
    )
    return "\n".join([*renderer(entity, style), *_provenance(entity, style)]) + "\n"


MAX_SOURCES_SHOWN = 5


def _places(sources: list[JSON]) -> str:
    shown = ", ".join(f"{s['path']}:{s['line_start']}" for s in sources[:MAX_SOURCES_SHOWN])
    more = len(sources) - MAX_SOURCES_SHOWN
    return shown + (f" … and {more} more" if more > 0 else "")


def _provenance(entity: JSON, style: Style) -> list[str]:
    """Where the entity was read, and the other versions its sources gave (a conflict)."""
    lines = ["", *style.wrap(f"Read from {_places(entity.get('sources', []))}", indent="")]
    variants = entity.get("variants", [])
    if variants:
        lines += [
            "",
            style.heading(f"VARIANTS ({len(variants)}): the sources disagree on this entity"),
        ]
        for variant in variants:
            lines += style.wrap(f"- another version, from {_places(variant.get('sources', []))}")
        lines += style.wrap("(each variant is whole in the entity's file and the database)")
    return lines


def _title(entity: JSON, style: Style, right: str = "") -> list[str]:
    name = _clean(str(entity["name"]).upper())
    right = _clean(right)
    gap = max(2, style.width - len(name) - len(right))
    return [style.heading(name) + (" " * gap + right if right else "")]


def _datasheet(d: JSON, style: Style) -> list[str]:
    facts = [d.get("faction"), "datasheet", d["id"], f"{_ordinal(_edition(d))} edition"]
    if d.get("base_size"):
        facts.append(f"base {d['base_size']}")
    if d.get("is_support"):
        facts.append("support character")
    lines = [*_title(d, style), _clean(" · ".join(str(f) for f in facts if f))]
    if d.get("profiles"):
        lines += ["", *_profiles_table(d["profiles"])]
    for kind, label in (("ranged", "RANGED WEAPONS"), ("melee", "MELEE WEAPONS")):
        weapons = [w for w in d.get("weapons", []) if w.get("type") == kind]
        if weapons:
            lines += ["", *_weapons_table(label, weapons, style)]
    lines += _abilities(d.get("abilities") or {}, style)
    damaged = d.get("damaged")
    if damaged:
        lines += ["", style.heading(f"DAMAGED: {_clean(damaged['wounds'])}")]
        lines += style.wrap(damaged["text"])
    for field, label in (
        ("unit_composition", "UNIT COMPOSITION"),
        ("wargear_options", "WARGEAR OPTIONS"),
    ):
        if d.get(field):
            lines += ["", style.heading(label)]
            for item in d[field]:
                # An option's own choices ("- 1 heavy venom cannon") nest under it.
                lines += style.wrap("- " + str(item).replace("\n", "\n  "))
    if d.get("loadout"):
        lines += style.wrap(d["loadout"])
    for field, label in (("leader", "LEADER (can lead)"), ("led_by", "LED BY")):
        if d.get(field):
            lines += ["", style.heading(label), *style.wrap(", ".join(d[field]))]
    if d.get("orders"):
        lines += ["", style.heading("ORDERS"), *style.wrap(d["orders"])]
    for field, label in (("keywords", "KEYWORDS"), ("faction_keywords", "FACTION KEYWORDS")):
        if d.get(field):
            lines += ["", style.heading(label), *style.wrap(", ".join(d[field]))]
    for profile in d.get("profiles", []):
        if profile.get("keywords"):
            heading = style.heading(_clean(f"KEYWORDS ({profile['name']} only)"))
            lines += ["", heading, *style.wrap(", ".join(profile["keywords"]))]
    listed = [
        f"{len(d[field])} {field.replace('_', ' ').removesuffix('s' if len(d[field]) == 1 else '')}"
        for field in ("stratagems", "detachment_rules", "enhancements")
        if d.get(field)
    ]
    if listed:
        lines += ["", *style.wrap(f"Lists {', '.join(listed)} (in its file and the database)")]
    if d.get("points"):
        lines += ["", style.heading("POINTS")]
        lines += _table(["", "PTS"], [[_points_label(p), str(p["points"])] for p in d["points"]])
    return lines


def _points_label(points: JSON) -> str:
    """One row of the cost table as a player reads it, its tier and add-on said."""
    return cost_text(points) + (" (add-on)" if points.get("add_on") else "")


PROFILE_COLUMNS = (
    ("M", "movement"),
    ("T", "toughness"),
    ("SV", "save"),
    ("W", "wounds"),
    ("LD", "leadership"),
    ("OC", "objective_control"),
    ("INV", "invulnerable_save"),
)


def _profiles_table(profiles: list[JSON]) -> list[str]:
    if not profiles:
        return []
    rows = [[p["name"], *(_stat(p.get(key)) for _, key in PROFILE_COLUMNS)] for p in profiles]
    lines = _table(["", *(label for label, _ in PROFILE_COLUMNS)], rows)
    return lines + _notes(profiles, PROFILE_COLUMNS, lambda p: str(p["name"]))


def _notes(
    items: list[JSON], columns: Iterable[tuple[str, str]], name: Callable[[JSON], str]
) -> list[str]:
    """The conditions under the table for its starred characteristics: ``* Castigator, INV
    5+: Against ranged attacks only``."""
    lines = []
    for item in items:
        for label, key in columns:
            stat = item.get(key)
            if isinstance(stat, dict) and stat.get("note"):
                lines.append(_clean(f"  * {name(item)}, {label} {stat['text']}: {stat['note']}"))
    return lines


WEAPON_COLUMNS = (
    ("RANGE", "range"),
    ("A", "attacks"),
    ("SKILL", "skill"),
    ("S", "strength"),
    ("AP", "armour_penetration"),
    ("D", "damage"),
)


def _weapons_table(label: str, weapons: list[JSON], style: Style) -> list[str]:
    rows = []
    for w in weapons:
        keywords = ", ".join(_weapon_ability(a) for a in w.get("abilities", []))
        rows.append([weapon_title(w), *(_stat(w.get(key)) for _, key in WEAPON_COLUMNS), keywords])
    headers = [style.heading(label), *(h for h, _ in WEAPON_COLUMNS), "ABILITIES"]
    return _table(headers, rows) + _notes(weapons, WEAPON_COLUMNS, weapon_title)


_NAMES_AURA = re.compile(r"\([^)]*\bAura\b[^)]*\)", re.IGNORECASE)


def _abilities(abilities: JSON, style: Style) -> list[str]:
    lines: list[str] = []
    for group in ("core", "faction"):
        named = [ability_title(a) for a in abilities.get(group, [])]
        if named:
            lines += [f"{style.heading(group.upper())}: {_clean(', '.join(named))}"]
    for group in ("datasheet", "wargear"):
        for ability in abilities.get(group, []):
            name = str(ability["name"])
            # "Onslaught (Aura, Psychic)" says it already; "Daemon Lord of Khorne" does not.
            said = _NAMES_AURA.search(name) is not None
            heading = name + (" (Aura)" if ability.get("aura") and not said else "")
            lines += [style.heading(_clean(heading))]
            if ability.get("text"):
                lines += style.wrap(ability["text"])
    return ["", style.heading("ABILITIES"), *lines] if lines else []


def _stratagem(s: JSON, style: Style) -> list[str]:
    cp = f"{s['cp']} CP" if s.get("cp") is not None else "CP not given"
    origin = " – ".join(str(x) for x in (s.get("source"), s.get("category")) if x)
    edition = f"{_ordinal(_edition(s))} edition"
    lines = [*_title(s, style, cp), _clean(f"{origin} · stratagem · {s['id']} · {edition}")]
    if s.get("rule_number"):
        lines.append(_clean(f"Rule {s['rule_number']}"))
    timing = timing_text(s.get("timing"))
    if timing:
        lines.append(_clean(f"Timing: {timing}"))
    if s.get("flavour"):
        lines += ["", *style.wrap(s["flavour"], indent="")]
    lines += _modes(s, style)
    for field in ("when", "target", "effect", "restrictions"):
        if s.get(field):
            lines += ["", style.heading(f"{field.upper()}:"), *style.wrap(s[field])]
    return lines + _commentary(s, style)


def _modes(e: JSON, style: Style) -> list[str]:
    """The modes a rule offers, each with its extra cost: ``Modes: Leap to Defend · Into the
    Fray [+1CP]``."""
    modes = [mode_title(m) for m in e.get("modes", [])]
    return style.wrap(f"Modes: {' · '.join(modes)}", indent="") if modes else []


def _commentary(e: JSON, style: Style) -> list[str]:
    """Each commentary box under its title, apart from the rule."""
    lines: list[str] = []
    for box in e.get("commentary", []):
        title = f"{box['title']} (commentary)" if box.get("title") else "Commentary"
        lines += ["", style.heading(_clean(title)), *style.wrap(box["text"])]
    return lines


def _weapon_ability(ability: JSON) -> str:
    """A weapon ability as printed, its condition included: ``LETHAL HITS: non-MONSTER/VEHICLE``."""
    condition = ability.get("condition")
    return f"{ability['name']}: {condition}" if condition else str(ability["name"])


def _generic(e: JSON, style: Style) -> list[str]:
    right = f"{e['cost']} pts" if e.get("cost") is not None else ""
    context = [
        e.get("detachment") or e.get("faction"),
        kind_words(str(e["kind"])),
        e["id"],
        f"{_ordinal(_edition(e))} edition",
    ]
    lines = [*_title(e, style, right), _clean(" · ".join(str(c) for c in context if c))]
    facts_of_rule = [
        e.get("rule_number") and f"Rule {e['rule_number']}",
        e.get("category"),
        e.get("type") and f"Type: {e['type']}",
    ]
    if any(facts_of_rule):
        lines.append(_clean(" · ".join(str(f) for f in facts_of_rule if f)))
    # The 11th edition's facts of a detachment and an enhancement, where the source has them.
    facts = [
        f"{e['dp']} DP" if e.get("dp") is not None else None,
        e.get("force_disposition") and f"Force disposition: {e['force_disposition']}",
        "Upgrade" if e.get("upgrade") else None,
        e.get("support_leader") and f"Support character: {e['support_leader']}",
    ]
    if any(facts):
        lines.append(_clean(" · ".join(f for f in facts if f)))
    lines += _modes(e, style)
    if e.get("flavour"):
        lines += ["", *style.wrap(e["flavour"], indent="")]
    if e.get("text") and not _sections_hold_text(e):
        lines += ["", *style.wrap(e["text"], indent="")]
    for table in e.get("tables", []):
        lines += ["", *_rule_table(table, style)]
    for ability in e.get("abilities", []):
        cost = f" [{ability['cost']}]" if ability.get("cost") else ""
        lines += [
            "",
            style.heading(_clean(f"{ability['name']}{cost}:")),
            *style.wrap(ability["text"]),
        ]
    if e.get("restrictions"):
        lines += ["", style.heading("RESTRICTIONS:"), *style.wrap(e["restrictions"])]
    for section in e.get("sections", []):
        lines += ["", style.heading(_clean(f"{section['label']}:")), *style.wrap(section["text"])]
    lines += _commentary(e, style)
    if e.get("references"):
        lines += ["", *style.wrap(f"Refers to rules {', '.join(e['references'])}")]
    return lines


def _sections_hold_text(e: JSON) -> bool:
    """A rule whose whole text is its labelled sections (contract version 3 says so: nothing in
    ``blocks``, the text outside every section): the card shows the sections alone, not the
    text twice. An older output cannot say; its text is shown as before."""
    return bool(e.get("sections")) and "blocks" in e and not e["blocks"]


_CELL_WIDTH = 40


def _rule_table(rows: list[list[str]], style: Style) -> list[str]:
    """A rule's table: columns padded to their widest cell, a caption row (one cell) on its
    own line; a table with cells of prose prints each row as its cells joined by `` | ``."""
    cells = [[_clean(c) for c in row] for row in rows]
    if any(len(c) > _CELL_WIDTH for row in cells if len(row) > 1 for c in row):
        return [line for row in cells for line in style.wrap(" | ".join(row))]
    widths: dict[int, int] = {}
    for row in cells:
        if len(row) > 1:
            for i, c in enumerate(row):
                widths[i] = max(widths.get(i, 0), len(c))
    return [
        "  " + "  ".join(c.ljust(widths.get(i, 0)) for i, c in enumerate(row)).rstrip()
        for row in cells
    ]


def _stat(stat: Any) -> str:
    """A characteristic as printed; one with a note (its condition, under the table) starred."""
    if not isinstance(stat, dict):
        return "-"
    text = str(stat["text"])
    return f"{text}*" if stat.get("note") and not text.endswith("*") else text


def _table(headers: list[str], rows: Iterable[list[str]]) -> list[str]:
    """Columns padded to their widest cell (headings may carry terminal styling, which does
    not count towards the width)."""
    cells = [[_clean(str(c)) for c in row] for row in rows]
    widths = [max([_visible(h), *(len(row[i]) for row in cells)]) for i, h in enumerate(headers)]

    def line(row: list[str], visible: list[int]) -> str:
        padded = [c + " " * (widths[i] - visible[i]) for i, c in enumerate(row)]
        return "  " + "  ".join(padded).rstrip()

    out = [line(headers, [_visible(h) for h in headers])]
    out += [line(row, [len(c) for c in row]) for row in cells]
    return out


def _visible(text: str) -> int:
    return len(re.sub(r"\x1b\[[0-9;]*m", "", text))
