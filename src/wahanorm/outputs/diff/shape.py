"""The shape of rules text in a diff: modes, commentary, sections and their lists, compared
as a player reads them, and the layout of a text never mistaken for a change of its rules.

- **An output written before the shape** (contract version 2: a rule or stratagem without
  ``modes``) against one written after it: ``level`` takes the shape out of both sides (the
  lists' indentation, a cost in brackets ``- Into the Fray [+1CP]:`` read as the old ``+1CP`` /
  ``- Into the Fray:``, the new fields) and counts a commentary box that was part of the old
  text as moved, not removed and added. What is left are the rules' own changes.
- **Both written with the shape**: modes compared by name (``Into the Fray: +1CP → +2CP``),
  commentary by title, sections by label; a list whose words stay but whose nesting changed is
  one ``list layout changed``.
- **One edit, one line**: the flat texts repeat what modes, commentary and sections hold
  (``effect`` holds the EFFECT section, a rule's ``text`` all its sections). A change of a flat
  text whose changed words are all changed words of a mode, a commentary box or a section of
  the same entity follows from that change and is dropped (``drop_implied``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

from wahanorm.contract.hashing import cut_boxes, flat_text
from wahanorm.outputs.diff.generic import compare_list
from wahanorm.outputs.diff.result import Change
from wahanorm.outputs.diff.values import Json, show, value_change
from wahanorm.outputs.diff.words import words_of

Entity = dict[str, Any]

SHAPED_KINDS = frozenset({"rule", "stratagem"})
SHAPE_FIELDS = ("blocks", "modes", "commentary")
"""Fields of a rule's or stratagem's shape (version 3); a stratagem's ``sections`` too."""
TEXT_FIELDS = ("text", "when", "target", "effect", "restrictions")
"""The flat text fields of rules and stratagems."""
LAYOUT = "list layout changed"

_EDGE_PUNCTUATION = "[](){}:;,.!?\"'*-–"

TIERS: dict[str, tuple[tuple[str, ...], ...]] = {
    "stratagem": (("modes", "commentary"), ("when", "target", "effect", "restrictions"),
                  ("sections",)),
    "rule": (("modes", "commentary"), ("sections",), ("text", "blocks")),
}  # fmt: skip
"""Which fields hold what the later ones repeat: a change is implied by the fields of the
tiers before its own."""


# --- versions 2 and 3 -------------------------------------------------------------------------


def lacks_shape(entity: Json) -> bool:
    """A rule or stratagem written before the shape of rules text (no ``modes`` field)."""
    return isinstance(entity, dict) and entity.get("kind") in SHAPED_KINDS and "modes" not in entity


def level(old: Entity, new: Entity) -> tuple[Entity, Entity]:
    """``old`` and ``new`` as comparable: when one side was written before the shape, both
    without it (a commentary box the old text held cut out of it, as the new side has it apart:
    ``hashing.cut_boxes``); else as they are."""
    if not (lacks_shape(old) or lacks_shape(new)):
        return old, new
    if lacks_shape(old) and not lacks_shape(new):
        old = cut_boxes(old, new.get("commentary"))
    elif lacks_shape(new) and not lacks_shape(old):
        new = cut_boxes(new, old.get("commentary"))
    return without_shape(old), without_shape(new)


def without_shape(entity: Entity) -> Entity:
    """An entity without the shape of its rules text: the fields of version 3 left out, the
    texts flat (``flat_text``); its variants alike."""
    out = {k: v for k, v in entity.items() if k not in SHAPE_FIELDS}
    if out.get("kind") == "stratagem":
        out.pop("sections", None)
    for key in TEXT_FIELDS:
        if isinstance(out.get(key), str):
            out[key] = flat_text(out[key])
    sections = out.get("sections")
    if isinstance(sections, list):
        out["sections"] = [
            {**{k: v for k, v in s.items() if k != "blocks"}, "text": flat_text(str(s["text"]))}
            if isinstance(s, dict) and isinstance(s.get("text"), str)
            else s
            for s in sections
        ]
    variants = out.get("variants")
    if isinstance(variants, list):
        out["variants"] = [without_shape(v) if isinstance(v, dict) else v for v in variants]
    return out


