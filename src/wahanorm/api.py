"""The public Python API, re-exported by ``wahanorm``: convert, parse, write, load, diff,
crosscheck.

Each function is a thin door onto the pipeline the command line uses, so a library user gets
the same entities, diagnostics and bytes as ``wahanorm convert``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from wahanorm.errors import UsageError

if TYPE_CHECKING:
    from wahanorm.contract.models import Diagnostic, Index
    from wahanorm.outputs.crosscheck.result import CrosscheckReport
    from wahanorm.outputs.diff.engine import Snapshot
    from wahanorm.outputs.diff.result import DiffReport
    from wahanorm.pipeline.run import Conversion
    from wahanorm.readers.base import Entity

PathLike = str | Path
TextFormat = Literal["text", "html"]


@dataclass(frozen=True)
class Result:
    """What a conversion gives: the merged entities (sorted by kind and id) and every
    diagnostic, with the data's own version where the source has one."""

    entities: list[Entity]
    diagnostics: list[Diagnostic]
    data_version: str | None = None
    failed: list[str] = field(default_factory=list)
    """Inputs that gave nothing but errors."""
    language: str | None = None
    """The language names and texts were read in (``convert(..., language="de")``); None for
    English."""

    @property
    def errors(self) -> list[Diagnostic]:
        """The diagnostics of severity ``error``."""
        return [d for d in self.diagnostics if d.severity == "error"]

    def files(self) -> dict[str, str]:
        """The output folder this result makes, ``relative path → canonical JSON text``."""
        from wahanorm.errors import as_row
        from wahanorm.outputs.canonical import render_outputs

        rows = [as_row(d) for d in self.diagnostics]
        return render_outputs(self.entities, rows, self.data_version, language=self.language)


@dataclass(frozen=True)
class Loaded:
    """An output folder read back: its index and its entities as models, in the index's order."""

    index: Index
    entities: list[Entity]


def convert(
    paths: PathLike | Iterable[PathLike], *, jobs: int = 1, language: str | None = None
) -> Result:
    """Convert files and folders (text dumps, saved pages, CSV export folders) into entities and
    diagnostics. Nothing is written; a bad input is a diagnostic, never an exception. In a
    process of one thread, Python's cyclic garbage collector is off while it runs (it would
    only scan the run's objects); beside other threads it is left as it is. ``language``
    (``"de"``) reads names and texts in that language where an input gives several
    (Game-Datacards files); ids stay those of the English names."""
    from wahanorm import pipeline

    given = [paths] if isinstance(paths, str | Path) else list(paths)
    conversion = pipeline.convert([Path(p) for p in given], jobs=jobs, language=language)
    return _result(conversion)


def parse_text(text: str, *, format: TextFormat = "text", name: str = "<string>") -> Result:
    """Parse one text dump (``format="text"``) or one saved HTML page (``"html"``) given as a
    string; ``name`` is the path the sources and diagnostics will name."""
    from wahanorm import pipeline
    from wahanorm.errors import Report

    if format not in ("text", "html"):
        raise UsageError(f"format must be 'text' or 'html', not {format!r}")
    extraction = pipeline.extract_text(text, name, html=format == "html")
    return _result(pipeline.assemble([extraction], Report(), 1))


def write(out: PathLike, result: Result) -> tuple[int, list[str]]:
    """Make the folder ``out`` hold exactly the output of ``result`` (through ``outputs.folder``,
    the only writer): changed files rewritten atomically, files of vanished entities removed. Refuses a
    folder that is not empty and was not written by wahanorm. Returns (files written, files
    removed, relative to ``out``)."""
    from wahanorm.contract.layout import INDEX_NAME
    from wahanorm.outputs.folder import write_outputs

    folder = Path(out)
    ours = (folder / INDEX_NAME).is_file()
    if folder.exists() and not ours and (not folder.is_dir() or any(folder.iterdir())):
        raise UsageError(f"{folder} is not a wahanorm output folder (no index.json) nor empty")
    return write_outputs(folder, result.files())


def load(out: PathLike) -> Loaded:
    """Read an output folder back into the models (validated: a file that does not follow the
    contract raises ``pydantic.ValidationError``)."""
    from pydantic import TypeAdapter

    from wahanorm.contract.migrate import current_index
    from wahanorm.contract.models import AnyEntity, Index
    from wahanorm.outputs.output import Output

    adapter: TypeAdapter[Entity] = TypeAdapter(AnyEntity)
    with Output.reading(Path(out)) as output:  # one whole run, under the shared lock
        entities = [adapter.validate_python(data) for data in output.entities()]
        return Loaded(Index.model_validate(current_index(output.index)), entities)


def diff(old: PathLike | Result, new: PathLike | Result) -> DiffReport:
    """What changed from ``old`` to ``new``: each an output folder, raw inputs (converted on the
    fly), ``REV:PATH`` of the git repository in the working folder, or a ``Result``."""
    from wahanorm.outputs.diff.engine import diff_snapshots

    return diff_snapshots(_snapshot(old), _snapshot(new))


def crosscheck(
    a: PathLike | Result,
    b: PathLike | Result,
    *,
    kinds: Sequence[str] = (),
    fields: Sequence[str] = (),
) -> CrosscheckReport:
    """Where two sources of the same rules disagree, entity by entity and field by field: each
    side as for ``diff``; ``kinds`` and ``fields`` keep to those (``UsageError`` for a name that
    is none). The report ``crosscheck --format json`` prints."""
    from wahanorm.outputs.crosscheck.engine import crosscheck as check

    return check(_snapshot(a), _snapshot(b), kinds=kinds, fields=fields)


def _snapshot(side: PathLike | Result) -> Snapshot:
    from wahanorm.outputs.diff.engine import Snapshot
    from wahanorm.outputs.diff.sides import load_side

    if isinstance(side, Result):
        return Snapshot("<result>", "inputs", side.files())
    from wahanorm.pipeline import converted

    return load_side(str(side), converted)[0]


def _result(conversion: Conversion) -> Result:
    return Result(
        list(conversion.entities),
        list(conversion.diagnostics),
        conversion.data_version,
        list(conversion.failed),
        conversion.language,
    )
