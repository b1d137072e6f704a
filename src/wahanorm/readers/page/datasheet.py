"""One datasheet frame (``div.dsOuterFrame``) of a saved page → a ``Datasheet``.

The frame holds, in order: the name header with the base size, one or more characteristic
profiles and the invulnerable save, the weapon tables (``table.wTable``), then sections that
each start with a ``div.dsHeader`` (WARGEAR OPTIONS, ABILITIES, UNIT COMPOSITION, DAMAGED …),
the keyword boxes (``div.ds2colKW``), and the lists of stratagems, detachment rules and
enhancements, whose full text lives in the page's hidden tooltips. The frame fills a
``DatasheetDraft``; the rules every source shares are ``blocks.datasheet.build_datasheet``'s.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from dataclasses import dataclass

from wahanorm.blocks import html as dom
from wahanorm.blocks.clean.characters import normalize_text
from wahanorm.blocks.datasheet import (
    At,
    CostLine,
    DatasheetDraft,
    ScopedKeywords,
    UnitRef,
    build_datasheet,
    build_profile,
    damaged_wounds,
)
from wahanorm.blocks.html import Element
from wahanorm.blocks.parse.abilities import named_ability, split_core_list
from wahanorm.blocks.parse.points import CostTable
from wahanorm.blocks.parse.stats import parse_stat
from wahanorm.blocks.parse.stratagems import split_source
from wahanorm.blocks.parse.weapon_abilities import (
    AbilityList,
    parse_ability_list,
)
from wahanorm.blocks.weapons import AbilityText, WeaponDraft, build_weapon
from wahanorm.contract.ids import make_id
from wahanorm.contract.models import (
    Ability,
    Damaged,
    Datasheet,
    Profile,
    SourceRef,
    Stat,
    Weapon,
)
from wahanorm.contract.vocabulary import PROFILE_LABELS
from wahanorm.errors import ParseFailure, Report
from wahanorm.readers.base import Entity

_STATS = PROFILE_LABELS
_CHAR_BOXES = frozenset({"dsCharWrap", "dsCharWrapM"})
_WEAPON_COLUMNS = 8  # icon, name, range, A, BS/WS, S, AP, D
# A link to a unit's page: ``/wh40k10ed/factions/imperial-agents/Inquisitor``.
_UNIT_LINK = re.compile(r"/factions/(?P<faction>[a-z0-9-]+)/[^/?#]+/?(?:[?#].*)?$")


@dataclass
class FrameContext:
    """Everything a frame reader needs besides the frame: who reads, where, and the entities
    of the page's tooltips (by tooltip id) that the frame's lists point at."""

    faction: str
    display: str
    report: Report
    tooltips: dict[str, Entity]


def read_frame(frame: Element, ctx: FrameContext) -> Datasheet | None:
    """The datasheet of one frame, or None (with an error) when it has no name."""
    header = dom.select_one(frame, "div", "dsH2Header")
    name_el = header.find("div") if header is not None else None
    name = dom.text(name_el) if name_el is not None else ""
    if not name:
        ctx.report.error("missing-field", "datasheet frame without a name", line=frame.sourceline)
        return None
    start, end = dom.line_range(frame)
    draft = DatasheetDraft(
        name=name,
        faction=ctx.faction,
        sources=[SourceRef(path=ctx.display, line_start=start, line_end=end)],
        base_size=_base_size(header),
    )
    sections = _sections(frame)
    for title, title_el, content in sections:
        _read_section(title, title_el, content, draft, ctx)
    _read_unsectioned(frame, sections, draft, ctx)
    _read_keywords(frame, draft, ctx)
    draft.profiles = _profiles(frame, name, ctx)
    draft.weapons = _weapons(frame, ctx)
    return build_datasheet(draft, ctx.report)


# ---- header and characteristics ---------------------------------------------------------------


def _base_size(header: Element | None) -> str | None:
    """``(⌀105 x 70mm)`` → ``105 x 70mm``, as the export's base_size column spells it."""
    base = dom.select_one(header, "span", "dsModelBase2") if header is not None else None
    if base is None:
        return None
    size = dom.text(base).strip().removeprefix("(").removesuffix(")").lstrip("⌀").strip()
    return size or None


