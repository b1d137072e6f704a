"""Word-level diffs of prose (difflib over whitespace-separated words)."""

from __future__ import annotations

import difflib
import re

from wahanorm.outputs.diff.result import WordOp

_WORD = re.compile(r"\S+")

CONTEXT_WORDS = 4
"""Words of unchanged text kept on each side of a change in a short view."""


def words_of(text: str) -> list[str]:
    """The words of ``text``; whitespace alone never makes a difference."""
    return _WORD.findall(text)


def _keys(words: list[str]) -> list[str]:
    """Words as compared: the exports print the same keyword as ``ADEPTA SORORITAS`` in one
    release and ``Adepta Sororitas`` in the next, which changes no rule."""
    return [w.casefold() for w in words]


def same_words(old: str, new: str) -> bool:
    """True when two texts differ only in spacing or letter case."""
    return _keys(words_of(old)) == _keys(words_of(new))


def word_diff(old: str, new: str) -> list[WordOp]:
    """``old`` → ``new`` as runs of kept, deleted and inserted words; kept words are shown as
    NEW spells them, since letter case alone is no change."""
    a, b = words_of(old), words_of(new)
    ops: list[WordOp] = []
    matcher = difflib.SequenceMatcher(None, _keys(a), _keys(b), autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            ops.append(WordOp(op="equal", text=" ".join(b[j1:j2])))
            continue
        if i2 > i1:
            ops.append(WordOp(op="delete", text=" ".join(a[i1:i2])))
        if j2 > j1:
            ops.append(WordOp(op="insert", text=" ".join(b[j1:j2])))
    return ops


def elide(ops: list[WordOp], context: int = CONTEXT_WORDS) -> list[WordOp]:
    """The same diff with long unchanged runs cut to ``context`` words around each change
    (an ``equal`` op of ``…`` marks a cut), for a one-line view."""
    out: list[WordOp] = []
    last = len(ops) - 1
    for i, op in enumerate(ops):
        if op.op != "equal":
            out.append(op)
            continue
        words = op.text.split(" ")
        keep_head = context if i > 0 else 0
        keep_tail = context if i < last else 0
        if len(words) <= keep_head + keep_tail + 1:
            out.append(op)
            continue
        parts = [*words[:keep_head], "…", *(words[len(words) - keep_tail :] if keep_tail else [])]
        out.append(WordOp(op="equal", text=" ".join(parts)))
    return out


def similarity(old: str, new: str) -> float:
    """How alike two texts are by their words, 0.0 to 1.0."""
    a, b = _keys(words_of(old)), _keys(words_of(new))
    return difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()
