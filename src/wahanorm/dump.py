"""Page dumps (text): clean, segment and parse one dump into entities."""

from __future__ import annotations

from wahanorm.extraction import Extraction


def extract_dump(text: str, display: str) -> Extraction:
    """Entities of one text dump. (Being written.)"""
    return Extraction(display)
