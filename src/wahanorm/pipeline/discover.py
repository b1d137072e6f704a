"""Finding inputs, telling their format, and decoding their bytes.

Only this module reads input files. A folder is walked in name order (symlinked folders are not
followed, so a link loop cannot trap the walk); a folder that holds ``Datasheets.csv`` or
``Stratagems.csv`` is one input, a Wahapedia export.
"""

from __future__ import annotations

import codecs
import os
import stat
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Literal

from wahanorm.errors import InputError

Format = Literal["dump", "html", "export"]

MAX_INPUT_BYTES = 64 * 1024 * 1024
"""Inputs larger than this are refused with a diagnostic (documented in the README)."""

TEXT_SUFFIXES = frozenset({".txt", ".text", ".md", ""})
FOLDER_TEXT_SUFFIXES = frozenset({".txt", ".text"})
"""A folder's text files read as dumps: its ``README.md`` or ``LICENSE`` are no rules text (a
file named on the command line is read whatever its ending)."""
HTML_SUFFIXES = frozenset({".html", ".htm", ".xhtml"})
EXPORT_MARKERS = ("Datasheets.csv", "Stratagems.csv")


@dataclass(frozen=True)
class InputItem:
    """One input: its path on disk, the path shown in output and diagnostics, its format."""

    path: Path
    display: str
    format: Format
    edition: int | None = None
    """The edition the user said it is (``--edition``), for input that does not tell its own."""
    data: bytes | None = None
    """The bytes of an input that can be read only once (standard input, a pipe, a device),
    read when it was found."""
    problem: str | None = None
    """Why such an input could not be read (too large, unreadable): an error diagnostic."""


STDIN = Path("-")
"""The input name that reads standard input."""
STDIN_DISPLAY = "<stdin>"
"""How standard input is named in sources and diagnostics."""


def display_path(path: Path) -> str:
    """The path as written in sources and diagnostics: relative to the working folder when it is
    inside it, POSIX separators, so outputs do not depend on where the repo is checked out."""
    # abspath, not resolve: symlinks are not followed (a link loop must not raise here).
    absolute = Path(os.path.abspath(path))
    try:
        shown = absolute.relative_to(Path(os.path.abspath(Path.cwd()))).as_posix()
    except ValueError:
        shown = path.as_posix()
    return printable_name(shown)


def printable_name(name: str) -> str:
    """A file name as text that JSON and a terminal can hold: bytes of a name that are not UTF-8
    (Python keeps them as lone surrogates) are written ``\\xff``."""
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def name_is_utf8(path: Path) -> bool:
    """False when the file's name holds bytes that are not UTF-8 (shown escaped)."""
    return printable_name(str(path)) == str(path)


def is_export_dir(path: Path) -> bool:
    """True when ``path`` is a folder holding a Wahapedia CSV export."""
    return path.is_dir() and any((path / name).is_file() for name in EXPORT_MARKERS)


def format_of(path: Path, in_folder: bool = False) -> Format | None:
    """The format a file's name promises, or None for a file that is not an input (in a folder,
    only ``.txt``/``.text`` files are text inputs)."""
    suffix = path.suffix.lower()
    if suffix in HTML_SUFFIXES:
        return "html"
    if suffix in (FOLDER_TEXT_SUFFIXES if in_folder else TEXT_SUFFIXES):
        return "dump"
    return None


def discover(
    paths: list[Path],
) -> tuple[list[InputItem], list[tuple[str, str]], list[str]]:
    """Every input below ``paths`` in a stable order, (path, reason) for what was skipped in
    folders, and the named inputs that do not exist."""
    items: list[InputItem] = []
    skipped: list[tuple[str, str]] = []
    missing: list[str] = []
    for root in paths:
        if root == STDIN:
            items.append(_once(sys.stdin.buffer, root, STDIN_DISPLAY))
        elif is_export_dir(root):
            items.append(InputItem(root, display_path(root), "export"))
        elif root.is_dir():
            _walk(root, items, skipped)
        elif root.exists() and not root.is_file():
            items.append(_special(root))
        elif root.exists():
            fmt = format_of(root) or "dump"
            items.append(InputItem(root, display_path(root), fmt))
        else:
            missing.append(root.as_posix())
    return items, skipped, missing


def _special(path: Path) -> InputItem:
    """A named input that is no regular file (a pipe, a device, ``/dev/stdin``): read once,
    now, up to the size limit."""
    display = display_path(path)
    try:
        with path.open("rb") as handle:
            return _once(handle, path, display)
    except OSError as exc:
        return InputItem(path, display, "dump", problem=f"cannot read: {exc.strerror or exc}")


def _once(handle: BinaryIO, path: Path, display: str) -> InputItem:
    """An input read whole from ``handle`` (at most ``MAX_INPUT_BYTES``; past it, refused
    without reading on), its format told by its first bytes."""
    try:
        data = handle.read(MAX_INPUT_BYTES + 1)
    except OSError as exc:
        return InputItem(path, display, "dump", problem=f"cannot read: {exc.strerror or exc}")
    if len(data) > MAX_INPUT_BYTES:
        return InputItem(
            path,
            display,
            "dump",
            problem=f"more than {MAX_INPUT_BYTES} bytes, the limit for one input: not read on",
        )
    return InputItem(path, display, sniff_format(data), data=data)


def sniff_format(data: bytes) -> Format:
    """The format of an input without a file name, by its first bytes: HTML opens with a tag."""
    head = data[:512].lstrip(codecs.BOM_UTF8 + b" \t\r\n").lower()
    return "html" if head.startswith((b"<!doctype html", b"<html", b"<")) else "dump"


def _walk(root: Path, items: list[InputItem], skipped: list[tuple[str, str]]) -> None:
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        here = Path(dirpath)
        kept = []
        for name in sorted(dirnames):
            sub = here / name
            if name.startswith("."):
                continue
            if is_export_dir(sub):
                items.append(InputItem(sub, display_path(sub), "export"))
            else:
                kept.append(name)
        dirnames[:] = kept
        for name in sorted(filenames):
            path = here / name
            if name.startswith("."):
                continue
            fmt = format_of(path, in_folder=True)
            if fmt is None:
                skipped.append((display_path(path), f"not a known input format ({path.suffix})"))
            elif not path.is_file():
                skipped.append((display_path(path), "not a regular file"))
            else:
                items.append(InputItem(path, display_path(path), fmt))


def read_bytes(item: InputItem) -> bytes:
    """The bytes of a file input, refusing what is too large to be a rules text."""
    if item.problem is not None:
        raise InputError(item.problem, path=item.display)
    if item.data is not None:
        return item.data
    try:
        if not stat.S_ISREG(item.path.stat().st_mode):  # changed since it was found
            raise InputError("not a regular file any more", path=item.display)
        size = item.path.stat().st_size
        if size > MAX_INPUT_BYTES:
            raise InputError(
                f"file is {size} bytes, over the {MAX_INPUT_BYTES} byte limit for one input",
                path=item.display,
            )
        return item.path.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", path=item.display) from None


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
