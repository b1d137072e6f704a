"""A short name for each side, from its data: the folder its rules were read from (or its data
version), so that a disagreement reads ``Boy: Movement 6" (wahapedia-10ed-2026-02-14) vs 8"
(wh40k-10e-2026-02-14)``; the header of a report gives each side's data version whole."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import PurePosixPath
from typing import Any

_TIMESTAMP = re.compile(r"(\d{4}-\d{2}-\d{2})[ T]\d{2}:\d{2}(?::\d{2})?")


def source_folder(entities: Iterable[dict[str, Any]]) -> str:
    """The last part of the folder every entity's sources lie in ("" when they share none)."""
    paths = {
        str(ref.get("path", ""))
        for entity in entities
        for ref in entity.get("sources") or []
        if isinstance(ref, dict)
    }  # thousands of sources in a few files: each distinct path made a path once
    folders = {str(PurePosixPath(path).parent) for path in paths}
    if not folders:
        return ""
    try:
        common = os.path.commonpath(sorted(folders))
    except ValueError:  # absolute and relative paths together
        return ""
    return PurePosixPath(common).name if common not in ("", ".", "/") else ""


def version_words(data_version: str | None) -> str:
    """The data's version as it reads in a label: a timestamp (an export's
    ``Last_update.csv``) by its date alone."""
    if not data_version:
        return ""
    return _TIMESTAMP.sub(r"\1", data_version)


def side_label(spec: str, entities: Iterable[dict[str, Any]], data_version: str | None) -> str:
    """The folder the side was read from (``wahapedia-10ed-2026-02-14``); its data version
    where that is not known; the argument itself when neither is."""
    return source_folder(entities) or version_words(data_version) or spec


def distinct(
    a: str,
    b: str,
    versions: tuple[str | None, str | None] = (None, None),
    specs: tuple[str, str] = ("", ""),
) -> tuple[str, str]:
    """Two labels that tell the sides apart: with their data versions when they read alike,
    else the arguments' names, else with ``(A)`` and ``(B)``."""
    if a != b:
        return a, b
    va, vb = (version_words(v) for v in versions)
    if va and vb and va != vb:
        return f"{a}, {va}", f"{b}, {vb}"
    na, nb = (PurePosixPath(spec.rstrip("/")).name for spec in specs)
    if na and nb and na != nb:
        return na, nb
    return f"{a} (A)", f"{b} (B)"
