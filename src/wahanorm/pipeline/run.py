"""The whole flow of data, top to bottom:

    discover → reader → after-read chain   (per input: ``extract``)
    merge → write                           (per run: ``convert``)

Each input is extracted on its own; any ``WahanormError`` or unexpected exception is caught at
that boundary and becomes a diagnostic, so one bad file never stops a batch.
"""

from __future__ import annotations

import dataclasses
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from wahanorm.blocks.edition import as_edition
from wahanorm.contract.hashing import ContentHashes
from wahanorm.errors import DiagnosticRow, Report, WahanormError
from wahanorm.outputs.canonical import render_outputs
from wahanorm.pipeline import discover as ingest
from wahanorm.pipeline.cache import Cache, RunRecord, Seen, input_key, run_key
from wahanorm.pipeline.collector import fewer_collections
from wahanorm.readers.base import Source

if TYPE_CHECKING:
    from wahanorm.contract.models import Diagnostic
    from wahanorm.contract.vocabulary import Edition
    from wahanorm.pipeline.after_read import Extraction
    from wahanorm.pipeline.merge import Repeat
    from wahanorm.readers.base import Entity

# The parsers, the models and pydantic are imported where they are first needed: a run served
# whole from the cache (a rerun over unchanged inputs) loads none of them.


@dataclass
class Conversion:
    """The result of a run: output files as text, diagnostics, and what failed.

    A result served from the run cache holds no ``entities`` and loads its ``files`` only when
    asked; the diagnostics are plain rows (``rows()``), made models only when asked
    (``diagnostics``); ``counts()`` is always there."""

    loaded_files: dict[str, str] | None
    entities: list[Entity]
    diagnostic_rows: list[DiagnosticRow]
    inputs: int
    failed: list[str] = field(default_factory=list)
    data_version: str | None = None
    kind_counts: Counter[str] = field(default_factory=Counter)
    run_key: str | None = None
    load_files: Callable[[], dict[str, str]] | None = None
    entity_data: dict[str, Any] | None = None
    """Each entity file's JSON value (``relative path → data``) when the run was asked to keep
    them (``convert(..., entity_data=True)``) and converted; None from the cache."""
    models: list[Diagnostic] | None = None
    language: str | None = None
    """The language the run read names and texts in (``--language``); None for English."""

    @property
    def files(self) -> dict[str, str]:
        """Every output file, ``relative path → text``."""
        if self.loaded_files is None:
            self.loaded_files = self.load_files() if self.load_files else {}
        return self.loaded_files

    @property
    def diagnostics(self) -> list[Diagnostic]:
        """The run's diagnostics as models (made at the first call)."""
        if self.models is None:
            from wahanorm.contract.models import Diagnostic

            self.models = [Diagnostic(**row._asdict()) for row in self.diagnostic_rows]
        return self.models

    def rows(self) -> list[DiagnosticRow]:
        """The run's diagnostics as plain rows."""
        return self.diagnostic_rows

    def counts(self) -> Counter[str]:
        """Entities per kind."""
        return self.kind_counts or Counter(e.kind for e in self.entities)

    @property
    def errors(self) -> int:
        """How many diagnostics are errors."""
        return sum(1 for d in self.rows() if d.severity == "error")


def extract_text(
    text: str, display: str, html: bool | None = None, edition: Edition | None = None
) -> Extraction:
    """Entities of one input given as a string, through its reader and the chain: ``html``
    says whether it is HTML (a saved page, other HTML) or a text dump (None: told by a
    leading tag, as for standard input); ``edition`` is the user's word for an input that
    does not tell its own."""
    source = Source(Path("-"), display, edition=edition, data=text.encode("utf-8"), html=html)
    return extract(source)


