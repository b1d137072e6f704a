"""The one writer of ``out/``: whose the folder is, one writer at a time, whole runs (see
"What convert may delete" in the README), and the shared lock its readers hold.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import shutil
import signal
import stat
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path

import orjson

from wahanorm import __version__
from wahanorm.contract.layout import INDEX_NAME, entity_relpath, unsafe_relpath
from wahanorm.errors import OutputError

# --- The output folder: whose it is, one writer, whole runs -------------------------------
#
# A run stages its changed files in ``out/.wahanorm-staging/``, then writes the journal
# ``out/.wahanorm-journal.json`` (what to move where, what to remove): from that moment the run
# is decided, and whoever holds the lock next finishes it. Before the journal, the old tree is
# untouched and the next run throws the staging away. wahanorm's own readers (``--check``,
# ``diff``) take the lock shared and refuse a folder whose journal is not done.

STAGING = ".wahanorm-staging"
JOURNAL = ".wahanorm-journal.json"
LOCK_WAIT = 10.0
"""Seconds a second writer waits for the first before it gives up (``WAHANORM_LOCK_WAIT``)."""

_OLD_TEMP = re.compile(r"\..+\.json\.\d+\.tmp")  # what the writer before the journal left


def _is_wahanorm_json(path: Path) -> bool:
    """True when ``path`` is a regular file of JSON that names wahanorm as its generator and
    carries a schema version (an ``index.json`` or a journal)."""
    try:
        if path.is_symlink() or not path.is_file():
            return False
        data = orjson.loads(path.read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return False
    return (
        isinstance(data, dict)
        and str(data.get("generator", "")).startswith("wahanorm ")
        and isinstance(data.get("schema_version"), int)
    )


def ownership_problem(out_dir: Path) -> str | None:
    """Why ``out_dir`` is not wahanorm's to write, or None: it must be new, empty, or hold a
    wahanorm ``index.json`` (or the journal or staging of a wahanorm run under way or cut
    short)."""
    if not out_dir.exists() and not out_dir.is_symlink():
        return None
    if not out_dir.is_dir():
        return f"cannot write to {out_dir}: it is a file, not a folder"
    try:
        names = os.listdir(out_dir)
    except OSError as exc:
        return f"--out {out_dir} cannot be read ({exc.strerror or exc})"
    if (
        not names
        or _is_wahanorm_json(out_dir / INDEX_NAME)
        or _is_wahanorm_json(out_dir / JOURNAL)
        or STAGING in names  # a first run writing now (or cut short): its staging is its mark
    ):
        return None
    return (
        f"--out {out_dir} already holds files and no wahanorm index.json: wahanorm writes only "
        "into a new or empty folder or one it wrote before; give another --out"
    )


def inputs_problem(out_dir: Path, inputs: Iterable[Path]) -> str | None:
    """Why ``out_dir`` may not hold the output of ``inputs``: it is an input folder, holds an
    input, or lies inside an input folder (the next run would read it)."""
    out = out_dir.resolve()
    for given in inputs:
        path = given.resolve()
        if out == path or out in path.parents:
            return f"--out {out_dir} holds the input {given}: give an --out outside the inputs"
        if path.is_dir() and path in out.parents:
            return f"--out {out_dir} lies inside the input folder {given}: give one outside it"
    return None


def claim_problem(out_dir: Path, inputs: Iterable[Path] = ()) -> str | None:
    """Why a run of ``inputs`` may not write ``out_dir``, or None (checked before anything is
    converted, and again under the lock)."""
    return inputs_problem(out_dir, inputs) or ownership_problem(out_dir)


def _lock(fd: int, mode: int, out_dir: Path, on_wait: Callable[[str], None] | None) -> None:
    """Take ``flock`` ``mode`` on ``fd``, waiting up to ``LOCK_WAIT`` seconds for a writer."""
    try:
        wait = float(os.environ.get("WAHANORM_LOCK_WAIT", LOCK_WAIT))
    except ValueError:
        wait = LOCK_WAIT
    deadline = time.monotonic() + wait
    told = False
    while True:
        try:
            fcntl.flock(fd, mode | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() >= deadline:
                raise OutputError(
                    f"another wahanorm is writing {out_dir}; run again when it is done"
                ) from None
            if on_wait and not told:
                on_wait(f"waiting for another wahanorm writing {out_dir} (up to {wait:g} s)")
                told = True
            time.sleep(0.05)


@contextlib.contextmanager
def reading(out_dir: Path) -> Iterator[bool]:
    """Hold ``out_dir`` against writers while reading it; yields False when a run into it was
    cut short and not finished yet (its tree is then neither the old run nor the new one)."""
    if not out_dir.is_dir():
        yield True
        return
    fd = os.open(out_dir, os.O_RDONLY | os.O_DIRECTORY)
    try:
        _lock(fd, fcntl.LOCK_SH, out_dir, None)
        yield not (out_dir / JOURNAL).exists() and not (out_dir / JOURNAL).is_symlink()
    finally:
        os.close(fd)


def _crash_point(name: str) -> None:
    """The tests' deterministic ``kill -9`` (``WAHANORM_CRASH_AT=staged|journal|commit``)."""
    if os.environ.get("WAHANORM_CRASH_AT") == name:
        os.kill(os.getpid(), signal.SIGKILL)


