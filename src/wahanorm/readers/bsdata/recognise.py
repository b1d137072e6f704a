"""Telling a BattleScribe file by its first bytes (no parser loaded): an XML ``catalogue`` or
``gameSystem`` of BattleScribe's schema, its JSON form, or either zipped."""

from __future__ import annotations

import re
from pathlib import Path

SUFFIXES = frozenset({".cat", ".gst", ".catz", ".gstz", ".json"})
"""The endings of BattleScribe files (``.json``: the JSON form, told apart by content)."""
ZIPPED = frozenset({".catz", ".gstz"})
ZIP = b"PK\x03\x04"
JSON_ROOT = re.compile(rb'^\s*\{\s*"(catalogue|gameSystem)"\s*:\s*\{')
_XML_ROOT = re.compile(rb"<(?:[\w.-]+:)?(catalogue|gameSystem)[\s>]")
_BATTLESCRIBE = b"battlescribe.net/schema"
# a DOCTYPE with its internal subset (``[<!ENTITY …>]``) too: such a file is recognised, and
# its reader refuses the entities aloud (``nodes.load_xml``)
_PROLOG = re.compile(
    rb"^(?:\s|<\?[^>]*\?>|<!--.*?-->|<!DOCTYPE[^>\[]*(?:\[[^\]]*\])?\s*>)*", re.DOTALL
)


def is_bsdata(path: Path, head: bytes) -> bool:
    """True when ``head`` (the file's first bytes, a few KiB) opens a BattleScribe file: an XML
    whose root element is ``catalogue`` or ``gameSystem`` of BattleScribe's schema, the JSON
    form (``{"catalogue": {`` / ``{"gameSystem": {``), or a zipped ``.catz``/``.gstz``. The name
    alone decides nothing: a ``.json`` of another shape is not recognised."""
    body = head.removeprefix(b"\xef\xbb\xbf")
    if body.startswith(ZIP):
        return path.suffix.lower() in ZIPPED
    if JSON_ROOT.match(body):
        return True
    prolog = _PROLOG.match(body)
    rest = body[prolog.end() if prolog else 0 :]
    root = _XML_ROOT.match(rest)
    if root is None:
        return False
    start_tag = rest[: rest.find(b">") + 1] if b">" in rest else rest
    return _BATTLESCRIBE in start_tag or path.suffix.lower() in (".cat", ".gst")