def _profiles(frame: Element, unit_name: str, ctx: FrameContext) -> list[Profile]:
    """One profile per ``dsProfileWrap``. A unit of several profiles names each one
    (``dsModelName``, in page order) and may print the characteristic names once, above the
    first row: a box without its own ``dsCharName`` takes the name of its column. An
    invulnerable save inside a profile's box (``dsProfileBaseWrap``) is that profile's; one
    outside every box applies to all profiles."""
    boxes = dom.select(frame, "div", "dsProfileBaseWrap")
    # Kept alive in a list: lxml hands out the same proxy for a node only while one exists, so
    # ``is`` tells the same node (an ``id`` of a freed proxy could be reused by another).
    attached = [v for box in boxes if (v := _invul_after_element(box)) is not None]
    frame_invul = next(
        (
            parse_stat(dom.cell_text(v))
            for v in _invul_values(frame)
            if _profile_box(v) is None and not any(v is a for a in attached)
        ),
        None,
    )
    wraps = dom.select(frame, "div", "dsProfileWrap") or _bare_profile_rows(frame, ctx)
    names = _profile_names(frame, wraps, unit_name, ctx)
    columns: list[str] = []
    profiles: list[Profile] = []
    for wrap, name in zip(wraps, names, strict=True):
        stats = _profile_stats(wrap, columns, ctx)
        if not any(stats.values()):
            ctx.report.warning(
                "characteristic-missing",
                f"profile {name!r} shows no characteristic the reader knows",
                line=wrap.sourceline,
            )
        box = _profile_box(wrap)
        invul = (_invulnerable(box) or _invul_after(box)) if box is not None else None
        profiles.append(build_profile(name, stats, invul or frame_invul))
    return profiles


def _bare_profile_rows(frame: Element, ctx: FrameContext) -> list[Element]:
    """Without ``dsProfileWrap``: the elements that hold characteristic boxes outside the rules
    text (a characteristic box inside an ability, ``LD +1``, is no profile)."""
    rows: list[Element] = []
    for char in _char_boxes(frame):
        if any(dom.has_class(a, "dsAbility") or a.tag == "table" for a in char.iterancestors()):
            continue
        parent = char.getparent()
        if not any(parent is row for row in rows):
            rows.append(parent)
    if rows:
        ctx.report.info(
            "html-profile-shape",
            "profiles without dsProfileWrap: read from their boxes",
            rows[0].sourceline,
        )
    return rows


def _profile_names(
    frame: Element, wraps: list[Element], unit_name: str, ctx: FrameContext
) -> list[str]:
    """The name of each profile: the ``dsModelName`` labels of the frame's profile boxes in page
    order when there is one per profile; else each box's own label; else the unit's name."""
    labels = [
        el
        for box in dom.select(frame, "div", "dsProfileBaseWrap")
        for el in dom.select(box, "*", "dsModelName")
    ]
    texts = [dom.text(el) for el in labels]
    if len(wraps) == len(labels) and all(texts):
        return texts
    names: list[str] = []
    for wrap in wraps:
        box = _profile_box(wrap)
        name_el = dom.select_one(box, "*", "dsModelName") if box is not None else None
        name = dom.text(name_el) if name_el is not None else ""
        if not name or name in names:
            if len(wraps) > 1:
                ctx.report.warning(
                    "profile-name", "several profiles, one without a name", wrap.sourceline
                )
            name = name or unit_name
        names.append(name)
    return names


