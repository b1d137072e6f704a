"""``wahanorm diff`` on synthetic output folders: each test makes one edit a rules update makes
and checks the diff names it in the game's terms."""

from __future__ import annotations

import argparse
import io
import json
from pathlib import Path
from typing import Any

import pytest

from test_diff_support import (
    EFFECT,
    anti,
    base_entities,
    berzerkers,
    blood_offering,
    bloodthirster,
    weapon,
    write_out,
)
from wahanorm.cli.diff import EXIT_CHANGED, EXIT_ERROR, EXIT_SAME, add, run
from wahanorm.contract.models import Points, Rule
from wahanorm.outputs.diff.result import DiffReport


def diff_of(
    tmp_path: Path,
    new: list[Any],
    old: list[Any] | None = None,
    fmt: str = "json",
) -> tuple[int, str, str]:
    """Write OLD (the base entities unless given) and NEW, run the subcommand, return
    (exit code, stdout, stderr)."""
    old_dir = write_out(tmp_path / "old", base_entities() if old is None else old)
    new_dir = write_out(tmp_path / "new", new)
    return run_cli([str(old_dir), str(new_dir), "--format", fmt])


def run_cli(argv: list[str]) -> tuple[int, str, str]:
    """The subcommand as the main CLI wires it."""
    parser = argparse.ArgumentParser(prog="wahanorm")
    add(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["diff", *argv])
    out, err = io.StringIO(), io.StringIO()
    code = run(args, out, err)
    return code, out.getvalue(), err.getvalue()


def report_of(tmp_path: Path, new: list[Any], old: list[Any] | None = None) -> DiffReport:
    code, out, err = diff_of(tmp_path, new, old)
    assert err == ""
    report = DiffReport.model_validate_json(out)
    assert code == (EXIT_CHANGED if report.entities else EXIT_SAME)
    return report


def summaries(report: DiffReport) -> list[str]:
    return [c.summary for e in report.entities for c in e.changes]


def test_same_outputs_exit_0_and_say_so(tmp_path: Path) -> None:
    code, out, err = diff_of(tmp_path, base_entities(), fmt="text")
    assert (code, err) == (EXIT_SAME, "")
    assert out.splitlines()[-1] == "no rules changes"


def test_one_weapon_attacks_named_by_weapon(tmp_path: Path) -> None:
    lash = weapon("Lash of Khorne", "8", abilities=[anti("INFANTRY", 4)])
    sheet = bloodthirster(weapons=[lash, weapon("Great axe of Khorne", "6", profile="strike")])
    report = report_of(tmp_path, [sheet, berzerkers(), blood_offering()])
    assert [(e.status, e.id) for e in report.entities] == [
        ("changed", "world-eaters/bloodthirster")
    ]
    assert summaries(report) == ["Lash of Khorne: A 9 → 8"]
    change = report.entities[0].changes[0]
    assert (change.path, change.old, change.new) == ("weapons[Lash of Khorne].attacks", "9", "8")


def test_weapon_with_profile_named_with_it(tmp_path: Path) -> None:
    axe = weapon("Great axe of Khorne", "6", profile="strike", damage=weapon("x", "1").attacks)
    sheet = bloodthirster(weapons=[bloodthirster().weapons[0], axe])
    report = report_of(tmp_path, [sheet, berzerkers(), blood_offering()])
    assert summaries(report) == ["Great axe of Khorne – strike: D 2 → 1"]


def test_weapons_reordered_is_no_change(tmp_path: Path) -> None:
    sheet = bloodthirster(
        weapons=list(reversed(bloodthirster().weapons)), keywords=["DAEMON", "MONSTER", "CHARACTER"]
    )
    code, out, _ = diff_of(tmp_path, [sheet, berzerkers(), blood_offering()])
    assert code == EXIT_SAME
    assert json.loads(out)["entities"] == []


def test_stratagem_cp(tmp_path: Path) -> None:
    report = report_of(tmp_path, [bloodthirster(), berzerkers(), blood_offering(cp=2)])
    assert summaries(report) == ["CP 1 → 2"]
    # no faction field on a stratagem: it is grouped with the datasheets that list it
    assert report.entities[0].group == "World Eaters"


