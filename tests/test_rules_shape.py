"""The shape of the 11th edition's rules text (issue 17): lists as nested lists, modes with their
extra cost, commentary boxes apart, from the export, the saved pages and the dumps; and every
view of it (the diff, the database, the cards) and an output written before it (version 2).

Fixtures, all real:

- ``tests/fixtures/export/wahapedia-11ed-2026-09-13-shape/``: ``Stratagems.csv`` = the sample's
  header and its line 20 (HEROIC INTERVENTION) and five rows of the same export not in the sample
  (INDIRECT SHOOTING ×2, CLOSE-QUARTERS SHOOTING ×2, OVERRUN FIGHT; see its ``SOURCES.md``).
- ``tests/fixtures/outputs/shape-v2/``: that folder converted by wahanorm before this change
  (commit a8e1b5c, contract version 2), as written.
- ``raw/000_47df9cafce3cbdb4.txt`` (seed 000): HEROIC INTERVENTION as a dump prints it (lines
  376–381: ``+1CP`` on the line before ``- Into the Fray:``).
- ``tests/fixtures/html/world_eaters_trimmed.html``: the World Eaters page (11th edition), cut.
"""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import wahanorm
from wahanorm import cli
from wahanorm.contract.models import Mode, Rule, Stratagem
from wahanorm.outputs.card import Style, render
from wahanorm.outputs.database import build_database
from wahanorm.outputs.output import Output

REPO = Path(__file__).resolve().parents[1]
SHAPE = REPO / "tests" / "fixtures" / "export" / "wahapedia-11ed-2026-09-13-shape"
SAMPLE = REPO / "tests" / "fixtures" / "export" / "wahapedia-11ed-2026-09-13-sample"
V2 = REPO / "tests" / "fixtures" / "outputs" / "shape-v2"
DUMP = REPO / "raw" / "000_47df9cafce3cbdb4.txt"
PAGE = REPO / "tests" / "fixtures" / "html" / "world_eaters_trimmed.html"
HEROIC = "11ed/stratagem/core/heroic-intervention.json"
INDIRECT = "11ed/rule/core/indirect-shooting.json"


@cache
def _entities(*paths: Path) -> dict[tuple[str, str], Any]:
    result = wahanorm.convert(list(paths))
    return {(e.kind, e.id): e for e in result.entities}


def _rule(entity_id: str, *paths: Path) -> Rule:
    found = _entities(*paths)[("rule", entity_id)]
    assert isinstance(found, Rule)
    return found


def _stratagem(entity_id: str, *paths: Path) -> Stratagem:
    found = _entities(*paths)[("stratagem", entity_id)]
    assert isinstance(found, Stratagem)
    return found


def _write_v3(folder: Path) -> Path:
    """The shape fixture converted today into ``folder``."""
    assert cli.main(["convert", str(SHAPE), "--out", str(folder)]) == 0
    return folder


# --- lists as lists, commentary apart (the export) --------------------------------------------


def test_indirect_shootings_sub_items_stay_under_the_attack_they_apply_to() -> None:
    rule = _rule("core/indirect-shooting", SHAPE)
    assert rule.edition == 11 and rule.category == "Shooting Ability"
    section = next(s for s in rule.sections if s.label == "WHILE SHOOTING")
    [block] = section.blocks
    first, attack = block.items
    assert first.text.startswith("[INDIRECT FIRE] weapons in your unit can target units")
    assert first.items == []
    assert attack.text == "Each time an [INDIRECT FIRE] weapon makes an attack:"
    assert [i.text for i in attack.items] == [
        "The target has the benefit of cover against that attack (13.08).",
        "You cannot re-roll hit rolls.",
        "An unmodified hit roll of 1-5 fails, unless your unit remained stationary this turn "
        "and the target is visible to one or more friendly units, in which case an unmodified "
        "hit roll of 1-3 fails instead.",
    ]
    # The flat text: the sub-items two spaces further in.
    assert (
        "- Each time an [INDIRECT FIRE] weapon makes an attack:\n"
        "  - The target has the benefit of cover against that attack (13.08).\n"
        "  - You cannot re-roll hit rolls.\n"
    ) in section.text