def _profile_stats(wrap: Element, columns: list[str], ctx: FrameContext) -> dict[str, str]:
    """The characteristics of one profile row. ``columns`` holds the characteristic names of
    the rows read so far, for rows that print values only."""
    stats: dict[str, str] = {}
    for index, char in enumerate(_char_boxes(wrap)):
        label_el = dom.select_one(char, "div", "dsCharName")
        label = dom.cell_text(label_el).upper() if label_el is not None else ""
        if label:
            if index < len(columns):
                columns[index] = label
            else:
                columns.append(label)
        elif index < len(columns):
            label = columns[index]
        elif index < len(_STATS):
            # Neither a name nor a row above: the datasheet's fixed order M T SV W LD OC.
            label = list(_STATS)[index]
        value = _char_value(char, label_el)
        field_name = _STATS.get(label)
        if field_name is None:
            ctx.report.warning(
                "unknown-characteristic", f"unknown characteristic {label!r}", line=char.sourceline
            )
            continue
        if not value:
            ctx.report.warning(
                "characteristic-missing", f"characteristic {label} shows no value", char.sourceline
            )
            continue
        stats[field_name] = value
    return stats


def _char_boxes(el: Element) -> list[Element]:
    """The characteristic boxes under ``el`` in page order: ``dsCharWrap``, or ``dsCharWrapM``
    on an aircraft's page (its Movement ``20+"`` in a wider box, the others beside it)."""
    return [e for e in el.iter("div") if _CHAR_BOXES.intersection(dom.classes(e))]


def _char_value(char: Element, label_el: Element | None) -> str:
    """The printed value of a characteristic box: its ``dsCharValue…`` element, else the box's
    text without its name."""
    for el in char.iter():
        if isinstance(el.tag, str) and any(c.startswith("dsCharValue") for c in dom.classes(el)):
            return dom.cell_text(el)
    text = dom.cell_text(char)
    label = dom.cell_text(label_el) if label_el is not None else ""
    return text.removeprefix(label).strip() if label else text


def _profile_box(wrap: Element) -> Element | None:
    for ancestor in wrap.iterancestors():
        if dom.has_class(ancestor, "dsProfileBaseWrap"):
            return ancestor
    return None


def _invul_after_element(box: Element) -> Element | None:
    """The invulnerable save printed right after a profile's box (``div.dsInvulWrap``, before
    the next box): that profile's."""
    for sibling in box.itersiblings():
        if not isinstance(sibling.tag, str) or dom.has_class(sibling, "dsProfileBaseWrap"):
            if isinstance(sibling.tag, str):
                return None
            continue
        if dom.has_class(sibling, "dsInvulWrap"):
            values = _invul_values(sibling)
            return values[0] if values else None
    return None


def _invul_after(box: Element) -> Stat | None:
    value = _invul_after_element(box)
    return parse_stat(dom.cell_text(value)) if value is not None else None


def _invul_values(el: Element) -> list[Element]:
    return dom.select(el, "div", "dsCharInvulValue")


def _invulnerable(el: Element) -> Stat | None:
    values = _invul_values(el)
    return parse_stat(dom.cell_text(values[0])) if values else None


# ---- weapons ----------------------------------------------------------------------------------


def _weapons(frame: Element, ctx: FrameContext) -> list[Weapon]:
    """Every weapon row of the frame's weapon tables. Each weapon is printed twice, a long row
    (name across the table, for narrow screens) and a short row (name and characteristics);
    only the short row is read."""
    weapons: list[Weapon] = []
    for table in dom.select(frame, "table", "wTable"):
        kind: str | None = None
        before = len(weapons)
        pending: tuple[AbilityList, AbilityText] | None = None
        for row in table.iter("tr"):
            if dom.has_class(row, "wTable2_long"):
                continue
            cells = [c for c in dom.children(row) if c.tag in ("td", "th")]
            heading = _weapon_heading(row)
            if heading is not None:
                kind = heading
                continue
            if len(cells) != _WEAPON_COLUMNS:
                conditional = _conditional_row(row)
                if conditional is not None and pending is None:
                    pending = (conditional, AbilityText(dom.text(row), At(row.sourceline)))
                elif dom.text(row):
                    ctx.report.error(
                        "weapon-row",
                        f"weapon table row not read: {dom.text(row)[:80]!r}",
                        line=row.sourceline,
                    )
                continue
            weapon = _weapon(cells, kind, ctx, pending[1] if pending else None)
            if weapon is not None:
                pending = None
                weapons.append(weapon)
        if pending is not None:
            ctx.report.error(
                "weapon-row",
                f"weapon table row not read: no weapon row after {pending[0].abilities[0].name!r}",
                line=pending[1].at.line,
            )
        if len(weapons) == before:
            ctx.report.warning(
                "weapon-table-empty", "a weapon table without weapon rows", line=table.sourceline
            )
    return weapons