def test_unit_added(tmp_path: Path) -> None:
    new_unit = berzerkers(
        id="world-eaters/jakhals",
        name="Jakhals",
        weapons=[],
        points=[],
        keywords=["INFANTRY", "JAKHALS"],
    )
    report = report_of(tmp_path, [*base_entities(), new_unit])
    assert [(e.status, e.id, e.name) for e in report.entities] == [
        ("added", "world-eaters/jakhals", "Jakhals")
    ]
    assert (report.summary.added, report.summary.total) == (1, 1)


def test_unit_removed(tmp_path: Path) -> None:
    report = report_of(tmp_path, [bloodthirster(), blood_offering()])
    assert [(e.status, e.id) for e in report.entities] == [
        ("removed", "world-eaters/khorne-berzerkers")
    ]


def test_rename_is_one_entry(tmp_path: Path) -> None:
    renamed = berzerkers(id="world-eaters/berzerker-warband", name="Berzerker Warband")
    report = report_of(tmp_path, [bloodthirster(), renamed, blood_offering()])
    assert len(report.entities) == 1
    entry = report.entities[0]
    assert (entry.status, entry.old_id, entry.id) == (
        "renamed",
        "world-eaters/khorne-berzerkers",
        "world-eaters/berzerker-warband",
    )
    assert summaries(report) == ["Name: Khorne Berzerkers → Berzerker Warband"]
    assert entry.similarity == 100


def test_different_unit_is_not_a_rename(tmp_path: Path) -> None:
    other = berzerkers(
        id="world-eaters/eightbound",
        name="Eightbound",
        weapons=[weapon("Eviscerator", "3")],
        keywords=["INFANTRY", "DAEMON"],
        points=[Points(models=3, points=135, text="3 models")],
    )
    report = report_of(tmp_path, [bloodthirster(), other, blood_offering()])
    assert sorted(e.status for e in report.entities) == ["added", "removed"]


def test_points_per_model_count(tmp_path: Path) -> None:
    pts = [
        Points(models=10, points=170, text="10 models"),
        Points(models=5, points=90, text="5 models"),
    ]
    report = report_of(tmp_path, [bloodthirster(), berzerkers(points=pts), blood_offering()])
    assert summaries(report) == ["Points (10 models): 180 → 170"]


def test_keyword_added(tmp_path: Path) -> None:
    sheet = bloodthirster(keywords=["MONSTER", "CHARACTER", "DAEMON", "FLY"])
    report = report_of(tmp_path, [sheet, berzerkers(), blood_offering()])
    assert summaries(report) == ["Keyword added: FLY"]


def test_anti_threshold(tmp_path: Path) -> None:
    lash = weapon("Lash of Khorne", "9", abilities=[anti("INFANTRY", 3)])
    sheet = bloodthirster(weapons=[lash, bloodthirster().weapons[1]])
    report = report_of(tmp_path, [sheet, berzerkers(), blood_offering()])
    assert summaries(report) == ["Lash of Khorne: ANTI-INFANTRY 4+ → 3+"]


def test_core_ability_parameter(tmp_path: Path) -> None:
    old = bloodthirster()
    abilities = old.abilities.model_copy(
        update={"core": [old.abilities.core[0].model_copy(update={"parameter": "D3"})]}
    )
    report = report_of(
        tmp_path, [bloodthirster(abilities=abilities), berzerkers(), blood_offering()]
    )
    assert summaries(report) == ["Deadly Demise D6 → D3"]


def test_text_is_diffed_word_by_word(tmp_path: Path) -> None:
    effect = EFFECT.replace("re-roll a Hit roll of 1", "re-roll the Hit roll")
    report = report_of(tmp_path, [bloodthirster(), berzerkers(), blood_offering(effect=effect)])
    change = report.entities[0].changes[0]
    assert change.label == "Effect"
    edits = [(w.op, w.text) for w in change.words or [] if w.op != "equal"]
    assert edits == [("delete", "a"), ("insert", "the"), ("delete", "of 1")]