def _is_regular_file(path: str) -> bool:
    """True when ``path`` is a regular file itself (a link, even to a file, is not)."""
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


def _write_all(path: str, flags: int, data: bytes) -> None:
    """Write ``data`` into a new file ``path`` (no Python file object: a run writes thousands)."""
    fd = os.open(path, flags, 0o666)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    finally:
        os.close(fd)


def _remove_entry(path: Path) -> None:
    """Remove a file, a link (never what it points to) or a folder of ours, if there."""
    if path.is_symlink() or path.is_file():
        path.unlink(missing_ok=True)
    elif path.is_dir():
        shutil.rmtree(path)


class OutputFolder:
    """An output folder held by one writer: ``with OutputFolder(out) as folder:
    folder.write(files)``. Entering checks whose the folder is, takes the lock (or raises
    ``OutputError`` after ``LOCK_WAIT`` seconds) and finishes or throws away a run cut short."""

    def __init__(
        self,
        out_dir: Path,
        inputs: Iterable[Path] = (),
        on_wait: Callable[[str], None] | None = None,
    ) -> None:
        self.out = out_dir
        self.inputs = list(inputs)
        self.on_wait = on_wait
        self._fd: int | None = None

    def __enter__(self) -> OutputFolder:
        problem = claim_problem(self.out, self.inputs)
        if problem:
            raise OutputError(problem)
        self.out.mkdir(parents=True, exist_ok=True)
        self._fd = os.open(self.out, os.O_RDONLY | os.O_DIRECTORY)
        try:
            _lock(self._fd, fcntl.LOCK_EX, self.out, self.on_wait)
            problem = ownership_problem(self.out)  # the folder may have changed while we waited
            if problem:
                raise OutputError(problem)
            self.recover()
        except BaseException:
            os.close(self._fd)
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        if self._fd is not None:
            os.close(self._fd)  # releases the lock
            self._fd = None

    def recover(self) -> None:
        """Finish a run whose journal was written; throw away staging and temporary files of
        runs cut short before it."""
        journal = self.out / JOURNAL
        if _is_wahanorm_json(journal):
            data = orjson.loads(journal.read_bytes())
            try:
                moves = [(str(n), str(r)) for n, r in data.get("write", [])]
                remove = [str(r) for r in data.get("remove", [])]
            except (TypeError, ValueError):  # not a journal this writer wrote: nothing to do
                moves, remove = [], []
            self._commit(moves, remove)
        _remove_entry(journal)
        _remove_entry(self.out / STAGING)
        for folder, dirs, names in os.walk(self.out):
            dirs[:] = [d for d in dirs if not d.startswith(".")]
            for name in names:
                path = Path(folder) / name
                if _OLD_TEMP.fullmatch(name) and not path.is_symlink():
                    path.unlink()

    def previous_files(self) -> set[str]:
        """The files the previous run's ``index.json`` lists (the only ones a run removes)."""
        return listed_outputs(self.out)

    def _check_target(self, rel: str, seen: set[str]) -> bool:
        """Refuse a path that is unsafe or would pass through a symbolic link or a folder.
        ``seen`` holds the folders checked already (each is checked once per pass). Returns
        whether the file is there (a regular file)."""
        problem = unsafe_relpath(rel)
        if problem:
            raise OutputError(f"refusing to write {self.out / rel}: the path {problem}")
        root = os.fspath(self.out)
        parts = rel.split("/")
        last = len(parts)
        sub = ""
        for depth, part in enumerate(parts, 1):
            sub = f"{sub}/{part}" if sub else part
            if sub in seen:
                continue
            try:
                mode = os.lstat(f"{root}/{sub}").st_mode
            except FileNotFoundError:
                return False
            if stat.S_ISLNK(mode):
                raise OutputError(
                    f"{self.out / sub} is a symbolic link: wahanorm never writes through links "
                    "(remove it and run again)"
                )
            if depth < last:
                if not stat.S_ISDIR(mode):
                    raise OutputError(f"{self.out / sub} is a file where wahanorm writes a folder")
                seen.add(sub)
            elif not stat.S_ISREG(mode):
                raise OutputError(
                    f"{self.out / sub} is not a regular file: wahanorm will not replace it"
                )
        return True

    def _current(self, rel: str) -> bytes | None:
        try:
            fd = os.open(f"{os.fspath(self.out)}/{rel}", os.O_RDONLY | os.O_NOFOLLOW)
        except OSError:
            return None
        with os.fdopen(fd, "rb") as handle:
            return handle.read()

    def write(self, files: Mapping[str, str]) -> tuple[int, list[str]]:
        """Make the folder hold ``files`` and, of what the previous run wrote, nothing more:
        changed files replaced, files the previous index lists and this run does not write
        removed, with the folders that leaves empty. Returns (files written, files removed)."""
        seen: set[str] = set()
        there = {rel for rel in files if self._check_target(rel, seen)}
        previous = self.previous_files()
        remove = []
        for rel in sorted(previous - set(files)):
            try:
                self._check_target(rel, seen)
            except OutputError:
                continue  # not a plain file of ours any more: left alone
            if (self.out / rel).is_file():
                remove.append(rel)
        # index.json last: it is what makes a folder wahanorm's, so it is replaced last
        order = sorted(r for r in files if r != INDEX_NAME)
        if INDEX_NAME in files:
            order.append(INDEX_NAME)
        data = {r: files[r].encode("utf-8") for r in order}
        changed = [r for r in order if r not in there or self._current(r) != data[r]]
        if not changed and not remove:
            return 0, []
        staging = self.out / STAGING
        _remove_entry(staging)
        staging.mkdir()
        moves = [(str(number), rel) for number, rel in enumerate(changed)]
        try:
            root = os.fspath(staging)
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL
            for name, rel in moves:
                _write_all(f"{root}/{name}", flags, data[rel])
            _crash_point("staged")
            journal = {
                "generator": f"wahanorm {__version__}",
                "schema_version": 1,
                "write": moves,
                "remove": remove,
            }
            (staging / "journal").write_bytes(orjson.dumps(journal))
            os.replace(staging / "journal", self.out / JOURNAL)  # the run is decided here
        except BaseException:  # e.g. the disk is full: the old tree stays as it was
            with contextlib.suppress(OSError):
                _remove_entry(staging)
            raise
        _crash_point("journal")
        self._commit(moves, remove)
        return len(changed), remove

    def _commit(self, moves: list[tuple[str, str]], remove: list[str]) -> None:
        """Carry out a journal: move staged files into place, remove stale ones, then drop the
        journal and the staging. Safe to run again after a crash at any point."""
        staging = self.out / STAGING
        root, staged = os.fspath(self.out), os.fspath(staging)
        seen: set[str] = set()
        made: set[str] = set()  # folders made (or found) by this commit: made once each
        for step, (name, rel) in enumerate(moves):
            if step == len(moves) // 2:
                _crash_point("commit")
            source = f"{staged}/{name}"
            if unsafe_relpath(rel) or not _is_regular_file(source):
                continue  # moved already (a run finishing a journal), or not ours
            self._check_target(rel, seen)
            folder = rel.rpartition("/")[0]
            if folder not in made:
                os.makedirs(f"{root}/{folder}" if folder else root, exist_ok=True)
                made.add(folder)
            os.replace(source, f"{root}/{rel}")
        for rel in remove:
            if unsafe_relpath(rel):
                continue
            try:
                self._check_target(rel, seen)
            except OutputError:
                continue
            (self.out / rel).unlink(missing_ok=True)
            self._remove_emptied(rel)
        (self.out / JOURNAL).unlink(missing_ok=True)
        _remove_entry(staging)

    def _remove_emptied(self, rel: str) -> None:
        """Remove the folders of ``rel`` that its removal left empty (only those)."""
        folder = (self.out / rel).parent
        while folder != self.out:
            try:
                folder.rmdir()
            except OSError:
                return  # not empty (or not ours to judge): stop here
            folder = folder.parent