_CONDITION_KEYWORDS = re.compile(
    r"(?:non-)?[A-Z][A-Z0-9'’/-]*(?:\s*/\s*[A-Z][A-Z0-9'’-]*|\s+[A-Z][A-Z0-9'’/-]*)*"
)


def _conditional_row(row: Element) -> AbilityList | None:
    """The abilities of a weapon-table row of its own that holds only conditional abilities
    whose conditions are keywords in capitals (``HUNTER: MONSTER/VEHICLE`` above the profile it
    belongs to, on the 11th-edition pages), else None."""
    text = dom.text(row)
    if ":" not in text:
        return None
    try:
        found = parse_ability_list(text)
    except ParseFailure:
        return None
    conditions = [a.condition for a in found.abilities]
    if conditions and all(c and _CONDITION_KEYWORDS.fullmatch(c) for c in conditions):
        return found
    return None


def _weapon_heading(row: Element) -> str | None:
    """``ranged``/``melee`` for a heading row of a weapon table, else None."""
    if not dom.select(row, "td", "dsHeader"):
        return None
    heading = dom.text(row).upper()
    if "MELEE" in heading:
        return "melee"
    return "ranged"


def _weapon(
    cells: list[Element], kind: str | None, ctx: FrameContext, above: AbilityText | None
) -> Weapon | None:
    """The weapon of a short row; ``above``: the row of its conditional abilities above it."""
    name_cell = cells[1]
    label, abilities = _weapon_name(name_cell)
    if not label:
        return None
    values = [dom.cell_text(c) for c in cells[2:]]
    if kind is None:
        # No heading row: the range column tells melee from ranged.
        kind = "melee" if values[0].lower() == "melee" else "ranged"
        ctx.report.warning(
            "weapon-kind", f"weapon {label!r} has no table heading", line=name_cell.sourceline
        )
    return build_weapon(
        WeaponDraft(
            name=label,
            type="melee" if kind == "melee" else "ranged",
            characteristics=values,
            abilities=[*abilities, above] if above else abilities,
            at=At(name_cell.sourceline),
        ),
        ctx.report,
    )


def _weapon_name(cell: Element) -> tuple[str, list[AbilityText]]:
    """The weapon's name and its abilities: each ability is its own ``span.kwb2`` after the
    name, printed in lower case as bare words ("sustained hits 1"). A conditional ability
    ("LETHAL HITS: non-MONSTER/VEHICLE") is read whole whether its condition is in the same
    span, in the next one, or in the text after a span ending with the colon."""
    spans = _keyword_spans(cell)
    pieces: list[tuple[str, int]] = []
    taken: list[int] = []  # spans whose tail is the condition of their ability
    for index, span in enumerate(spans):
        words = dom.text(span)
        tail = normalize_text(" ".join((span.tail or "").split()))
        if tail and (words.endswith(":") or tail.startswith(":")):
            words = f"{words} {tail}"
            taken.append(index)
        if pieces and (pieces[-1][0].endswith(":") or words.startswith(":")):
            pieces[-1] = (f"{pieces[-1][0]} {words}", pieces[-1][1])
        else:
            pieces.append((words, span.sourceline or 1))
    named = cell
    if taken:
        named = copy.deepcopy(cell)
        copies = _keyword_spans(named)
        for index in taken:
            copies[index].tail = " "
    name = dom.text(named, skip=("kwb2", "kwbw"))
    return name, [AbilityText(words, At(line)) for words, line in pieces]


