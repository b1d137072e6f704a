"""A Game-Datacards JSON file as entities of the contract.

``read_gdc`` bounds the file before it reads it (the per-input size limit of every reader, then
a nesting depth), parses it, tells its edition from the file itself (``"source": "40k-11e"`` at
its top, else the ``source`` its entries carry) and builds, in this order: army rules,
detachments, detachment rules, enhancements, stratagems, datasheets. Names and texts are read in
the language the context asks for (``ReadContext.language``); ids are made from the English
names, so that every language gives the same ids. Nothing raises for a bad file: what cannot be
read is a diagnostic.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

from wahanorm.blocks.edition import as_edition
from wahanorm.contract.vocabulary import Edition
from wahanorm.errors import Report
from wahanorm.readers.base import EditionSign, Entity, Part, ReadContext, Reading, Source
from wahanorm.readers.gamedatacards import datasheets, rules
from wahanorm.readers.gamedatacards.context import Gdc, has_value
from wahanorm.readers.gamedatacards.text import ENGLISH, Language

MAX_DEPTH = 64
"""The deepest nesting of objects and lists a Game-Datacards file may hold (its own reach 7)."""
_EDITION = re.compile(r"^40k-(\d+)e$")
_ID_AT = re.compile(r'"id"\s*:\s*"([^"\\]{1,100})"')
ENTRY_KINDS = ("datasheets", "stratagems", "detachments", "enhancements", "rules")
TOP_READ = frozenset({*ENTRY_KINDS, "source", "compatibleDataVersion", "updated", "name", "id"})
"""The keys of the file's object that are read; the others are said (``dropped-field``)."""


def read_gdc(source: Source, context: ReadContext) -> Reading:
    """Every entity of one Game-Datacards file, as one part with the file's edition sign."""
    reading = Reading(source.display)
    report = reading.report
    data = _load(source, report)
    if data is None:
        return reading
    language = Language(source.language or ENGLISH)
    gdc = Gdc(path=source.display, report=report, language=language)
    gdc.lines = _id_lines(source.text)
    name = data.get("name")
    gdc.faction = name if isinstance(name, str) else ""
    context.stage("rules and detachments")
    entities: list[Entity] = []
    entities.extend(rules.army_rules(gdc, data))
    entities.extend(rules.detachments(gdc, data))
    entities.extend(rules.detachment_rules(gdc, data))
    entities.extend(rules.enhancements(gdc, data))
    context.stage("stratagems")
    entities.extend(rules.stratagems(gdc, data))
    context.stage("datasheets")
    entities.extend(datasheets.datasheets(gdc, data))
    sign, own = _editions(data, source.display, entities)
    reading.parts.append(Part(entities, sign, own))
    version = data.get("compatibleDataVersion")
    if isinstance(version, int) and not isinstance(version, bool):
        reading.data_version = str(version)
    for key in data:
        if key not in TOP_READ and has_value(data[key]):
            gdc.dropped[f"file.{key}"] += 1
    _said(gdc)
    return reading


def _load(source: Source, report: Report) -> dict[str, Any] | None:
    """The file's object, or None with an error (too large, too deep, not JSON, not an object
    of entries)."""
    from wahanorm.errors import InputError

    try:
        text = source.text  # through ``Source.content``: the per-input size limit, first
    except InputError as exc:
        report.error("input-error", str(exc.args[0]) if exc.args else "cannot read")
        return None
    depth = _depth(text)
    if depth > MAX_DEPTH:
        report.error(
            "input-error",
            f"JSON nested {depth} deep, over the {MAX_DEPTH} levels a Game-Datacards file may "
            "hold; nothing read",
        )
        return None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        line = getattr(exc, "lineno", None)
        column = getattr(exc, "colno", None)
        report.error(
            "malformed-file",
            f"not well-formed JSON: {getattr(exc, 'msg', exc)}; nothing read",
            line=line,
            column=column,
        )
        return None
    if not isinstance(data, dict) or not any(
        isinstance(data.get(k), (list, dict)) for k in ENTRY_KINDS
    ):
        report.error(
            "unknown-format",
            "a JSON file that holds none of a Game-Datacards file's entries (datasheets, "
            "stratagems, detachments, enhancements, rules); nothing read",
        )
        return None
    return data


_BRACKETS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


def _depth(text: str) -> int:
    """How deep the JSON's objects and lists nest (strings skipped), without parsing it."""
    depth = deepest = 0
    for match in _BRACKETS.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif token in "]}":
            depth -= 1
    return deepest


def _id_lines(text: str) -> dict[str, int]:
    """The line (1-based) of each ``"id": "…"`` of the file, its first one."""
    lines: dict[str, int] = {}
    line, last = 1, 0
    for match in _ID_AT.finditer(text):
        line += text.count("\n", last, match.start())
        last = match.start()
        lines.setdefault(match.group(1), line)
    return lines


def edition_of(value: object) -> Edition | None:
    """``40k-11e`` → 11; anything else None."""
    if isinstance(value, str) and (match := _EDITION.match(value.strip())):
        return as_edition(int(match.group(1)))
    return None


def _editions(
    data: dict[str, Any], path: str, entities: list[Entity]
) -> tuple[EditionSign, dict[int, Edition]]:
    """The file's edition sign: its own ``source``, else the ``source`` every entry that has
    one agrees on; never guessed (a file that tells none leaves it to ``--edition``)."""
    told = edition_of(data.get("source"))
    if told is not None:
        return EditionSign(told, f'the file\'s "source" says {data["source"]}', path=path), {}
    found: Counter[Edition] = Counter()
    for kind in ("datasheets", "stratagems", "enhancements"):
        for entry in data.get(kind) or []:
            if isinstance(entry, dict) and (edition := edition_of(entry.get("source"))):
                found[edition] += 1
    rules = data.get("rules")
    if isinstance(rules, dict):
        for group in rules.values():
            for entry in group if isinstance(group, list) else []:
                if isinstance(entry, dict) and (edition := edition_of(entry.get("source"))):
                    found[edition] += 1
    if len(found) == 1:
        edition = next(iter(found))
        return (
            EditionSign(edition, f'its entries\' "source" says 40k-{edition}e', path=path),
            {},
        )
    if found:
        return EditionSign(None, untold="its entries name different editions", path=path), {}
    return EditionSign(None, untold='the file names no edition (no "source")', path=path), {}


def _said(gdc: Gdc) -> None:
    """What was left out and what had no translation, once per input with counts."""
    if gdc.dropped:
        held = ", ".join(f"{key} ({n})" for key, n in sorted(gdc.dropped.items()))
        gdc.report.info(
            "dropped-field",
            f"fields the canonical form has no place for, left out: {held}",
        )
    if gdc.unknown:
        held = ", ".join(f"{key} ({n})" for key, n in sorted(gdc.unknown.items()))
        gdc.report.warning(
            "unknown-field",
            f"fields wahanorm does not read, left out: {held}",
        )
    language = gdc.language
    if language.code != ENGLISH:
        if language.missing:
            gdc.report.warning(
                "translation-missing",
                f"{language.missing} names and texts have no {language.code!r} translation; "
                "English kept",
            )
        if language.plain and not language.seen:
            gdc.report.warning(
                "translation-missing",
                f"the file gives its {language.plain} names and texts in one language only (no "
                f"translations); read as given, not in {language.code!r}",
            )
