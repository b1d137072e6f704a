"""A run converts without cyclic garbage collection (``pipeline.collector.fewer_collections``), and
leaves the collector as it found it: switched on or off as before, its thresholds, a process's
own frozen objects frozen, and alone beside another thread; what the run made is not scanned again by the young generations, and
a cycle made in a run is still freed by a full collection."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import threading
import tomllib
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from wahanorm import pipeline
from wahanorm.pipeline import run
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


def test_no_collection_runs_while_a_run_converts(
    repo_cwd: Path, collector: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    gc.enable()
    gc.collect()
    collections: list[int] = []
    inside = [False]

    def note(phase: str, info: dict[str, int]) -> None:
        if phase == "start" and inside[0]:
            collections.append(info["generation"])

    real = run._extract_all

    def reading(*args: Any, **named: Any) -> Any:  # the run's reading, marked
        inside[0] = True
        try:
            return real(*args, **named)
        finally:
            inside[0] = False

    monkeypatch.setattr(run, "_extract_all", reading)
    assert threading.active_count() == 1, "a thread left by an earlier test: the run collects"
    gc.callbacks.append(note)
    try:
        conversion = pipeline.convert([Path("raw")])  # its own block, none of the test's
    finally:
        gc.callbacks.remove(note)
    assert conversion.entities
    assert collections == []  # at Python's thresholds the raw samples take dozens
    assert gc.isenabled()
    assert gc.get_count()[0] < 100  # the run's objects are no longer young: not scanned again


def test_beside_another_thread_the_collector_is_left_alone(collector: None) -> None:
    gc.enable()
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        with fewer_collections():
            assert gc.isenabled()  # the other thread's garbage is collected as ever
            made = [_Node() for _ in range(1000)]
            assert gc.get_count()[0] > 0
    finally:
        stop.set()
        other.join()
    del made


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


_ON_A_TERMINAL = """
import contextlib, threading
import wahanorm.pipeline.run as run
real, threads = run.fewer_collections, []

@contextlib.contextmanager
def counted():
    threads.append(threading.active_count())
    with real():
        yield

run.fewer_collections = counted
import wahanorm.cli as cli
code = cli.main(["convert", "raw", "--no-cache", "--out", OUT])
print(code, sorted(set(threads)))
"""


def test_on_a_terminal_the_progress_bar_starts_no_thread(repo_cwd: Path, tmp_path: Path) -> None:
    # tqdm's monitor thread would leave the collector on for the whole run (a second thread).
    leader, follower = os.openpty()
    try:
        done = subprocess.run(
            [sys.executable, "-c", _ON_A_TERMINAL.replace("OUT", repr(str(tmp_path / "out")))],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=follower,  # a terminal: the progress bar is drawn
            text=True,
            check=True,
            timeout=300,
        )
    finally:
        os.close(follower)
        os.close(leader)
    code, threads = done.stdout.strip().splitlines()[-1].split(" ", 1)
    assert code in ("0", "1")
    assert threads == "[1]"


_AT_EXIT = """
import atexit, gc, sys
atexit.register(lambda: print("frozen at exit:", gc.get_freeze_count() > 0, file=sys.stderr))
sys.argv = ["wahanorm", "convert", "raw", "--no-cache", "--out", OUT]
from wahanorm.cli import command
command()
"""


def test_the_program_leaves_its_objects_frozen_to_the_end(repo_cwd: Path, tmp_path: Path) -> None:
    # Python's last collection at exit would scan every object a run leaves (0.19 s of a whole
    # export) only to free a few; the console script and ``python -m wahanorm`` both end so.
    child = _AT_EXIT.replace("OUT", repr(str(tmp_path / "out")))
    done = subprocess.run(
        [sys.executable, "-c", child], capture_output=True, text=True, timeout=300
    )
    assert done.returncode in (0, 1), done.stderr
    assert "frozen at exit: True" in done.stderr
    assert (tmp_path / "out" / "index.json").is_file()
    scripts = tomllib.loads((repo_cwd / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts == {"wahanorm": "wahanorm.cli:command"}
    assert "command()" in (repo_cwd / "src" / "wahanorm" / "__main__.py").read_text()


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


_AFTER_THE_RUN = """
import contextlib, gc
gc.set_threshold(100, 2, 2)  # Python's own thresholds are reached by some 1,000 pages
import wahanorm.pipeline.run as run
from wahanorm.outputs.folder import OutputFolder
real_block, real_write = run.fewer_collections, OutputFolder.write
after, left, walked, writing, depth = [False], [0], [], [], [0]

@contextlib.contextmanager
def marked():  # the run's own block (each input's extraction has one inside it)
    depth[0] += 1
    try:
        with real_block():
            yield
    finally:
        depth[0] -= 1
    if depth[0] == 0:
        after[0], left[0] = True, len(gc.get_objects())

def note(phase, info):
    if phase == "start" and after[0] and info["generation"] == 2:
        walked.append(len(gc.get_objects(generation=2)))

def write(self, files):
    writing.append(len(gc.get_objects(generation=2)))
    return real_write(self, files)

run.fewer_collections, OutputFolder.write = marked, write
gc.callbacks.append(note)
import wahanorm.cli as cli
code = cli.main(["convert", "in", "--cache", "c", "--out", "out", "--quiet"])
print(code, left[0], walked, writing, gc.get_freeze_count())
"""


def test_what_a_run_leaves_is_not_walked_by_the_command_after_it(
    repo_cwd: Path, tmp_path: Path
) -> None:
    """After its block, a run made in a fresh process would start a full collection over all of
    it as soon as some more objects were made (its old generation's count is stale): 1.3 s
    after a rerun of 1,000 pages from the cache. The run stores its cache entries inside the
    block, and ``convert`` freezes what the run leaves while it prints and writes, and puts it
    back after (a process that calls ``main`` goes on collecting as before)."""
    folder = tmp_path / "in"
    folder.mkdir()
    samples = sorted((repo_cwd / "raw").glob("*.txt"))
    for n in range(20):
        (folder / f"{n:02d}-{samples[n % 4].name}").write_bytes(samples[n % 4].read_bytes())
    done = subprocess.run(
        [sys.executable, "-c", _AFTER_THE_RUN],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    code, rest = done.stdout.strip().splitlines()[-1].split(" ", 1)
    left, rest = rest.split(" ", 1)
    walked, writing, frozen = rest.rsplit(" ", 2)
    run_objects = int(left)
    assert code == "0" and run_objects > 50_000  # the run's objects, in the old generation
    full = [int(n) for n in walked.strip("[]").split(",") if n.strip()]
    assert all(n < run_objects / 10 for n in full)  # a full collection walks only what is new
    [at_write] = [int(n) for n in writing.strip("[]").split(",")]
    assert at_write < run_objects / 10  # frozen before the files are written
    assert frozen == "0"  # and put back once they are
