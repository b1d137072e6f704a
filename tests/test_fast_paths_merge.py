"""The fast path of issue 20 in merge: ``hashing.ContentHashes`` hashes each set of field objects
once. A batch reads a rule every page prints once (``errors.BatchMemo``) and gives it again with
each page's source, so its copies hold the very same objects in every field they say; they share
one hash without another ``model_dump``. Held here to ``content_hash`` itself: on the copies of a
real batch, on copies that are equal in other objects, on a copy with one field changed, and on
the merged output of a batch, byte for byte."""

from __future__ import annotations

from pathlib import Path

import pytest

from wahanorm import pipeline
from wahanorm.contract import hashing
from wahanorm.contract.hashing import ContentHashes, content_hash
from wahanorm.contract.models import SourceRef
from wahanorm.errors import BatchMemo, Report
from wahanorm.outputs.canonical import render_outputs
from wahanorm.pipeline import merge
from wahanorm.pipeline.merge import merge_entities
from wahanorm.readers.base import Entity, Source

REPO = Path(__file__).resolve().parents[1]
SAMPLES = sorted((REPO / "raw").glob("*.txt"))
EXPORT = REPO / "tests" / "fixtures" / "export" / "wahapedia-10ed-2026-02-14"


def batch_entities(copies: int = 3) -> list[Entity]:
    """The entities of the raw/ samples read ``copies`` times under other names in one process
    (its batch memos shared, as in a batch), then the committed export fixture."""
    assert len(SAMPLES) == 4
    BatchMemo.clear_all()
    entities: list[Entity] = []
    for n in range(copies):
        for sample in SAMPLES:
            text = sample.read_text(encoding="utf-8")
            entities += pipeline.read_text(text, f"in/{n}-{sample.name}", html=False).entities
    entities += pipeline.read_path(EXPORT, "export").entities
    return entities


@pytest.fixture(scope="module")
def entities() -> list[Entity]:
    return batch_entities()