def test_indirect_fire_is_commentary_out_of_the_text_and_the_sections() -> None:
    rule = _rule("core/indirect-shooting", SHAPE)
    [box] = rule.commentary
    assert box.title == "INDIRECT FIRE"
    assert box.text.startswith("When you select indirect shooting for a unit, its [INDIRECT")
    assert box.text.endswith("its other weapons can still target other visible targets.")
    assert "When you select indirect shooting" not in rule.text
    assert rule.text.endswith(
        "AFTER SHOOTING: Until the end of the phase, your unit is not eligible to start an action."
    )
    assert [s.label for s in rule.sections][-1] == "AFTER SHOOTING"
    overrun = _rule("core/overrun-fight", SHAPE)
    assert [c.title for c in overrun.commentary] == ["OVERRUN FIGHTS"]
    assert overrun.text.endswith("then fights as described in Making Attacks (04).")


def test_close_quarters_shooting_nests_the_monster_vehicle_items_only() -> None:
    rule = _rule("core/close-quarters-shooting", SHAPE)
    section = next(s for s in rule.sections if s.label == "WHILE SHOOTING")
    assert section.blocks[0].text == (
        "Models in your unit can target enemy units your unit is engaged with."
    )
    monsters, others = section.blocks[0].items
    assert monsters.text.startswith("MONSTER/VEHICLE Models: Each time a MONSTER/VEHICLE model")
    assert len(monsters.items) == 2 and monsters.items[1].text.startswith(
        "If that attack is made with a [BLAST] weapon"
    )
    assert others.text.startswith("Non-MONSTER/Non-VEHICLE Models:") and others.items == []
    assert rule.modes == []  # bold leads are no marked labels: no modes


# --- modes: the export and the dump say the same ----------------------------------------------


def _modes(modes: list[Mode]) -> list[tuple[str, str | None, int | None, str | None, int]]:
    return [(m.name, m.cost, m.extra_cp, m.section, len(m.items)) for m in modes]


@pytest.mark.parametrize("source", [SAMPLE, DUMP], ids=["export", "dump"])
def test_heroic_intervention_offers_two_modes_the_second_for_one_cp_more(source: Path) -> None:
    stratagem = _stratagem("core/heroic-intervention", source)
    assert stratagem.edition == 11
    assert _modes(stratagem.modes) == [
        ("Leap to Defend", None, None, "EFFECT", 0),
        ("Into the Fray", "+1CP", 1, "EFFECT", 2),
    ]
    leap, fray = stratagem.modes
    assert leap.text.startswith("When selecting charge targets, you can only select enemy units")
    assert fray.text == ""
    assert fray.items[0].text == (
        "When making the charge roll, if the result is greater than 6 (after modifiers), "
        "change it to 6."
    )
    assert stratagem.effect is not None
    assert "\n+1CP\n" not in stratagem.effect  # the cost is no line of its own
    assert (
        "- Into the Fray [+1CP]:\n  - When making the charge roll, if the result is greater"
        in stratagem.effect
    )
    assert [s.label for s in stratagem.sections] == ["WHEN", "TARGET", "EFFECT"]


def test_the_dump_and_the_export_give_the_same_heroic_intervention() -> None:
    export, dump = (_stratagem("core/heroic-intervention", p) for p in (SAMPLE, DUMP))
    fields = ("when", "target", "effect", "sections", "modes", "commentary")
    assert export.model_dump(include=set(fields)) == dump.model_dump(include=set(fields))


def test_a_dump_marks_no_mode_its_lines_do_not_make_sure_of() -> None:
    # Save Rolls, FALL-BACK MOVE, COMMAND RE-ROLL … of seed 000 have "Name: …" items and lists
    # that end with a colon, but no cost line and no item that is only a name.
    with_modes = [
        key for key, e in _entities(DUMP).items() if getattr(e, "modes", None) and key[0] != ""
    ]
    assert with_modes == [("stratagem", "core/heroic-intervention")]


# --- the 11th-edition page: cards through the same builder -------------------------------------