def test_spacing_alone_is_no_change(tmp_path: Path) -> None:
    spaced = blood_offering(effect=EFFECT.replace(" ", "  ", 3))
    code, _, _ = diff_of(tmp_path, [bloodthirster(), berzerkers(), spaced])
    assert code == EXIT_SAME


def test_sources_alone_are_no_change(tmp_path: Path) -> None:
    moved = bloodthirster(sources=[])
    code, _, _ = diff_of(tmp_path, [moved, berzerkers(), blood_offering()])
    assert code == EXIT_SAME


def test_missing_side_is_exit_2_one_line(tmp_path: Path) -> None:
    write_out(tmp_path / "old", base_entities())
    code, out, err = run_cli([str(tmp_path / "old"), str(tmp_path / "nowhere")])
    assert (code, out) == (EXIT_ERROR, "")
    assert err == f"wahanorm diff: {tmp_path / 'nowhere'}: no such file or folder\n"


def test_broken_entity_file_is_exit_2(tmp_path: Path) -> None:
    old = write_out(tmp_path / "old", base_entities())
    new = write_out(tmp_path / "new", base_entities())
    (new / "10ed/stratagem/world-eaters/blood-offering.json").write_text("{ not json", "utf-8")
    code, _, err = run_cli([str(old), str(new)])
    assert code == EXIT_ERROR
    assert "10ed/stratagem/world-eaters/blood-offering.json is not valid JSON" in err
    assert len(err.splitlines()) == 1


def test_usage_error_is_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        run_cli(["only-one"])
    assert exc.value.code == EXIT_ERROR


def test_markdown_summary_first_and_long_text_folded(tmp_path: Path) -> None:
    effect = EFFECT.replace("re-roll a Hit roll of 1", "re-roll the Hit roll")
    new = [
        bloodthirster(keywords=["MONSTER", "CHARACTER", "DAEMON", "FLY"]),
        berzerkers(),
        blood_offering(effect=effect, cp=2),
    ]
    code, out, _ = diff_of(tmp_path, new, fmt="markdown")
    assert code == EXIT_CHANGED
    lines = out.splitlines()
    assert lines[2] == "**2 entities differ:** 0 added · 0 removed · 0 renamed · 2 changed"
    assert out.index("| World Eaters | 0 | 0 | 0 | 2 |") < out.index("### World Eaters")
    assert out.index("#### Datasheets") < out.index("#### Stratagems")
    assert "  - CP 1 → 2" in lines
    assert "    <details><summary>full text</summary>" in lines
    assert "re-roll <del>a</del> <ins>the</ins> Hit roll <del>of 1</del> and" in out


def test_markdown_escapes_rule_text(tmp_path: Path) -> None:
    code, out, _ = diff_of(
        tmp_path,
        [
            *base_entities(),
            berzerkers(id="world-eaters/x", name="<script>*Bold*</script>", weapons=[], points=[]),
        ],
        fmt="markdown",
    )
    assert code == EXIT_CHANGED
    assert "**&lt;script&gt;\\*Bold\\*&lt;/script&gt;**" in out
    assert "<script>" not in out


def test_text_has_no_colour_off_a_terminal(tmp_path: Path) -> None:
    _, out, _ = diff_of(tmp_path, [bloodthirster(), berzerkers(), blood_offering(cp=2)], fmt="text")
    assert "\033[" not in out
    assert "  ~ stratagem Blood Offering  (world-eaters/blood-offering)" in out.splitlines()
    assert "      CP 1 → 2" in out.splitlines()


def test_colour_when_asked(tmp_path: Path) -> None:
    old = write_out(tmp_path / "old", base_entities())
    new = write_out(tmp_path / "new", [bloodthirster(), blood_offering(cp=2)])
    code, out, _ = run_cli([str(old), str(new), "--color", "always"])
    assert code == EXIT_CHANGED
    assert "\033[31m-\033[0m datasheet Khorne Berzerkers" in out


