"""Finding inputs: files, folders, standard input.

Only this module and ``readers.base.Source`` read input files. A folder is walked in name order (symlinked folders are not
followed, so a link loop cannot trap the walk); a folder a reader takes whole (an export)
is one input. Files a reader reads together (``Reader.together``: files that link to each
other) are one input per folder they lie in, and one for all those named on the command line
(``Source.members``, in the place of the first).
"""

from __future__ import annotations

import os
import sys
from dataclasses import replace
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
    return _grouped(items), skipped, missing


def source_of(path: Path, display: str | None = None) -> Source:
    """One file or folder as one input, as ``discover`` would find it: a folder a reader takes
    whole, the one input a folder's files make (the files a reader reads together), or the
    file itself; ``display`` names it (its files are shown under it)."""
    shown = display or display_path(path)
    if path.is_dir() and registry.folder_reader(path) is None:
        items, _, _ = discover([path])
        if len(items) == 1:
            found = items[0]
            members = tuple(replace(m, display=_under(shown, path, m.path)) for m in found.members)
            if members:
                return replace(found, display=shown, members=members)
            return replace(found, display=_under(shown, path, found.path))
    return Source(path, shown)


def _under(shown: str, root: Path, path: Path) -> str:
    return f"{shown}/{path.relative_to(root).as_posix()}"


def _grouped(items: list[Source]) -> list[Source]:
    """``items`` with the files a reader reads together gathered into one input per folder
    (and one for those named on the command line)."""
    groups: dict[tuple[str, str], list[Source]] = {}
    order: list[Source | tuple[str, str]] = []
    for item in items:
        reader = registry.together_reader(item)
        if reader is None:
            order.append(item)
            continue
        key = (reader.name, item.path.parent.as_posix() if item.in_folder else "")
        if key not in groups:
            groups[key] = []
            order.append(key)
        groups[key].append(item)
    return [_group(groups[entry]) if isinstance(entry, tuple) else entry for entry in order]


def _group(members: list[Source]) -> Source:
    """One input of the files ``members``: one file stays itself; files found in one folder are
    shown as that folder, files named together by their names."""
    if len(members) == 1:
        return members[0]
    parent = Path(os.path.commonpath([os.path.abspath(m.path) for m in members]))
    if members[0].in_folder:
        shown = display_path(members[0].path.parent)
    else:
        shown = ", ".join(m.display for m in members)
    return Source(parent, shown, in_folder=members[0].in_folder, members=tuple(members))


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
                skipped.append((display_path(path), _unknown_format(path)))
            elif not path.is_file():
                skipped.append((display_path(path), "not a regular file"))
            elif not _recognised(source := Source(path, display_path(path), in_folder=True)):
                skipped.append((source.display, _unknown_format(path)))
            else:
                items.append(source)


def _recognised(source: Source) -> bool:
    """False for a file in a folder that only readers of files together want by its name
    (a ``.json``) and none of them recognises by its first bytes: no input, skipped."""
    return not registry.wanted_only_together(source.path) or (
        registry.together_reader(source) is not None
    )


def _unknown_format(path: Path) -> str:
    """Why a file of a folder is skipped: no reader knows its kind of file."""
    kind = f"a {path.suffix} file" if path.suffix else "a file without an extension"
    return f"not a known input format ({kind})"
