"""Reading ``REV:PATH`` from a git repository without a second checkout: ``git ls-tree`` lists
the blobs under PATH at REV, one ``git cat-file --batch`` process reads them all."""

from __future__ import annotations

import subprocess
from pathlib import Path, PurePosixPath

from wahanorm.errors import InputError


def split_spec(spec: str) -> tuple[str, str] | None:
    """``origin/main:out`` → (``origin/main``, ``out``); None when ``spec`` has no colon."""
    rev, colon, path = spec.partition(":")
    return (rev, path) if colon else None


def _git(args: list[str], cwd: Path, stdin: bytes | None = None) -> bytes:
    try:
        done = subprocess.run(
            ["git", *args], cwd=cwd, input=stdin, capture_output=True, check=False
        )
    except FileNotFoundError as exc:
        raise InputError("git is not installed: cannot read REV:PATH") from exc
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise InputError(message[-1] if message else f"git {args[0]} failed")
    return done.stdout


def read_tree(spec: str, cwd: Path) -> dict[str, bytes]:
    """Every file under PATH at REV as ``path relative to PATH → bytes``. PATH is relative to
    the repository's top (as in ``git show REV:PATH``), or to ``cwd`` when it starts with
    ``./``; a PATH naming one file gives that file under its own name."""
    parts = split_spec(spec)
    if parts is None or not parts[0]:
        raise InputError(f"{spec}: not a folder, a file, or REV:PATH")
    rev, path = parts
    top = Path(_git(["rev-parse", "--show-toplevel"], cwd).decode().strip())
    if path.startswith("./") or path == ".":
        prefix = _git(["rev-parse", "--show-prefix"], cwd).decode().strip()
        path = (PurePosixPath(prefix) / path).as_posix() if prefix else path
    path = PurePosixPath(path).as_posix().strip("/") if path not in ("", ".") else ""
    _verify_rev(rev, top)
    listing = _list_blobs(rev, path, top)
    if not listing:
        raise InputError(f"{spec}: '{path}' does not exist at {rev}")
    return _read_blobs(listing, path, top)


def _verify_rev(rev: str, top: Path) -> None:
    try:
        _git(["rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"], top)
    except InputError:
        raise InputError(f"unknown revision '{rev}' (try git fetch, or check the name)") from None


def _list_blobs(rev: str, path: str, top: Path) -> list[tuple[str, str]]:
    """(object id, path) of each regular file under ``path``; links and submodules skipped."""
    args = ["ls-tree", "-r", "-z", "--full-tree", rev]
    out = _git([*args, "--", path] if path else args, top)
    blobs: list[tuple[str, str]] = []
    for record in out.decode("utf-8", "surrogateescape").split("\0"):
        if not record:
            continue
        meta, _, name = record.partition("\t")
        mode, kind, oid = meta.split(" ")
        if unsafe_tree_path(name):
            raise InputError(f"{rev}: the tree holds an unsafe path {name!r}: refused")
        if kind == "blob" and mode in ("100644", "100755"):
            blobs.append((oid, name))
    return blobs


def unsafe_tree_path(name: str) -> bool:
    """True for a tree path that could leave the folder it is written under: absolute, with
    ``..``, ``.`` or empty parts, a backslash or a control character."""
    parts = name.split("/")
    return (
        not name
        or name.startswith("/")
        or "\\" in name
        or any(part in ("", ".", "..") for part in parts)
        or any(ord(c) < 32 for c in name)
    )


def _read_blobs(listing: list[tuple[str, str]], root: str, top: Path) -> dict[str, bytes]:
    stdin = "".join(f"{oid}\n" for oid, _ in listing).encode()
    out = _git(["cat-file", "--batch"], top, stdin)
    files: dict[str, bytes] = {}
    pos = 0
    for _, name in listing:
        header_end = out.index(b"\n", pos)
        size = int(out[pos:header_end].split(b" ")[2])
        body = out[header_end + 1 : header_end + 1 + size]
        pos = header_end + 1 + size + 1  # the blob, then its trailing newline
        files[_relative(name, root)] = body
    return files


def _relative(name: str, root: str) -> str:
    """A blob's path below the PATH asked for; a PATH naming a file keeps its file name."""
    if not root:
        return name
    if name == root:
        return PurePosixPath(name).name
    return PurePosixPath(name).relative_to(root).as_posix()
