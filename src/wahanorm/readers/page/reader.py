"""The saved-page reader on the reader interface (lxml loads on the first read)."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar, Literal

from wahanorm.readers.base import HTML_SUFFIXES, ReadContext, Reading, Source

PAGE_MARKS = ("dsOuterFrame", "page_header_span")
"""What a saved Wahapedia page holds (a datasheet frame; a faction page's header)."""


class PageReader:
    """A saved Wahapedia datasheet page or faction overview page, read through its DOM; any
    other HTML it hands to the generic HTML reader."""

    name: ClassVar[str] = "page"
    takes: ClassVar[Literal["file", "folder"]] = "file"
    together: ClassVar[bool] = False

    def wants(self, path: Path, in_folder: bool) -> bool:
        return path.suffix.lower() in HTML_SUFFIXES

    def recognises(self, source: Source) -> bool:
        return source.looks_like_html() and any(mark in source.text for mark in PAGE_MARKS)

    def read(self, source: Source, context: ReadContext) -> Reading:
        from wahanorm.readers.page.read import read_page

        reading = read_page(source.text, source.display)
        return reading if reading is not None else context.read_as("generic-html", source)
