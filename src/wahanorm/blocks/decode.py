"""Bytes of an input → text: UTF-8 with or without BOM, UTF-16 with BOM, CP-1252 line by line
as the fallback (noted); bytes that are no text are refused. And the size limit of one input."""

from __future__ import annotations

import codecs

from wahanorm.errors import InputError

MAX_INPUT_BYTES = 64 * 1024 * 1024
"""Inputs larger than this are refused with a diagnostic (documented in the README)."""


def decode(data: bytes, display: str) -> tuple[str, list[str]]:
    """Text of an input and notes on how it was decoded: UTF-8 with or without BOM, UTF-16 with
    BOM; bytes that are not text raise ``InputError``; CP-1252 is the fallback, noted."""
    notes: list[str] = []
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8) :]
    elif data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            return data.decode("utf-16"), notes
        except UnicodeDecodeError as exc:
            raise InputError(f"bad UTF-16: {exc.reason}", path=display) from None
    if b"\x00" in data[:65536]:
        raise InputError("binary file (NUL bytes): not a rules text", path=display)
    try:
        return data.decode("utf-8"), notes
    except UnicodeDecodeError as exc:
        first_bad = data[: exc.start].count(b"\n") + 1
    # Not UTF-8 as a whole: decode line by line, so a file with a few CP-1252 lines pasted into
    # UTF-8 text keeps both right. CP-1252 leaves five bytes undefined; Latin-1 takes those.
    lines = data.split(b"\n")
    decoded: list[str] = []
    fallback = 0
    for raw in lines:
        try:
            decoded.append(raw.decode("utf-8"))
        except UnicodeDecodeError:
            fallback += 1
            try:
                decoded.append(raw.decode("cp1252"))
            except UnicodeDecodeError:
                decoded.append(raw.decode("latin-1"))
    notes.append(
        f"not UTF-8 (first at line {first_bad}): {fallback} of {len(lines)} lines read as CP-1252"
    )
    return "\n".join(decoded), notes
