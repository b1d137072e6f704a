"""``wahanorm crosscheck``: the committed BSData fixture against the committed slice of the
Wahapedia export of the same day (facts checked against both raw files), the differences of
form on synthetic outputs, and the command's exit codes as real processes."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from test_diff_support import bloodthirster, weapon, write_out
from wahanorm.blocks.parse.stats import parse_stat
from wahanorm.contract.models import Abilities, Ability, Profile
from wahanorm.outputs.crosscheck.engine import crosscheck
from wahanorm.outputs.crosscheck.result import CrosscheckReport, EntityCheck
from wahanorm.outputs.diff.sides import load_side
from wahanorm.pipeline import converted

FIXTURES = Path(__file__).parent / "fixtures"
EXPORT = FIXTURES / "export" / "wahapedia-10ed-2026-02-14"
BSDATA = FIXTURES / "bsdata" / "wh40k-10e-2026-02-14"


def check(a: str | Path, b: str | Path, **kw: list[str]) -> CrosscheckReport:
    """The crosscheck of two sides, raw inputs converted in memory."""
    return crosscheck(load_side(str(a), converted)[0], load_side(str(b), converted)[0], **kw)


@pytest.fixture(scope="module")
def fixtures() -> CrosscheckReport:
    return check(EXPORT, BSDATA)


def entity(report: CrosscheckReport, entity_id: str) -> EntityCheck:
    (found,) = [e for e in report.entities if e.id == entity_id]
    return found


def summaries(found: EntityCheck) -> list[str]:
    return [d.summary for d in found.disagreements]


# ------------------------------------------------------------------ the committed fixtures


def test_sides_are_named_by_their_data(fixtures: CrosscheckReport) -> None:
    assert fixtures.a.label == "wahapedia-10ed-2026-02-14"
    assert fixtures.a.data_version == "2026-02-14 02:04:28"  # Last_update.csv
    assert fixtures.b.label == "wh40k-10e-2026-02-14"
    assert fixtures.b.data_version == "Warhammer 40,000 10th Edition r87"  # the .gst's root
    assert fixtures.a.source == fixtures.b.source == "inputs"


def test_the_units_both_hold_are_compared(fixtures: CrosscheckReport) -> None:
    # the slice holds Custodian Guard, Warboss, Ghazghkull Thraka, Boyz, Mek Gunz; the
    # catalogues Battlewagon, Boyz, Ghazghkull Thraka, Warboss, Mek Gunz, Winged Hive Tyrant
    datasheets = fixtures.by_kind["datasheet"]
    assert (datasheets.compared, datasheets.only_a, datasheets.only_b) == (4, 0, 1)
    assert [(e.kind, e.id) for e in fixtures.only_b if e.kind == "datasheet"] == [
        ("datasheet", "orks/battlewagon")
    ]
    # factions one side has nothing of are counted, not listed one by one
    not_compared = {(n.side, n.kind, n.group): n.entities for n in fixtures.not_compared}
    assert not_compared[("a", "stratagem", None)] == 50  # BSData has no stratagems
    assert not_compared[("a", "datasheet", "Adeptus Custodes")] == 1
    assert not_compared[("b", "datasheet", "Tyranids")] == 1


def test_a_wording_is_said_word_by_word(fixtures: CrosscheckReport) -> None:
    # Datasheets_abilities.csv line 13: "… (but only if one of those is a Warboss unit)";
    # Orks.cat line 384: "… (but only if one of those is a WARBOSS model)": the case of
    # WARBOSS is form, "unit" / "model" is not
    (bodyguard,) = entity(fixtures, "orks/boyz").disagreements
    assert bodyguard.field == "abilities"
    assert (
        bodyguard.summary
        == "BODYGUARD: … those is a WARBOSS [-unit).-] {+model).+} If you do, and …"
    )


def test_a_list_item_only_one_side_holds(fixtures: CrosscheckReport, tmp_path: Path) -> None:
    # Datasheets_leader.csv of the slice: Warboss (000000001) leads Boyz (000000016); Orks.cat
    # line 1514: "This model can be attached to the following units: - BOYZ - NOBZ" (the cut
    # holds no Nobz: a leader link is a datasheet of the output, so both sides agree)
    assert not entity_or_none(fixtures, "orks/warboss")
    # the slice without the Warboss's row: BSData's link is the one side's
    export = tmp_path / EXPORT.name
    shutil.copytree(EXPORT, export)
    table = export / "Datasheets_leader.csv"
    rows = table.read_text(encoding="utf-8").splitlines(keepends=True)
    assert rows[1] == "000000001|000000016|\n"
    table.write_text("".join(rows[:1] + rows[2:]), encoding="utf-8")
    warboss = entity(check(export, BSDATA), "orks/warboss")
    assert summaries(warboss) == ["Can lead Boyz: only in wh40k-10e-2026-02-14 (orks/boyz)"]
    assert warboss.disagreements[0].b == "orks/boyz" and warboss.disagreements[0].a is None


def entity_or_none(report: CrosscheckReport, entity_id: str) -> EntityCheck | None:
    found = [e for e in report.entities if e.id == entity_id]
    return found[0] if found else None


def test_a_weapon_named_otherwise(fixtures: CrosscheckReport) -> None:
    # Datasheets_wargear.csv: "1-2 " in the roll column, "Bubblechukka – big bubble" the name;
    # Orks.cat line 1156: <profile name="1-2 Bubblechukka - big bubble">: the roll in the name,
    # the same characteristics: one weapon (words one source adds before its name)
    said = summaries(entity(fixtures, "orks/mek-gunz"))
    assert not [s for s in said if "Bubblechukka" in s]


def test_what_agrees_is_not_listed(fixtures: CrosscheckReport) -> None:
    # the War Horde enhancements: the same four, the same costs (15, 15, 20, 10)
    enhancements = fixtures.by_kind["enhancement"]
    assert (enhancements.compared, enhancements.disagreeing) == (4, 0)
    assert not [e for e in fixtures.entities if e.kind == "enhancement"]
    assert enhancements.by_field["cost"].agreeing == 4


def test_fields_one_source_never_has_are_not_compared(fixtures: CrosscheckReport) -> None:
    one_sided = fixtures.by_kind["datasheet"].one_sided_fields
    # BSData has no base size, loadout, listed stratagems or wargear options
    assert {
        one_sided[f] for f in ("base_size", "loadout", "stratagems[]", "wargear_options[]")
    } == {"a"}
    assert "base_size" not in fixtures.by_kind["datasheet"].by_field
    assert not any(d.field == "stratagems" for e in fixtures.entities for d in e.disagreements)


def test_kind_and_field_keep_to_them() -> None:
    # the datasheets disagree in abilities only (the Boyz' BODYGUARD text, the Mek Gunz' Grot
    # Crew, which BSData alone gives): a field no datasheet disagrees in names none
    report = check(EXPORT, BSDATA, kinds=["datasheet"], fields=["abilities"])
    assert list(report.by_kind) == ["datasheet"]
    assert [e.id for e in report.entities] == ["orks/boyz", "orks/mek-gunz"]
    assert {d.field for e in report.entities for d in e.disagreements} == {"abilities"}
    assert check(EXPORT, BSDATA, kinds=["datasheet"], fields=["weapons"]).entities == []


# ------------------------------------------------------------------- differences of form


def form_report(tmp_path: Path, a: list[object], b: list[object]) -> CrosscheckReport:
    return check(write_out(tmp_path / "a", a), write_out(tmp_path / "b", b))


def test_differences_of_form_are_no_disagreement(tmp_path: Path) -> None:
    a = bloodthirster(
        keywords=["MONSTER", "CHARACTER", "DAEMON"],
        abilities=Abilities(faction=[Ability(name="Voice of Command")]),
        profiles=[Profile(name="Bloodthirster", movement=parse_stat('10"'))],
        weapons=[weapon("Khorne’s axe"), weapon("Lash of Khorne", "9")],
    )
    b = bloodthirster(
        keywords=["Daemon", "Monster", "Character"],  # letter case, order
        abilities=Abilities(faction=[Ability(name="Voice Of Command")]),  # BSData's spelling
        profiles=[Profile(name="Greater Daemon", movement=parse_stat('10"'))],  # its model
        weapons=[weapon("Lash of Khorne", "9"), weapon("Khorne's axe")],  # ’ vs ', order
    )
    report = form_report(tmp_path, [a], [b])
    assert report.summary.compared == 1 and report.summary.disagreeing == 0
    assert not report.disagrees


def test_a_characteristic_is_named_whole(tmp_path: Path) -> None:
    b = bloodthirster(profiles=[Profile(name="Bloodthirster", movement=parse_stat('12"'))])
    report = form_report(tmp_path, [bloodthirster()], [b])
    (found,) = report.entities
    (said,) = found.disagreements
    assert (said.field, said.label, said.a, said.b) == (
        "profiles",
        "Bloodthirster: Movement",
        '10"',
        '12"',
    )
    assert said.summary == 'Bloodthirster: Movement 10" (a) vs 12" (b)'


def test_a_faction_named_otherwise_is_said_once(tmp_path: Path) -> None:
    # BSData's Astra Militarum catalogue named otherwise: its ids in another namespace, its
    # units still ASTRA MILITARUM by their faction keyword
    copy = tmp_path / "catalogues"
    shutil.copytree(BSDATA, copy)
    orks = copy / "Orks.cat"
    orks.write_text(
        orks.read_text(encoding="utf-8").replace('name="Xenos - Orks"', 'name="Xenos - Orkoids"'),
        encoding="utf-8",
    )
    report = check(EXPORT, copy)
    assert [(f.a, f.b) for f in report.factions] == [("Orks", "Orkoids")]
    boyz = entity(report, "orks/boyz")
    assert (boyz.b_id, boyz.matched_by) == ("orkoids/boyz", "name")
    # its faction and the units its leaders lead are read as A names them: no disagreement
    assert not any(d.field in ("faction", "led_by") for d in boyz.disagreements)
    # the Warboss leads orkoids/boyz, read as orks/boyz: it agrees
    assert not entity(report, "orks/warboss").disagreements
    assert report.summary.named_differently >= 4


# ----------------------------------------------------------------- the command, as a process


def run(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "wahanorm", "crosscheck", *argv],
        capture_output=True,
        text=True,
        env={**os.environ, "NO_COLOR": "1"},
        check=False,
    )


def test_exit_1_when_they_disagree_with_json_of_the_schema() -> None:
    done = run(str(EXPORT), str(BSDATA), "--format", "json")
    assert done.returncode == 1, done.stderr
    report = CrosscheckReport.model_validate_json(done.stdout)
    assert report.summary.disagreeing == len([e for e in report.entities if e.disagreements])
    assert json.loads(done.stdout)["schema_version"] == 1


def test_exit_0_when_they_agree(tmp_path: Path) -> None:
    out = write_out(tmp_path / "out", [bloodthirster()])
    done = run(str(out), str(out))
    assert done.returncode == 0, done.stderr
    assert "A and B agree on every entity compared" in done.stdout


def test_text_and_markdown_name_both_sides() -> None:
    text = run(str(EXPORT), str(BSDATA))
    assert text.returncode == 1
    assert "A: wahapedia-10ed-2026-02-14" in text.stdout
    assert "≠ datasheet Boyz (orks/boyz)" in text.stdout
    markdown = run(str(EXPORT), str(BSDATA), "--format", "markdown")
    assert markdown.returncode == 1 and markdown.stdout.startswith("## wahanorm crosscheck")
    assert "| datasheet | 4 |" in markdown.stdout


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["no-such-folder", str(BSDATA)], "no-such-folder: no such file or folder"),
        ([str(EXPORT), str(BSDATA), "--field", "nope"], "no such field: nope"),
        ([str(EXPORT), str(BSDATA), "--kind", "unit"], "no such kind: unit"),
    ],
)
def test_errors_are_exit_2_in_one_line(argv: list[str], says: str) -> None:
    done = run(*argv)
    assert done.returncode == 2
    (line,) = done.stderr.splitlines()
    assert line.startswith("wahanorm crosscheck: ") and says in line
    assert done.stdout == ""


# ------------------------------------------------------------------ what the report opens with


def test_the_report_opens_with_the_numbers_then_the_texts(tmp_path: Path) -> None:
    from wahanorm.outputs.crosscheck.render_text import render_text

    a = bloodthirster(keywords=["MONSTER"], weapons=[weapon("Lash of Khorne", "9")])
    b = bloodthirster(
        keywords=["MONSTER", "FLY"],
        profiles=[Profile(name="Bloodthirster", movement=parse_stat('12"'))],
        weapons=[weapon("Lash of Khorne", "8")],
    )
    report = form_report(tmp_path, [a], [b])
    headline = report.headline
    assert (headline.datasheets, headline.disagreeing) == (1, 1)
    assert (headline.characteristics, headline.points, headline.weapons) == (1, 0, 1)
    lines = render_text(report).splitlines()
    assert lines[3] == (
        "datasheets: 1 of 1 disagree; on characteristics 1, points 0, weapons 1 "
        "(1 datasheets, listed first)"
    )
    first = lines.index("== Characteristics, points and weapons")
    rest = lines.index("== Abilities, keywords, leaders and texts")
    assert first < rest
    assert [line for line in lines[first:rest] if line.startswith("      ")] == [
        '      Bloodthirster: Movement 10" (a) vs 12" (b)',
        "      Lash of Khorne: Attacks 9 (a) vs 8 (b)",
    ]
    assert lines[rest + 1 :][-1] == "      Keyword FLY: only in b"


def test_not_compared_is_one_line_per_kind(fixtures: CrosscheckReport) -> None:
    from wahanorm.outputs.crosscheck.render_text import not_compared_lines, render_text

    kinds = {n.kind for n in fixtures.not_compared}
    lines = not_compared_lines(fixtures.not_compared)
    assert len(lines) == len(kinds) and len(fixtures.not_compared) > len(kinds)
    assert [line.split(":", 1)[0] for line in lines] == sorted(
        kinds,
        key=lambda k: [
            "datasheet",
            "stratagem",
            "detachment",
            "detachment_rule",
            "enhancement",
            "rule",
        ].index(k),
    )
    text = render_text(fixtures)
    assert all(f"  {line}" in text.splitlines() for line in lines)


@pytest.mark.parametrize("max_chars", [65536, 3000, 1200, 200, 20])
def test_max_chars_cuts_and_says_what_it_left_out(max_chars: int) -> None:
    whole = run(str(EXPORT), str(BSDATA), "--format", "markdown").stdout
    done = run(str(EXPORT), str(BSDATA), "--format", "markdown", "--max-chars", str(max_chars))
    assert done.returncode == 1, done.stderr
    assert len(done.stdout) <= max_chars
    if len(whole) <= max_chars:
        assert done.stdout == whole
    else:
        assert f"Cut to fit {max_chars} characters:"[: max_chars - 3] in done.stdout


def test_max_chars_keeps_whole_entities_and_counts_the_rest() -> None:
    report = check(EXPORT, BSDATA)
    from wahanorm.outputs.crosscheck.render_markdown import render_markdown

    whole = render_markdown(report)
    cut = render_markdown(report, max_chars=len(whole) // 2)
    assert len(cut) <= len(whole) // 2
    total = sum(len(e.disagreements) for e in report.entities)
    shown = cut.count("\n  - ")
    assert f"{total - shown} of the {total} disagreements" in cut
    body = cut.split("\n---\n**Cut to fit")[0]
    assert body.endswith("\n") and whole.startswith(body)