def test_a_world_eaters_move_card_has_its_modes_and_its_commentary() -> None:
    rule = _rule("core/disembark-move", PAGE)
    assert rule.rule_number is not None and rule.edition == 11
    assert _modes(rule.modes) == [
        ("Rapid Disembark", None, None, "BEFORE MOVING", 0),
        ("Tactical Disembark", None, None, "BEFORE MOVING", 0),
        ("Combat Disembark", None, None, "BEFORE MOVING", 0),
    ]
    assert rule.modes[0].text == (
        "If that TRANSPORT made a normal or ingress move this phase, you must select this mode."
    )
    [box] = rule.commentary
    assert box.title == "RAPID DISEMBARK"
    assert box.text.startswith("When a unit uses the rapid disembark mode after its TRANSPORT")
    assert "When a unit uses the rapid disembark mode" not in rule.text
    # A later section's item with a mode's label says what that mode does there: it stays.
    after = next(s for s in rule.sections if s.label == "AFTER MOVING")
    assert [i.label for i in after.blocks[0].items] == [
        "Rapid Disembark",
        "Tactical Disembark",
        "Combat Disembark",
    ]


def test_a_dump_does_not_disagree_with_a_page_by_printing_its_commentary_inline() -> None:
    # 03.04 Engagement: seed 000 prints "WHAT IS ENGAGEMENT?" and its prose inside the rule's
    # text; the page prints it in a commentary box. One entity, both sources, the page's shape.
    result = wahanorm.convert([DUMP, PAGE])
    [engagement] = [e for e in result.entities if e.id == "core/engagement"]
    assert isinstance(engagement, Rule)
    assert sorted(Path(s.path).name for s in engagement.sources) == [DUMP.name, PAGE.name]
    assert engagement.variants == []
    assert [c.title for c in engagement.commentary] == ["WHAT IS ENGAGEMENT?"]
    conflicts = [d.message for d in result.diagnostics if d.code == "conflict"]
    assert not [m for m in conflicts if "core/engagement" in m]


# --- every move, action and labelled rule of the 11th edition is of the 11th edition -----------


@pytest.mark.parametrize("source", [SHAPE, SAMPLE, PAGE, DUMP], ids=lambda p: p.name)
def test_every_move_action_and_labelled_rule_is_of_the_11th_edition(source: Path) -> None:
    entities = _entities(source).values()
    # (A stratagem row of the export printed in the 10th edition's form is signed 10 by its own
    # form; moves, actions and labelled rules exist in the 11th edition only.)
    labelled = [e for e in entities if isinstance(e, Rule) and (e.sections or e.category)]
    assert labelled, "the input holds moves, actions or labelled rules"
    assert {e.edition for e in labelled} == {11}, [e.id for e in labelled if e.edition != 11]


# --- an output written before the shape (version 2) --------------------------------------------


def test_a_version_2_output_is_read_as_version_3_its_texts_as_written() -> None:
    loaded = wahanorm.load(V2)
    assert loaded.index.schema_version == 3
    heroic = next(e for e in loaded.entities if e.id == "core/heroic-intervention")
    assert isinstance(heroic, Stratagem)
    assert heroic.modes == [] and heroic.sections == [] and heroic.commentary == []
    assert heroic.effect is not None and "\n+1CP\n- Into the Fray:\n" in heroic.effect
    written = json.loads((V2 / "index.json").read_text(encoding="utf-8"))
    assert written["schema_version"] == 2


def _diff(old: Path, new: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str]]:
    code = cli.main(["diff", str(old), str(new)])
    return code, capsys.readouterr().out.splitlines()


