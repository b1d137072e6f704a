"""A dump's datasheet block → a ``DatasheetDraft`` for the shared builder.

Both layouts of the dumps are read: pipe tables (``| Lash of Khorne | 12" | 9 | 2+ | … |``) and
one cell per line (a flattened page: ``M`` / ``5"`` / ``T`` / ``6`` …, weapon name then six
values). The block is cut into sections at their headings (RANGED WEAPONS, ABILITIES, UNIT
COMPOSITION, LEADER, KEYWORDS: …); each section has its own small reader. What is the same for
every source (ORDERS, transport, "None" options, keyword scopes, cost-line model counts, leader
ids) is left to ``blocks.datasheet.build_datasheet``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

from wahanorm.blocks.clean.lines import Line
from wahanorm.blocks.datasheet import (
    At,
    CostLine,
    DatasheetDraft,
    ScopedKeywords,
    UnitRef,
    build_profile,
    damaged_wounds,
)
from wahanorm.blocks.parse.abilities import named_ability, split_core_list
from wahanorm.blocks.parse.datasheet_lines import parse_core_abilities, parse_weapon_row
from wahanorm.blocks.parse.points import CostTable, cost_tier, is_heading, model_count
from wahanorm.blocks.weapons import WeaponDraft, build_weapon
from wahanorm.contract.models import Ability, Damaged, Points, Profile, SourceRef
from wahanorm.contract.vocabulary import INVULNERABLE_LABELS, PROFILE_LABELS
from wahanorm.errors import ParseFailure, Report, caret_excerpt

WeaponType = Literal["ranged", "melee"]

STAT_LABELS = {**PROFILE_LABELS, **INVULNERABLE_LABELS}
"""A profile's labels as the dumps print them (``vocabulary``)."""
_SECTION = re.compile(
    r"^(?P<head>RANGED WEAPONS|MELEE WEAPONS|WARGEAR OPTIONS|WARGEAR ABILITIES|ABILITIES|"
    r"UNIT COMPOSITION|LEADER|ORDERS|TRANSPORT|KEYWORDS|FACTION KEYWORDS|DAMAGED)\b(?P<rest>.*)$"
)
_BASE = re.compile(r"^\(⌀\s*(?P<size>[^)]+)\)$")
_CELL = re.compile(
    r'^(?:Melee|N/A|-|(?:[-+]?\d+(?:\+"|[+"])?|\d*D\d+(?:[+-]\d+)?)\*?)$', re.IGNORECASE
)
_COST_ROW = re.compile(r"^\|\s*(?P<what>[^|]*?)\s*\|\s*(?P<points>\+?\s*\d+)\s*\|?\s*$")
_CELL_COST = re.compile(r"^\+?\s*\d+$")
_NAMED = re.compile(r"^(?P<name>[A-Z0-9][^:]{0,60}?): (?P<text>\S.*)$")
_LEADER_INTRO = re.compile(r"^This model can be attached to the following units?:$")


@dataclass
class _Sections:
    """The datasheet's lines grouped by heading, each with the heading line."""

    preamble: list[Line] = field(default_factory=list)
    parts: list[tuple[str, Line, list[Line]]] = field(default_factory=list)


def _split_sections(lines: list[Line]) -> _Sections:
    sections = _Sections()
    current: list[Line] = sections.preamble
    for line in lines:
        match = _SECTION.match(line.text)
        if match and not line.text.startswith("|"):
            current = []
            sections.parts.append((match.group("head"), line, current))
        else:
            current.append(line)
    return sections


def read_datasheet(lines: list[Line], path: str, report: Report) -> DatasheetDraft:
    """The datasheet of a dump, as a draft; what cannot be read is reported, the rest kept."""
    header = lines[0]
    faction, _, name = header.text.partition(" – ")
    sections = _split_sections(lines[1:])
    draft = DatasheetDraft(
        name=name.strip(),
        faction=faction.strip(),
        sources=[SourceRef(path=path, line_start=header.number, line_end=lines[-1].number)],
    )
    reader = _Reader(path, report, draft)
    reader.preamble(sections.preamble)
    for head, line, body in sections.parts:
        reader.section(head, line, body)
    reader.check()
    draft.profiles = reader.profiles()
    return draft


