"""What the parts of the Game-Datacards reader share while they read one file (``Gdc``)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from wahanorm.contract.models import SourceRef
from wahanorm.errors import Report
from wahanorm.readers.gamedatacards.text import Language


@dataclass
class Gdc:
    """What the parts of the reader share: the file, its report, the language, the line of
    each entry by its id, and what was left out, counted, to be said once per input."""

    path: str
    report: Report
    language: Language
    lines: dict[str, int] = field(default_factory=dict)
    faction: str = ""
    dropped: Counter[str] = field(default_factory=Counter)
    unknown: Counter[str] = field(default_factory=Counter)

    def source(self, entry: Any) -> SourceRef:
        """Where an entry is: the line of its id in the file (line 1 for an entry without)."""
        key = entry.get("id") if isinstance(entry, dict) else None
        line = self.lines.get(key, 1) if isinstance(key, str) else 1
        return SourceRef(path=self.path, line_start=line, line_end=line)

    def line(self, entry: Any) -> int | None:
        key = entry.get("id") if isinstance(entry, dict) else None
        return self.lines.get(key) if isinstance(key, str) else None

    def pick(self, value: object) -> str:
        return self.language.pick(value)

    def keys(
        self, what: str, entry: dict[str, Any], read: frozenset[str], dropped: frozenset[str]
    ) -> None:
        """Count the keys of ``entry`` left out: ``dropped`` (no field in the contract) and
        those the reader does not know at all."""
        for key in entry:
            if key in read:
                continue
            if key in dropped:
                if has_value(entry[key]):
                    self.dropped[f"{what}.{key}"] += 1
            else:
                self.unknown[f"{what}.{key}"] += 1


def has_value(value: object) -> bool:
    """Whether a field holds anything (not null, empty or false)."""
    return value not in (None, "", [], {}, False)
