"""The BSData reader on the real files in ``../shared/bsdata`` (skipped when absent): counts,
no error, and agreement with the Wahapedia export of the same day for the same factions.

``compare`` is also what the figures of the reader's report come from:
``python -m pytest tests/test_bsdata_shared.py -s`` prints them."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from wahanorm.contract.models import Datasheet, Profile
from wahanorm.pipeline import read_path
from wahanorm.pipeline.after_read import Extraction

SHARED = Path(__file__).resolve().parents[2] / "shared"
TENTH = SHARED / "bsdata" / "wh40k-10e-2026-02-14"
ELEVENTH = SHARED / "bsdata" / "wh40k-11e-2026-07-22"
EXPORT = SHARED / "corpus" / "wahapedia-10ed-2026-02-14"
CHARACTERISTICS = (
    "movement", "toughness", "save", "wounds", "leadership", "objective_control",
    "invulnerable_save",
)  # fmt: skip


def _read(folder: Path) -> Extraction:
    if not folder.is_dir():
        pytest.skip(
            f"{folder} is absent (the shared data sits beside the repo only on the team's machines)"
        )
    return read_path(folder, folder.name)


@pytest.fixture(scope="module")
def tenth() -> Extraction:
    return _read(TENTH)


@pytest.fixture(scope="module")
def eleventh() -> Extraction:
    return _read(ELEVENTH)


def test_tenth_edition_counts(tenth: Extraction) -> None:
    kinds = Counter(e.kind for e in tenth.entities)
    # 271 units offered at the catalogues' roots (Orks 91 root links less 2 to the game
    # system; Tyranids, Astra Militarum), 32 core rules and 4 faction rules, the detachments of
    # the three factions and their enhancements
    assert kinds == {
        "datasheet": 271, "rule": 36, "detachment": 24, "detachment_rule": 30, "enhancement": 96,
    }  # fmt: skip
    assert not [d for d in tenth.report.diagnostics if d.severity == "error"]
    missing = {
        d.message.split("'")[1] for d in tenth.report.diagnostics if d.code == "missing-import"
    }
    assert {
        "Unaligned Forces",
        "Imperium - Imperial Knights - Library",
        "Library - Titans",
    } <= missing


def test_eleventh_edition_counts(eleventh: Extraction) -> None:
    kinds = Counter(e.kind for e in eleventh.entities)
    assert kinds["datasheet"] == 160
    assert kinds["detachment"] == 27
    assert {e.edition for e in eleventh.entities} == {11}
    assert not [d for d in eleventh.report.diagnostics if d.severity == "error"]


@dataclass
class Agreement:
    """How a BSData reading and the export agree, datasheet by datasheet."""

    bsdata: int = 0
    export: int = 0
    same_id: int = 0
    profiles: int = 0
    profiles_agree: int = 0
    characteristics: int = 0
    characteristics_agree: int = 0
    disagreements: list[tuple[str, str, str, str | None, str | None]] = field(default_factory=list)
    points: int = 0
    points_agree: int = 0
    keywords_agree: int = 0


def _pairs(ours: list[Profile], theirs: list[Profile]) -> list[tuple[Profile, Profile]]:
    """Profiles named alike (the export prints several in capitals), or the only one of each."""
    if len(ours) == 1 and len(theirs) == 1:
        return [(ours[0], theirs[0])]
    named = {p.name.casefold(): p for p in theirs}
    return [(p, named[p.name.casefold()]) for p in ours if p.name.casefold() in named]


def compare(bsdata: Extraction, export: Extraction) -> Agreement:
    """Datasheets of the factions BSData holds, matched by id, compared field by field."""
    ours = {e.id: e for e in bsdata.entities if isinstance(e, Datasheet)}
    factions = {e.faction for e in ours.values()}
    theirs = {
        e.id: e for e in export.entities if isinstance(e, Datasheet) and e.faction in factions
    }
    found = Agreement(bsdata=len(ours), export=len(theirs))
    for key in sorted(set(ours) & set(theirs)):
        found.same_id += 1
        a, b = ours[key], theirs[key]
        for p, q in _pairs(a.profiles, b.profiles):
            found.profiles += 1
            same = True
            for name in CHARACTERISTICS:
                mine, other = getattr(p, name), getattr(q, name)
                found.characteristics += 1
                if (mine and mine.text) == (other and other.text):
                    found.characteristics_agree += 1
                else:
                    same = False
                    found.disagreements.append(
                        (key, p.name, name, mine and mine.text, other and other.text)
                    )
            found.profiles_agree += same
        found.points += 1
        found.points_agree += [(x.models, x.points) for x in a.points] == [
            (x.models, x.points) for x in b.points if not x.add_on
        ]
        found.keywords_agree += (a.keywords, a.faction_keywords) == (b.keywords, b.faction_keywords)
    return found


def test_agrees_with_the_wahapedia_export(tenth: Extraction) -> None:
    if not EXPORT.is_dir():
        pytest.skip(f"{EXPORT} is absent")
    found = compare(tenth, read_path(EXPORT, "wahapedia-10ed-2026-02-14"))
    print(
        f"\ndatasheets: BSData {found.bsdata}, export {found.export} of those factions, "
        f"{found.same_id} with the same id\nmodel profiles compared {found.profiles}, agreeing "
        f"in every characteristic {found.profiles_agree}; characteristics "
        f"{found.characteristics_agree}/{found.characteristics}\npoints tables agreeing "
        f"{found.points_agree}/{found.points}; keywords {found.keywords_agree}/{found.same_id}"
    )
    for disagreement in found.disagreements:
        print("  ", disagreement)
    assert found.same_id >= 0.98 * found.export
    assert found.profiles >= 0.95 * found.same_id
    assert found.profiles_agree >= 0.97 * found.profiles
    assert found.points_agree >= 0.95 * found.points
    assert found.keywords_agree >= 0.85 * found.same_id
    assert all(
        re.fullmatch(r"[a-z0-9-]+/[a-z0-9-]+", key) for key in (d[0] for d in found.disagreements)
    )