class _Reader:
    """Fills the draft of one datasheet, section by section."""

    def __init__(self, path: str, report: Report, draft: DatasheetDraft) -> None:
        self.path = path
        self.report = report
        self.draft = draft
        self.name = draft.name
        self.stats: dict[str, str] = {}
        self.stats_model = draft.name
        self.stat_rows: list[tuple[str, dict[str, str]]] = []
        self.leader_line: Line | None = None

    # ---- sections --------------------------------------------------------------------------
    def preamble(self, lines: list[Line]) -> None:
        """Name repeated, base size, and the model profiles: ``M`` / ``5"`` / ``T`` / ``6`` …
        one cell per line, or a pipe row of labels over a pipe row of values. A label seen again
        starts the next model's profile; a line before a profile names its model."""
        index = 0
        model = self.name
        while index < len(lines):
            text = lines[index].text
            base = _BASE.match(text)
            label = STAT_LABELS.get(text.upper())
            following = lines[index + 1].text if index + 1 < len(lines) else ""
            if base:
                self.draft.base_size = base.group("size").strip()
            elif label and _CELL.match(following):
                self._stat(model, label, following)
                index += 1
            elif (labels := _stat_row(text)) and following.startswith("|"):
                values = [c.strip() for c in following.strip().strip("|").split("|")]
                for row_label, value in zip(labels, values, strict=False):
                    self._stat(model, row_label, value)
                index += 1
            elif text[:1].isalpha() and (
                STAT_LABELS.get(following.upper()) or _stat_row(following)
            ):
                model = text  # a model's name right above its profile
            elif text != self.name:
                self.report.warning(
                    "unparsed", f"datasheet line not understood: {text[:80]!r}", lines[index].number
                )
            index += 1
        if self.stats:
            self.stat_rows.append((self.stats_model, self.stats))

    def _stat(self, model: str, label: str, value: str) -> None:
        if label in self.stats or (self.stats and model != self.stats_model):
            self.stat_rows.append((self.stats_model, self.stats))
            self.stats = {}
        self.stats_model = model
        self.stats[label] = value

    def section(self, head: str, line: Line, body: list[Line]) -> None:
        """Dispatch one section to its reader."""
        rest = _SECTION.match(line.text)
        after = rest.group("rest") if rest else ""
        if head in ("RANGED WEAPONS", "MELEE WEAPONS"):
            self.weapon_table("ranged" if head.startswith("RANGED") else "melee", line, body)
        elif head == "WARGEAR OPTIONS":
            self.draft.wargear_options = _bullet_items(body)
        elif head in ("ABILITIES", "WARGEAR ABILITIES"):
            self.abilities(body, wargear=head == "WARGEAR ABILITIES")
        elif head == "UNIT COMPOSITION":
            self.composition_and_costs(body)
        elif head == "LEADER":
            self.leader_section(line, body)
        elif head == "ORDERS":
            self.draft.orders = "\n".join(x.text for x in body) or None
        elif head == "TRANSPORT":
            first = after.lstrip(":").strip()
            text = "\n".join([first, *(x.text for x in body)] if first else [x.text for x in body])
            self.draft.transport = text or None
        elif head == "KEYWORDS":
            self.keywords(line, after.lstrip(":").strip(), body)
        elif head == "FACTION KEYWORDS":
            self.draft.faction_keywords = _keyword_list(after.lstrip(":").strip(), body)
        elif head == "DAMAGED":
            wounds = damaged_wounds(line.text)
            if wounds is None:
                self.report.warning(
                    "unparsed",
                    f"DAMAGED heading without its wounds: {line.text[:80]!r}; left out",
                    line.number,
                )
                return
            self.draft.damaged = Damaged(wounds=wounds, text="\n".join(x.text for x in body))

    def weapon_table(self, kind: WeaponType, line: Line, body: list[Line]) -> None:
        """Pipe rows, or (one cell per line) the column headings then name + six cells."""
        rows = [x for x in body if x.text.startswith("|")]
        if rows or "|" in line.text:
            if not rows:
                self.report.warning(
                    "weapon-table-empty",
                    f"{line.text.split('|')[0].strip()} table without rows",
                    line.number,
                )
            for row in rows:
                self.weapon(kind, row, row.text)
            for other in (x for x in body if not x.text.startswith("|")):
                self.report.warning(
                    "unparsed",
                    f"weapon table line not understood: {other.text[:80]!r}",
                    other.number,
                )
            return
        cells = [x for x in body if x.text not in ("RANGE", "A", "BS", "WS", "S", "AP", "D")]
        if not cells:
            self.report.warning(
                "weapon-table-empty",
                f"{line.text.split('|')[0].strip()} table without rows",
                line.number,
            )
        index = 0
        while index < len(cells):
            values = cells[index + 1 : index + 7]
            if len(values) == 6 and all(_CELL.match(v.text) for v in values):
                joined = " | ".join(x.text for x in cells[index : index + 7])
                self.weapon(kind, cells[index], f"| {joined} |")
                index += 7
            else:
                self.report.error(
                    "weapon-row",
                    "weapon name without its six characteristics",
                    cells[index].number,
                    excerpt=caret_excerpt(cells[index].text, 1),
                )
                index += 1

    def weapon(self, kind: WeaponType, line: Line, row_text: str) -> None:
        """One weapon profile from a table row, through the datasheet grammar."""
        try:
            row = parse_weapon_row(row_text, self.path, line.number)
        except ParseFailure as exc:
            self.report.failure(exc, "weapon-row")
            return
        stats = row.stats()
        weapon = build_weapon(
            WeaponDraft(
                name=row.name_cell,
                type=kind,
                characteristics=[stat.text for stat in stats],
                at=At(line.number),
            ),
            self.report,
        )
        if weapon is None:
            return
        columns = ("RANGE", "A", "WS" if kind == "melee" else "BS", "S", "AP", "D")
        for column, stat in zip(columns, stats, strict=True):
            if stat.text.endswith("*"):
                full_name = f"{weapon.name} – {weapon.profile}" if weapon.profile else weapon.name
                self.report.info(
                    "starred-stat",
                    f"{full_name!r}: {column} {stat.text!r} is starred and the dump gives no "
                    "condition for it; kept as printed",
                    line.number,
                )
        self.draft.weapons.append(weapon)

    def abilities(self, body: list[Line], wargear: bool) -> None:
        """CORE:, FACTION:, then ``Name: text`` abilities; other lines continue the last one."""
        groups = self.draft.abilities
        target = groups.wargear if wargear else groups.datasheet
        for line in body:
            text = line.text
            if text.startswith("CORE:"):
                self.core_list(line)
            elif text.startswith("FACTION:"):
                groups.faction.extend(
                    Ability(name=n.strip()) for n in text[8:].split(",") if n.strip()
                )
            elif (named := _NAMED.match(text)) and not text.startswith("- "):
                target.append(named_ability(named.group("name"), named.group("text")))
            elif target:
                last = target[-1]
                target[-1] = last.model_copy(update={"text": f"{last.text}\n{text}"})
            else:
                self.report.warning(
                    "unparsed", f"ability line not understood: {text[:80]!r}", line.number
                )

    def core_list(self, line: Line) -> None:
        """The CORE abilities with their parameters; a list the grammar cannot read is reported
        and kept as plain names."""
        core = self.draft.abilities.core
        try:
            core.extend(parse_core_abilities(line.text[5:], self.path, line.number))
        except ParseFailure as exc:
            self.report.failure(exc, "core-abilities")
            core.extend(split_core_list(line.text[5:]))

    def composition_and_costs(self, body: list[Line]) -> None:
        """Composition bullets, the loadout sentence, then the cost table in either layout: a
        tier heading (``YOUR 1ST TO 3RD UNITS COST``) says which units the lines under it cost."""
        index = 0
        table = CostTable()
        while index < len(body):
            text = body[index].text
            row = _COST_ROW.match(text)
            following = body[index + 1].text if index + 1 < len(body) else ""
            if cost_tier(text) is not None or _heading_row(text):
                table.heading(_first_cell(text))  # a heading row of the cost table
            elif row and (table.add_ons or _is_cost_line(row.group("what"), row.group("points"))):
                self.cost(body[index], table.line(row.group("what"), row.group("points")))
            elif _CELL_COST.match(following) and _is_cost_line(text, following):
                self.cost(body[index], table.line(text, following))
                index += 1
            elif text.startswith("- ") or text == "OR":
                self.draft.unit_composition.append(text.removeprefix("- ").strip())
            elif text.startswith("|") and "COSTS" in text.upper():
                pass  # the cost table's own heading row
            else:
                # What the page prints under the composition: the loadout ("Every model is
                # equipped with: …") and the notes that follow it.
                loadout = self.draft.loadout
                self.draft.loadout = f"{loadout}\n{text}" if loadout else text
            index += 1

    def cost(self, line: Line, points: Points | None) -> None:
        """One cost line, with its line (the row's pattern checked its digits: None is a cost
        no unit can have, ``numbers.MAX_GAME_VALUE``)."""
        if points is None:
            self.report.warning(
                "bad-cost",
                f"cost line {line.text[:60]!r}: its cost is no number of points a unit can "
                "have; left out",
                line=line.number,
            )
            return
        self.draft.costs.append(CostLine(points, At(line.number)))

    def leader_section(self, line: Line, body: list[Line]) -> None:
        """The units this model can lead (a dump has no links: they are named in the
        datasheet's faction); the intro sentence alone is a hole in the source."""
        self.leader_line = line
        for item in body:
            if _LEADER_INTRO.match(item.text):
                self.leader_line = item
            else:
                self.draft.leader.append(UnitRef(item.text.removeprefix("- ").strip()))

    def keywords(self, line: Line, first: str, body: list[Line]) -> None:
        """The unit's keywords, and those a ``Model:`` label scopes to one model."""
        unit, scoped = _scoped_keyword_list(first, body)
        self.draft.keywords = unit
        self.draft.scoped_keywords = [
            ScopedKeywords(model, words, At(line.number)) for model, words in scoped.items()
        ]

    def check(self) -> None:
        """Report what a datasheet should have and this one lost."""
        if self.leader_line is not None and not self.draft.leader:
            self.report.warning(
                "leader-empty",
                "LEADER section lists no units (the list was lost)",
                self.leader_line.number,
                excerpt=caret_excerpt(self.leader_line.text, None),
            )

    def profiles(self) -> list[Profile]:
        """One profile per model whose characteristics were read."""
        return [build_profile(model, stats) for model, stats in self.stat_rows]


