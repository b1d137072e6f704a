"""The run: discover → reader → after-read chain → merge → write.

``convert`` is the whole run over files and folders; ``read_text`` and ``read_path`` read one
input through its reader and the chain (what ``convert`` does per input). Names load on first
use, so the command line's ``--help`` loads none of the run.
"""

from __future__ import annotations

from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from wahanorm.contract.vocabulary import Edition
    from wahanorm.outputs.diff.sides import Converted
    from wahanorm.pipeline.after_read import Extraction
    from wahanorm.pipeline.run import (
        Conversion,
        Progress,
        assemble,
        convert,
        extract,
        extract_text,
    )

_FROM_RUN = ("Conversion", "Progress", "assemble", "convert", "extract", "extract_text")


def __getattr__(name: str) -> Any:
    if name in _FROM_RUN:
        value = getattr(import_module("wahanorm.pipeline.run"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def read_text(
    text: str, display: str, *, html: bool | None = None, edition: Edition | None = None
) -> Extraction:
    """One input given as a string (``html``: a saved page or other HTML; False: a text dump;
    None: told by a leading tag), through its reader and the chain."""
    from wahanorm.pipeline.run import extract_text

    return extract_text(text, display, html=html, edition=edition)


def read_path(
    path: Path,
    display: str | None = None,
    *,
    edition: Edition | None = None,
    language: str | None = None,
) -> Extraction:
    """One file or folder input (a dump, a page, an export folder, a folder of files read together),
    through its reader and the chain; ``display`` is how sources and diagnostics name it
    (default: the path)."""
    from dataclasses import replace

    from wahanorm.pipeline.discover import source_of
    from wahanorm.pipeline.run import extract

    return extract(replace(source_of(path, display), edition=edition, language=language))


def converted(paths: list[Path]) -> Converted:
    """Raw inputs converted in memory, as a diff or a crosscheck takes a side of them."""
    from wahanorm.outputs.diff.sides import Converted
    from wahanorm.pipeline.run import convert

    conversion = convert(paths, entity_data=True)  # read by the engine without parsing again
    return Converted(
        conversion.files, len(conversion.entities), conversion.errors, conversion.entity_data
    )


__all__ = [
    "Conversion",
    "Progress",
    "assemble",
    "convert",
    "converted",
    "extract",
    "extract_text",
    "read_path",
    "read_text",
]
