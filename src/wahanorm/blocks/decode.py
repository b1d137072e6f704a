"""Bytes of an input → text: UTF-8 with or without BOM, UTF-16 with BOM, CP-1252 line by line
as the fallback (noted); bytes that are no text are refused. And the size limit of one input."""

from __future__ import annotations

import codecs
import os
import stat
from pathlib import Path
from typing import BinaryIO

from wahanorm.errors import InputError

MAX_INPUT_BYTES = 64 * 1024 * 1024
"""Inputs larger than this are refused with a diagnostic (documented in the README); so is
each table of an export, and each file read whole anywhere else."""


def read_bounded(
    path: Path, display: str, limit: int | None = None, *, links: bool = True
) -> bytes:
    """The bytes of the regular file at ``path``, never more than ``limit`` of them: its size is
    checked before it is read, and a file that grows past the limit while it is read is refused
    too (a sparse file says its full size). ``links=False`` refuses a symbolic link without
    opening what it names. ``limit`` is ``MAX_INPUT_BYTES`` unless given. Raises ``InputError`` (on ``display``) for a link refused, what is
    not a regular file (a folder, a pipe, a device: never opened for reading, so never waited
    on), a file over the limit, and a file that cannot be read."""
    if limit is None:
        limit = MAX_INPUT_BYTES
    try:
        if not links and path.is_symlink():
            raise InputError("is a symbolic link: not followed, not read", path=display)
        flags = os.O_RDONLY | os.O_NONBLOCK | (0 if links else os.O_NOFOLLOW)
        fd = os.open(path, flags)
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", path=display) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise InputError("not a regular file: not read", path=display)
        if info.st_size > limit:
            raise InputError(
                f"file is {info.st_size} bytes, over the {limit} byte limit for one input",
                path=display,
            )
        with os.fdopen(fd, "rb", buffering=0) as handle:
            fd = -1  # closed with the handle
            # One byte past what the size said tells a file that grew since.
            data = _read_up_to(handle, info.st_size + 1)
            if len(data) > info.st_size:
                data += _read_up_to(handle, limit + 1 - len(data))
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", path=display) from None
    finally:
        if fd >= 0:
            os.close(fd)
    if len(data) > limit:
        raise InputError(
            f"file grew past the {limit} byte limit for one input while it was read",
            path=display,
        )
    return data


def _read_up_to(handle: BinaryIO, size: int) -> bytes:
    """At most ``size`` bytes from an unbuffered file, fewer only at its end."""
    read = handle.read
    parts: list[bytes] = []
    left = size
    while left > 0:
        chunk = read(min(left, 1 << 24))
        if not chunk:
            break
        parts.append(chunk)
        left -= len(chunk)
    return parts[0] if len(parts) == 1 else b"".join(parts)


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
