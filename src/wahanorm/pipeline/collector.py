"""The garbage collector's policy for a run, in one place (speed machinery: the domain code
reads as if it were not here). ``scripts/BENCHMARKS.md`` has what each step saves.

A run makes millions of objects that live to its end and almost no cycles, and a collection
scans every object made since the last one; so while a run converts or compares, the collector
is off (``fewer_collections``), what the run made is handed to the oldest generation unscanned,
what it leaves is frozen while the command prints and writes it (``frozen``), and the program
freezes what is left before the process ends (``frozen_to_the_end``), where the last collection
would scan it all only to free a few objects.

The collector is the whole process's: it is changed only while a run is the process's one
thread (a command, a script). Beside other threads (a service calling ``wahanorm.convert``) it
is left as it is."""

from __future__ import annotations

import contextlib
import gc
import threading
from collections.abc import Iterator


@contextlib.contextmanager
def fewer_collections() -> Iterator[None]:
    """No cyclic garbage collection while a block runs; what the block made is then handed to
    the collector's oldest generation without a scan (``gc.freeze`` then ``gc.unfreeze``). The
    few cycles a run makes wait for the next full collection; peak memory stays the same. Where
    the process froze objects of its own (``gc.freeze`` before a fork), they are left frozen and
    the block's objects stay young.

    Python starts a full collection soon after, in a process that has not made one since its old
    generation grew, and it walks every object of the run; so what a run does after converting
    (storing its record, a row per diagnostic) is inside the block, and ``frozen`` covers what
    the command does with the result."""
    if threading.active_count() > 1:
        yield
        return
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if gc.get_freeze_count() == 0:
            gc.freeze()
            gc.unfreeze()
        if collecting:
            gc.enable()


@contextlib.contextmanager
def frozen() -> Iterator[None]:
    """What a run leaves, frozen while the command prints and writes it (a full collection would
    otherwise start over all of it); put back after, so that a process that goes on (a test, a
    script) collects as before. Where the process froze objects of its own, nothing more is
    frozen."""
    if gc.get_freeze_count():
        yield
        return
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def frozen_to_the_end() -> None:
    """Everything the process holds, frozen for good: the program calls it just before it ends,
    so that the last collection at exit does not scan what the system takes back anyway."""
    gc.freeze()