def test_markdown_cut_to_fit_says_what_is_left_out(tmp_path: Path) -> None:
    units = [
        berzerkers(id=f"world-eaters/unit-{i}", name=f"Unit {i}", weapons=[], points=[])
        for i in range(40)
    ]
    old = write_out(tmp_path / "old", base_entities())
    new = write_out(tmp_path / "new", [*base_entities(), *units])
    code, out, _ = run_cli([str(old), str(new), "--format", "markdown", "--max-chars", "1500"])
    assert code == EXIT_CHANGED
    assert len(out) <= 1500
    shown = out.count("- ➕ added: ")
    assert 0 < shown < 40
    assert f"**Cut to fit:** {shown} of 40 entities are shown, {40 - shown} are left out." in out


def test_markdown_values_with_line_breaks_stay_in_their_item_and_the_cut_counts_entities(
    tmp_path: Path,
) -> None:
    # A wargear option that ends "…more than once):" with its choices below, as the export
    # gives Raptors (November 2025 → February 2026): each line once began a bullet of its own.
    option = (
        "up to 2 models can each have their chainsword replaced with one of the following:\n"
        "- 1 flamer\n- 1 meltagun\n- 1 plasma gun"
    )
    units = [
        berzerkers(
            id=f"world-eaters/unit-{i}",
            name=f"Unit {i}",
            weapons=[],
            points=[],
            wargear_options=[option],
        )
        for i in range(40)
    ]
    old = write_out(
        tmp_path / "old",
        [*base_entities(), *(u.model_copy(update={"wargear_options": []}) for u in units)],
    )
    new = write_out(tmp_path / "new", [*base_entities(), *units])
    code, whole, _ = run_cli([str(old), str(new), "--format", "markdown"])
    assert code == EXIT_CHANGED
    assert whole.count("- ✏️ changed: ") == 40
    assert not any(line.startswith("- 1 ") for line in whole.splitlines())  # no choice a bullet
    assert "one of the following:<br>- 1 flamer<br>- 1 meltagun<br>- 1 plasma gun" in whole
    code, out, _ = run_cli([str(old), str(new), "--format", "markdown", "--max-chars", "3000"])
    shown = out.count("- ✏️ changed: ")
    assert 0 < shown < 40 and len(out) <= 3000
    assert f"**Cut to fit:** {shown} of 40 entities are shown, {40 - shown} are left out." in out


def test_markdown_neutralises_issue_links_mentions_and_addresses(tmp_path: Path) -> None:
    # An 11th-edition rule's labelled parts (EFFECT #3) and what a rules text may hold.
    text = "EFFECT #3: see @GamesWorkshop, https://example.com and www.example.com (GH-12)."
    report = diff_of(tmp_path, [bloodthirster(), berzerkers(), blood_offering(effect=text)],
                     fmt="markdown")  # fmt: skip
    out = report[1]
    assert "#3" not in out and "@GamesWorkshop" not in out and "https://example" not in out
    assert "#&#8203;3" in out and "@&#8203;GamesWorkshop" in out
    assert "https://&#8203;example.com" in out and "www&#8203;.example.com" in out
    assert "GH-&#8203;12" in out


def test_listed_entities_named_before_their_ids(tmp_path: Path) -> None:
    red = blood_offering(id="world-eaters/red-rampage", name="Red Rampage", effect="x")
    sheet = bloodthirster(stratagems=["world-eaters/blood-offering", "world-eaters/red-rampage"])
    old = [sheet.model_copy(update={"stratagems": ["world-eaters/blood-offering"]}), berzerkers(),
           blood_offering(), red]  # fmt: skip
    report = report_of(tmp_path, [sheet, berzerkers(), blood_offering(), red], old)
    assert summaries(report) == ["Listed stratagem added: Red Rampage (world-eaters/red-rampage)"]
    assert report.entities[0].changes[0].path == "stratagems[world-eaters/red-rampage]"


