"""Batches: the same bytes whatever the number of workers, and an incremental cache that makes a
rerun convert nothing, is keyed by content, and is safe to delete or damage."""

from __future__ import annotations

import shutil
from pathlib import Path

import orjson
import pytest

from wahanorm import pipeline
from wahanorm.contract.hashing import content_hash
from wahanorm.contract.models import SourceRef
from wahanorm.pipeline import run
from wahanorm.pipeline.cache import Cache
from wahanorm.readers.base import Entity

REPO = Path(__file__).resolve().parents[1]
SAMPLES = sorted((REPO / "raw").glob("*.txt"))
COPIES = 20


@pytest.fixture
def batch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """20 copies of the raw/ samples under different names, in ``tmp_path/in``."""
    assert len(SAMPLES) == 4
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "in"
    folder.mkdir()
    for n in range(COPIES):
        sample = SAMPLES[n % len(SAMPLES)]
        shutil.copy(sample, folder / f"{n:02d}-{sample.stem[4:]}.txt")
    return folder


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The inputs ``pipeline.extract`` is called on (in this process, so with jobs=1)."""
    seen: list[str] = []
    real = run.extract

    def counting(item, *rest):  # type: ignore[no-untyped-def]
        seen.append(item.display)
        return real(item, *rest)

    monkeypatch.setattr(run, "extract", counting)
    return seen


def test_same_bytes_whatever_the_worker_count(batch: Path) -> None:
    assert COPIES >= run.PARALLEL_MIN  # jobs=2 really starts workers
    serial = pipeline.convert([Path("in")], jobs=1)
    parallel = pipeline.convert([Path("in")], jobs=2)
    assert serial.inputs == parallel.inputs == COPIES
    assert serial.failed == parallel.failed == []
    assert list(serial.files) == list(parallel.files)
    assert serial.files == parallel.files
    # Every copy is a source of the merged entities: nothing was lost on the way.
    index = serial.files["index.json"]
    for n in range(COPIES):
        assert f'"path": "in/{n:02d}-' in index
    assert serial.counts()["datasheet"] == 4


@pytest.mark.parametrize("chunk", [1, COPIES])
def test_same_bytes_whatever_the_chunk(
    batch: Path, chunk: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker sends a chunk of inputs back at once (what they share, once): one input per
    chunk, or every input in one, gives what the serial run gives."""
    serial = pipeline.convert([Path("in")], jobs=1)
    monkeypatch.setattr(run, "CHUNK_MIN", chunk)
    monkeypatch.setattr(run, "CHUNK_MAX", chunk)
    parallel = pipeline.convert([Path("in")], jobs=2)
    assert parallel.files == serial.files
    assert parallel.rows() == serial.rows()


def test_same_bytes_from_workers_that_fill_the_cache_and_beside_what_it_holds(
    batch: Path, tmp_path: Path
) -> None:
    """Workers that store what they read (the hashes merge takes are the cache's), then a run
    that takes every other input from the cache and gives the rest to workers (the run's own
    record gone): each gives what the serial run without a cache gives."""
    serial = pipeline.convert([Path("in")], jobs=1)
    root = tmp_path / "c"
    filled = pipeline.convert([Path("in")], jobs=2, cache=Cache(root))
    assert (filled.files, filled.rows()) == (serial.files, serial.rows())
    inputs = sorted((root / "inputs").rglob("*.json"))
    assert len(inputs) == COPIES
    for entry in [*inputs[::2], *(root / "runs").rglob("*.json")]:
        entry.unlink()
    mixed = pipeline.convert([Path("in")], jobs=2, cache=Cache(root))
    assert (mixed.files, mixed.rows()) == (serial.files, serial.rows())


def test_cached_rerun_converts_nothing_and_gives_the_same_files(
    batch: Path, tmp_path: Path, calls: list[str]
) -> None:
    cache = Cache(tmp_path / "c")
    first = pipeline.convert([Path("in")], jobs=1, cache=cache)
    assert len(calls) == COPIES
    calls.clear()
    second = pipeline.convert([Path("in")], jobs=1, cache=Cache(tmp_path / "c"))
    assert calls == []
    assert second.files == first.files
    assert second.counts() == first.counts()
    assert [d.model_dump() for d in second.diagnostics] == [
        d.model_dump() for d in first.diagnostics
    ]
    uncached = pipeline.convert([Path("in")], jobs=1)
    assert uncached.files == first.files