def _keyword_spans(cell: Element) -> list[Element]:
    """The outermost ability spans of a weapon-name cell, in page order: ``kwb2`` on the
    10th-edition pages (with ``kwbw``), ``kwbw`` alone on later ones."""
    spans = [s for s in cell.iter("span") if {"kwb2", "kwbw"}.intersection(dom.classes(s))]
    return [s for s in spans if not any(a in spans for a in s.iterancestors())]


# ---- sections ---------------------------------------------------------------------------------


def _sections(frame: Element) -> list[tuple[str, Element, list[Element]]]:
    """(title, heading element, content elements) of each ``div.dsHeader`` section outside the
    weapon tables, in page order; a section runs up to the next heading among its siblings."""
    found: list[tuple[str, Element, list[Element]]] = []
    for heading in dom.select(frame, "div", "dsHeader"):
        if any(a.tag == "table" for a in heading.iterancestors()):
            continue
        content: list[Element] = []
        for sibling in heading.itersiblings():
            if not isinstance(sibling.tag, str):
                continue
            if sibling.tag == "div" and dom.has_class(sibling, "dsHeader"):
                break
            content.append(sibling)
        found.append((dom.text(heading).upper(), heading, content))
    return found


def _read_unsectioned(
    frame: Element,
    sections: list[tuple[str, Element, list[Element]]],
    draft: DatasheetDraft,
    ctx: FrameContext,
) -> None:
    """Text in the frame's columns outside every weapon table and section (a box under the
    weapons): a box that opens with a bold name is kept as a datasheet ability; other text is
    said aloud."""
    read = [el for _, heading, content in sections for el in (heading, *content)]
    # A column child holding a section (its heading wrapped in a div) is read too.
    holders = read + [a for el in read for a in el.iterancestors()]
    for column in (c for box in dom.select(frame, "div", "ds2col") for c in dom.children(box)):
        for child in dom.children(column):
            if child.tag == "table" or any(child is el for el in holders):
                continue
            text = dom.text(child)
            if text and _bold_leads(child):
                draft.abilities.datasheet.extend(_named_abilities(child, ctx))
            elif text:
                ctx.report.warning(
                    "unparsed", f"datasheet text not read: {text[:80]!r}", child.sourceline
                )


def _read_section(
    title: str, heading: Element, content: list[Element], draft: DatasheetDraft, ctx: FrameContext
) -> None:
    reader = _SECTION_READERS.get(title)
    if reader is not None:
        reader(content, draft, ctx)
        return
    wounds = damaged_wounds(title)
    if wounds is not None:
        text = "\n".join(line for el in content for line in dom.text_lines(el))
        draft.damaged = Damaged(wounds=wounds, text=text)
        return
    # A rules box the reader has no field for (SUPREME COMMANDER, LOYAL PROTECTOR, EMBARKING …):
    # kept whole as a datasheet ability named after its heading.
    text = "\n".join(line for el in content for line in dom.text_lines(el))
    draft.abilities.datasheet.append(Ability(name=dom.text(heading), text=text or None))
    ctx.report.info(
        "ability-group",
        f"rules box {title!r} kept as a datasheet ability",
        line=heading.sourceline,
    )


def _read_wargear_options(content: list[Element], draft: DatasheetDraft, ctx: FrameContext) -> None:
    """One option per top-level list item, its sub-list kept as ``- `` lines at column 0 (as
    the dumps and the export print them: an option is one string of the contract, not rules
    text with nested lists); a footnote (``dsOptionsComment``) is an option line of its own."""
    options: list[str] = []
    for el in content:
        if el.tag in ("ul", "ol"):
            for item in dom.children(el):
                lines = dom.flat_text_lines(item)
                if lines:
                    lines[0] = lines[0].removeprefix("- ")
                    options.append("\n".join(lines))
        elif dom.text(el):
            options.append(dom.text(el))
    draft.wargear_options = options


