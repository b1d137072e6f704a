"""Stable ids: slugs built from names, safe as paths, never from positions or run order."""

from __future__ import annotations

import functools
import re
import unicodedata

from anyascii import anyascii

_NON_SLUG = re.compile(r"[^a-z0-9]+")


@functools.lru_cache(maxsize=65536)
def slugify(name: str) -> str:
    """``'Iron Hand' Straken`` → ``iron-hand-straken``. Letters of other scripts are
    transliterated (anyascii: ``Боевой Юнит`` → ``boevoy-yunit``); what has no ASCII spelling is
    written by code point. A slug is never empty and never holds ``/``, ``.`` or ``:``."""
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
    slug = _NON_SLUG.sub("-", "".join(out).lower()).strip("-")
    return slug or "unnamed"


def make_id(namespace: str, name: str) -> str:
    """``make_id('World Eaters', 'Bloodthirster')`` → ``world-eaters/bloodthirster``."""
    return f"{slugify(namespace)}/{slugify(name)}"


def is_safe_id(entity_id: str) -> bool:
    """True when the id is ``namespace/name`` of slug characters only."""
    return re.fullmatch(r"[a-z0-9-]+/[a-z0-9-]+", entity_id) is not None
