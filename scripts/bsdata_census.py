"""Census of a BSData data set: datasheets per faction and diagnostics per code.

    python scripts/bsdata_census.py FOLDER [FILE ...] [--json OUT]

Reads ``FOLDER`` (every file of it as one data set, through the reader and the after-read
chain, ``pipeline.read_path``); with ``FILE`` names, only those files of it (linked into a
temporary folder). Prints the datasheets per faction, the entities per kind and the diagnostics
per code and severity; ``--json`` also writes them, with every datasheet id, to ``OUT`` (to
compare two trees' readings).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import Counter
from pathlib import Path


def census(folder: Path) -> dict[str, object]:
    from wahanorm.pipeline import read_path

    extraction = read_path(folder, folder.name)
    sheets = [e for e in extraction.entities if e.kind == "datasheet"]
    return {
        "kinds": dict(sorted(Counter(e.kind for e in extraction.entities).items())),
        "factions": dict(sorted(Counter(getattr(e, "faction", "?") for e in sheets).items())),
        "codes": dict(
            sorted(Counter(f"{d.severity} {d.code}" for d in extraction.report.diagnostics).items())
        ),
        "ids": sorted(e.id for e in sheets),
        "messages": sorted(
            f"{d.severity} {d.code} {d.path}: {d.message}" for d in extraction.report.diagnostics
        ),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("files", nargs="*")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temporary:
        folder = args.folder
        if args.files:
            folder = Path(temporary) / args.folder.name
            folder.mkdir()
            for name in args.files:
                (folder / name).symlink_to((args.folder / name).resolve())
        found = census(folder)
    for key in ("kinds", "factions", "codes"):
        table = found[key]
        assert isinstance(table, dict)
        print(f"{key}:")
        for name, count in table.items():
            print(f"  {count:6d}  {name}")
    if args.json:
        args.json.write_text(json.dumps(found, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
