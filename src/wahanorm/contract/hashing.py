"""The content hash of an entity: what it says, its sources and variants left out.

Two copies of one rule read from two inputs hash the same; ``index.json`` lists each entity's
hash, and merge groups copies by it.
"""

from __future__ import annotations

import hashlib
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