def _keys(text: str) -> list[str]:
    words = (w.strip(_EDGE_PUNCTUATION).casefold() for w in words_of(text))
    return [w for w in words if w]


# --- comparing the shape ----------------------------------------------------------------------


def compare_modes(path: str, label: str, old: Json, new: Json, out: list[Change]) -> None:
    """Modes by name: added, removed, and what changed in each (``Into the Fray: +1CP →
    +2CP``; its text and items word by word)."""
    _compare_named(path, "Mode", "name", old, new, out, _mode_changes)


def compare_commentary(path: str, label: str, old: Json, new: Json, out: list[Change]) -> None:
    """Commentary boxes by title: added, removed, their text word by word."""
    _compare_named(path, "Commentary", "title", old, new, out, _commentary_changes)


def compare_sections(path: str, label: str, old: Json, new: Json, out: list[Change]) -> None:
    """Sections by label (a label printed twice by its place among them): added, removed,
    their text word by word, a list whose nesting alone changed."""
    a, b = _keyed(old, "label"), _keyed(new, "label")
    for key in [*a, *(k for k in b if k not in a)]:
        x, y = a.get(key), b.get(key)
        where = f"{path}[{key}]"
        if x is None or y is None:
            shown = str((x or y or {}).get("text") or "")
            op = "added" if x is None else "removed"
            out.append(_membership(where, op, f"Section {key}", f"{key}: {shown}".rstrip(": ")))
            continue
        change = value_change(f"{where}.text", key, x.get("text"), y.get("text"))
        if change:
            out.append(change)
        else:
            compare_blocks(f"{where}.blocks", key, x.get("blocks"), y.get("blocks"), out)


def compare_blocks(path: str, label: str, old: Json, new: Json, out: list[Change]) -> None:
    """Paragraphs and lists: their words are the text's (compared there); a list whose
    nesting alone changed is said once. Nothing to say against a side that has no blocks (a
    source that cannot mark them)."""
    if not old or not new or old == new or _skeleton(old) == _skeleton(new):
        return  # the same nesting: what its words say is the text's to compare
    if _keys(" ".join(_strings(old))) == _keys(" ".join(_strings(new))):
        out.append(Change(path=path, op="changed", label=label, summary=f"{label}: {LAYOUT}"))


def _skeleton(value: Json) -> Json:
    """The nesting of paragraphs and lists without their words: how many items each list has,
    at every level, and which are labelled or priced."""
    if isinstance(value, list):
        return [_skeleton(x) for x in value]
    if isinstance(value, dict):
        return (
            bool(value.get("text")),
            bool(value.get("label")),
            value.get("cost"),
            value.get("ordered"),
            _skeleton(value.get("items") or []),
        )
    return None


def _compare_named(
    path: str,
    what: str,
    key: str,
    old: Json,
    new: Json,
    out: list[Change],
    inner: Any,
) -> None:
    a, b = _keyed(old, key), _keyed(new, key)
    for name in [*a, *(k for k in b if k not in a)]:
        x, y = a.get(name), b.get(name)
        where = f"{path}[{name}]"
        if x is None:
            out.append(_membership(where, "added", what, _title(y, key)))
        elif y is None:
            out.append(_membership(where, "removed", what, _title(x, key)))
        else:
            inner(where, name, x, y, out)


def _mode_changes(path: str, name: str, old: Entity, new: Entity, out: list[Change]) -> None:
    if old.get("cost") != new.get("cost"):
        out.append(
            Change(
                path=f"{path}.cost",
                op="changed",
                label=name,
                old=show(old.get("cost")),
                new=show(new.get("cost")),
                summary=f"{name}: {show(old.get('cost'))} → {show(new.get('cost'))}",
            )
        )
    elif old.get("extra_cp") != new.get("extra_cp"):
        change = value_change(f"{path}.extra_cp", f"{name}: extra CP", old.get("extra_cp"),
                              new.get("extra_cp"), " ")  # fmt: skip
        if change:
            out.append(change)
    for field in ("section", "text"):
        change = value_change(f"{path}.{field}", f"{name} {field}" if field == "section" else
                              name, old.get(field), new.get(field))  # fmt: skip
        if change:
            out.append(change)
    old_items, new_items = _item_lines(old.get("items")), _item_lines(new.get("items"))
    compare_list(f"{path}.items", name, old_items, new_items, out)