def _stat_row(text: str) -> list[str]:
    """The fields of a pipe row of characteristic labels (``| M | T | SV | W | LD | OC |``)."""
    if not text.startswith("|"):
        return []
    cells = [c.strip().upper() for c in text.strip().strip("|").split("|") if c.strip()]
    labels = [STAT_LABELS.get(c) for c in cells]
    return [x for x in labels if x] if cells and all(labels) else []


def _heading_row(text: str) -> bool:
    """``| WARGEAR OPTIONS | |``: a pipe row of one upper-case cell."""
    return text.startswith("|") and is_heading(_first_cell(text))


def _first_cell(text: str) -> str:
    """``| YOUR UNIT COSTS | |`` → ``YOUR UNIT COSTS``; a line of the other layout as it is."""
    if not text.startswith("|"):
        return text
    cells = [cell.strip() for cell in text.strip().strip("|").split("|")]
    return cells[0] if not any(cells[1:]) else ""


def _is_cost_line(what: str, cost: str) -> bool:
    """A cost line names models (``10 models``, ``1 Spanner and 4 Lootas``) or is an add-on
    (``Invader ATV`` / ``+60``)."""
    return bool(what.strip()) and (cost.strip().startswith("+") or model_count(what) is not None)


def _bullet_items(body: list[Line]) -> list[str]:
    """Wargear options, one per item. An option that ends with ':' takes the bullets after it
    that are choices (``1 flamer``: no sentence end) as its own; a footnote (``* You cannot…``)
    is an item of its own."""
    items: list[str] = []
    open_choice = False
    for line in body:
        text = line.text.removeprefix("- ").strip()
        if open_choice and not text.endswith((".", ":")) and not text.startswith("*"):
            items[-1] += f"\n- {text}"
            continue
        items.append(text)
        open_choice = text.endswith(":")
    return items


