"""Write the manual's generated pages from the code, so they cannot go stale:

    python scripts/make_reference.py        # writes docs/diagnostics.md and docs/commands.md

``tests/test_docs.py`` fails when a committed page differs from what this writes.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parents[1] / "docs"


def diagnostics_page() -> str:
    """Every diagnostic code by area: its severity, what it means, what to do."""
    from wahanorm.contract.codes import AREAS, CATALOGUE, RENAMES

    lines = [
        "# Diagnostics",
        "",
        "Every problem wahanorm meets is a diagnostic with a **code**, a severity, the file, the",
        "line and column where known, and the line itself with a caret. The terminal shows the",
        "warnings and errors (at most 5 warnings and 20 errors of one code per input, then one",
        "counted line); `index.json` holds every diagnostic, notes included.",
        "`wahanorm explain CODE` prints a code's entry below; `wahanorm explain --list` lists them.",
        "",
        "- **error**: something the source holds is lost (an input, an entry, a part of one);",
        "  `convert` exits 1.",
        "- **warning**: the output may be wrong or incomplete because of the source, or wahanorm",
        "  guessed or kept something in a lesser form.",
        "- **info** (a note): a normal step of reading; nothing to do unless the output surprises",
        "  you.",
        "",
        "This page is made from `src/wahanorm/contract/codes.py` by `scripts/make_reference.py`.",
        "",
    ]
    for area, title in AREAS.items():
        entries = sorted((c for c in CATALOGUE.values() if c.area == area), key=lambda c: c.code)
        if not entries:
            continue
        lines += [f"## {title}", "", "| code | severity | what it means | what to do |"]
        lines.append("| --- | --- | --- | --- |")
        for e in entries:
            cells = [f"`{e.code}`", e.severity, e.meaning, e.action]
            lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
        lines.append("")
    lines += [
        "## Codes of earlier versions",
        "",
        "An `index.json` written before this catalogue may hold these codes; `wahanorm explain`",
        "knows them too.",
        "",
        "| earlier code | now |",
        "| --- | --- |",
    ]
    lines += [f"| `{old}` | `{new}` |" for old, new in sorted(RENAMES.items())]
    return "\n".join(lines) + "\n"


def _subcommands(parser: argparse.ArgumentParser) -> list[tuple[str, argparse.ArgumentParser]]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return list(action.choices.items())
    return []


def commands_page() -> str:
    """``wahanorm --help`` and each command's ``--help``, as the program prints them."""
    from wahanorm.cli import build_parser

    os.environ["COLUMNS"] = (
        "76"  # argparse wraps at the terminal's width: what a page's code block holds
    )
    parser = build_parser()
    lines = [
        "# Command reference",
        "",
        "What `wahanorm --help` and each command's `--help` print (made by",
        "`scripts/make_reference.py` from the program's own parser; the other pages of the",
        "manual say more of each).",
        "",
        "```text",
        parser.format_help().rstrip(),
        "```",
        "",
    ]
    for name, sub in _subcommands(parser):
        lines += [f"## `wahanorm {name}`", "", "```text", sub.format_help().rstrip(), "```", ""]
    return "\n".join(lines)


PAGES = {"diagnostics.md": diagnostics_page, "commands.md": commands_page}


def main() -> int:
    for name, make in PAGES.items():
        (DOCS / name).write_text(make(), encoding="utf-8")
        print(f"wrote docs/{name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