def listed_outputs(out_dir: Path) -> set[str]:
    """The files of ``out_dir`` that wahanorm wrote: those its ``index.json`` lists, and the
    index itself (empty when the folder holds no wahanorm index)."""
    index = out_dir / INDEX_NAME
    if not _is_wahanorm_json(index):
        return set()
    data = orjson.loads(index.read_bytes())
    listed = {INDEX_NAME}
    for entry in data.get("entities", []):
        try:
            rel = entry.get("path") or entity_relpath(entry)
        except (AttributeError, ValueError):
            continue
        if isinstance(rel, str) and unsafe_relpath(rel) is None:
            listed.add(rel)
    return listed


def own_leftover(rel: str) -> bool:
    """Whether the file ``rel`` of an output folder is a temporary file an older writer left
    (a run removes those)."""
    return _OLD_TEMP.fullmatch(rel.rpartition("/")[2]) is not None


def write_outputs(out_dir: Path, files: Mapping[str, str]) -> tuple[int, list[str]]:
    """Claim ``out_dir``, lock it and write ``files`` as one run (see ``OutputFolder``)."""
    with OutputFolder(out_dir) as folder:
        return folder.write(files)


def list_files(out_dir: Path) -> list[str]:
    """Every file and link in ``out_dir`` (links not followed), relative POSIX paths."""
    found: list[str] = []
    if not out_dir.is_dir():
        return found
    for folder, dirs, names in os.walk(out_dir):
        base = Path(folder)
        for name in [*names, *(d for d in dirs if (base / d).is_symlink())]:
            found.append((base / name).relative_to(out_dir).as_posix())
    return sorted(found)


def existing_outputs(out_dir: Path) -> dict[str, str]:
    """The JSON files an output folder holds now, as ``relative path → text`` (regular files
    only, dot-folders and links left out)."""
    texts: dict[str, str] = {}
    if not out_dir.is_dir():
        return texts
    root = os.fspath(out_dir)
    for folder, dirs, names in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        # paths as strings: a diff or crosscheck reads thousands of files
        below = os.path.relpath(folder, root).replace(os.sep, "/")
        prefix = "" if below == "." else below + "/"
        for name in names:
            path = os.path.join(folder, name)
            if name.endswith(".json") and not name.startswith(".") and not os.path.islink(path):
                with open(path, "rb") as handle:
                    texts[prefix + name] = handle.read().decode("utf-8", errors="replace")
    return dict(sorted(texts.items()))
