"""Measure a whole child process: user CPU, wall time, peak resident memory (for the benches).

User CPU of a whole process (``os.wait4``) is the figure that stays put on a shared machine,
where wall and system time swing with other load; it counts the child and every process it
waited for (a worker pool included).
"""

from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from functools import cache

WAHANORM = [sys.executable, "-m", "wahanorm"]


@cache
def child_environment() -> dict[str, str]:
    """The environment of a measured child: this one, with bytecode written to and read from a
    temporary cache that already holds wahanorm's modules compiled."""
    folder = tempfile.mkdtemp(prefix="wahanorm-bench-bytecode-")
    atexit.register(shutil.rmtree, folder, True)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = folder
    import wahanorm  # where the package is: the installed one or the checkout's ``src/``

    package = os.path.dirname(wahanorm.__file__)
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", package],
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return env


@dataclass(frozen=True)
class Usage:
    """What one run of a command cost."""

    user: float
    wall: float
    peak_mib: float
    exit_code: int
    output: str = ""


def run_process(command: list[str], ok: tuple[int, ...] = (0, 1), capture: bool = False) -> Usage:
    """Run ``command`` to its end, its output thrown away (or kept in ``output`` when
    ``capture``); raise SystemExit on an exit code outside ``ok`` (wahanorm's 1 means "done,
    with findings")."""
    start = time.perf_counter()
    stdout = subprocess.PIPE if capture else subprocess.DEVNULL
    child = subprocess.Popen(
        command, stdout=stdout, stderr=subprocess.DEVNULL, text=True, env=child_environment()
    )
    output = child.stdout.read() if child.stdout else ""
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.returncode = code = os.waitstatus_to_exitcode(status)
    if code not in ok:
        raise SystemExit(f"{' '.join(command)} exited {code}")
    return Usage(usage.ru_utime, wall, usage.ru_maxrss / 1024, code, output)


def best_of(command: list[str], runs: int, ok: tuple[int, ...] = (0, 1)) -> Usage:
    """The least user CPU, wall and peak memory of ``runs`` runs of ``command``."""
    return best([run_process(command, ok) for _ in range(runs)])


def best(usages: list[Usage]) -> Usage:
    """The least of each figure of several runs."""
    return Usage(
        min(u.user for u in usages),
        min(u.wall for u in usages),
        min(u.peak_mib for u in usages),
        usages[-1].exit_code,
    )


def line(label: str, usage: Usage) -> str:
    """One printed line of figures."""
    return (
        f"  {label:<38} user {usage.user:6.2f} s  wall {usage.wall:6.2f} s  "
        f"peak {usage.peak_mib:4.0f} MiB"
    )
