"""The incremental cache: a rerun over unchanged inputs is near-instant.

Keys are content hashes: of the program (its version and the text of its own modules and
grammars, so any change to the code empties the cache in effect), of each input's bytes and of the
path it is shown under. Entries are pickles written atomically under the cache folder
(``.wahanorm-cache/`` by default): per input, its ``Extraction``; per run, the rendered files.
The folder is safe to delete at any time; an entry that cannot be read is ignored.
"""

from __future__ import annotations

import functools
import hashlib
import os
import pickle
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from wahanorm import __version__, ingest
from wahanorm.errors import DiagnosticRow
from wahanorm.ingest import InputItem

if TYPE_CHECKING:
    from wahanorm.extraction import Extraction

DEFAULT_CACHE = Path(".wahanorm-cache")


@functools.cache
def program_fingerprint() -> str:
    """Hash of the wahanorm version and the text of every module and grammar it runs."""
    digest = hashlib.sha256(__version__.encode())
    package = Path(__file__).parent
    grammars = package / "grammars"
    if not grammars.is_dir():
        grammars = package.parents[1] / "grammars"
    files = sorted(package.rglob("*.py")) + sorted(grammars.glob("*.lark"))
    for path in files:
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def input_key(item: InputItem) -> str | None:
    """Content key of one input, or None when it cannot be read (it is then not cached)."""
    digest = hashlib.sha256(program_fingerprint().encode())
    digest.update(item.display.encode())
    digest.update(f"edition={item.edition}".encode())
    try:
        if item.format == "export":
            for path in sorted(item.path.iterdir()):
                if path.is_file():
                    digest.update(path.name.encode())
                    digest.update(path.read_bytes())
        elif item.path.stat().st_size > ingest.MAX_INPUT_BYTES:
            return None  # refused by ingest with a diagnostic; never read whole to hash it
        else:
            digest.update(item.path.read_bytes())
    except OSError:
        return None
    return digest.hexdigest()


def run_key(keys: list[str | None], skipped: list[tuple[str, str]]) -> str | None:
    """Key of a whole run: the keys of its inputs in order and what it skipped."""
    if any(key is None for key in keys):
        return None
    digest = hashlib.sha256(program_fingerprint().encode())
    for key in keys:
        digest.update(str(key).encode())
    digest.update(repr(skipped).encode())
    return digest.hexdigest()


@dataclass
class RunRecord:
    """What a run produced, but its files (kept apart: a run whose output folder is already
    current never loads them): counts, diagnostics as plain rows, what failed."""

    counts: dict[str, int]
    rows: list[DiagnosticRow]
    inputs: int
    failed: list[str]
    data_version: str | None


class Cache:
    """Pickled entries under ``root``; every read failure is a miss, every write atomic."""

    def __init__(self, root: Path = DEFAULT_CACHE) -> None:
        self.root = root

    def _path(self, kind: str, key: str) -> Path:
        return self.root / kind / key[:2] / f"{key}.pickle"

    def _load(self, kind: str, key: str) -> Any:
        try:
            with self._path(kind, key).open("rb") as handle:
                return pickle.load(handle)
        except Exception:  # missing, truncated or from another version: a miss
            return None

    def _store(self, kind: str, key: str, value: Any) -> None:
        path = self._path(kind, key)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
            with os.fdopen(fd, "wb") as handle:
                pickle.dump(value, handle, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, path)
        except OSError:
            pass  # a cache that cannot be written only costs time

    def extraction(self, key: str) -> Extraction | None:
        """The cached extraction of an input, or None."""
        from wahanorm.extraction import Extraction

        value = self._load("inputs", key)
        return value if isinstance(value, Extraction) else None

    def store_extraction(self, key: str, extraction: Extraction) -> None:
        """Remember an input's extraction."""
        self._store("inputs", key, extraction)

    def run(self, key: str) -> RunRecord | None:
        """The cached result of a whole run, or None."""
        value = self._load("runs", key)
        return value if isinstance(value, RunRecord) else None

    def run_files(self, key: str) -> dict[str, str] | None:
        """The output files of a cached run, or None."""
        value = self._load("run-files", key)
        return value if isinstance(value, dict) else None

    def store_run(self, key: str, record: RunRecord, files: dict[str, str]) -> None:
        """Remember a run's result and its files."""
        self._store("run-files", key, files)
        self._store("runs", key, record)


Stamp = dict[str, tuple[int, int]]


def out_stats(out_dir: Path) -> Stamp:
    """Size and modification time of every JSON file of an output folder."""
    stats: Stamp = {}
    root = str(out_dir)
    stack = [root]
    while stack:
        folder = stack.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                stack.append(entry.path)
            elif entry.name.endswith(".json"):
                info = entry.stat(follow_symlinks=False)
                rel = entry.path[len(root) + 1 :].replace(os.sep, "/")
                stats[rel] = (info.st_size, info.st_mtime_ns)
    return stats


def _stamp_key(out_dir: Path) -> str:
    return hashlib.sha256(str(out_dir.resolve()).encode()).hexdigest()


def stamp_matches(cache: Cache, out_dir: Path, key: str) -> bool:
    """True when ``out_dir`` is, file for file, as this cache's last write of run ``key`` left it
    (same names, sizes and modification times): then there is nothing to write."""
    stamp = cache._load("stamps", _stamp_key(out_dir))
    return isinstance(stamp, tuple) and stamp == (key, out_stats(out_dir))


def store_stamp(cache: Cache, out_dir: Path, key: str) -> None:
    """Remember how run ``key`` left ``out_dir``."""
    cache._store("stamps", _stamp_key(out_dir), (key, out_stats(out_dir)))
