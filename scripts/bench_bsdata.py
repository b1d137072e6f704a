"""Benchmark: read BSData folders with the BSData reader.

    python scripts/bench_bsdata.py [FOLDER ...]

For each folder (default: the two in ``../shared/bsdata``, and any folder given) it reads every
``.cat``/``.gst``/``.json`` file of it as one data set and prints the entities per kind, the
diagnostics per severity, the seconds of user CPU the reading took and the peak resident memory.
Each folder is read in a fresh process of its own (``--one``), so its peak memory is its own.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

SHARED = Path(__file__).resolve().parents[2] / "shared" / "bsdata"


def read_one(folder: Path) -> dict[str, object]:
    """Read ``folder`` in this process; the figures as a dict."""
    from wahanorm.readers.bsdata import (  # imported here: timed with the read
        SUFFIXES,
        read_catalogues,
    )

    files = [
        (p, f"{folder.name}/{p.name}")
        for p in sorted(folder.iterdir())
        if p.suffix.lower() in SUFFIXES
    ]
    before = resource.getrusage(resource.RUSAGE_SELF).ru_utime
    wall = time.perf_counter()
    extraction = read_catalogues(files)
    user = resource.getrusage(resource.RUSAGE_SELF).ru_utime - before
    return {
        "folder": str(folder),
        "files": len(files),
        "megabytes": round(sum(p.stat().st_size for p, _ in files) / 1e6, 1),
        "kinds": dict(sorted(Counter(e.kind for e in extraction.entities).items())),
        "diagnostics": dict(Counter(d.severity for d in extraction.report.diagnostics)),
        "user_seconds": round(user, 2),
        "wall_seconds": round(time.perf_counter() - wall, 2),
        "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024,
    }


def main() -> int:
    """Read each folder in a child process and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folders", nargs="*", type=Path)
    parser.add_argument("--one", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(read_one(args.one)))
        return 0
    folders = [p for p in sorted(SHARED.glob("*")) if p.is_dir()] + list(args.folders)
    if not folders:
        print(f"no folder given and none found in {SHARED}", file=sys.stderr)
        return 2
    for folder in folders:
        done = subprocess.run(
            [sys.executable, __file__, "--one", str(folder)],
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            print(f"{folder}: failed\n{done.stderr}", file=sys.stderr)
            return 1
        figures = json.loads(done.stdout)
        print(f"{figures['folder']}: {figures['files']} files, {figures['megabytes']} MB")
        print("  entities     " + ", ".join(f"{k} {v}" for k, v in figures["kinds"].items()))
        print("  diagnostics  " + ", ".join(f"{k} {v}" for k, v in figures["diagnostics"].items()))
        print(f"  user CPU     {figures['user_seconds']} s (wall {figures['wall_seconds']} s)")
        print(f"  peak memory  {figures['peak_mib']} MiB (resident, the whole process)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
