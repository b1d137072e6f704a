"""The Game-Datacards reader on fixtures cut from ../shared/game-datacards (SOURCES.md there):
facts checked against the raw JSON, the edition from the file, recognition by content, the
bounds, and one unit read from Game-Datacards and from the export slice compared field by
field where both give it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from wahanorm.contract.models import Datasheet, Detachment, Enhancement, Stratagem
from wahanorm.pipeline import read_path
from wahanorm.readers.base import Source
from wahanorm.readers.gamedatacards.reader import GameDatacardsReader
from wahanorm.readers.registry import reader_for

FIXTURES = Path(__file__).parent / "fixtures" / "gamedatacards"
ELEVENTH = FIXTURES / "11th-orks.json"
TENTH = FIXTURES / "10th-orks.json"
EXPORT_10 = Path(__file__).parent / "fixtures" / "export" / "wahapedia-10ed-2026-02-14"


def _entities(path: Path) -> dict[tuple[str, str], object]:
    return {(e.kind, e.id): e for e in read_path(path).entities}


def _sheet(path: Path, unit: str) -> Datasheet:
    found = _entities(path)[("datasheet", unit)]
    assert isinstance(found, Datasheet)
    return found


def test_recognised_by_content_not_by_name(tmp_path: Path) -> None:
    assert isinstance(reader_for(Source(ELEVENTH, str(ELEVENTH))), GameDatacardsReader)
    assert isinstance(reader_for(Source(TENTH, str(TENTH))), GameDatacardsReader)
    other = tmp_path / "orks.json"
    other.write_text('{"datasheets": [], "name": "not from the app"}\n', encoding="utf-8")
    assert not GameDatacardsReader().recognises(Source(other, str(other)))
    catalogue = tmp_path / "cat.json"
    catalogue.write_text('{"catalogue": {"compatibleDataVersion": 1, "datasheets": []}}')
    assert not GameDatacardsReader().recognises(Source(catalogue, str(catalogue)))


def test_bsdata_json_still_read_by_bsdata(tmp_path: Path) -> None:
    catalogue = tmp_path / "x.json"
    catalogue.write_text('{"catalogue": {"id": "a", "name": "X"}}', encoding="utf-8")
    reader = reader_for(Source(catalogue, str(catalogue)))
    assert reader is not None and reader.name == "bsdata"
    # the committed 11th-edition BSData catalogues in JSON: BSData's, never this reader's
    folder = Path(__file__).parent / "fixtures" / "bsdata" / "wh40k-11e-2026-07-22"
    found = sorted(folder.glob("*.json"))
    assert found
    for path in found:
        reader = reader_for(Source(path, str(path)))
        assert reader is not None and reader.name == "bsdata", path
        assert not GameDatacardsReader().wants(path, True)


def test_eleventh_edition_datasheet_facts() -> None:
    raw = json.loads(ELEVENTH.read_text(encoding="utf-8"))
    entry = next(d for d in raw["datasheets"] if d["name"]["en"] == "Ghazghkull Thraka")
    sheet = _sheet(ELEVENTH, "orks/ghazghkull-thraka")
    assert sheet.edition == 11
    assert [p.name for p in sheet.profiles] == ["Ghazghkull Thraka", "Makari"]
    for profile, stats in zip(sheet.profiles, entry["stats"], strict=True):
        assert profile.toughness is not None and profile.toughness.text == stats["t"]
        assert profile.wounds is not None and profile.wounds.text == stats["w"]
        assert profile.save is not None and profile.save.text == stats["sv"]
        assert profile.invulnerable_save is not None
        assert profile.invulnerable_save.text == entry["abilities"]["invul"]["value"] == "4+"
    klaw = [w for w in sheet.weapons if w.name == "Gork's Klaw"]
    assert [(w.profile, w.strength.text, w.damage.value) for w in klaw] == [
        ("Sweep", "8", 2),
        ("Strike", "14", 4),
    ]
    assert all(w.type == "melee" for w in klaw)
    roar = next(w for w in sheet.weapons if w.name == "Mork's Roar")
    assert [(a.id, a.value) for a in roar.abilities] == [("rapid-fire", "4")]
    assert sheet.faction_keywords == ["ORKS"]
    assert "EPIC HERO" in sheet.keywords
    assert sheet.leader == ["orks/boyz", "orks/breaka-boyz", "orks/meganobz", "orks/nobz"]
    assert [a.name for a in sheet.abilities.core] == ["Leader"]
    assert any(a.aura for a in sheet.abilities.datasheet)
    assert sheet.points[0].points == 235 and sheet.points[0].models == 2
    assert sheet.base_size == "Ghazghkull Thraka: 80mm; Makari: 25mm"
    assert sheet.loadout is not None and "**" not in sheet.loadout


def test_cost_tiers_from_additional_cost() -> None:
    # Boyz: 75 / 160 points, "additionalCost": {"cost": "10", "afterSelections": 3}
    sheet = _sheet(ELEVENTH, "orks/boyz")
    assert [(p.models, p.points, p.units_from, p.units_to) for p in sheet.points] == [
        (20, 160, 1, 3),
        (10, 75, 1, 3),
        (20, 170, 4, None),
        (10, 85, 4, None),
    ]
    # led by the characters whose LEADER text names BOYZ
    assert "orks/ghazghkull-thraka" in sheet.led_by and "orks/warboss" in sheet.led_by


def test_stratagem_detachment_enhancement() -> None:
    found = _entities(ELEVENTH)
    stratagem = found[("stratagem", "blitz-brigade/armoured-duellists")]
    assert isinstance(stratagem, Stratagem)
    assert stratagem.cp == 1 and stratagem.category == "Battle Tactic"
    assert stratagem.source == "Blitz Brigade"
    assert stratagem.when == "Your Shooting phase."
    assert stratagem.target is not None and stratagem.target.startswith("One ORKS VEHICLE unit")
    assert [s.label for s in stratagem.sections] == ["WHEN", "TARGET", "EFFECT"]
    assert stratagem.timing is not None and stratagem.timing.turn == "your"
    assert [p.phase for p in stratagem.timing.phases] == ["shooting"]
    detachment = found[("detachment", "orks/blitz-brigade")]
    assert isinstance(detachment, Detachment)
    assert (detachment.dp, detachment.force_disposition) == (2, "Reconnaissance")
    enhancement = found[("enhancement", "blitz-brigade/runnin-boots")]
    assert isinstance(enhancement, Enhancement)
    raw = json.loads(ELEVENTH.read_text(encoding="utf-8"))["enhancements"][0]
    assert enhancement.cost == int(raw["cost"])
    assert enhancement.text is not None and "<k>" not in enhancement.text
    assert ("detachment_rule", "blitz-brigade/eager-for-the-fight") in found
    assert ("rule", "orks/waaagh") in found


def test_tenth_edition_from_its_entries() -> None:
    extraction = read_path(TENTH)
    assert {e.edition for e in extraction.entities} == {10}
    assert not [d for d in extraction.report.diagnostics if d.code == "edition-guessed"]
    sheet = _sheet(TENTH, "orks/ghazghkull-thraka")
    assert sheet.damaged is None  # "showDamagedAbility": false
    assert [w.profile for w in sheet.weapons if w.name == "Gork's Klaw"] == ["Sweep", "Strike"]


def _characteristics(sheet: Datasheet) -> dict[str, tuple[str | None, ...]]:
    return {
        p.name.casefold(): tuple(
            s.text if s else None
            for s in (p.movement, p.toughness, p.save, p.wounds, p.leadership,
                      p.objective_control)
        )
        for p in sheet.profiles
    }  # fmt: skip


def _weapons(sheet: Datasheet) -> dict[tuple[str, str | None], tuple[object, ...]]:
    return {
        (w.name.casefold(), (w.profile or "").casefold() or None): (
            w.type, w.range.text, w.attacks.text, w.skill.text, w.strength.text,
            w.armour_penetration.text, w.damage.text,
        )
        for w in sheet.weapons
    }  # fmt: skip


def test_same_unit_as_the_export() -> None:
    """Ghazghkull Thraka from GDC's 10th-edition file and from the export slice of the same
    edition: same id, faction, characteristics (model names aside: the export prints them in
    capitals), weapons with their profiles, core and faction abilities, faction keywords."""
    gdc = _sheet(TENTH, "orks/ghazghkull-thraka")
    export = _sheet(EXPORT_10, "orks/ghazghkull-thraka")
    assert (gdc.id, gdc.faction, gdc.name) == (export.id, export.faction, export.name)
    assert _characteristics(gdc) == _characteristics(export)
    # the file gives one invulnerable save for the datasheet (on every model); the export's
    # is per model: the first model's is the same
    assert gdc.profiles[0].invulnerable_save == export.profiles[0].invulnerable_save
    assert _weapons(gdc) == _weapons(export)
    assert gdc.abilities.core == export.abilities.core
    assert gdc.abilities.faction == export.abilities.faction
    # the export prints a boxed ability's name in capitals, and the sources spell one word of
    # Supreme Commander's text differently (WARLORD / Warlord): the texts of the others agree
    assert [a.name.casefold() for a in gdc.abilities.datasheet] == [
        a.name.casefold() for a in export.abilities.datasheet
    ]
    assert [a.text for a in gdc.abilities.datasheet[:2]] == [
        a.text for a in export.abilities.datasheet[:2]
    ]
    assert gdc.faction_keywords == export.faction_keywords
    assert gdc.points == export.points
    assert set(export.keywords) <= set(gdc.keywords)


def test_bounds_and_bad_json(tmp_path: Path) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text(
        '{"compatibleDataVersion": 1, "datasheets": [' + "[" * 200 + "]" * 200 + "]}",
        encoding="utf-8",
    )
    extraction = read_path(deep)
    assert not extraction.entities
    assert [d.code for d in extraction.report.diagnostics] == ["input-error"]
    broken = tmp_path / "broken.json"
    broken.write_text('{"compatibleDataVersion": 1, "datasheets": [{"name": ', encoding="utf-8")
    codes = [d.code for d in read_path(broken).report.diagnostics]
    assert codes == ["malformed-file"]


def test_convert_a_file_in_a_real_process(tmp_path: Path) -> None:
    out = tmp_path / "out"
    done = subprocess.run(
        [sys.executable, "-m", "wahanorm", "convert", str(ELEVENTH), "--out", str(out)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    index = json.loads((out / "index.json").read_text(encoding="utf-8"))
    kinds = {e["kind"] for e in index["entities"]}
    assert kinds == {
        "datasheet",
        "stratagem",
        "detachment",
        "detachment_rule",
        "enhancement",
        "rule",
    }
    assert index["data_version"] == "912"
    assert (out / "11ed" / "datasheet" / "orks" / "ghazghkull-thraka.json").is_file()


@pytest.mark.parametrize("edition", ["10th", "11th"])
def test_whole_shared_files(edition: str) -> None:
    from tests.conftest import shared_path

    folder = shared_path("game-datacards", edition)
    for path in sorted(folder.glob("*.json")):
        extraction = read_path(path)
        errors = [d for d in extraction.report.diagnostics if d.severity == "error"]
        assert not errors, (path, errors[:3])
        assert extraction.entities, path
        if path.name != "core.json":
            assert {e.edition for e in extraction.entities} == {int(edition[:2])}


def test_language_on_a_datasheet(tmp_path: Path) -> None:
    """``--language de``: the Warboss's keywords the file translates are German, its name
    (which the file gives in English only) stays English and is counted as untranslated, its
    id is the English one; the language is in index.json."""
    raw = json.loads(ELEVENTH.read_text(encoding="utf-8"))
    entry = next(d for d in raw["datasheets"] if d["name"]["en"] == "Warboss")
    german = [k["de"].upper() for k in entry["keywords"] if "de" in k]
    assert german == ["CHARAKTERMODELL"]
    english_sheet = _sheet(ELEVENTH, "orks/warboss")
    extraction = read_path(ELEVENTH, language="de")
    sheet = next(e for e in extraction.entities if e.id == "orks/warboss")
    assert isinstance(sheet, Datasheet)
    assert sheet.name == "Warboss"
    assert "CHARAKTERMODELL" in sheet.keywords and "CHARACTER" not in sheet.keywords
    assert "CHARACTER" in english_sheet.keywords
    assert sheet.profiles == english_sheet.profiles
    missing = [d for d in extraction.report.diagnostics if d.code == "translation-missing"]
    assert len(missing) == 1 and "no 'de' translation" in missing[0].message
    detachment = next(e for e in extraction.entities if e.id == "orks/blitz-brigade")
    assert isinstance(detachment, Detachment)
    assert detachment.force_disposition == "Auskundschaften"
    out = tmp_path / "out"
    done = subprocess.run(
        [sys.executable, "-m", "wahanorm", "convert", str(ELEVENTH), "--out", str(out),
         "--language", "de", "--no-cache"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    index = json.loads((out / "index.json").read_text(encoding="utf-8"))
    assert index["language"] == "de"
    card = json.loads((out / "11ed" / "datasheet" / "orks" / "warboss.json").read_text("utf-8"))
    assert "CHARAKTERMODELL" in card["keywords"]


def test_a_folder_with_other_json_files(tmp_path: Path) -> None:
    """In a folder a ``.json`` that is neither Game-Datacards nor BSData is skipped (a
    warning), not an error; the Game-Datacards file beside it is read."""
    folder = tmp_path / "data"
    folder.mkdir()
    (folder / "orks.json").write_bytes(ELEVENTH.read_bytes())
    (folder / "settings.json").write_text('{"theme": "dark"}\n', encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "wahanorm", "convert", str(folder), "--out", str(tmp_path / "o"),
         "--no-cache"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    index = json.loads((tmp_path / "o" / "index.json").read_text(encoding="utf-8"))
    codes = {(d["code"], Path(d["path"]).name) for d in index["diagnostics"]}
    assert ("skipped-input", "settings.json") in codes
    assert not [d for d in index["diagnostics"] if d["severity"] == "error"]


def test_markup_becomes_rules_text() -> None:
    """The file's markup as the contract's rules text: bold and keyword markup out (a keyword
    in capitals), bullets as items (inline ones too, ◦ one level under ■), the file's own list
    written straight inside a list nested under the item before it, "&" and "<" kept as words.
    (Texts from 11th/orks.json: Da Big Hunt's rule; an Astra Militarum wargear option.)"""
    from wahanorm.readers.gamedatacards.text import rules_text

    text = (
        "Select one **MONSTER** unit:\n\n<ul><li>■  When a <k>Beast Snagga</k> unit charges:</li>\n"
        "<ul><li>It can re-roll that **charge roll**.</li>\n<li>It <u>must</u> end engaged.</li>"
        "</ul></ul>\n\n■ Each time a model attacks, add 1 & <more>."
    )
    assert rules_text(text) == (
        "Select one MONSTER unit:\n"
        "- When a BEAST SNAGGA unit charges:\n"
        "  - It can re-roll that charge roll.\n"
        "  - It must end engaged.\n"
        "- Each time a model attacks, add 1 & <more>."
    )
    option = "This model can be equipped with one of the following:  ◦ 1 autocannon ◦ 1 lascannon"
    assert rules_text(option) == (
        "This model can be equipped with one of the following:\n- 1 autocannon\n- 1 lascannon"
    )


def test_boxes_weapon_abilities_and_headings_of_the_shared_file() -> None:
    """From 10th/astramilitarum.json: Commissar Yarrick's primarch box (no text of its own,
    three sub-abilities) gives its sub-abilities; the Scout Sentinels' weapon ability One Shot
    (``rangedWeapons[].abilities``) is a wargear ability; the army rule's headings (parts of
    type ``header``: the Orders' names) are lines of its text."""
    from tests.conftest import shared_path

    path = shared_path("game-datacards", "10th", "astramilitarum.json")
    found = _entities(path)
    yarrick = found[("datasheet", "astra-militarum/commissar-yarrick")]
    assert isinstance(yarrick, Datasheet)
    names = [a.name for a in yarrick.abilities.datasheet]
    assert names.count("Hero of Hades Hive") == 1
    assert {"Counterstrategist", "Decisive Command", "Inspiring Hero"} <= set(names)
    sentinels = found[("datasheet", "astra-militarum/scout-sentinels")]
    assert isinstance(sentinels, Datasheet)
    assert [a.name for a in sentinels.abilities.wargear] == ["One Shot"]
    rule = found[("rule", "astra-militarum/voice-of-command")]
    assert "MOVE! MOVE! MOVE!" in rule.text.split("\n")  # type: ignore[attr-defined]