def _commentary_changes(path: str, title: str, old: Entity, new: Entity, out: list[Change]) -> None:
    change = value_change(f"{path}.text", f"Commentary {title}", old.get("text"), new.get("text"))
    if change:
        out.append(change)


def _title(value: Json, key: str) -> str:
    if key == "name" and isinstance(value, dict):
        name = str(value.get("name"))
        return f"{name} [{value['cost']}]" if value.get("cost") else name
    return str((value or {}).get(key) or "(untitled)")


def _membership(path: str, op: str, what: str, shown: str) -> Change:
    return Change(
        path=path,
        op="added" if op == "added" else "removed",
        label=what,
        old=shown if op == "removed" else None,
        new=shown if op == "added" else None,
        summary=f"{what} {op}: {shown}",
    )


def _keyed(items: Json, key: str) -> dict[str, Entity]:
    """List items by a field (``name``, ``title``, ``label``); a value seen again keyed with
    its count (``EFFECT #2``)."""
    found: dict[str, Entity] = {}
    seen: Counter[str] = Counter()
    for item in items or []:
        if not isinstance(item, dict):
            continue
        name = str(item.get(key) or "(untitled)")
        seen[name] += 1
        found[name if seen[name] == 1 else f"{name} #{seen[name]}"] = item
    return found


def _item_lines(items: Json, depth: int = 0) -> list[str]:
    """Items as the lines of their text (``- text``, sub-items further in): one per item, so
    an edited item reads as one word diff."""
    out: list[str] = []
    for item in items or []:
        if not isinstance(item, dict):
            continue
        head = " ".join(x for x in (item.get("label"), item.get("cost") and f"[{item['cost']}]")
                        if x)  # fmt: skip
        text = str(item.get("text") or "")
        out.append("  " * depth + "- " + (f"{head}: {text}".rstrip() if head else text))
        out += _item_lines(item.get("items"), depth + 1)
    return out


# --- one edit, one line -----------------------------------------------------------------------


def drop_implied(kind: Json, old: Entity, new: Entity, changes: list[Change]) -> list[Change]:
    """``changes`` without those of flat texts that follow from a change of a mode, a
    commentary box or a section (``TIERS``)."""
    tiers = TIERS.get(str(kind))
    if not tiers or not any(_top(ch.path) in tiers[0] + tiers[1] for ch in changes):
        return changes
    rank = {field: n for n, fields in enumerate(tiers) for field in fields}
    pools: list[tuple[Counter[str], Counter[str]]] = []
    for fields in tiers:
        gone: Counter[str] = Counter()
        came: Counter[str] = Counter()
        for field in fields:
            before = Counter(_keys(" ".join(_strings(old.get(field)))))
            after = Counter(_keys(" ".join(_strings(new.get(field)))))
            gone += before - after
            came += after - before
        pools.append((gone, came))
    kept: list[Change] = []
    for ch in changes:
        tier = rank.get(_top(ch.path), 0)
        if tier and not ch.summary.endswith(LAYOUT) and _covered(ch, pools[:tier]):
            continue
        kept.append(ch)
    return kept


def _covered(ch: Change, pools: list[tuple[Counter[str], Counter[str]]]) -> bool:
    before, after = Counter(_keys(ch.old or "")), Counter(_keys(ch.new or ""))
    gone, came = before - after, after - before
    if not gone and not came:
        return False
    all_gone: Counter[str] = Counter()
    all_came: Counter[str] = Counter()
    for g, c in pools:
        all_gone += g
        all_came += c
    return not (gone - all_gone) and not (came - all_came)


def _top(path: str) -> str:
    return path.split(".", 1)[0].split("[", 1)[0]


def _strings(value: Json) -> Iterator[str]:
    """Every text inside a value (a mode's name, cost, text and items …), in order."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)
    elif isinstance(value, dict):
        for key in sorted(value):
            yield from _strings(value[key])