def test_a_version_2_output_against_version_3_of_the_same_input_shows_no_rules_change(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    new = _write_v3(tmp_path / "new")
    capsys.readouterr()
    for old, newer in ((V2, new), (new, V2)):
        code, lines = _diff(old, newer, capsys)
        assert (code, lines[-1]) == (0, "no rules changes"), lines


def _edited(tmp_path: Path, rel: str, old: str, new: str) -> tuple[Path, Path]:
    before = _write_v3(tmp_path / "before")
    after = tmp_path / "after"
    shutil.copytree(before, after)
    path = after / rel
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")
    return before, after


def test_a_modes_extra_cost_changed_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before, after = _edited(tmp_path, HEROIC, "+1CP", "+2CP")  # in modes, sections and effect
    capsys.readouterr()
    code, lines = _diff(before, after, capsys)
    assert code == 1
    changed = lines[lines.index("Core rules") + 1 :]
    assert changed == [
        "  ~ stratagem HEROIC INTERVENTION  (core/heroic-intervention)",
        "      Into the Fray: +1CP → +2CP",
    ]


def test_a_commentary_change_is_said_by_its_title(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before, after = _edited(tmp_path, INDIRECT, "punishing barrages", "deadly barrages")
    capsys.readouterr()
    code, lines = _diff(before, after, capsys)
    assert code == 1
    changed = lines[lines.index("Core rules") + 2 :]
    assert len(changed) == 1 and changed[0].startswith("      Commentary INDIRECT FIRE: ")
    assert "[-punishing-]" in changed[0] and "{+deadly+}" in changed[0]


# --- the database -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def shape_db(tmp_path_factory: pytest.TempPathFactory) -> Any:
    target = tmp_path_factory.mktemp("shape") / "rules.db"
    build_database(Output.from_files(wahanorm.convert([SHAPE]).files()), target)
    db = sqlite3.connect(target)
    yield db
    db.close()


def test_the_database_holds_modes_commentary_and_list_items(shape_db: sqlite3.Connection) -> None:
    modes = shape_db.execute(
        "SELECT entity_id, name, cost, extra_cp, section FROM modes ORDER BY entity_id, position"
    ).fetchall()
    assert modes == [
        ("core/heroic-intervention", "Leap to Defend", None, None, "EFFECT"),
        ("core/heroic-intervention", "Into the Fray", "+1CP", 1, "EFFECT"),
    ]
    boxes = shape_db.execute(
        "SELECT entity_id, title FROM commentary ORDER BY entity_id"
    ).fetchall()
    assert boxes == [
        ("core/indirect-shooting", "INDIRECT FIRE"),
        ("core/overrun-fight", "OVERRUN FIGHTS"),
    ]
    # The subtree of the second item of WHILE SHOOTING (section 2): its three sub-items.
    sub = shape_db.execute(
        "SELECT item_path, text FROM text_items WHERE entity_id = 'core/indirect-shooting' "
        "AND field = 'sections' AND part_no = 2 AND item_path LIKE '2.%' ORDER BY item_path"
    ).fetchall()
    assert [p for p, _ in sub] == ["2.1", "2.2", "2.3"]
    assert sub[1][1] == "You cannot re-roll hit rolls."
    fray = shape_db.execute(
        "SELECT count(*) FROM text_items WHERE field = 'modes' AND part_no = 1"
    ).fetchone()
    assert fray == (2,)
    found = shape_db.execute(
        "SELECT entity_id, field FROM rules_text WHERE rules_text MATCH '\"punishing barrages\"'"
    ).fetchall()
    assert found == [("core/indirect-shooting", "commentary:INDIRECT FIRE")]


# --- the cards --------------------------------------------------------------------------------


def _card(rel: str, width: int = 70) -> list[str]:
    files = wahanorm.convert([SHAPE]).files()
    return render(json.loads(files[rel]), Style(width=width, bold=False)).splitlines()


def test_a_card_wraps_a_sub_item_at_its_own_indent_and_shows_commentary_apart() -> None:
    lines = _card(INDIRECT)
    start = lines.index("    - An unmodified hit roll of 1-5 fails, unless your unit remained")
    assert re.fullmatch(r"      \S.*", lines[start + 1])  # the wrapped line under its text
    assert "  - Each time an [INDIRECT FIRE] weapon makes an attack:" in lines
    title = lines.index("INDIRECT FIRE (commentary)")
    assert lines[title - 1] == "" and lines[title + 1].startswith("  When you select indirect")
    # The rule's whole text is its sections: shown once.
    assert sum(1 for line in lines if "You cannot re-roll hit rolls." in line) == 1


def test_a_card_shows_a_modes_cost_after_its_name() -> None:
    lines = _card(HEROIC)
    assert "Modes: Leap to Defend · Into the Fray [+1CP]" in lines
    assert "  - Into the Fray [+1CP]:" in lines
    assert not any(re.fullmatch(r"\s*\+1CP", line) for line in lines)


def test_a_detachment_rules_sub_abilities_keep_their_text_at_column_0() -> None:
    # Blood Tithe on the World Eaters page: <b>Enraged Abjuration [2BTP]</b><br><span
    # class="kwb">BLOOD</span> …: in the nested text the item's second line sits at its text's
    # column; it is the sub-ability's text from column 0.
    result = wahanorm.convert([PAGE])
    [tithe] = [e for e in result.entities if e.id == "khorne-daemonkin/blood-tithe"]
    texts = [a.text for a in getattr(tithe, "abilities", [])]
    assert len(texts) == 4 and not [t for t in texts if t.startswith(" ")]
    assert texts[0].startswith("BLOOD LEGIONS and WORLD EATERS models from your army have the")