def extract(source: Source, stage: Callable[[str], None] | None = None) -> Extraction:
    """Entities of one input, through the reader the registry names for it and the
    after-read chain; failures become diagnostics, never exceptions. ``stage(name)`` is told
    the steps of a long input (an export's tables)."""
    with fewer_collections():
        extraction = _extract(source, stage)
    if not ingest.name_is_utf8(source.path):
        extraction.report.warning(
            "path-not-utf8",
            "the file's name is not UTF-8: it is named here with those bytes escaped (\\xNN); "
            "rename the file to keep its name",
        )
    extraction.report.close()  # what one file said past the cap of one code, counted
    return extraction


def _extract(source: Source, stage: Callable[[str], None] | None) -> Extraction:
    # The parsers load in the reader's first read: a run from the cache never needs them.
    from wahanorm.pipeline.after_read import Extraction, finish
    from wahanorm.readers import registry

    try:
        reader = registry.reader_for(source)
        if reader is None:
            failed = Extraction(source.display)
            failed.report.error("unknown-format", "no reader knows this input")
            return failed
        reading = registry.read(source, reader, stage)
        for note in source.decode_notes:
            reading.report.warning("encoding", note)
        return finish(reading, source.edition)
    except WahanormError as exc:
        failed = Extraction(source.display)
        failed.report.diagnostics.append(exc.to_diagnostic()._replace(path=source.display))
        return failed
    except Exception as exc:  # a bug must not stop the batch; report it with its place
        failed = Extraction(source.display)
        where = traceback.extract_tb(exc.__traceback__)[-1]
        failed.report.error(
            "internal-error",
            f"wahanorm failed on this input ({type(exc).__name__}: {exc}) at "
            f"{Path(where.filename).name}:{where.lineno}; please report it",
        )
        return failed


PARALLEL_MIN = 8
"""Fewer inputs than this to extract are done in this process: starting workers costs more."""

CHUNK_MIN, CHUNK_MAX = 4, 32
"""Inputs a worker extracts and sends back at once: a chunk is pickled as one, and what its
inputs share (the rules every page of a faction prints, read once by a worker's
``errors.BatchMemo``) is sent once per chunk; at most 32, and some eight chunks per worker at
least, so that the workers end together and progress is told often."""

Progress = Callable[[int, int, str], None]
"""``progress(done, total, note)``: inputs done of all, and what the current one is doing."""


def convert(
    paths: list[Path],
    jobs: int = 1,
    cache: Cache | None = None,
    progress: Progress | None = None,
    edition: int | None = None,
    entity_data: bool = False,
    language: str | None = None,
) -> Conversion:
    """Convert every input below ``paths`` into the files of an output folder.

    ``jobs`` > 1 extracts inputs in that many processes; results are taken in input order, so the
    bytes are the same whatever the number of workers. With a ``cache``, unchanged inputs (and an
    unchanged run) are not converted again. ``progress(done, total, note)`` is called as inputs
    finish, and with the steps of a long input. ``edition`` (10 or 11) is the user's word for
    inputs that do not tell their own edition. ``entity_data`` keeps each entity file's JSON
    value beside its text (``Conversion.entity_data``), for a caller that reads them.
    ``language`` (``de``) is the language names and texts are read in where an input gives
    several (English, the default, when None or ``en``); it is in ``index.json``.
    """
    items, skipped, missing = ingest.discover(paths)
    said = as_edition(edition) if edition is not None else None
    if said is not None:
        items = [dataclasses.replace(item, edition=said) for item in items]
    language = language.strip().lower() if language and language.strip().lower() != "en" else None
    if language is not None:
        items = [dataclasses.replace(item, language=language) for item in items]
    run = Report()
    for path, reason in skipped:
        run.warning("skipped-input", f"skipped: {reason}", path=path)
    for path in missing:
        run.error("missing-input", "no such file or folder", path=path)
    keys: list[str | None] = [input_key(i) if cache else None for i in items]
    whole = run_key(keys, [*skipped, *((m, "missing") for m in missing)]) if cache else None
    if cache and whole and (record := cache.run(whole)):
        if progress:
            progress(len(items), len(items), "from the cache")
        store, key, again = cache, whole, Report(diagnostics=list(run.diagnostics))

        def files() -> dict[str, str]:
            found = store.run_files(key)
            if found is None:  # the files' entry is gone or damaged: convert again
                extractions = _extract_all(items, keys, jobs, store, None)
                found = assemble(
                    extractions, again, len(items) + len(missing), language=language
                ).files
            return found

        return Conversion(
            None,
            [],
            record.rows,
            record.inputs,
            record.failed,
            record.data_version,
            Counter(record.counts),
            whole,
            load_files=files,
            language=language,
        )
    with fewer_collections():  # storing the run too: its rows are as many as its diagnostics
        extractions = _extract_all(items, keys, jobs, cache, progress)
        if progress:
            progress(len(items), len(items), "merging the copies of each entity, making its JSON")
        result = assemble(extractions, run, len(items) + len(missing), entity_data, language)
        result.failed = [*missing, *result.failed]
        if cache and whole:
            result.run_key = whole
            record = RunRecord(
                dict(result.counts()),
                result.rows(),
                result.inputs,
                result.failed,
                result.data_version,
            )
            cache.store_run(whole, record, result.files)
    return result