_ALL_MODELS = re.compile(r"^[–-]?\s*ALL MODELS$", re.IGNORECASE)


def _scoped_keyword_list(first: str, body: list[Line]) -> tuple[list[str], dict[str, list[str]]]:
    """The unit's keywords and those scoped to one model (``…, COMMAND SQUAD, Cadian Commander:
    CHARACTER, OFFICER``: a ``Model:`` label scopes the keywords after it), by model name in
    capitals. ``– ALL MODELS:`` after KEYWORDS labels the unit's own."""
    text = ", ".join([first, *(x.text for x in body)])
    unit: set[str] = set()
    scoped: dict[str, set[str]] = {}
    target = unit
    for part in re.split(r"\s*[,;]\s*", text):
        label, colon, word = part.partition(":")
        if colon:
            target = (
                unit
                if _ALL_MODELS.match(label.strip())
                else scoped.setdefault(label.strip().upper(), set())
            )
            part = word
        if part.strip():
            target.add(part.strip().upper())
    return sorted(unit), {model: sorted(words) for model, words in scoped.items()}


def _keyword_list(first: str, body: list[Line]) -> list[str]:
    """Keywords in capitals, once each, sorted: their order carries no rule (and differs between
    a page and the export), so every reader gives the same list."""
    text = ", ".join([first, *(x.text for x in body)])
    return sorted({part.strip().upper() for part in re.split(r"\s*[,;]\s*", text) if part.strip()})
