"""Comparing a rule's tables (``Rule.tables``, ``DetachmentRule.tables``) row by row.

A table is known by its first row (its caption or header: ``BATTLE SIZE | NUMBER OF UNITS``),
a row by its first cell under the caption row above it (``Aberrants / 5 models``), so a change
names the row a player looks up: ``Table BATTLE SIZE | NUMBER OF UNITS, row Strike Force:
2 | 2 | 1 → 3 | 2 | 1``. Tables whose first row changed are paired in order when as many are
left on both sides; otherwise they are added or removed whole.
"""

from __future__ import annotations

from wahanorm.outputs.diff.result import Change
from wahanorm.outputs.diff.values import Json, prose_change

Table = list[list[str]]


def compare_tables(path: str, label: str, old: Json, new: Json, out: list[Change]) -> None:
    """The tables of a rule: rows changed, added and removed, each named by table and row."""
    a: list[Table] = list(old or [])
    b: list[Table] = list(new or [])
    new_by_key = {_table_key(t): t for t in b}
    left_old = [t for t in a if _table_key(t) not in new_by_key]
    old_keys = {_table_key(t) for t in a}
    left_new = [t for t in b if _table_key(t) not in old_keys]
    pairs = [(t, new_by_key[_table_key(t)]) for t in a if _table_key(t) in new_by_key]
    if len(left_old) == len(left_new):
        pairs += list(zip(left_old, left_new, strict=True))
        left_old, left_new = [], []
    for x, y in pairs:
        _compare_rows(path, x, y, out)
    for op, tables in (("removed", left_old), ("added", left_new)):
        for table in tables:
            key = _table_key(table)
            shown = " / ".join(_row_text(row) for row in table)
            out.append(
                Change(
                    path=f"{path}[{key}]",
                    op=op,
                    label=f"Table {key}",
                    old=shown if op == "removed" else None,
                    new=shown if op == "added" else None,
                    summary=f"Table {key} {op}: {shown}",
                )
            )


def _compare_rows(path: str, old: Table, new: Table, out: list[Change]) -> None:
    table = _table_key(new)
    a, b = _rows_by_key(old), _rows_by_key(new)
    pairs = [(k, k) for k in a if k in b]
    gone, came = [k for k in a if k not in b], [k for k in b if k not in a]
    if len(gone) == len(came):  # a row whose first cell changed is that row changed
        pairs += list(zip(gone, came, strict=True))
        gone, came = [], []
    for old_key, new_key in pairs:
        x, y = a[old_key], b[new_key]
        if x == y:
            continue
        label = f"Table {table}, row {_short(new_key)}"
        where, old_text, new_text = f"{path}[{table}][{new_key}]", _row_text(x), _row_text(y)
        if max(len(old_text), len(new_text)) > LONG_ROW_CHARS:  # a paragraph: what changed in it
            if change := prose_change(where, label, old_text, new_text):
                out.append(change)
            continue
        summary = f"{label}: {old_text} → {new_text}"
        out.append(Change(path=where, op="changed", label=label, old=old_text, new=new_text,
                          summary=summary))  # fmt: skip
    for op, keys, rows in (("removed", gone, a), ("added", came, b)):
        for key in keys:
            label = f"Table {table}, row {_short(key)}"
            shown = _row_text(rows[key])
            out.append(Change(path=f"{path}[{table}][{key}]", op=op, label=label,
                              old=shown if op == "removed" else None,
                              new=shown if op == "added" else None,
                              summary=f"{label} {op}: {shown}"))  # fmt: skip


LONG_ROW_CHARS = 200
"""A changed row longer than this is said as a word diff, not both whole (``old → new``)."""

ROW_NAME_CHARS = 100
"""A row is named in a change by its caption and first cell, each cut to this many characters
(a row whose first cell is a paragraph is named by its first words, not printed twice)."""


def _short(key: str) -> str:
    return " / ".join(
        part if len(part) <= ROW_NAME_CHARS else part[: ROW_NAME_CHARS - 1].rstrip() + "…"
        for part in key.split(" / ")
    )


def _table_key(table: Table) -> str:
    return _row_text(table[0]) if table else "(empty)"


def _row_text(row: list[str]) -> str:
    return " | ".join(row)


def _rows_by_key(table: Table) -> dict[str, list[str]]:
    """Rows after the first, each under its name: its first cell, after the caption row (a
    row of one cell) above it; a name met again gets ``#2``, ``#3`` …"""
    rows: dict[str, list[str]] = {}
    caption = ""
    for row in table[1:]:
        if len(row) == 1:
            caption = row[0]
            key = row[0]
        else:
            key = f"{caption} / {row[0]}" if caption else row[0]
        name, count = key, 1
        while name in rows:
            count += 1
            name = f"{key} #{count}"
        rows[name] = row
    return rows