def _read_abilities(content: list[Element], draft: DatasheetDraft, ctx: FrameContext) -> None:
    groups = draft.abilities
    for block in content:
        if not dom.has_class(block, "dsAbility"):
            if dom.text(block):
                # A box of another shape among the abilities: kept, never dropped.
                groups.datasheet.extend(_named_abilities(block, ctx))
            continue
        first = dom.text(block)
        if first.startswith("CORE:"):
            groups.core.extend(split_core_list(first.removeprefix("CORE:")))
        elif first.startswith("FACTION:"):
            names = re.split(r"\s*,\s*", first.removeprefix("FACTION:").strip())
            groups.faction.extend(Ability(name=n) for n in names if n)
        else:
            groups.datasheet.extend(_named_abilities(block, ctx))


def _read_wargear_abilities(
    content: list[Element], draft: DatasheetDraft, ctx: FrameContext
) -> None:
    for block in content:
        if dom.has_class(block, "dsAbility"):
            draft.abilities.wargear.extend(_named_abilities(block, ctx))


def _named_abilities(block: Element, ctx: FrameContext) -> list[Ability]:
    """``<b>Name:</b> text`` abilities, several in one block separated by ``dsLineHor``."""
    names = _bold_leads(block)
    parts: list[list[str]] = [[]]
    for line in dom.text_lines(block, split_on=("dsLineHor",)):
        if line == dom.SPLIT:
            parts.append([])
        else:
            parts[-1].append(line)
    abilities: list[Ability] = []
    for lines, name in zip([p for p in parts if p], names + [None] * len(parts), strict=False):
        body = "\n".join(lines)
        if name is None or not body.startswith(name):
            ctx.report.warning(
                "ability-name", f"ability without a bold name: {body[:60]!r}", block.sourceline
            )
            abilities.append(Ability(name=body.split(":", 1)[0], text=body))
            continue
        text = body[len(name) :].lstrip(":").strip() or None
        abilities.append(named_ability(name.rstrip(":").strip(), text))
    return abilities


def _bold_leads(block: Element) -> list[str]:
    """The bold names that open each part of an ability block (the first ``b`` child of the
    block and the first after each separator)."""
    names: list[str] = []
    expecting = True
    for child in dom.children(block):
        if dom.has_class(child, "dsLineHor"):
            expecting = True
        elif expecting and child.tag == "b":
            names.append(dom.text(child))
            expecting = False
    return names


def _read_composition(content: list[Element], draft: DatasheetDraft, ctx: FrameContext) -> None:
    """The model lists (``ul.dsUl``, with "OR" between alternatives), then the loadout text;
    the cost table (``div.PriceTag`` cells) sits in a block of its own."""
    for block in content:
        if dom.select(block, "div", "PriceTag"):
            draft.costs.extend(_costs(block, ctx))
            continue
        loadout: list[Element] = []
        for child in dom.children(block):
            if child.tag == "ul":
                draft.unit_composition.extend(
                    dom.text(li).removeprefix("- ") for li in dom.children(child)
                )
            elif child.tag == "b" and dom.text(child).upper() == "OR" and not loadout:
                draft.unit_composition.append("OR")
            else:
                loadout.append(child)
        lines = dom.nodes_text(None, loadout)
        if lines:
            draft.loadout = "\n".join(lines)


def _costs(block: Element, ctx: FrameContext) -> list[CostLine]:
    """The cost rows: a row without a price is a heading (``YOUR 4TH + UNIT COSTS`` says which
    units the rows under it cost); a price with a ``+`` is an add-on."""
    points: list[CostLine] = []
    reader = CostTable()
    for row in block.iter("tr"):
        cells = [c for c in dom.children(row) if c.tag == "td"]
        price = dom.select_one(row, "div", "PriceTag")
        label = dom.text(cells[0]) if cells else ""
        if price is None:
            reader.heading(label)
            continue
        if not cells:
            continue
        printed = dom.text(price)
        line = reader.line(label, ("+" if "+" in printed else "") + re.sub(r"\D", "", printed))
        if line is None:
            ctx.report.warning("bad-cost", f"no cost in {label!r}", line=row.sourceline)
            continue
        points.append(CostLine(line, At(row.sourceline)))
    return points