@pytest.fixture
def counted(entities: list[Entity], monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The ids of the entities ``content_hash`` is computed for by ``ContentHashes`` (patched
    once the batch is read: the after-read chain hashes too)."""
    seen: list[str] = []

    def counting(entity: Entity) -> str:
        seen.append(entity.id)
        return content_hash(entity)

    monkeypatch.setattr(hashing, "content_hash", counting)
    return seen


def test_copies_of_a_batch_are_hashed_once_and_alike(
    entities: list[Entity], counted: list[str]
) -> None:
    hashes = ContentHashes()
    for entity in entities:
        assert hashes(entity) == content_hash(entity)
    # One hash per distinct set of said field objects, and the samples' rules and stratagems
    # read again in copies 2 and 3 share theirs: well under half the entities were hashed.
    said = {
        (type(e), tuple(id(v) for k, v in vars(e).items() if k not in hashing.UNSAID))
        for e in entities
    }
    assert len(counted) == len(said) < len(entities) / 2


def test_equal_values_in_other_objects_are_hashed_again_and_alike(
    entities: list[Entity], counted: list[str]
) -> None:
    entity = next(e for e in entities if e.kind == "stratagem")
    hashes = ContentHashes()
    first = hashes(entity)
    moved = entity.model_copy(update={"sources": [SourceRef(path="x", line_start=1, line_end=2)]})
    assert hashes(moved) == first  # another source: the same objects said, not hashed again
    assert len(counted) == 1
    deep = entity.model_copy(deep=True)  # equal values, new objects: hashed, and alike
    assert hashes(deep) == first
    assert len(counted) == 2
    renamed = entity.model_copy(update={"name": entity.name + " II"})
    assert hashes(renamed) == content_hash(renamed) != first
    assert len(counted) == 3


def test_merge_gives_the_bytes_plain_hashes_give(
    entities: list[Entity], monkeypatch: pytest.MonkeyPatch
) -> None:
    fast_report = Report()
    fast = render_outputs(merge_entities(entities, fast_report), fast_report.diagnostics)

    class Plain:
        def __call__(self, entity: Entity) -> str:
            return content_hash(entity)

    monkeypatch.setattr(merge, "ContentHashes", Plain)
    plain_report = Report()
    plain = render_outputs(merge_entities(entities, plain_report), plain_report.diagnostics)
    assert fast == plain
    assert fast_report.diagnostics == plain_report.diagnostics
    # a real merge: the samples' entities carry the sources of all three copies
    assert '"path": "in/2-' in fast["index.json"]
    assert max(len(e.sources) for e in merge_entities(entities, Report())) >= 3


def test_merge_takes_the_hashes_it_is_given(entities: list[Entity], counted: list[str]) -> None:
    """Copies whose content hash is known (an extraction read from the cache) are not hashed
    again (but for a version renamed), and the merge is the one that hashes them itself."""
    plain_report = Report()
    plain = render_outputs(merge_entities(entities, plain_report), plain_report.diagnostics)
    assert counted  # merging alone hashes the copies it groups
    known = {id(e): content_hash(e) for e in entities}
    counted.clear()
    given_report = Report()
    given = render_outputs(merge_entities(entities, given_report, known), given_report.diagnostics)
    # only a version merge renames (one name in two notations: ``DEEP STRIKE`` / ``Deep
    # Strike``) is hashed again, its content being new
    spellings: dict[str, set[str]] = {}
    for entity in entities:
        spellings.setdefault(entity.id, set()).add(entity.name)
    assert set(counted) <= {i for i, names in spellings.items() if len(names) > 1}
    assert given == plain
    assert given_report.diagnostics == plain_report.diagnostics


def test_a_bounded_hasher_keeps_the_latest_and_hashes_what_it_dropped_again(
    entities: list[Entity], counted: list[str]
) -> None:
    hashes = ContentHashes(size=2)
    first, second, third = entities[:3]
    assert [hashes(e) for e in (first, second, first)] == [
        content_hash(e) for e in (first, second, first)
    ]
    assert counted == [first.id, second.id]
    assert hashes(third) == content_hash(third)  # the first goes
    assert hashes(first) == content_hash(first)  # and is hashed again
    assert counted == [first.id, second.id, third.id, first.id]


def two_copies_of_the_samples(folder: Path) -> list[Source]:
    """The raw/ samples copied twice under other names into ``folder``, as the inputs of a run."""
    from wahanorm.pipeline.discover import discover

    for n in range(2):
        for sample in SAMPLES:
            (folder / f"{n}-{sample.name}").write_bytes(sample.read_bytes())
    sources, _, _ = discover([folder])
    return sources


def test_a_worker_gives_the_content_hash_of_each_entity_it_read(tmp_path: Path) -> None:
    # A parallel run's workers hash what they read (merge takes it, as a cached entry's): each
    # hash is the entity's own, for what the batch memo gave again too. In worker processes,
    # two copies of each sample.
    from concurrent.futures import ProcessPoolExecutor

    from wahanorm.pipeline import run

    sources = two_copies_of_the_samples(tmp_path)
    assert len(sources) == 8
    with ProcessPoolExecutor(max_workers=2, initializer=run._start_worker) as pool:
        extractions = list(pool.map(run._extract_in_worker, [(s, None, None) for s in sources]))
    for extraction in extractions:
        assert extraction.hashes == [content_hash(e) for e in extraction.entities]
    assert sum(len(x.entities) for x in extractions) > 100


def test_a_worker_hashes_what_the_batch_memo_gave_again_once(
    tmp_path: Path, counted: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Read as a worker reads (in this process, to count): the second copy of each sample gives
    # the rules and stratagems the memo kept, with the very same values, hashed once.
    from wahanorm.pipeline import run

    sources = two_copies_of_the_samples(tmp_path)
    monkeypatch.setattr(run, "_WORKER_HASHES", ContentHashes(size=1024))
    monkeypatch.setattr(run, "_SENT", set())
    BatchMemo.clear_all()
    extractions = [run._extract_in_worker((s, None, None)) for s in sources]
    entities = [e for x in extractions for e in x.entities]
    assert [h for x in extractions for h in x.hashes or []] == [
        hashing.hash_of(hashing.said_of(e.model_dump(mode="json"))) for e in entities
    ]
    read = len(entities) + sum(len(x.repeats) for x in extractions)
    hashed = len(counted)
    assert len(entities) > 100
    assert hashed <= read // 2  # the second copies, the memo's, were not hashed again
