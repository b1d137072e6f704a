"""Finding inputs: files, folders, standard input.

Only this module and ``readers.base.Source`` read input files. A folder is walked in name order (symlinked folders are not
followed, so a link loop cannot trap the walk); a folder a reader takes whole (an export)
is one input.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import BinaryIO

from wahanorm.blocks import decode as decoding
from wahanorm.readers import registry
from wahanorm.readers.base import Source

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


def discover(
    paths: list[Path],
) -> tuple[list[Source], list[tuple[str, str]], list[str]]:
    """Every input below ``paths`` in a stable order, (path, reason) for what was skipped in
    folders, and the named inputs that do not exist. Which folder is one input (an export) and
    which files may be inputs, the readers' registry says."""
    items: list[Source] = []
    skipped: list[tuple[str, str]] = []
    missing: list[str] = []
    for root in paths:
        if root == STDIN:
            items.append(_once(sys.stdin.buffer, root, STDIN_DISPLAY))
        elif registry.folder_reader(root) is not None:
            items.append(Source(root, display_path(root)))
        elif root.is_dir():
            _walk(root, items, skipped)
        elif root.exists() and not root.is_file():
            items.append(_special(root))
        elif root.exists():
            items.append(Source(root, display_path(root)))
        else:
            missing.append(root.as_posix())
    return items, skipped, missing


def _special(path: Path) -> Source:
    """A named input that is no regular file (a pipe, a device, ``/dev/stdin``): read once,
    now, up to the size limit."""
    display = display_path(path)
    try:
        with path.open("rb") as handle:
            return _once(handle, path, display)
    except OSError as exc:
        return Source(path, display, problem=f"cannot read: {exc.strerror or exc}")


def _once(handle: BinaryIO, path: Path, display: str) -> Source:
    """An input read whole from ``handle`` (at most ``MAX_INPUT_BYTES``; past it, refused
    without reading on)."""
    try:
        data = handle.read(decoding.MAX_INPUT_BYTES + 1)
    except OSError as exc:
        return Source(path, display, problem=f"cannot read: {exc.strerror or exc}")
    if len(data) > decoding.MAX_INPUT_BYTES:
        return Source(
            path,
            display,
            problem=f"more than {decoding.MAX_INPUT_BYTES} bytes, the limit for one input: not read on",
        )
    return Source(path, display, data=data)


def _walk(root: Path, items: list[Source], skipped: list[tuple[str, str]]) -> None:
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        here = Path(dirpath)
        kept = []
        for name in sorted(dirnames):
            sub = here / name
            if name.startswith("."):
                continue
            if registry.folder_reader(sub) is not None:
                items.append(Source(sub, display_path(sub), in_folder=True))
            else:
                kept.append(name)
        dirnames[:] = kept
        for name in sorted(filenames):
            path = here / name
            if name.startswith("."):
                continue
            if not registry.wants_file(path, in_folder=True):
                skipped.append((display_path(path), f"not a known input format ({path.suffix})"))
            elif not path.is_file():
                skipped.append((display_path(path), "not a regular file"))
            else:
                items.append(Source(path, display_path(path), in_folder=True))
