"""One rule from two sources is one id and one entity, whatever each source's notation of its
name (issue 34, item 7): a faction page's ``[LETHAL HITS]`` and a dump's ``LETHAL HITS``, the
``.gst``'s ``Anti-`` and a page's ``Anti``. Names that differ in more than notation still
collide."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO, shared_path
from wahanorm.contract.ids import notation_key, plainest
from wahanorm.contract.models import Rule, SourceRef
from wahanorm.errors import Report
from wahanorm.pipeline.merge import merge_entities


def rule(name: str, path: str, text: str = "Each time an attack is made, it hits.") -> Rule:
    return Rule(
        kind="rule",
        id="core/lethal-hits",
        name=name,
        text=text,
        sources=[SourceRef(path=path, line_start=1, line_end=2)],
    )


@pytest.mark.parametrize(
    ("names", "kept"),
    [
        (["[LETHAL HITS]", "LETHAL HITS"], "LETHAL HITS"),
        (["[LETHAL HITS]", "Lethal Hits", "LETHAL HITS"], "Lethal Hits"),
        (["Anti-", "Anti"], "Anti"),
        (["[TWIN-LINKED]", "Twin-linked"], "Twin-linked"),
        (["Fear Made Manifest [Aura]", "Fear Made Manifest (Aura)"], "Fear Made Manifest (Aura)"),
        (["Trivärg Cyber Implant", "Trivârg Cyber Implant"], "Trivârg Cyber Implant"),
    ],
)
def test_names_one_in_notation_and_the_one_kept(names: list[str], kept: str) -> None:
    # each pair as ../shared gave it (the id-collision errors of a whole conversion before)
    assert len({notation_key(n) for n in names}) == 1
    assert plainest(names) == kept == plainest(list(reversed(names)))


def test_other_signs_are_the_name() -> None:
    assert notation_key("Mark of Khorne!") != notation_key("Mark of Khorne")
    assert notation_key("🔥") != notation_key("💧")


def test_one_text_in_two_notations_is_one_entity_with_both_sources() -> None:
    report = Report()
    [merged] = merge_entities(
        [rule("[LETHAL HITS]", "page.html"), rule("LETHAL HITS", "000.txt")], report
    )
    assert merged.name == "LETHAL HITS"
    assert [s.path for s in merged.sources] == ["000.txt", "page.html"]
    assert merged.variants == [] and report.diagnostics == []


def test_two_texts_in_two_notations_are_variants_not_a_collision() -> None:
    report = Report()
    [merged] = merge_entities(
        [rule("Anti-", "a.gst", "Anti one."), rule("Anti", "b.html", "Anti two.")], report
    )
    assert merged.name == "Anti" and [v.name for v in merged.variants] == ["Anti"]
    assert {merged.text, merged.variants[0].text} == {"Anti one.", "Anti two."}
    assert [d.code for d in report.diagnostics] == ["conflict"]


def test_names_that_differ_otherwise_still_collide() -> None:
    report = Report()
    merge_entities([rule("Mark of Khorne!", "a.txt"), rule("Mark of Khorne", "b.txt")], report)
    assert "id-collision" in [d.code for d in report.diagnostics]


def test_the_world_eaters_page_and_seed_000_convert_with_exit_0(tmp_path: Path) -> None:
    page = shared_path("html-pages", "world-eaters", "index.html")
    [seed] = sorted((REPO / "raw").glob("000_*.txt"))
    out = tmp_path / "out"
    run = subprocess.run(
        [sys.executable, "-m", "wahanorm", "convert", str(page), str(seed), "--out", str(out)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    index = json.loads((out / "index.json").read_text(encoding="utf-8"))
    assert not [d for d in index["diagnostics"] if d["code"] == "id-collision"]
    lethal = json.loads((out / "11ed/rule/core/lethal-hits.json").read_text(encoding="utf-8"))
    assert lethal["name"] == "LETHAL HITS"  # the plainer of '[LETHAL HITS]' and 'LETHAL HITS'
    assert {Path(s["path"]).name for s in lethal["sources"]} == {"index.html", seed.name}


def test_a_conflict_of_three_sources_says_which_differs_from_which() -> None:
    # As the samples give core/2-battle-shock: two dumps read it alike, a third otherwise.
    report = Report()
    [merged] = merge_entities(
        [
            rule("Battle-shock", "raw/002.txt"),
            rule("Battle-shock", "raw/004.txt"),
            rule("Battle-shock", "raw/003.txt", text="Each time a unit fails, it is shocked."),
        ],
        report,
    )
    assert [v.sources[0].path for v in merged.variants] == ["raw/003.txt"]
    [warning] = [d for d in report.diagnostics if d.code == "conflict"]
    assert warning.message == (
        "rule core/lethal-hits (10th edition) differs between sources: raw/003.txt:1 reads it "
        "otherwise than raw/002.txt:1, raw/004.txt:1; the entity is the latter's text, this one "
        "kept as variant 1 of 1"
    )
