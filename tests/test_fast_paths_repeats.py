"""Issue 20's fast path between a parallel run's workers and its main process: a worker sends an
entity it already sent in the run as a ``merge.Repeat`` (its key, hash, name and sources), and
merge adds a repeat's sources to the copies it repeats. Held here to merging whole copies, byte
for byte and diagnostic for diagnostic: on the copies of a real batch, with a conflict and an id
two names share, and a copy whose name merge cleans, which is never a repeat; in real worker
processes, for what they send, and for a worker forked from a process that had sent entities
itself."""

from __future__ import annotations

import multiprocessing
import pickle
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from test_fast_paths_merge import batch_entities, two_copies_of_the_samples
from wahanorm import pipeline
from wahanorm.contract.hashing import content_hash
from wahanorm.contract.models import SourceRef
from wahanorm.errors import Report
from wahanorm.outputs.canonical import render_outputs
from wahanorm.pipeline import run
from wahanorm.pipeline.after_read import Extraction
from wahanorm.pipeline.merge import Repeat, as_sent, merge_entities
from wahanorm.readers.base import Entity


@pytest.fixture(scope="module")
def entities() -> list[Entity]:
    return batch_entities()


def sent_once(copies: list[Entity]) -> tuple[list[Entity], dict[int, str], list[Repeat]]:
    """``copies`` as one worker sends them (``merge.as_sent``): the first of each content hash
    whole, with its hash known, and every later one as a repeat."""
    whole, hashes, repeats = as_sent(copies, [content_hash(e) for e in copies], set())
    return whole, dict(zip(map(id, whole), hashes, strict=True)), repeats


def merged_files(
    copies: list[Entity], known: dict[int, str] | None = None, repeats: list[Repeat] | None = None
) -> tuple[dict[str, str], list[object]]:
    report = Report()
    files = render_outputs(merge_entities(copies, report, known, repeats or []), report.diagnostics)
    return files, list(report.diagnostics)


def source(path: str, line: int) -> list[SourceRef]:
    return [SourceRef(path=path, line_start=line, line_end=line + 1)]


def test_repeats_merge_as_the_whole_copies_they_stand_for(entities: list[Entity]) -> None:
    whole, known, repeats = sent_once(entities)
    assert len(repeats) > len(whole)  # three copies of the samples: most are repeats
    assert merged_files(whole, known, repeats) == merged_files(entities)


def test_a_repeat_of_a_copy_that_disagrees_is_a_source_of_that_variant(
    entities: list[Entity],
) -> None:
    # Another copy of a stratagem under another name gives one id to two names and disagrees
    # with the others: a variant, an id collision and a conflict; a repeat of it is one more
    # source of that variant, not of the stratagem most sources agree on.
    stratagem = next(e for e in entities if e.kind == "stratagem")
    other = stratagem.model_copy(update={"name": stratagem.name + " II", "sources": source("z", 1)})
    again = other.model_copy(update={"sources": source("z", 9)})
    copies = [*entities, other, again]
    whole, known, repeats = sent_once(copies)
    assert any(r.sources == (("z", 9, 10),) for r in repeats)
    files, diagnostics = merged_files(whole, known, repeats)
    assert (files, diagnostics) == merged_files(copies)
    codes = {getattr(d, "code", None) for d in diagnostics}
    assert {"conflict", "id-collision"} <= codes
    assert '"path": "z"' in files["index.json"]


