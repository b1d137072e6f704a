"""Benchmark: read BSData folders with the BSData reader.

    python scripts/bench_bsdata.py [FOLDER ...] [--stand-in COPIES]

For each folder (default: the two in ``../shared/bsdata``, and any folder given) it reads every
BattleScribe file of it as one data set, through the reader and the after-read chain
(``pipeline.read_path``), and prints the entities per kind, the diagnostics per severity, the
seconds of user CPU of the whole process (Python's start and the imports included) and of the
reading alone, and the peak resident memory. Each folder is read in a fresh process of its own
(``--one``), so its figures are its own; best of ``--runs`` runs. Then the whole conversion,
``wahanorm convert FOLDER --no-cache --out TMP``, as a process of its own.

``--stand-in COPIES`` also reads a stand-in for a whole repository (BSData/wh40k-10e holds 47
files, about 50 MB): the shared 10th-edition game system once and its five catalogues
``COPIES`` times (9: 46 files), each copy with its own ids, written to a temporary folder.
"""

from __future__ import annotations

import argparse
import json
import re
import resource
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from process_usage import WAHANORM, best_of, line, run_process

SHARED = Path(__file__).resolve().parents[2] / "shared" / "bsdata"
TENTH = SHARED / "wh40k-10e-2026-02-14"
_ID = re.compile(rb'\bid="([^"]+)"')


def read_one(folder: Path) -> dict[str, object]:
    """Read ``folder`` in this process; the figures as a dict."""
    from wahanorm.pipeline import read_path  # imported here: timed with the read

    files = [p for p in sorted(folder.iterdir()) if p.is_file()]
    before = resource.getrusage(resource.RUSAGE_SELF).ru_utime
    wall = time.perf_counter()
    extraction = read_path(folder, folder.name)
    user = resource.getrusage(resource.RUSAGE_SELF).ru_utime - before
    return {
        "folder": str(folder),
        "files": len(files),
        "megabytes": round(sum(p.stat().st_size for p in files) / 1e6, 1),
        "kinds": dict(sorted(Counter(e.kind for e in extraction.entities).items())),
        "diagnostics": dict(Counter(d.severity for d in extraction.report.diagnostics)),
        "user_seconds": round(user, 2),
        "wall_seconds": round(time.perf_counter() - wall, 2),
        "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024,
    }


def make_stand_in(target: Path, copies: int) -> Path:
    """The shared 10th-edition data set as a whole repository would be: its game system once,
    its catalogues ``copies`` times, every id a catalogue defines renamed in each copy (so the
    copies link within themselves and into the one game system)."""
    catalogues = [p for p in sorted(TENTH.iterdir()) if p.suffix == ".cat"]
    texts = {p: p.read_bytes() for p in catalogues}
    own = {m.group(1) for data in texts.values() for m in _ID.finditer(data)}
    quoted = re.compile(
        rb'"(' + b"|".join(re.escape(i) for i in sorted(own, key=len)[::-1]) + rb')"'
    )
    target.mkdir(parents=True, exist_ok=True)
    for path in TENTH.iterdir():
        if path.suffix == ".gst":
            (target / path.name).write_bytes(path.read_bytes())
    for copy in range(copies):
        suffix = f"-c{copy}".encode()

        def renamed_id(found: re.Match[bytes], suffix: bytes = suffix) -> bytes:
            return b'"' + found.group(1) + suffix + b'"'

        for path, data in texts.items():
            renamed = quoted.sub(renamed_id, data)
            (target / f"{path.stem} {copy}{path.suffix}").write_bytes(renamed)
    return target


def _run(folder: Path, runs: int) -> int:
    one = [sys.executable, __file__, "--one", str(folder)]
    usages = [run_process(one, (0,), capture=True) for _ in range(max(runs, 1))]
    figures = json.loads(usages[0].output)
    reading = min(json.loads(u.output)["user_seconds"] for u in usages)
    print(f"{figures['folder']}: {figures['files']} files, {figures['megabytes']} MB")
    print("  entities     " + ", ".join(f"{k} {v}" for k, v in figures["kinds"].items()))
    print("  diagnostics  " + ", ".join(f"{k} {v}" for k, v in figures["diagnostics"].items()))
    print(f"  user CPU of the reading alone: {reading:.2f} s (best of {runs})")
    whole = min(usages, key=lambda u: u.user)
    print(line("read (reader + chain), whole process", whole))
    with tempfile.TemporaryDirectory(prefix="bench-bsdata-") as tmp:
        command = [*WAHANORM, "convert", str(folder), "--no-cache", "--out", f"{tmp}/out"]
        print(line("wahanorm convert --no-cache", best_of(command, runs)))
    return 0


def main() -> int:
    """Read each folder in a child process and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folders", nargs="*", type=Path)
    parser.add_argument("--stand-in", type=int, metavar="COPIES", default=0)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--one", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(read_one(args.one)))
        return 0
    folders = [p for p in sorted(SHARED.glob("*")) if p.is_dir()] + list(args.folders)
    if not folders and not args.stand_in:
        print(f"no folder given and none found in {SHARED}", file=sys.stderr)
        return 2
    for folder in folders:
        if _run(folder, args.runs):
            return 1
    if args.stand_in:
        if not TENTH.is_dir():
            print(f"{TENTH} is absent: no stand-in", file=sys.stderr)
            return 2
        with tempfile.TemporaryDirectory(prefix="bsdata-stand-in-") as tmp:
            return _run(make_stand_in(Path(tmp) / "stand-in", args.stand_in), args.runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