class Stopped(Exception):
    """The run cut short from its progress callback, as a user's Ctrl-C would."""


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_run_cut_short_keeps_what_it_finished(
    batch: Path, tmp_path: Path, jobs: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each input's extraction is stored as it is finished (by the worker that read it): a run
    stopped after some inputs leaves them in the cache, and the next run reads only the others."""

    def stop_after_seven(done: int, total: int, note: str) -> None:
        if done >= 7:
            raise Stopped

    with pytest.raises(Stopped):
        pipeline.convert(
            [Path("in")], jobs=jobs, cache=Cache(tmp_path / "c"), progress=stop_after_seven
        )
    calls: list[str] = []
    real = run.extract
    monkeypatch.setattr(run, "extract", lambda item, *rest: calls.append(item) or real(item, *rest))
    rerun = pipeline.convert([Path("in")], jobs=1, cache=Cache(tmp_path / "c"))
    # the seven inputs finished before the stop (in input order, workers or not) come from
    # the cache; with workers, so does what they finished after it (the chunks they had begun;
    # the others are cancelled)
    if jobs == 1:
        assert len(calls) == COPIES - 7
    else:
        assert len(calls) <= COPIES - 7
    assert rerun.files == pipeline.convert([Path("in")], jobs=1).files


def test_cache_is_keyed_by_content(batch: Path, tmp_path: Path, calls: list[str]) -> None:
    cache = Cache(tmp_path / "c")
    pipeline.convert([Path("in")], jobs=1, cache=cache)
    changed = batch / "03-915fe25d03f9d2ef.txt"
    changed.write_text(changed.read_text().replace("Straken", "Strakken"))
    calls.clear()
    result = pipeline.convert([Path("in")], jobs=1, cache=cache)
    assert calls == ["in/03-915fe25d03f9d2ef.txt"]  # only the changed input again
    assert result.files == pipeline.convert([Path("in")], jobs=1).files
    assert any("strakken" in rel for rel in result.files)


def test_deleting_or_damaging_the_cache_is_safe(
    batch: Path, tmp_path: Path, calls: list[str]
) -> None:
    root = tmp_path / "c"
    reference = pipeline.convert([Path("in")], jobs=1, cache=Cache(root)).files
    entries = list(root.rglob("*.json"))
    assert len(entries) == COPIES + 2  # one per input; the run's record and its files
    cache = Cache(root)
    for entry in entries:  # truncated entries are dropped with a note, not errors
        entry.write_bytes(entry.read_bytes()[:10])
    calls.clear()
    assert pipeline.convert([Path("in")], jobs=1, cache=cache).files == reference
    assert len(calls) == COPIES
    assert len(cache.notes) == 1 + COPIES  # the run record, then each input; files never read
    assert all("damaged" in note for note in cache.notes)
    shutil.rmtree(root)
    calls.clear()
    assert pipeline.convert([Path("in")], jobs=1, cache=Cache(root)).files == reference
    assert len(calls) == COPIES
    calls.clear()
    assert pipeline.convert([Path("in")], jobs=1, cache=Cache(root)).files == reference
    assert calls == []


def test_a_damaged_run_files_entry_is_converted_again(
    batch: Path, tmp_path: Path, calls: list[str]
) -> None:
    root = tmp_path / "c"
    reference = pipeline.convert([Path("in")], jobs=1, cache=Cache(root)).files
    [files_entry] = list((root / "run-files").rglob("*.json"))
    files_entry.write_bytes(b"damaged")
    calls.clear()
    again = pipeline.convert([Path("in")], jobs=1, cache=Cache(root))
    assert calls == []  # the run's record still serves counts and diagnostics
    assert again.files == reference  # the files come from the inputs' entries again
    assert again.counts() == pipeline.convert([Path("in")], jobs=1).counts()


def test_cached_extractions_carry_each_entitys_content_hash(batch: Path, tmp_path: Path) -> None:
    """An input's cache entry holds the content hash of each of its entities, worked out from
    the dumps it stores; merge groups copies by them instead of dumping every copy again."""
    root = tmp_path / "c"
    first = pipeline.convert([Path("in")], jobs=1, cache=Cache(root))
    cache = Cache(root)
    keys = [p.stem for p in (root / "inputs").rglob("*.json")]
    assert len(keys) == COPIES
    for key in keys:
        extraction = cache.extraction(key)
        assert extraction is not None and extraction.hashes is not None
        assert extraction.entities
        assert extraction.hashes == [content_hash(e) for e in extraction.entities]
    assert cache.notes == []
    changed = batch / "03-915fe25d03f9d2ef.txt"
    changed.write_text(changed.read_text().replace("Straken", "Strakken"))
    rerun = pipeline.convert([Path("in")], jobs=1, cache=Cache(root))
    assert rerun.files == pipeline.convert([Path("in")], jobs=1).files != first.files


def test_an_entry_without_a_hash_per_entity_is_converted_again(
    batch: Path, tmp_path: Path, calls: list[str]
) -> None:
    root = tmp_path / "c"
    reference = pipeline.convert([Path("in")], jobs=1, cache=Cache(root)).files
    entry = next((root / "inputs").rglob("*.json"))
    _, _, body = entry.read_bytes().partition(b"\n")
    value = orjson.loads(body)
    value["hashes"] = value["hashes"][1:]  # one entity without its hash
    cache = Cache(root)
    cache._store("inputs", entry.stem, value)  # a sound entry of the wrong shape
    (root / "runs").rename(root / "runs-gone")  # so that the run reads its inputs' entries
    calls.clear()
    assert pipeline.convert([Path("in")], jobs=1, cache=cache).files == reference
    assert len(calls) == 1
    [note] = cache.notes
    assert "hashes are not one content hash per entity" in note


def test_copies_read_from_the_cache_share_what_they_say(batch: Path, tmp_path: Path) -> None:
    """A rule every page prints is validated once from the cache: in later entries the copy
    with the same content hash is that entity with its own sources. The rerun gives the bytes
    a conversion without cache gives."""
    root = tmp_path / "c"
    pipeline.convert([Path("in")], jobs=1, cache=Cache(root))
    cache, seen = Cache(root), {}
    keys = sorted(p.stem for p in (root / "inputs").rglob("*.json"))
    read = [cache.extraction(key, seen) for key in keys]
    assert cache.notes == [] and all(x is not None for x in read)
    copies: dict[str, list[Entity]] = {}
    for extraction in read:
        assert extraction is not None and extraction.hashes is not None
        assert extraction.hashes == [content_hash(e) for e in extraction.entities]
        for entity, digest in zip(extraction.entities, extraction.hashes, strict=True):
            copies.setdefault(digest, []).append(entity)
    shared = [group for group in copies.values() if len(group) > 1]
    assert len(shared) > 20  # the samples' rules and stratagems, in every copy of a sample
    for group in shared:
        first, *others = group
        assert len({tuple(map(_source_key, e.sources)) for e in group}) == len(group)
        for other in others:  # each field it says is the very same object
            assert all(
                vars(other)[name] is vars(first)[name] for name in vars(first) if name != "sources"
            )
    assert len(seen) == len(copies)
    changed = batch / "01-4ce5d9c8bc5975ce.txt"
    changed.write_text(changed.read_text() + "\n")
    rerun = pipeline.convert([Path("in")], jobs=1, cache=Cache(root))
    assert rerun.files == pipeline.convert([Path("in")], jobs=1).files


def test_a_damaged_entry_teaches_nothing(batch: Path, tmp_path: Path) -> None:
    root = tmp_path / "c"
    pipeline.convert([Path("in")], jobs=1, cache=Cache(root))
    entry = next((root / "inputs").rglob("*.json"))
    value = orjson.loads(entry.read_bytes().partition(b"\n")[2])
    value["diagnostics"] = [{"severity": "no such severity"}]  # its entities are sound
    cache, seen = Cache(root), {}
    cache._store("inputs", entry.stem, value)
    assert cache.extraction(entry.stem, seen) is None
    assert seen == {}
    [note] = cache.notes
    assert "not the shape of an extraction" in note


def _source_key(ref: SourceRef) -> tuple[str, int, int]:
    return ref.path, ref.line_start, ref.line_end


@pytest.mark.parametrize("damage", ["hashes swapped", "text changed"])
def test_an_entry_whose_hashes_are_not_its_entities_is_converted_again(
    batch: Path, tmp_path: Path, calls: list[str], damage: str
) -> None:
    """A sound entry (its header rewritten to match) whose content hashes are not those of what
    its entities say is damaged: dropped with a note and converted again, never trusted to group
    copies or to stand for the copies of later entries."""
    root = tmp_path / "c"
    reference = pipeline.convert([Path("in")], jobs=1, cache=Cache(root)).files
    entry = sorted((root / "inputs").rglob("*.json"))[0]
    value = orjson.loads(entry.read_bytes().partition(b"\n")[2])
    if damage == "hashes swapped":
        first, second = next(
            (i, j)
            for i, a in enumerate(value["hashes"])
            for j, b in enumerate(value["hashes"])
            if a != b
        )
        value["hashes"][first], value["hashes"][second] = (
            value["hashes"][second],
            value["hashes"][first],
        )
    else:
        changed = next(e for e in value["entities"] if e["kind"] == "rule")
        changed["name"] += " Tampered"
    cache = Cache(root)
    cache._store("inputs", entry.stem, value)
    shutil.rmtree(root / "runs")  # so that the run reads its inputs' entries
    calls.clear()
    again = pipeline.convert([Path("in")], jobs=1, cache=cache)
    assert again.files == reference
    assert not any("Tampered" in text for text in again.files.values())
    assert len(calls) == 1
    [note] = cache.notes
    assert "content hash is not that of what it says" in note


def test_a_run_record_with_a_severity_the_contract_lacks_is_damaged(
    batch: Path, tmp_path: Path, calls: list[str]
) -> None:
    root = tmp_path / "c"
    reference = pipeline.convert([Path("in")], jobs=1, cache=Cache(root))
    [record] = list((root / "runs").rglob("*.json"))
    body = orjson.loads(record.read_bytes().split(b"\n", 1)[1])
    assert body["rows"] and body["rows"][0][0] in ("error", "warning", "info")
    body["rows"][0][0] = "fatal"
    cache = Cache(root)
    cache._store("runs", record.stem, body)  # a sound entry (its hash holds) of a wrong row
    calls.clear()
    again = pipeline.convert([Path("in")], jobs=1, cache=cache)
    assert [n for n in cache.notes if "damaged" in n and "not a fatal" in n]
    assert again.rows() == reference.rows()
    assert again.files == reference.files


def test_an_input_entry_whose_diagnostic_line_is_text_is_damaged(
    batch: Path, tmp_path: Path, calls: list[str]
) -> None:
    root = tmp_path / "c"
    reference = pipeline.convert([Path("in")], jobs=1, cache=Cache(root))
    (root / "runs").rename(root / "runs-gone")  # so that the run reads its inputs' entries
    entry = next(
        e
        for e in (root / "inputs").rglob("*.json")
        if orjson.loads(e.read_bytes().split(b"\n", 1)[1])["diagnostics"]
    )
    body = orjson.loads(entry.read_bytes().split(b"\n", 1)[1])
    body["diagnostics"][0]["line"] = str(body["diagnostics"][0]["line"])
    cache = Cache(root)
    cache._store("inputs", entry.stem, body)  # a sound entry (its hash holds) of a wrong line
    calls.clear()
    again = pipeline.convert([Path("in")], jobs=1, cache=cache)
    assert [n for n in cache.notes if "damaged" in n and str(entry) in n]
    assert len(calls) == 1  # that input alone is read again
    assert again.rows() == reference.rows() and again.files == reference.files


@pytest.mark.parametrize("jobs", [1, 2])
def test_progress_names_the_input_being_read_and_what_follows_the_last(
    batch: Path, jobs: int
) -> None:
    """The progress display is told which input is read (never a bare count), that done rises
    to every input whatever order the workers end in, and what the run does after the last."""
    said: list[tuple[int, int, str]] = []
    pipeline.convert([Path("in")], jobs=jobs, progress=lambda *told: said.append(told))
    first = said[0]
    assert first[:2] == (0, COPIES) and first[2].startswith("in/00-")
    if jobs > 1:
        assert first[2].endswith(f"(and more, in {jobs} workers)")
    assert all(note for done, _, note in said if done < COPIES)  # an input is always named
    assert [done for done, _, _ in said] == sorted(done for done, _, _ in said)
    assert said[-1] == (COPIES, COPIES, "merging the copies of each entity, making its JSON")
