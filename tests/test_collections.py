"""A run converts without cyclic garbage collection (``pipeline.run.fewer_collections``), and
leaves the collector as it found it: switched on or off as before, its thresholds, a process's
own frozen objects frozen; what the run made is not scanned again by the young generations, and
a cycle made in a run is still freed by a full collection."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest

from wahanorm import pipeline
from wahanorm.pipeline.run import fewer_collections


@pytest.fixture
def collector() -> Iterator[None]:
    """The collector's state put back after the test, whatever it did."""
    enabled, thresholds = gc.isenabled(), gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)
    (gc.enable if enabled else gc.disable)()


class _Node:
    def __init__(self) -> None:
        self.other: object = self


def test_no_collection_runs_while_a_run_converts(repo_cwd: Path, collector: None) -> None:
    gc.enable()
    gc.collect()
    collections: list[int] = []

    def note(phase: str, info: dict[str, int]) -> None:
        if phase == "start" and inside:
            collections.append(info["generation"])

    inside = False
    gc.callbacks.append(note)
    try:
        with fewer_collections():
            inside = True
            assert not gc.isenabled()
            conversion = pipeline.convert([Path("raw")])
            inside = False
    finally:
        gc.callbacks.remove(note)
    assert conversion.entities
    assert collections == []
    assert gc.isenabled()
    assert gc.get_count()[0] < 100  # the run's objects are no longer young: not scanned again


def test_the_collector_is_left_as_it_was(collector: None) -> None:
    gc.set_threshold(700, 10, 10)
    gc.disable()
    with fewer_collections():
        pass
    assert not gc.isenabled()
    assert gc.get_threshold() == (700, 10, 10)
    gc.enable()
    with fewer_collections():
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(ValueError), fewer_collections():
        raise ValueError("a failure inside the block")
    assert gc.isenabled()


def test_a_cycle_made_in_a_run_is_freed_by_a_full_collection(collector: None) -> None:
    gc.enable()
    with fewer_collections():
        cycle = _Node()
        alive = weakref.ref(cycle)
        del cycle
    assert alive() is not None  # waits for a full collection
    gc.collect()
    assert alive() is None


def test_objects_the_process_froze_stay_frozen(collector: None) -> None:
    gc.enable()
    gc.freeze()
    frozen = gc.get_freeze_count()
    assert frozen > 0
    with fewer_collections():
        made = [_Node() for _ in range(1000)]
    assert gc.get_freeze_count() == frozen
    assert gc.isenabled()
    del made


def test_no_collection_runs_while_a_crosscheck_reads_and_compares(collector: None) -> None:
    # ``diff`` and ``crosscheck`` load both sides and compare them through ``compare_sides``:
    # the entity files parsed are trees without cycles, scanned for nothing by full collections
    import io

    from wahanorm.cli.diff import compare_sides

    fixtures = Path(__file__).parent / "fixtures"
    gc.enable()
    seen: list[bool] = []

    def compare(a: object, b: object) -> int:
        seen.append(gc.isenabled())
        return 0

    err = io.StringIO()
    found = compare_sides(
        "crosscheck",
        str(fixtures / "export" / "wahapedia-10ed-2026-02-14"),
        str(fixtures / "bsdata" / "wh40k-10e-2026-02-14"),
        compare,
        err,
    )
    assert found == 0 and seen == [False]
    assert gc.isenabled()
    missing = compare_sides("crosscheck", str(fixtures / "no-such-folder"), ".", compare, err)
    assert missing is None and "no such file or folder" in err.getvalue()
    assert gc.isenabled()  # put back after an input error too