def _read_leader(content: list[Element], draft: DatasheetDraft, ctx: FrameContext) -> None:
    draft.leader.extend(_unit_refs(content))
    if not draft.leader:
        line = content[0].sourceline if content else None
        ctx.report.warning("leader-empty", "LEADER section lists no unit", line=line)


def _read_orders(content: list[Element], draft: DatasheetDraft, ctx: FrameContext) -> None:
    lines = [line for el in content for line in dom.text_lines(el)]
    draft.orders = "\n".join(lines) or None


def _read_led_by(content: list[Element], draft: DatasheetDraft, ctx: FrameContext) -> None:
    # The units that can lead this one (the other direction of ``leader``).
    draft.led_by.extend(_unit_refs(content))


def _unit_refs(content: list[Element]) -> list[UnitRef]:
    """The units a LEADER or LED BY list names, each with the faction of the page its item links
    to (``/factions/imperial-agents/Inquisitor``): a unit of another faction keeps its own."""
    refs: list[UnitRef] = []
    for item in (li for block in content for li in block.iter("li")):
        links = (_UNIT_LINK.search(str(a.get("href") or "")) for a in item.iter("a"))
        faction = next((m.group("faction") for m in links if m), None)
        refs.append(UnitRef(dom.text(item).removeprefix("- "), namespace=faction))
    return refs


def _read_transport(content: list[Element], draft: DatasheetDraft, ctx: FrameContext) -> None:
    text = "\n".join(line for el in content for line in dom.text_lines(el))
    draft.transport = text or None


def _read_stratagems(content: list[Element], draft: DatasheetDraft, ctx: FrameContext) -> None:
    for wrap in (w for el in content for w in dom.select(el, "div", "s10Wrap")):
        target = _tooltip_target(wrap)
        entity = ctx.tooltips.get(target) if target else None
        if entity is not None and entity.kind == "stratagem":
            draft.stratagems.append(entity.id)
            continue
        # No tooltip: the list itself names the stratagem and its source.
        name_el = dom.select_one(wrap, "div", "s10Name")
        type_el = dom.select_one(wrap, "div", "s10Type")
        if name_el is None or type_el is None:
            ctx.report.warning("stratagem-ref", "stratagem entry not read", wrap.sourceline)
            continue
        source, _category = split_source(dom.text(type_el))
        draft.stratagems.append(make_id(source, dom.text(name_el)))


def _read_detachment_rules(
    content: list[Element], draft: DatasheetDraft, ctx: FrameContext
) -> None:
    draft.detachment_rules.extend(_enh_refs(content, "detachment_rule", ctx))


def _read_enhancements(content: list[Element], draft: DatasheetDraft, ctx: FrameContext) -> None:
    draft.enhancements.extend(_enh_refs(content, "enhancement", ctx))


def _enh_refs(content: list[Element], kind: str, ctx: FrameContext) -> list[str]:
    """Ids of the detachment rules or enhancements listed (``s10EnhWrap``); their detachment
    is only in the tooltip, so an entry without one is reported, not guessed."""
    ids: list[str] = []
    for wrap in (w for el in content for w in dom.select(el, "div", "s10EnhWrap")):
        target = _tooltip_target(wrap)
        entity = ctx.tooltips.get(target) if target else None
        if entity is None or entity.kind != kind:
            ctx.report.warning(
                "missing-entry",
                f"{kind.replace('_', ' ')} {dom.text(wrap)!r} has no readable tooltip",
                line=wrap.sourceline,
            )
            continue
        ids.append(entity.id)
    return ids


def _tooltip_target(el: Element) -> str | None:
    for holder in el.iter():
        target = holder.get("data-tooltip-content")
        if target:
            return str(target).lstrip("#")
    return None


