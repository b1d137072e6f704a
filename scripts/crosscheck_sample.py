"""Draw a random sample of crosscheck findings to read by hand against the raw files (issue 34).

    python scripts/crosscheck_sample.py REPORT.json A_FOLDER B_FOLDER [--n 40] [--seed 34]

``REPORT.json`` is ``wahanorm crosscheck A_FOLDER B_FOLDER --format json``. Draws ``--n``
findings (of datasheets) with a fixed ``--seed`` (the same report gives the same sample), and
prints each: the entity, the finding's path and both values, then the raw text it came from:
A's CSV rows (the entity's own row and, in the export's other ``Datasheets_*.csv`` files, the
rows of that datasheet naming the finding's label) and B's XML lines (within the lines the
entity was read from, those naming the label). Each is to be classed by hand: real / form /
BSData misreading / Wahapedia misreading / uncertain.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

_CUT = 300  # characters of a raw line shown
_MAX_LINES = 3  # raw lines shown per file


def _entities(folder: str) -> dict[str, dict[str, Any]]:
    from wahanorm.outputs.diff.engine import read_entities
    from wahanorm.outputs.diff.sides import load_side
    from wahanorm.pipeline import converted

    snap = load_side(folder, converted)[0]
    return {key[2]: e for key, e in read_entities(snap).by_key.items()}


def _lines(path: Path) -> list[str]:
    try:
        return path.read_text("utf-8", errors="replace").splitlines()
    except OSError:
        return []


def _needle(finding: dict[str, Any]) -> str:
    """What to look for in the raw lines: the label, else the value of either side."""
    for value in (finding.get("label"), finding.get("a"), finding.get("b")):
        if isinstance(value, str) and value and value not in {"Keyword"}:
            return value.casefold()[:40]
    return ""


def _raw(entity: dict[str, Any] | None, needle: str, memo: dict[Path, list[str]]) -> list[str]:
    shown: list[str] = []
    for source in (entity or {}).get("sources", []):
        path = Path(source["path"])
        lines = memo.setdefault(path, _lines(path))
        start, end = int(source["line_start"]), int(source["line_end"])
        if path.suffix == ".csv":
            row = lines[start - 1] if 0 < start <= len(lines) else ""
            shown.append(f"  {path.name}:{start}: {row[:_CUT]}")
            sheet_id = row.split("|", 1)[0]
            for other in sorted(path.parent.glob("Datasheets_*.csv")):
                rows = memo.setdefault(other, _lines(other))
                hits = [
                    (i, r)
                    for i, r in enumerate(rows, 1)
                    if r.startswith(sheet_id + "|") and (not needle or needle in r.casefold())
                ]
                for i, r in hits[:_MAX_LINES]:
                    shown.append(f"  {other.name}:{i}: {r[:_CUT]}")
        else:
            hits = [
                (i, lines[i - 1].strip())
                for i in range(start, min(end, len(lines)) + 1)
                if needle and needle in lines[i - 1].casefold()
            ]
            for i, r in hits[:_MAX_LINES]:
                shown.append(f"  {path.name}:{i}: {r[:_CUT]}")
            if not hits:
                shown.append(f"  {path.name}:{start}-{end}: (label not met in these lines)")
    return shown


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("report")
    parser.add_argument("a_folder")
    parser.add_argument("b_folder")
    parser.add_argument("--n", type=int, default=40)
    parser.add_argument("--seed", type=int, default=34)
    args = parser.parse_args(argv)
    try:
        report = json.loads(Path(args.report).read_text("utf-8"))
    except (OSError, ValueError) as err:
        print(f"crosscheck_sample: cannot read {args.report}: {err}", file=sys.stderr)
        return 2
    findings = [
        (e, d)
        for e in report.get("entities", [])
        if e.get("kind") == "datasheet"
        for d in e.get("disagreements", [])
    ]
    drawn = random.Random(args.seed).sample(findings, min(args.n, len(findings)))
    a, b = _entities(args.a_folder), _entities(args.b_folder)
    memo: dict[Path, list[str]] = {}
    print(f"{len(drawn)} of {len(findings)} datasheet findings, seed {args.seed}")
    for number, (entity, finding) in enumerate(drawn, 1):
        print(f"\n#{number} {entity['id']} ({entity.get('name')}) — {finding['path']}")
        print(f"  summary: {finding.get('summary')}")
        print(f"  A: {json.dumps(finding.get('a'), ensure_ascii=False)[:_CUT]}")
        print(f"  B: {json.dumps(finding.get('b'), ensure_ascii=False)[:_CUT]}")
        needle = _needle(finding)
        print("  -- A raw:")
        print("\n".join(_raw(a.get(entity["id"]), needle, memo)))
        print("  -- B raw:")
        print("\n".join(_raw(b.get(entity.get("b_id") or entity["id"]), needle, memo)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
