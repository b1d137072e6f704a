"""The content hash of an entity: what it says, its sources and variants left out.

Two copies of one rule read from two inputs hash the same; ``index.json`` lists each entity's
hash, and merge groups copies by it.
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections import OrderedDict
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import orjson

if TYPE_CHECKING:
    from pydantic import BaseModel

UNSAID = frozenset({"sources", "variants"})
"""The fields of an entity that are not what it says (where it was read, the copies that
disagree with it): left out of its content hash."""


def content_hash(entity: BaseModel) -> str:
    """Hash of what an entity says, sources and variants left out: two copies of one rule read
    from two dumps hash the same."""
    return hash_of(entity.model_dump(mode="json", exclude=set(UNSAID)))


class ContentHashes:
    """``content_hash`` of the copies of one entity, each set of field values hashed once:
    copies of a rule a batch read once and gave again with another source
    (``errors.BatchMemo``) hold the very same objects in every field it says, so they share one
    hash without another dump. Only the objects' identity is compared (never their values), and
    the field values of each set are kept while the set is, so no identity is reused while it
    is in use (the copy itself, its sources, may go). Sound because models are not changed once
    read (frozen; a reader that fills a list of its own entity, as the dump reader's
    ``led_by``, does so before the entity leaves it, and so before any hash)."""

    def __init__(self, size: int | None = None) -> None:
        if size is not None and size < 1:
            raise ValueError(f"a hasher keeps at least one set of values, not {size}")
        self._size = size
        """At most this many sets of field values kept (None: all), the oldest going first: a
        process that hashes what many inputs give keeps only the latest."""
        self._known: OrderedDict[tuple[type, tuple[int, ...]], tuple[tuple[object, ...], str]]
        self._known = OrderedDict()

    def __call__(self, entity: BaseModel) -> str:
        model = type(entity)
        values = tuple(map(vars(entity).__getitem__, _said_fields(model)))
        key = (model, tuple(map(id, values)))
        known = self._known.get(key)
        if known is None:
            if self._size is not None and len(self._known) >= self._size:
                self._known.popitem(last=False)  # its values may go: their ids are not kept
            known = self._known[key] = (values, content_hash(entity))
        return known[1]


@functools.cache
def _said_fields(model: type[BaseModel]) -> tuple[str, ...]:
    """A model's fields that say what it says (not ``UNSAID``), once per model."""
    return tuple(f for f in model.model_fields if f not in UNSAID)


def said_of(data: Mapping[str, Any]) -> dict[str, Any]:
    """What an entity's JSON says: its fields but the ``UNSAID`` ones (what its content hash is
    of)."""
    return {k: v for k, v in data.items() if k not in UNSAID}


def hash_of(data: Mapping[str, Any]) -> str:
    """The content hash of an entity's JSON (its sources and variants already left out)."""
    text = orjson.dumps(data, option=orjson.OPT_SORT_KEYS)
    return hashlib.sha256(text).hexdigest()[:16]


# --- the shape of rules text left out ------------------------------------------------------

SHAPE_FIELDS = ("blocks", "modes", "commentary")
"""Fields that hold the shape of rules text (contract version 3), which not every source can
mark: a text dump has no nesting and no commentary boxes."""
_WORD = re.compile(r"\S+")
_EDGE_PUNCTUATION = "[](){}:;,.!?\"'*-–"
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


def without_shape(data: Any, commentary: bool = True) -> Any:
    """An entity's JSON (or any part of it) as a source that cannot mark the shape of rules
    text would give it: the shape fields left out, every text flat (``flat_text``), and (with
    ``commentary``) a commentary box back at the end of the text it was printed with."""
    if isinstance(data, str):
        return flat_text(data)
    if isinstance(data, list):
        return [without_shape(x, commentary) for x in data]
    if not isinstance(data, Mapping):
        return data
    out = {k: without_shape(v, commentary) for k, v in data.items() if k not in SHAPE_FIELDS}
    boxes = data.get("commentary") if commentary else None
    host = "text" if isinstance(out.get("text"), str) else "effect"
    if isinstance(boxes, list) and boxes and isinstance(out.get(host), str):
        out[host] = flat_text("\n".join([out[host], *(box_words(b) for b in boxes)]))
    return out


def box_words(box: Any) -> str:
    """A commentary box as a text prints it: its title, then its text."""
    if not isinstance(box, Mapping):
        return ""
    return "\n".join(str(box[k]) for k in ("title", "text") if box.get(k))


def cut_box(text: str, box: str) -> str:
    """``text`` without the words of ``box`` where it holds them in a row (the last such run:
    a box is mostly printed at the end), compared by words, punctuation at their edges aside
    (``Example:`` / ``Example``); ``text`` itself when it does not hold them. A source that
    prints a commentary box inside the rule's text (a dump) held it there."""
    want = _word_keys(box)
    found = list(_WORD.finditer(text))
    flat = [(key, n) for n, m in enumerate(found) for key in _word_keys(m.group(0))]
    words = [key for key, _ in flat]
    for start in range(len(words) - len(want), -1, -1) if want else ():
        if words[start : start + len(want)] == want:
            first, last = found[flat[start][1]], found[flat[start + len(want) - 1][1]]
            head, tail = text[: first.start()].rstrip(), text[last.end() :].lstrip()
            return f"{head}\n{tail}" if head and tail else head or tail
    return text


def cut_boxes(data: Mapping[str, Any], boxes: Any) -> dict[str, Any]:
    """An entity's JSON with each commentary box in ``boxes`` (another reading's) cut out of
    its texts and its sections' texts (``cut_box``)."""
    out = dict(data)
    for box in reversed(boxes if isinstance(boxes, list) else []):
        said = box_words(box)
        if not said:
            continue
        for key, value in out.items():
            if isinstance(value, str) and key not in ("id", "kind", "name"):
                out[key] = cut_box(value, said)
            elif key == "sections" and isinstance(value, list):
                out[key] = [
                    {**s, "text": cut_box(s["text"], said)}
                    if isinstance(s, Mapping) and isinstance(s.get("text"), str)
                    else s
                    for s in value
                ]
    return out


def _word_keys(text: str) -> list[str]:
    words = (w.strip(_EDGE_PUNCTUATION).casefold() for w in _WORD.findall(text))
    return [w for w in words if w]


def has_shape(entity: BaseModel) -> bool:
    """Whether an entity's reading marks the shape of its rules text anywhere (a nested list, a
    mode, a commentary box): a reading that marks none could come from a text dump."""
    return _marks(entity.model_dump(mode="json", exclude=set(UNSAID)))


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


def same_but_shape(plain: BaseModel, shaped: BaseModel) -> bool:
    """Whether ``plain`` (a reading that marks no shape of its rules text) says what ``shaped``
    says once the shape is left out of both: ``shaped``'s lists flat, its commentary boxes cut
    out of ``plain``'s text wherever it printed them."""
    rich = shaped.model_dump(mode="json", exclude=set(UNSAID))
    data = plain.model_dump(mode="json", exclude=set(UNSAID))
    data = cut_boxes(data, rich.get("commentary"))
    return bool(without_shape(data, commentary=False) == without_shape(rich, commentary=False))