_SECTION_READERS: dict[str, Callable[[list[Element], DatasheetDraft, FrameContext], None]] = {
    "WARGEAR OPTIONS": _read_wargear_options,
    "ABILITIES": _read_abilities,
    "WARGEAR ABILITIES": _read_wargear_abilities,
    "UNIT COMPOSITION": _read_composition,
    "LEADER": _read_leader,
    "LED BY": _read_led_by,
    "ORDERS": _read_orders,
    "TRANSPORT": _read_transport,
    "STRATAGEMS": _read_stratagems,
    "DETACHMENT ABILITY": _read_detachment_rules,
    "DETACHMENT ABILITIES": _read_detachment_rules,
    "DETACHMENT RULE": _read_detachment_rules,
    "ENHANCEMENTS": _read_enhancements,
}


# ---- keywords ---------------------------------------------------------------------------------


def _read_keywords(frame: Element, draft: DatasheetDraft, ctx: FrameContext) -> None:
    """KEYWORDS and FACTION KEYWORDS, and the keywords the box scopes to one model (``…,
    COMMAND SQUAD`` then ``Cadian Commander: CHARACTER, OFFICER``)."""
    for box in dom.select(frame, "div", "ds2colKW"):
        for part in dom.children(box):
            groups = _keyword_groups(part)
            if not groups:
                text = dom.text(part)
                if text:
                    ctx.report.warning(
                        "keywords-unlabelled",
                        f"keyword box without a label: {text[:60]!r}",
                        part.sourceline,
                    )
                continue
            (label, words), *models = groups
            target = draft.faction_keywords if "FACTION" in label.upper() else draft.keywords
            target.extend(words)
            draft.scoped_keywords.extend(
                ScopedKeywords(model, model_words, At(part.sourceline))
                for model, model_words in models
            )


_GLUE = "\x1f"
_BREAK = "\x1e"
_GLUE_RUN = re.compile(r"\s*[\x1e\x1f][\x1e\x1f\s]*")


def _glue_or_space(match: re.Match[str]) -> str:
    # Texts of two elements that touch without a space, or a <br> between: a new line.
    run = match.group()
    return _GLUE if _BREAK in run or not run.strip(_GLUE) else " "


def _keyword_groups(part: Element) -> list[tuple[str, list[str]]]:
    """``(label, keywords)`` of each labelled group of a keyword box, in page order. A label is
    the text before a colon back to the last comma or to the last place where the page starts a
    new line (two elements' texts touching without a space, or a ``<br>``)."""
    pieces: list[str] = []
    _glued_text(part, pieces)
    text = _GLUE_RUN.sub(_glue_or_space, "".join(pieces))
    chunks = text.split(":")
    if len(chunks) < 2:
        return []
    groups: list[tuple[str, list[str]]] = []
    label = normalize_text(chunks[0].replace(_GLUE, " ")).strip()
    for chunk in chunks[1:-1]:
        head, next_label = _label_of(chunk)
        groups.append((label, _words(head)))
        label = next_label
    groups.append((label, _words(chunks[-1])))
    return groups


def _label_of(chunk: str) -> tuple[str, str]:
    """``"A, B, LAST<glue>Model name"`` → ("A, B, LAST", "Model name")."""
    before, comma, last = chunk.rstrip(_GLUE + " ").rpartition(",")
    glued, sep, label = last.rpartition(_GLUE)
    if not sep:
        return before, normalize_text(last).strip()
    return before + comma + glued, normalize_text(label).strip()


def _words(text: str) -> list[str]:
    words = (normalize_text(w.replace(_GLUE, "")).strip().upper() for w in re.split(r"[,;]", text))
    return [w for w in words if w]


def _glued_text(el: Element, out: list[str]) -> None:
    """The element's text with a marker at each element boundary and at each ``<br>``."""
    out.append(_GLUE)
    if el.text:
        out.append(el.text)
    for child in el:
        if isinstance(child.tag, str) and child.tag not in ("script", "style"):
            if child.tag == "br" or dom.has_class(child, "dsVertLine"):
                # A line break, or the bar the page draws between two groups of keywords.
                out.append(_BREAK)
            else:
                _glued_text(child, out)
        if child.tail:
            out.append(child.tail)
    out.append(_GLUE)
