"""``wahanorm crosscheck`` of the Wahapedia export of 2026-02-14 against the BSData catalogues
of the same day in ``../shared`` (skipped when absent): the figures of the report
(``python -m pytest tests/test_crosscheck_shared.py -s`` prints them) and disagreements checked
against both raw files."""

from __future__ import annotations

from pathlib import Path

import pytest

from wahanorm.outputs.crosscheck.engine import crosscheck
from wahanorm.outputs.crosscheck.result import CrosscheckReport
from wahanorm.outputs.diff.sides import load_side
from wahanorm.pipeline import converted

SHARED = Path(__file__).resolve().parents[2] / "shared"
EXPORT = SHARED / "corpus" / "wahapedia-10ed-2026-02-14"
BSDATA = SHARED / "bsdata" / "wh40k-10e-2026-02-14"


@pytest.fixture(scope="module")
def report() -> CrosscheckReport:
    for folder in (EXPORT, BSDATA):
        if not folder.is_dir():
            pytest.skip(
                f"{folder} is absent (the shared data sits beside the repo only on the "
                "team's machines)"
            )
    found = crosscheck(load_side(str(EXPORT), converted)[0], load_side(str(BSDATA), converted)[0])
    s = found.summary
    print(
        f"\n{s.compared} compared, {s.agreeing} agree, {s.disagreeing} disagree, "
        f"{s.only_a} only in the export, {s.only_b} only in BSData, "
        f"{s.named_differently} named differently"
    )
    for kind, c in found.by_kind.items():
        wrong = {f: (n.disagreeing, n.compared) for f, n in c.by_field.items() if n.disagreeing}
        print(f"  {kind}: {c.compared} compared, {c.disagreeing} disagree; {wrong}")
    return found


def said(report: CrosscheckReport, entity_id: str) -> list[str]:
    (found,) = [e for e in report.entities if e.id == entity_id]
    return [d.summary for d in found.disagreements]


def test_the_three_factions_are_compared(report: CrosscheckReport) -> None:
    # BSData holds Orks, Tyranids and Astra Militarum: 271 datasheets, the export's 269 of
    # those factions all with the same ids; the other 23 factions are not compared
    datasheets = report.by_kind["datasheet"]
    assert (datasheets.compared, datasheets.only_a, datasheets.only_b) == (269, 0, 2)
    assert {e.id for e in report.only_b if e.kind == "datasheet"} == {
        "orks/da-red-gobbo-s-a-bomb-inable-snowman",
        "orks/grotmas-gitz",
    }
    assert ("a", "stratagem", None) in {(n.side, n.kind, n.group) for n in report.not_compared}
    assert ("a", "datasheet", "Space Marines") in {
        (n.side, n.kind, n.group) for n in report.not_compared
    }


def test_characteristics_they_disagree_on(report: CrosscheckReport) -> None:
    # Datasheets_models.csv: Avenger Strike Fighter M "20+\"", Sabre Weapons Battery Ld "7+";
    # the catalogue's Unit profiles: M "20\"+", Ld "7". The first is one value in two
    # notations (``form.text_form``), the second a value BSData leaves without its "+"
    assert "astra-militarum/avenger-strike-fighter" not in {e.id for e in report.entities}
    assert (
        "Sabre Weapons Battery: Leadership 7+ (wahapedia-10ed-2026-02-14) vs 7 "
        "(wh40k-10e-2026-02-14)"
    ) in said(report, "astra-militarum/sabre-weapons-battery")
    assert "RUNTHERD: Toughness 5* (wahapedia-10ed-2026-02-14) vs 5 (wh40k-10e-2026-02-14)" in (
        said(report, "orks/gretchin")
    )


def test_costs_they_disagree_on(report: CrosscheckReport) -> None:
    # Grot Tanks: 310 points for 8 models in the export, for 10 in BSData's constraints
    assert [s for s in said(report, "orks/grot-tanks") if s.startswith("Points")] == [
        "Points (8 models): only in wahapedia-10ed-2026-02-14 (310)",
        "Points (10 models): only in wh40k-10e-2026-02-14 (310)",
    ]
    assert report.by_kind["datasheet"].by_field["points"].disagreeing == 2


def test_names_spelt_otherwise_are_paired(report: CrosscheckReport) -> None:
    # BSData spells the Dread Mob enhancement "Gitfinder Gogglez", the export "Gitfinder
    # Googlez": the same text, paired by likeness and said
    (googlez,) = [e for e in report.entities if e.id == "dread-mob/gitfinder-googlez"]
    assert (googlez.b_id, googlez.b_name, googlez.matched_by) == (
        "dread-mob/gitfinder-gogglez",
        "Gitfinder Gogglez",
        "likeness",
    )
    assert report.summary.named_differently == 6


def test_the_manuals_example_is_what_crosscheck_prints(report: CrosscheckReport) -> None:
    """The example at the top of ``docs/crosscheck.md``: each of its lines that is not cut
    (``…``) or a side's heading (which names the inputs' paths) is a line of the real report."""
    from wahanorm.outputs.crosscheck.render_text import render_text

    page = (Path(__file__).resolve().parents[1] / "docs" / "crosscheck.md").read_text("utf-8")
    example = page.split("```\n$ wahanorm crosscheck", 1)[1].split("```", 1)[0]
    shown = [
        line
        for line in example.splitlines()[1:]
        if line.strip()
        and "…" not in line
        and not line.startswith(("A: ", "B: ", "wahanorm crosscheck "))
    ]
    printed = render_text(report, colour=False).splitlines()
    assert len(shown) >= 4
    assert [line for line in shown if line not in printed] == []


def test_the_manuals_figures_are_the_report(report: CrosscheckReport) -> None:
    """The table of figures in ``docs/crosscheck.md``: each kind's counts as the report has them."""
    import re

    page = (Path(__file__).resolve().parents[1] / "docs" / "crosscheck.md").read_text("utf-8")
    rows = re.findall(r"^\| ([a-z ]+) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \|", page, re.M)
    assert len(rows) == len(report.by_kind) == 5
    for kind, *numbers in rows:
        counts = report.by_kind[kind.replace(" ", "_")]
        said = [int(n) for n in numbers]
        assert said == [counts.compared, counts.disagreeing, counts.only_a, counts.only_b], kind
