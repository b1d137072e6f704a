"""The generic HTML reader on the reader interface: HTML that is no Wahapedia page."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import ClassVar, Literal

from wahanorm.readers.base import HTML_SUFFIXES, ReadContext, Reading, Source


class GenericHtmlReader:
    """Any other HTML, flattened to text (blocks as lines) and read as a text dump."""

    name: ClassVar[str] = "generic-html"
    takes: ClassVar[Literal["file", "folder"]] = "file"
    together: ClassVar[bool] = False

    def wants(self, path: Path, in_folder: bool) -> bool:
        return path.suffix.lower() in HTML_SUFFIXES

    def recognises(self, source: Source) -> bool:
        return source.looks_like_html()

    def read(self, source: Source, context: ReadContext) -> Reading:
        from wahanorm.readers.generic_html.flatten import html_to_text

        text = html_to_text(source.text).encode("utf-8")
        reading = context.read_as("dump", replace(source, data=text, problem=None))
        reading.report.info(
            "generic-html", "not a Wahapedia datasheet page: read as flattened text"
        )
        return reading
