"""Stable ids: slugs built from names, safe as paths, never from positions or run order."""

from __future__ import annotations

import functools
import hashlib
import re
import unicodedata
from collections.abc import Iterable

from anyascii import anyascii

_NON_SLUG = re.compile(r"[^a-z0-9]+")

MAX_SLUG = 100
"""Longest slug: a longer one is cut and ends in a short hash of the whole, so that every file
name fits every common file system and two long names stay two slugs."""

WINDOWS_RESERVED = frozenset(
    ["con", "prn", "aux", "nul"]
    + [f"com{i}" for i in range(1, 10)]
    + [f"lpt{i}" for i in range(1, 10)]
)
"""Names Windows refuses as files (whatever their extension); such a slug gets ``-x``."""

UNSAFE_CHARACTERS = re.compile(
    "[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]"
)
"""Control characters (ESC, BEL, NUL …), bidirectional overrides (U+202E …) and the Unicode line
and paragraph separators (U+2028, U+2029): in a name they would reach a terminal raw (clear the
screen, retitle the window, reverse the text, start a line)."""


def escape_unsafe(text: str) -> str:
    """``text`` with each control character and bidi override written as an escape (``\\x1b``,
    ``\\u202e``), line breaks and tabs kept: safe to print on a terminal."""
    return UNSAFE_CHARACTERS.sub(
        lambda m: m.group() if m.group() in "\t\n" else ascii(m.group())[1:-1], text
    )


def escape_line(text: str) -> str:
    """``text`` as one line that shows what it holds: like ``escape_unsafe``, and a line break
    written as ``\\n`` too (a tab kept). What a terminal shows of a name, a path, an argument."""
    if UNSAFE_CHARACTERS.search(text) is None:
        return text
    return UNSAFE_CHARACTERS.sub(
        lambda m: m.group() if m.group() == "\t" else ascii(m.group())[1:-1], text
    )


def is_safe(text: str) -> bool:
    """Whether ``text`` holds no control character and no bidi override (``strip_unsafe``
    leaves it as it is)."""
    return UNSAFE_CHARACTERS.search(text) is None


def strip_unsafe(text: str) -> str:
    """``text`` without control characters and bidi overrides (a tab or line break becomes a
    space)."""
    return UNSAFE_CHARACTERS.sub(lambda m: " " if m.group() in "\t\n\r" else "", text)


@functools.lru_cache(maxsize=65536)
def slugify(name: str) -> str:
    """``'Iron Hand' Straken`` → ``iron-hand-straken``. Letters of other scripts are
    transliterated (anyascii: ``Боевой Юнит`` → ``boevoy-yunit``); what has no ASCII spelling is
    written by code point. A slug is never empty and never holds ``/``, ``.`` or ``:``; it is
    at most ``MAX_SLUG`` characters (a longer one is cut and ends in 8 hex digits of its hash),
    and never a name Windows reserves (``con`` → ``con-x``)."""
    spelled = name if name.isascii() else ascii_spelling(name)
    slug = _NON_SLUG.sub("-", spelled.lower()).strip("-") or "unnamed"
    if len(slug) > MAX_SLUG:
        digest = hashlib.sha256(slug.encode()).hexdigest()[:8]
        slug = f"{slug[: MAX_SLUG - 9].rstrip('-')}-{digest}"
    if slug in WINDOWS_RESERVED:
        slug += "-x"
    return slug


def ascii_spelling(name: str) -> str:
    """``name`` (NFC) in ASCII, character by character: an ASCII character as it is, another
    as anyascii spells it, one without a spelling by its code point (a letter or digit) or as
    a space. (``slugify`` takes an ASCII name as it is: NFC leaves it unchanged and each of its
    characters is its own spelling; ``tests/test_fast_paths.py`` holds the two equal on every
    name of the real inputs.)"""
    out: list[str] = []
    for ch in unicodedata.normalize("NFC", name):
        if ch.isascii():
            out.append(ch)
            continue
        spelled = anyascii(ch)
        if spelled and not spelled.startswith(":"):
            out.append(spelled)
        elif ch.isalnum():
            out.append(f" u{ord(ch):04x} ")
        else:
            out.append(" ")
    return "".join(out)


_NOTATION_MARKS = re.compile(r"[\[\]()\-\s]+")


def notation_key(name: str) -> str:
    """A name without its notation, as two sources spell one name: letter case, spacing,
    brackets and parentheses (``[LETHAL HITS]``, ``Fear Made Manifest (Aura)`` / ``[Aura]``),
    hyphens (``Anti-`` / ``Anti``, ``TWIN-LINKED`` / ``Twin Linked``) and accents
    (``Trivârg`` / ``Trivärg``) are notation; any other letter, digit or sign is the name
    (``Mark of Khorne!`` is not ``Mark of Khorne``). Names of one key are one name (merge
    keeps the ``plainest``)."""
    bare = "".join(
        ch for ch in unicodedata.normalize("NFKD", name) if not unicodedata.combining(ch)
    )
    return " ".join(_NOTATION_MARKS.sub(" ", bare.casefold()).split())


def plainest(names: Iterable[str]) -> str:
    """Of names that are one name in notation (``notation_key``), the one kept: the fewest
    brackets, parentheses and hyphens at a word's edge, then not all in capitals, then the
    fewest letters outside ASCII, then the first in code point order (``[LETHAL HITS]``,
    ``LETHAL HITS``, ``Lethal Hits`` → ``Lethal Hits``; ``Anti-``, ``Anti`` → ``Anti``)."""
    return min(names, key=_plainness)


def _plainness(name: str) -> tuple[int, bool, int, str]:
    marks = sum(name.count(ch) for ch in "[]()") + sum(
        1 for word in name.split() if word.startswith("-") or word.endswith("-")
    )
    capitals = name.isupper()
    return (marks, capitals, sum(1 for ch in name if not ch.isascii()), name)


def make_id(namespace: str, name: str) -> str:
    """``make_id('World Eaters', 'Bloodthirster')`` → ``world-eaters/bloodthirster``."""
    return f"{slugify(namespace)}/{slugify(name)}"


def is_safe_id(entity_id: str) -> bool:
    """True when the id is ``namespace/name`` of slug characters only."""
    return _SAFE_ID.fullmatch(entity_id) is not None


_SAFE_ID = re.compile(r"[a-z0-9-]+/[a-z0-9-]+")
