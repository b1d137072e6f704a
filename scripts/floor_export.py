"""The floor of an export's conversion: merely read its CSV files and write rows as JSON files.

    python scripts/floor_export.py EXPORT OUT

A plain Python script, no wahanorm: it decodes every ``*.csv`` table of the Wahapedia export
``EXPORT`` (UTF-8 with a byte-order mark, pipe-delimited, a record continued on the next line
until it holds as many pipes as the header), makes a dict of each record, and writes every row of
``Datasheets.csv`` and ``Stratagems.csv`` as its own JSON file (sorted keys, two-space indent,
final newline) under ``OUT/<table>/<faction_id>/<id>.json``. That is what any converter of the
export must at least do; ``bench_export.py`` runs it as a whole process beside ``wahanorm
convert`` and prints the ratio of their user CPU (issue 20: at most 3x).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

WRITTEN = ("Datasheets.csv", "Stratagems.csv")


def read_rows(path: Path) -> list[dict[str, str]]:
    """The records of one export table as dicts of column name to raw text."""
    lines = path.read_text(encoding="utf-8-sig").replace("\r\n", "\n").split("\n")
    header = lines[0].split("|")
    pipes = len(header) - 1
    rows: list[dict[str, str]] = []
    pending = ""
    for line in lines[1:]:
        pending = f"{pending}\n{line}" if pending else line
        if pending.count("|") >= pipes:
            rows.append(dict(zip(header, pending.split("|"), strict=False)))
            pending = ""
    return rows


def write_rows(out: Path, table: str, rows: list[dict[str, str]]) -> int:
    """Write each row as ``out/<table>/<faction_id>/<id>.json``; the number of files."""
    for number, row in enumerate(rows):
        folder = out / table / (row.get("faction_id") or "none")
        folder.mkdir(parents=True, exist_ok=True)
        name = row.get("id") or str(number)
        text = json.dumps(row, ensure_ascii=False, indent=2, sort_keys=True) + "\n"
        (folder / f"{name}.json").write_text(text, encoding="utf-8")
    return len(rows)


def main(argv: list[str]) -> int:
    """Read every table of ``argv[0]``, write the two tables' rows under ``argv[1]``."""
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    export, out = Path(argv[0]), Path(argv[1])
    tables = {path.name: read_rows(path) for path in sorted(export.glob("*.csv"))}
    files = sum(
        write_rows(out, name.removesuffix(".csv"), tables.get(name, [])) for name in WRITTEN
    )
    records = sum(len(rows) for rows in tables.values())
    print(f"{len(tables)} tables, {records} records read; {files} files written")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