def test_a_copy_whose_name_merge_cleans_is_sent_whole_and_said_in_the_order_read(
    entities: list[Entity], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Three inputs as a worker gives them: a rule whose name has a bidi override in the first
    # two, after it in the second another such rule, and a plain rule in the first and the
    # last. Only the plain rule's second copy is a repeat: each unsafe copy is whole, so merge
    # cleans it and says so at its own source, in the order read (a repeat made whole again at
    # merge would be said after the second input's other rule).
    rule, other, third = [e for e in entities if e.kind == "rule"][:3]
    unsafe = rule.model_copy(update={"name": rule.name + "\u202e", "sources": source("a", 1)})
    also = third.model_copy(update={"name": third.name + "\x1b", "sources": source("b", 5)})
    given = {
        "a": [unsafe, other.model_copy(update={"sources": source("a", 3)})],
        "b": [unsafe.model_copy(update={"sources": source("b", 1)}), also],
        "c": [other.model_copy(update={"sources": source("c", 2)})],
    }

    def read(job: tuple[object, None, None]) -> Extraction:
        return Extraction(str(job[0]), list(given[str(job[0])]))

    monkeypatch.setattr(run, "extract_and_store", read)
    monkeypatch.setattr(run, "_SENT", set())
    sent = [run._extract_in_worker((name, None, None)) for name in given]  # type: ignore[arg-type]
    assert [(len(x.entities), len(x.repeats)) for x in sent] == [(2, 0), (2, 0), (0, 1)]
    assert sent[2].repeats[0].name == other.name
    whole = [e for copies in given.values() for e in copies]
    files, diagnostics = merged_files(
        [e for x in sent for e in x.entities],
        {id(e): h for x in sent for e, h in zip(x.entities, x.hashes or [], strict=True)},
        [r for x in sent for r in x.repeats],
    )
    assert (files, diagnostics) == merged_files(whole)
    said = [d for d in diagnostics if getattr(d, "code", None) == "unsafe-characters"]
    assert [(d.path, d.line) for d in said] == [("a", 1), ("b", 1), ("b", 5)]  # type: ignore[attr-defined]


def test_a_repeat_whose_copy_is_not_in_the_run_is_a_bug_never_a_silent_merge(
    entities: list[Entity],
) -> None:
    rule = next(e for e in entities if e.kind == "rule")
    lost = Repeat.of(rule, "0" * 16)
    with pytest.raises(RuntimeError, match="whose copy is not in the run"):
        merge_entities([], Report(), {}, [lost])  # no copy of its id at all
    with pytest.raises(RuntimeError, match="whose copy is not in the run"):
        merge_entities([rule], Report(), {id(rule): content_hash(rule)}, [lost])  # another hash
    unsafe = rule.model_copy(update={"name": rule.name + "\x1b"})
    with pytest.raises(RuntimeError, match="whose name merge must clean"):
        merge_entities([unsafe], Report(), {}, [Repeat.of(unsafe, content_hash(unsafe))])


def test_an_input_a_worker_sent_as_repeats_only_is_not_failed(entities: list[Entity]) -> None:
    rule = next(e for e in entities if e.kind == "rule")
    digest = content_hash(rule)
    first = Extraction("a", [rule], hashes=[digest])
    report = Report()
    report.error("missing-field", "a datasheet row without a name; left out")
    second = Extraction("b", [], report, repeats=[Repeat.of(rule, digest)])
    second.repeats[0] = second.repeats[0]._replace(sources=(("b", 4, 5),))
    conversion = run.assemble([first, second], Report(), 2)
    assert conversion.failed == []
    assert [s.path for s in conversion.entities[0].sources] == sorted(
        [*(s.path for s in rule.sources), "b"]
    )


def test_a_worker_sends_what_it_sent_before_as_repeats(tmp_path: Path) -> None:
    # In one real worker process: the second copy of each sample says what the first said, so
    # all of it comes as repeats, as many as the first copy's entities, with their own sources.
    # (The samples share some rules and stratagems: the first copy has repeats too.) Whole
    # copies and repeats together are what each input reads: the same hashes and sources.
    sources = two_copies_of_the_samples(tmp_path)
    jobs = [(s, None, None) for s in sources]
    with ProcessPoolExecutor(max_workers=1, initializer=run._start_worker) as pool:
        sent = list(pool.map(run._extract_in_worker, jobs))
    first, second = sent[:4], sent[4:]
    assert all(x.entities for x in first)
    assert all(not x.entities and x.repeats for x in second)
    assert [len(x.repeats) for x in second] == [len(x.entities) + len(x.repeats) for x in first]
    for item, extraction in zip(sources, sent, strict=True):
        whole = zip(extraction.hashes or [], extraction.entities, strict=True)
        given = [(h, keys(e)) for h, e in whole] + [(r.hash, r.sources) for r in extraction.repeats]
        assert sorted(given) == sorted(
            (content_hash(e), keys(e)) for e in run.extract(item).entities
        )


def keys(entity: Entity) -> tuple[tuple[str, int, int], ...]:
    """An entity's sources as a repeat gives them."""
    return Repeat.of(entity, "").sources


@pytest.mark.skipif(
    "fork" not in multiprocessing.get_all_start_methods(), reason="no fork on this platform"
)
def test_a_forked_worker_has_sent_nothing_whatever_its_parent_sent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # This process reads as a worker does first, so the hashes it "sent" are in the state a
    # forked worker starts from; a pool's worker still sends every entity whole once, and so
    # does a run's, whatever the start method.
    monkeypatch.setattr(run, "_SENT", set())
    sources = two_copies_of_the_samples(tmp_path)
    for item in sources:
        run._extract_in_worker((item, None, None))
    assert run._SENT
    fork = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(1, mp_context=fork, initializer=run._start_worker) as pool:
        fresh = pool.submit(run._extract_in_worker, (sources[0], None, None)).result()
    assert fresh.entities and not fresh.repeats
    parallel = pipeline.convert([tmp_path], jobs=2)
    serial = pipeline.convert([tmp_path], jobs=1)
    assert parallel.files == serial.files
    assert parallel.diagnostics == serial.diagnostics


def test_an_extraction_crosses_to_the_main_process_with_its_repeats_as_plain_tuples(
    entities: list[Entity],
) -> None:
    whole, _known, repeats = sent_once(entities)
    sent = Extraction("a.txt", whole[:1], repeats=repeats)
    sent.report.warning("missing-entry", "an entry is missing", line=3)
    wire = pickle.dumps(sent)
    assert b"Repeat" not in wire and b"DiagnosticRow" not in wire  # no call per row
    back = pickle.loads(wire)
    assert back.repeats == repeats and all(type(r) is Repeat for r in back.repeats)
    assert back.entities == whole[:1] and back.report == sent.report
