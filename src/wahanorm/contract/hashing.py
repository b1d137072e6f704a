"""The content hash of an entity: what it says, its sources and variants left out.

Two copies of one rule read from two inputs hash the same; ``index.json`` lists each entity's
hash, and merge groups copies by it.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import orjson

if TYPE_CHECKING:
    from pydantic import BaseModel


def content_hash(entity: BaseModel) -> str:
    """Hash of what an entity says, sources and variants left out: two copies of one rule read
    from two dumps hash the same."""
    return hash_of(entity.model_dump(mode="json", exclude={"sources", "variants"}))


def hash_of(data: Mapping[str, Any]) -> str:
    """The content hash of an entity's JSON (its sources and variants already left out)."""
    text = orjson.dumps(data, option=orjson.OPT_SORT_KEYS)
    return hashlib.sha256(text).hexdigest()[:16]


# --- the shape of rules text left out ------------------------------------------------------

SHAPE_FIELDS = ("blocks", "modes", "commentary")
"""Fields that hold the shape of rules text (contract version 3), which not every source can
mark: a text dump has no nesting and no commentary boxes."""
_COSTED_ITEM = re.compile(r"^- (?P<name>.+?) \[(?P<cost>[^\]\s]+)\]:(?P<rest>.*)$")


def flat_text(text: str) -> str:
    """A rules text as a source that cannot mark its shape prints it (and as version 2 of the
    contract wrote it): no indentation, an item's cost a line of its own before the item
    (``- Into the Fray [+1CP]:`` → ``+1CP`` / ``- Into the Fray:``)."""
    if "\n " not in text and not text.startswith(" ") and "[" not in text:
        return text
    out: list[str] = []
    for line in text.split("\n"):
        line = line.lstrip(" ")
        costed = _COSTED_ITEM.match(line)
        if costed:
            out += [costed.group("cost"), f"- {costed.group('name')}:{costed.group('rest')}"]
        else:
            out.append(line)
    return "\n".join(out)


def without_shape(data: Any) -> Any:
    """An entity's JSON (or any part of it) as a source that cannot mark the shape of rules
    text would give it: the shape fields left out, every text flat (``flat_text``), a
    commentary box back at the end of the text it was printed with."""
    if isinstance(data, str):
        return flat_text(data)
    if isinstance(data, list):
        return [without_shape(x) for x in data]
    if not isinstance(data, Mapping):
        return data
    out = {k: without_shape(v) for k, v in data.items() if k not in SHAPE_FIELDS}
    boxes = data.get("commentary")
    host = "text" if isinstance(out.get("text"), str) else "effect"
    if isinstance(boxes, list) and boxes and isinstance(out.get(host), str):
        said = [str(x) for b in boxes if isinstance(b, Mapping) for x in b.values() if x]
        out[host] = flat_text("\n".join([out[host], *said]))
    return out


def has_shape(entity: BaseModel) -> bool:
    """Whether an entity's reading marks the shape of its rules text anywhere (a nested list, a
    mode, a commentary box): a reading that marks none could come from a text dump."""
    return _marks(entity.model_dump(mode="json", exclude={"sources", "variants"}))


def _marks(data: Any) -> bool:
    if isinstance(data, str):
        return flat_text(data) != data
    if isinstance(data, list):
        return any(_marks(x) for x in data)
    if isinstance(data, Mapping):
        if data.get("modes") or data.get("commentary"):
            return True
        return any(_marks(v) for k, v in data.items() if k != "blocks")
    return False


def shapeless_hash(entity: BaseModel) -> str:
    """``content_hash`` of an entity with the shape of its rules text left out
    (``without_shape``): two readings of one rule, one from a source that marks its lists and
    commentary and one from a source that cannot, hash the same."""
    return hash_of(without_shape(entity.model_dump(mode="json", exclude={"sources", "variants"})))
