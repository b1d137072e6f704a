"""One side of a diff, from what the command line names: an output folder, raw inputs
(converted on the fly), or ``REV:PATH`` of a git repository holding either."""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from wahanorm.contract.layout import INDEX_NAME, entity_relpath
from wahanorm.errors import InputError
from wahanorm.outputs.diff import gitrev
from wahanorm.outputs.diff.engine import Snapshot
from wahanorm.outputs.diff.result import SideSource
from wahanorm.outputs.folder import JOURNAL, existing_outputs, reading


@dataclass(frozen=True)
class Converted:
    """Raw inputs converted in memory: the output files, and how many entities and errors."""

    files: dict[str, str]
    entities: int
    errors: int
    data: dict[str, dict[str, Any]] | None = None
    """Each entity file's JSON value (``relative path → data``), where the conversion kept
    them: what its text parses to, read without parsing it again."""


Convert = Callable[[list[Path]], Converted]
"""How raw inputs become output files: the caller's (the pipeline's), since outputs know no
reader."""


def load_side(spec: str, convert: Convert, cwd: Path | None = None) -> tuple[Snapshot, list[str]]:
    """The output files of one side, and notes for stderr (e.g. conversion errors); raw inputs
    go through ``convert``."""
    here = cwd or Path.cwd()
    path = Path(spec) if Path(spec).is_absolute() else here / spec
    if path.exists():
        return _from_path(spec, path, convert)
    if gitrev.split_spec(spec) is None:
        raise InputError(f"{spec}: no such file or folder")
    return _from_git(spec, here, convert)


def is_output_folder(path: Path) -> bool:
    """True when ``path`` is a folder wahanorm wrote: it holds ``index.json``."""
    return (path / INDEX_NAME).is_file()


def _from_path(spec: str, path: Path, convert: Convert) -> tuple[Snapshot, list[str]]:
    if is_output_folder(path) or (path / JOURNAL).exists():
        with reading(path) as problem:
            if problem:  # a run cut short
                raise InputError(problem)
            files = existing_outputs(path)
            return Snapshot(spec, "output", files), _index_notes(spec, files)
    return _convert(spec, [path], "inputs", convert)


def _index_notes(spec: str, files: dict[str, str]) -> list[str]:
    """What an output folder's ``index.json`` says that its files do not bear out (a damaged
    index, files it lists that are missing): the diff compares the files it finds, and says so."""
    from wahanorm.errors import InputError
    from wahanorm.outputs.output import Output

    try:
        output = Output.from_files(files, spec)
    except InputError as exc:
        return [f"{exc.message}; compared by the entity files found"]
    missing = [rel for entry in output.entries if (rel := entity_relpath(entry)) not in files]
    if not missing:
        return []
    listed = ", ".join(missing[:3]) + (" …" if len(missing) > 3 else "")
    return [
        f"{spec}: index.json lists {len(missing)} entity files not there ({listed}); compared "
        "as absent"
    ]


def _convert(
    spec: str, paths: list[Path], source: SideSource, convert: Convert
) -> tuple[Snapshot, list[str]]:
    """Raw inputs through the whole pipeline, in memory."""
    conversion = convert(paths)
    if not conversion.entities:
        raise InputError(
            f"{spec}: no rules found to compare ({conversion.errors} errors; "
            "run wahanorm convert on it for details)"
        )
    notes = []
    if conversion.errors:
        notes.append(
            f"{spec}: converted with {conversion.errors} errors "
            "(run wahanorm convert on it for details)"
        )
    return Snapshot(spec, source, conversion.files, conversion.data), notes


def _from_git(spec: str, cwd: Path, convert: Convert) -> tuple[Snapshot, list[str]]:
    files = gitrev.read_tree(spec, cwd)
    if INDEX_NAME in files:
        texts = {
            rel: _decode(spec, rel, data) for rel, data in files.items() if rel.endswith(".json")
        }
        return Snapshot(spec, "git-output", texts), []
    with tempfile.TemporaryDirectory(prefix="wahanorm-diff-") as tmp:
        root = Path(tmp) / "side"
        for rel, data in files.items():
            target = root.joinpath(*PurePosixPath(rel).parts)
            if not target.resolve().is_relative_to(root.resolve()):  # read_tree refuses it too
                raise InputError(f"{spec}: the tree holds an unsafe path {rel!r}")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        single = len(files) == 1 and "/" not in next(iter(files))
        return _convert(
            spec, [root / next(iter(files))] if single else [root], "git-inputs", convert
        )


def _decode(spec: str, rel: str, data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{spec}: {rel} is not UTF-8") from exc