def _stage_note(
    progress: Progress | None, done: int, total: int, display: str
) -> Callable[[str], None] | None:
    if progress is None:
        return None
    return lambda step: progress(done, total, f"{display}: {step}")


def _extract_all(
    items: list[Source],
    keys: list[str | None],
    jobs: int,
    cache: Cache | None,
    progress: Progress | None,
) -> list[Extraction]:
    done: dict[int, Extraction] = {}
    seen: Seen = {}  # what the cached entries say, by content hash
    for index, key in enumerate(keys):
        cached = cache.extraction(key, seen) if cache and key else None
        if cached is not None:
            done[index] = cached
    todo = [i for i in range(len(items)) if i not in done]
    parallel = jobs > 1 and len(todo) >= PARALLEL_MIN
    if progress:
        first = items[todo[0]].display if todo else ""
        progress(
            len(done), len(items), f"{first} (and more, in {jobs} workers)" if parallel else first
        )

    waiting = 0  # the first input of todo not yet read

    def finished(position: int, extraction: Extraction) -> None:
        nonlocal waiting
        done[todo[position]] = extraction
        while waiting < len(todo) and todo[waiting] in done:
            waiting += 1
        if progress:  # what is read now: the first input the run still waits for
            progress(
                len(done), len(items), items[todo[waiting]].display if waiting < len(todo) else ""
            )

    if parallel:
        from concurrent.futures import (  # only when workers are started
            ProcessPoolExecutor,
            as_completed,
        )

        # The models, which merge and render need here anyway, built before the workers start:
        # a forked worker inherits them instead of building pydantic's classes again (half of
        # a worker's start).
        import wahanorm.contract.models  # noqa: F401

        with ProcessPoolExecutor(max_workers=jobs, initializer=_start_worker) as pool:
            size = max(CHUNK_MIN, min(CHUNK_MAX, len(todo) // (jobs * 8)))
            # Chunks are submitted in input order, and a pool hands them out in that order, so
            # each worker takes its inputs in input order (see _extract_in_worker); they are
            # told done as they end, whatever their order, so progress moves with the workers.
            chunks = {
                pool.submit(
                    _extract_chunk, [(items[i], keys[i], cache) for i in todo[at : at + size]]
                ): at
                for at in range(0, len(todo), size)
            }
            try:
                for future in as_completed(chunks):
                    for offset, extraction in enumerate(future.result()):
                        finished(chunks[future] + offset, extraction)
            except BaseException:  # a run cut short: the chunks no worker began are not read
                pool.shutdown(cancel_futures=True)
                raise
    else:
        for position, index in enumerate(todo):
            note = _stage_note(progress, len(done), len(items), items[index].display)
            finished(position, extract_and_store((items[index], keys[index], cache), note))
    return [done[i] for i in range(len(items))]


def extract_and_store(
    job: tuple[Source, str | None, Cache | None], stage: Callable[[str], None] | None = None
) -> Extraction:
    """``extract`` of an input (``job``: it, its cache key, the cache), stored in the cache as
    soon as it is finished, with its entities' content hashes: by the worker that read it,
    beside the other workers (the dumps of a batch's entities are most of what storing costs),
    and so kept when the run is cut short after it."""
    source, key, cache = job
    extraction = extract(source, stage)
    if cache and key:
        extraction.hashes = cache.store_extraction(key, extraction)
    return extraction


_WORKER_HASHES = ContentHashes(size=1024)
"""A worker's content hashes of what it reads, by the field values' identity: the rules and
stratagems a batch reads once (``errors.BatchMemo``) come back with each input holding the very
same values, so each is hashed once per worker."""


_SENT: set[str] = set()
"""The content hashes of the entities this worker has sent the main process in this run."""


def _start_worker() -> None:
    """A worker's start: it has sent nothing yet (a forked worker holds a copy of its parent's
    state, and the parent may have read as a worker does)."""
    _SENT.clear()


def _extract_chunk(jobs: list[tuple[Source, str | None, Cache | None]]) -> list[Extraction]:
    """``_extract_in_worker`` of each input of a chunk, in order: what one worker reads at once
    and sends back as one pickle (what the inputs share is sent once)."""
    return [_extract_in_worker(job) for job in jobs]


def _extract_in_worker(job: tuple[Source, str | None, Cache | None]) -> Extraction:
    """``extract_and_store`` in a worker, with its entities' content hashes worked out there
    (merge takes them, as it takes a cached entry's): the workers hash beside each other what
    the main process would hash alone after them. An entity whose copy this worker already
    sent in this run goes as a repeat (``merge.Repeat``: its sources, not its fields). Two
    facts keep that the merge of whole copies: ``assemble`` merges every result of the run's
    pool, so the copy a repeat stands for is always in the merge; and a worker takes its inputs
    in input order (chunks submitted in order), so the first copy of each hash in input order is always
    whole, as merge's first copy is. Pickling the fields again and unpickling them in the main
    process would cost a good part of reading them, and the main process's half competes with
    the workers for the cores (``scripts/BENCHMARKS.md``)."""
    from wahanorm.pipeline.merge import as_sent

    extraction = extract_and_store(job)
    if extraction.hashes is None:
        extraction.hashes = list(map(_WORKER_HASHES, extraction.entities))
    extraction.entities, extraction.hashes, extraction.repeats = as_sent(
        extraction.entities, extraction.hashes, _SENT
    )
    return extraction


def assemble(
    extractions: list[Extraction],
    run: Report,
    inputs: int,
    entity_data: bool = False,
    language: str | None = None,
) -> Conversion:
    """Merge the extractions of a run and render its output files (and keep each entity
    file's JSON value, with ``entity_data``)."""
    from wahanorm.pipeline.merge import merge_entities

    entities: list[Entity] = []
    known: dict[int, str] = {}  # content hashes by entity object, alive in ``entities``
    repeats: list[Repeat] = []
    failed: list[str] = []
    versions = sorted({x.data_version for x in extractions if x.data_version})
    for extraction in extractions:
        entities.extend(extraction.entities)
        repeats.extend(extraction.repeats)
        if extraction.hashes is not None:
            known.update(zip(map(id, extraction.entities), extraction.hashes, strict=True))
        run.extend(extraction.report)
        if (
            any(d.severity == "error" for d in extraction.report.diagnostics)
            and not extraction.entities
            and not extraction.repeats
        ):
            failed.append(extraction.path)
    merged = merge_entities(entities, run, known, repeats)
    data_version = ", ".join(versions) or None
    data: dict[str, Any] | None = {} if entity_data else None
    files = render_outputs(merged, run.diagnostics, data_version, data, language)
    return Conversion(
        files,
        merged,
        run.diagnostics,
        inputs,
        failed,
        data_version,
        entity_data=data,
        language=language,
    )