def test_a_changed_table_row_is_said_once_named_by_its_first_words(tmp_path: Path) -> None:
    # As the February 2026 export changed a Deed of a World Eaters table: the row's first cell
    # is its whole text, so it named the row and was printed again in full.
    before = (
        "We pledge to reap a great tally... This deed is completed at the end of a turn if the "
        "number of destroyed enemy units is greater than the battle round number even if those "
        "units are subsequently returned to the battlefield (for example, two destroyed enemy "
        "units in the first battle round)."
    )
    after = before.replace("at the end of a turn", "at the end of the battle round")
    rule = Rule(
        id="world-eaters/deeds",
        name="Deeds",
        text="Roll one D6.",
        tables=[[["Deed", "D6"], [before, "5-6"]]],
    )
    new_rule = rule.model_copy(update={"tables": [[["Deed", "D6"], [after, "5-6"]]]})
    report = report_of(tmp_path, [*base_entities(), new_rule], [*base_entities(), rule])
    [change] = report.entities[0].changes
    assert change.op == "changed" and change.label == f"Table Deed | D6, row {after[:99]}…"
    assert change.words is not None
    assert [w.text for w in change.words if w.op != "equal"] == ["a turn", "the battle round"]


def test_led_unit_named_not_by_id(tmp_path: Path) -> None:
    report = report_of(
        tmp_path,
        [bloodthirster(leader=["world-eaters/khorne-berzerkers"]), berzerkers(), blood_offering()],
    )
    assert summaries(report) == ["Can lead added: Khorne Berzerkers"]
    assert report.entities[0].changes[0].path == "leader[world-eaters/khorne-berzerkers]"


def test_new_stratagem_listing_is_not_repeated_on_datasheets(tmp_path: Path) -> None:
    new_strat = blood_offering(id="world-eaters/red-rampage", name="Red Rampage", effect="x")
    sheet = bloodthirster(stratagems=["world-eaters/blood-offering", "world-eaters/red-rampage"])
    report = report_of(tmp_path, [sheet, berzerkers(), blood_offering(), new_strat])
    assert [(e.status, e.id, e.changes) for e in report.entities] == [
        ("added", "world-eaters/red-rampage", [])
    ]


def test_one_entity_reads_in_the_singular(tmp_path: Path) -> None:
    _, out, _ = diff_of(tmp_path, [bloodthirster(), berzerkers(), blood_offering(cp=2)], fmt="text")
    assert out.splitlines()[1] == "1 entity differs: 0 added, 0 removed, 0 renamed, 1 changed"


def test_a_field_an_older_output_lacks_is_no_change_when_empty() -> None:
    from wahanorm.outputs.diff.compare import compare_entities

    old = {"kind": "datasheet", "id": "a/b", "name": "B", "leader": []}
    assert compare_entities(old, {**old, "led_by": []}) == []
    [change] = compare_entities(old, {**old, "led_by": ["a/c"]})
    assert change.summary == "Can be led by added: a/c"


def _tiered(first: int, fourth: int) -> list[Points]:
    """Boyz-like costs of the 11th edition: 10 models for the 1st to 3rd units, then dearer."""
    return [
        Points(models=10, points=first, text="10 models", units_from=1, units_to=3),
        Points(models=10, points=fourth, text="10 models", units_from=4),
    ]


def test_points_per_tier(tmp_path: Path) -> None:
    old = [bloodthirster(), berzerkers(points=_tiered(90, 100)), blood_offering()]
    new = [bloodthirster(), berzerkers(points=_tiered(90, 110)), blood_offering()]
    report = report_of(tmp_path, new, old)
    assert summaries(report) == ["Points (10 models, units 4+): 100 → 110"]


def test_points_of_every_unit_match_points_without_a_tier(tmp_path: Path) -> None:
    """A 10th-edition cost and an 11th-edition "YOUR UNIT COSTS" one are the same row."""
    pts = [
        Points(models=5, points=95, text="5 models", units_from=1),
        Points(models=10, points=180, text="10 models", units_from=1),
    ]
    report = report_of(tmp_path, [bloodthirster(), berzerkers(points=pts), blood_offering()])
    assert summaries(report) == ["Points (5 models): 90 → 95"]


