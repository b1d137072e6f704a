"""The one writer of ``out/``: whose the folder is, one writer at a time, whole runs (see
"What convert may delete" in the README), and the shared lock its readers hold.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import re
import shutil
import signal
import stat
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

import orjson

from wahanorm.contract.layout import INDEX_NAME, entity_relpath, not_an_output_file
from wahanorm.contract.version import __version__
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


MAX_JOURNAL_BYTES = 64 * 1024 * 1024
"""Largest journal read back (one a run writes holds some 60 bytes per changed file: an
export's 4,547 files take 300 KB); a writer whose journal would be larger stops before it."""

MAX_INDEX_BYTES = 512 * 1024 * 1024
"""Largest ``index.json`` read back (an export's is 2.3 MB)."""

_STAGED_NAME = re.compile(r"[0-9]{1,9}")  # what the writer names a staged file


def read_own(path: Path, limit: int) -> bytes | str:
    """The bytes of ``path``, one of wahanorm's own files, or why they are not read: not a
    regular file (a link is never followed; a FIFO never waited on), or more than ``limit``
    bytes (checked before it is read, and again while reading it)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "it is a symbolic link"
        return f"it cannot be read ({exc.strerror or exc})"
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return "it is not a regular file"
        if info.st_size > limit:
            return f"it holds {info.st_size} bytes, more than the {limit} bytes wahanorm reads"
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            return f"it grew past the {limit} bytes wahanorm reads"
        return b"".join(chunks)
    except OSError as exc:
        return f"it cannot be read ({exc.strerror or exc})"
    finally:
        os.close(fd)


def _own_json(path: Path, limit: int) -> dict[str, Any] | str:
    """The JSON object of ``path`` that names wahanorm as its generator and carries a schema
    version (an ``index.json`` or a journal), or why it is none."""
    raw = read_own(path, limit)
    if isinstance(raw, str):
        return raw
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        return f"it is not valid JSON ({exc.msg})"
    if not isinstance(data, dict):
        return "it is not a JSON object"
    generator = data.get("generator")
    if not isinstance(generator, str) or not generator.startswith("wahanorm "):
        return "its generator is not wahanorm"
    if not isinstance(data.get("schema_version"), int):
        return "it has no schema_version"
    return data


def _is_wahanorm_json(path: Path, limit: int) -> bool:
    """True when ``path`` is a regular file (not a link) of at most ``limit`` bytes of JSON
    that names wahanorm as its generator and carries a schema version (an ``index.json`` or a
    journal)."""
    return isinstance(_own_json(path, limit), dict)


def _shown(value: object) -> str:
    """A value of a refused file, short and escaped, for its one line."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


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
        or _is_wahanorm_json(out_dir / INDEX_NAME, MAX_INDEX_BYTES)
        or _is_wahanorm_json(out_dir / JOURNAL, MAX_JOURNAL_BYTES)
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
    converted, and again under the lock): among the reasons, a journal wahanorm refuses."""
    problem = inputs_problem(out_dir, inputs) or ownership_problem(out_dir)
    if problem is None and os.path.lexists(out_dir / JOURNAL):
        try:
            read_journal(out_dir)
        except OutputError as refused:
            return refused.message
    return problem


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
def reading(out_dir: Path) -> Iterator[str | None]:
    """Hold ``out_dir`` against writers while reading it; yields None when it holds one whole
    run, else the one line that says why not: a run into it was cut short and not finished yet
    (its tree is then neither the old run nor the new one). A journal wahanorm refuses raises
    ``OutputError`` (its line says to look at it, not to run ``convert``, which refuses it too)."""
    if not out_dir.is_dir():
        yield None
        return
    fd = os.open(out_dir, os.O_RDONLY | os.O_DIRECTORY)
    try:
        _lock(fd, fcntl.LOCK_SH, out_dir, None)
        cut_short = read_journal(out_dir) is not None  # OutputError: a journal refused
        yield (
            f"{out_dir} holds a run cut short; run 'wahanorm convert' to finish it"
            if cut_short
            else None
        )
    finally:
        os.close(fd)


def read_journal(out_dir: Path) -> tuple[list[tuple[str, str]], list[str]] | None:
    """The journal of a run into ``out_dir`` that was decided and not finished: (staged name →
    target, targets to remove); None when there is none. Read back as hostile input: bounded
    before it is read, its shape checked, each staged name one plain file name in a real
    staging folder directly in ``out_dir`` (a regular file, or gone: moved already), each
    target a file wahanorm writes, reached through no link. Anything else raises
    ``OutputError``, one line naming the journal and what is wrong; nothing is touched."""
    path = out_dir / JOURNAL
    if not os.path.lexists(path):
        return None
    try:
        return _journal_entries(out_dir, path)
    except _Refused as exc:
        raise OutputError(
            f"{path} is not a journal wahanorm wrote: {exc}; nothing was moved or removed "
            f"(look at it, then remove it and {out_dir / STAGING} and run again)"
        ) from None


class _Refused(Exception):
    """What is wrong with a journal (``read_journal`` says it in its one line)."""


def _journal_entries(out_dir: Path, path: Path) -> tuple[list[tuple[str, str]], list[str]]:
    data = _own_json(path, MAX_JOURNAL_BYTES)
    if isinstance(data, str):
        raise _Refused(data)
    if data["schema_version"] != 1:
        raise _Refused(f"its schema_version {_shown(data['schema_version'])} is not 1")
    write, remove = data.get("write"), data.get("remove")
    if not isinstance(write, list) or not isinstance(remove, list):
        raise _Refused("its 'write' and 'remove' are not both lists")
    staging = out_dir / STAGING
    try:
        staged_mode = os.lstat(staging).st_mode
    except OSError:
        raise _Refused(f"{staging} is missing") from None
    if not stat.S_ISDIR(staged_mode):
        raise _Refused(f"{staging} is not a folder (a link, or a file)")
    moves: list[tuple[str, str]] = []
    names: set[str] = set()
    targets: set[str] = set()
    seen: set[str] = set()
    for number, move in enumerate(write, start=1):
        if not (
            isinstance(move, list)
            and len(move) == 2
            and all(isinstance(part, str) for part in move)
        ):
            raise _Refused(f"its write entry {number} is not [staged name, target]")
        name, rel = move
        if not _STAGED_NAME.fullmatch(name):
            raise _Refused(
                f"its write entry {number} stages {_shown(name)}, not a plain file name of the "
                "staging folder"
            )
        if name in names:
            raise _Refused(f"its write entry {number} stages {_shown(name)} a second time")
        _check_listed(out_dir, rel, f"its write entry {number}", targets, seen)
        try:
            mode = os.lstat(staging / name).st_mode
        except FileNotFoundError:
            mode = None  # moved already: a run finishing the journal was cut short too
        if mode is not None and not stat.S_ISREG(mode):
            raise _Refused(f"its staged file {_shown(name)} is not a regular file")
        names.add(name)
        moves.append((name, rel))
    for number, rel in enumerate(remove, start=1):
        if not isinstance(rel, str):
            raise _Refused(f"its remove entry {number} is not a path")
        _check_listed(out_dir, rel, f"its remove entry {number}", targets, seen)
    return moves, list(remove)


def _check_listed(out_dir: Path, rel: str, where: str, targets: set[str], seen: set[str]) -> None:
    """Refuse a journal's target that is no file wahanorm writes, is named twice, or is reached
    through a link or a file."""
    problem = not_an_output_file(rel)
    if problem:
        raise _Refused(f"{where} names {_shown(rel)}: {problem}")
    if rel in targets:
        raise _Refused(f"{where} names {_shown(rel)} a second time")
    targets.add(rel)
    try:
        check_target(out_dir, rel, seen)
    except OutputError as exc:
        raise _Refused(f"{where}: {exc.message}") from None


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


def check_target(out_dir: Path, rel: str, seen: set[str]) -> bool:
    """Refuse a path of ``out_dir`` that is no file wahanorm writes, is unsafe or would pass through a symbolic link or a folder.
    ``seen`` holds the folders checked already (each is checked once per pass). Returns
    whether the file is there (a regular file)."""
    problem = not_an_output_file(rel)
    if problem:
        raise OutputError(f"refusing to write {out_dir / rel}: {problem}")
    root = os.fspath(out_dir)
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
                f"{out_dir / sub} is a symbolic link: wahanorm never writes through links "
                "(remove it and run again)"
            )
        if depth < last:
            if not stat.S_ISDIR(mode):
                raise OutputError(f"{out_dir / sub} is a file where wahanorm writes a folder")
            seen.add(sub)
        elif not stat.S_ISREG(mode):
            raise OutputError(
                f"{out_dir / sub} is not a regular file: wahanorm will not replace it"
            )
    return True


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
        runs cut short before it. A journal wahanorm did not write stops here (``OutputError``),
        nothing moved or removed."""
        journal = read_journal(self.out)
        if journal is not None:
            self._commit(*journal)
        _remove_entry(self.out / JOURNAL)
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
        return check_target(self.out, rel, seen)

    def _current(self, rel: str, size: int) -> bytes | None:
        """The bytes of the file ``rel`` when it holds ``size`` of them (else it is changed:
        a file of another size, however large, is never read)."""
        try:
            fd = os.open(f"{os.fspath(self.out)}/{rel}", os.O_RDONLY | os.O_NOFOLLOW)
        except OSError:
            return None
        with os.fdopen(fd, "rb") as handle:
            if os.fstat(handle.fileno()).st_size != size:
                return None
            return handle.read(size + 1)

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
                there_now = self._check_target(rel, seen)
            except OutputError:
                continue  # not a plain file of ours any more: left alone
            if there_now:
                remove.append(rel)
        # index.json last: it is what makes a folder wahanorm's, so it is replaced last
        order = sorted(r for r in files if r != INDEX_NAME)
        if INDEX_NAME in files:
            order.append(INDEX_NAME)
        data = {r: files[r].encode("utf-8") for r in order}
        changed = [r for r in order if r not in there or self._current(r, len(data[r])) != data[r]]
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
            decided = orjson.dumps(journal)
            if len(decided) > MAX_JOURNAL_BYTES:  # its next reader would refuse it
                raise OutputError(
                    f"a run of {len(moves)} files into {self.out} needs a journal of more than "
                    f"{MAX_JOURNAL_BYTES} bytes; write it in parts (nothing was changed)"
                )
            (staging / "journal").write_bytes(decided)
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
            if not _is_regular_file(source):
                continue  # moved already (a run finishing a journal)
            self._check_target(rel, seen)
            folder = rel.rpartition("/")[0]
            if folder not in made:
                os.makedirs(f"{root}/{folder}" if folder else root, exist_ok=True)
                made.add(folder)
            os.replace(source, f"{root}/{rel}")
        for rel in remove:
            if not self._check_target(rel, seen):
                continue  # removed already
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
    data = _own_json(out_dir / INDEX_NAME, MAX_INDEX_BYTES)
    if isinstance(data, str):
        return set()
    listed = {INDEX_NAME}
    entries = data.get("entities")
    for entry in entries if isinstance(entries, list) else []:
        if not isinstance(entry, dict):
            continue
        try:
            rel = entry.get("path") or entity_relpath(entry)
        except ValueError:
            continue
        # only a file wahanorm writes, whatever else an index names (``check_target`` then
        # refuses one reached through a link)
        if isinstance(rel, str) and not_an_output_file(rel) is None:
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
                    if os.fstat(handle.fileno()).st_size > MAX_INDEX_BYTES:  # a planted one
                        raise OutputError(
                            f"{path}: more than {MAX_INDEX_BYTES} bytes, more than wahanorm "
                            "reads of one file of an output: not read"
                        )
                    texts[prefix + name] = handle.read().decode("utf-8", errors="replace")
    return dict(sorted(texts.items()))