def test_weapon_ability_condition(tmp_path: Path) -> None:
    from wahanorm.contract.models import WeaponAbility

    def lethal(condition: str | None) -> WeaponAbility:
        return WeaponAbility(id="lethal-hits", name="LETHAL HITS", condition=condition)

    def sheet(condition: str | None) -> Any:
        lash = weapon("Lash of Khorne", "9", abilities=[lethal(condition)])
        return bloodthirster(weapons=[lash, bloodthirster().weapons[1]])

    old = [sheet("INFANTRY"), berzerkers(), blood_offering()]
    new = [sheet("non-MONSTER/VEHICLE"), berzerkers(), blood_offering()]
    report = report_of(tmp_path, new, old)
    assert summaries(report) == [
        "Lash of Khorne: LETHAL HITS: INFANTRY → LETHAL HITS: non-MONSTER/VEHICLE"
    ]


def test_fields_added_to_the_contract_are_no_change(tmp_path: Path) -> None:
    """An output written before a field existed (no ``condition``, ``note``, ``add_on`` …) reads
    as the current contract with that field at its default: no change."""
    new = [bloodthirster(), berzerkers(), blood_offering()]
    old_dir = write_out(tmp_path / "old", new)
    added = {"condition", "note", "add_on", "units_from", "units_to", "sections", "references"}

    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k not in added}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value

    for path in old_dir.rglob("*.json"):
        if path.name != "index.json":
            path.write_text(json.dumps(strip(json.loads(path.read_text()))), encoding="utf-8")
    new_dir = write_out(tmp_path / "new", new)
    code, out, _ = run_cli([str(old_dir), str(new_dir), "--format", "json"])
    assert code == EXIT_SAME, out


BLOOD_TITHE = "10ed/detachment_rule/khorne-daemonkin/blood-tithe.json"


def test_a_detachment_rules_sub_abilities_are_compared_by_name() -> None:
    """A detachment rule's ``abilities`` is a list of named sub-abilities (not a datasheet's
    groups): each is matched by name, its cost and text compared; an older output without the
    list (every output before Timing v2) gains them."""
    from wahanorm.outputs.diff.engine import Snapshot, diff_snapshots

    real = (Path(__file__).parent.parent / "out" / BLOOD_TITHE).read_text(encoding="utf-8")
    data = json.loads(real)
    assert [a["name"] for a in data["abilities"]][:2] == ["Enraged Abjuration", "Daemonic Rage"]

    def changes(old: dict[str, Any]) -> list[str]:
        report = diff_snapshots(
            Snapshot("old", "output", {BLOOD_TITHE: json.dumps(old)}),
            Snapshot("new", "output", {BLOOD_TITHE: real}),
        )
        return [c.summary for e in report.entities for c in e.changes]

    before = {k: v for k, v in data.items() if k != "abilities"}
    assert changes(before) == [
        "Abilities added: Enraged Abjuration",
        "Abilities added: Daemonic Rage",
        "Abilities added: Boon of Blood",
        "Abilities added: Might of Khorne",
    ]
    edited = json.loads(real)
    rage = edited["abilities"][1]
    rage["cost"], rage["text"] = "2BTP", rage["text"].replace("[lance]", "[lethal hits]")
    del edited["abilities"][3]
    assert changes(edited) == [
        "Daemonic Rage: … your army have the [-[lethal hits]-] {+[lance]+} ability.",
        "Daemonic Rage cost: 2BTP → 3BTP",
        "Abilities added: Might of Khorne",
    ]


def test_a_timing_change_is_said_in_a_players_words() -> None:
    from wahanorm.outputs.diff.compare import compare_timing
    from wahanorm.outputs.diff.result import Change

    def timing(*phases: tuple[str, str]) -> dict[str, object]:
        turns = {turn for _, turn in phases}
        return {
            "turn": turns.pop() if len(turns) == 1 else "either",
            "phases": [{"phase": p, "turn": t} for p, t in phases],
            "any_phase": False,
            "excluded_phases": [],
        }

    out: list[Change] = []
    old = timing(("shooting", "either"), ("fight", "either"))
    new = timing(("shooting", "opponent"), ("fight", "either"))
    compare_timing("timing", "Timing", old, new, out)
    [change] = out
    assert change.summary == (
        "Timing: either player's Shooting phase or either player's Fight phase"
        " → your opponent's Shooting phase or either player's Fight phase"
    )
    out.clear()
    compare_timing("timing", "Timing", new, new, out)
    assert out == []
