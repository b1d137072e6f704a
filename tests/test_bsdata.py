"""The BSData reader on the committed fixtures (cut from the real catalogues, see
``tests/fixtures/bsdata/SOURCES.md``): facts checked against the raw files, links across
catalogues, missing links and broken files as diagnostics, recognition, line numbers."""

from __future__ import annotations

import json
import shutil
import zipfile
from pathlib import Path

import pytest

from wahanorm.contract.models import Datasheet, Detachment, DetachmentRule, Enhancement, Rule
from wahanorm.pipeline import convert, read_path
from wahanorm.pipeline.after_read import Extraction
from wahanorm.readers.bsdata.catalogue import catalogue_faction_name
from wahanorm.readers.bsdata.nodes import load_xml
from wahanorm.readers.bsdata.recognise import is_bsdata

FIXTURES = Path(__file__).parent / "fixtures" / "bsdata"
TENTH = FIXTURES / "wh40k-10e-2026-02-14"
ELEVENTH = FIXTURES / "wh40k-11e-2026-07-22"


def read(folder: Path, edition: int | None = None) -> Extraction:
    """A folder of catalogues as one input, through the reader and the after-read chain."""
    return read_path(folder, folder.name, edition=11 if edition == 11 else None)


@pytest.fixture(scope="module")
def tenth() -> Extraction:
    return read(TENTH)


@pytest.fixture(scope="module")
def eleventh() -> Extraction:
    return read(ELEVENTH)


def entity(extraction: Extraction, entity_id: str, kind: str = "datasheet") -> object:
    found = [e for e in extraction.entities if e.id == entity_id and e.kind == kind]
    assert len(found) == 1, (entity_id, [e.id for e in extraction.entities])
    return found[0]


def sheet(extraction: Extraction, entity_id: str) -> Datasheet:
    found = entity(extraction, entity_id)
    assert isinstance(found, Datasheet)
    return found


# --------------------------------------------------------------------------- 10th edition


def test_tenth_edition_entities(tenth: Extraction) -> None:
    ids = sorted(e.id for e in tenth.entities if e.kind == "datasheet")
    assert ids == [
        "orks/battlewagon",
        "orks/boyz",
        "orks/ghazghkull-thraka",
        "orks/mek-gunz",
        "orks/warboss",
        "tyranids/winged-hive-tyrant",
    ]
    assert {e.edition for e in tenth.entities} == {10}
    assert tenth.data_version == "Warhammer 40,000 10th Edition r87"
    assert not [d for d in tenth.report.diagnostics if d.severity == "error"]


def test_battlewagon_profile_invulnerable_and_core_abilities(tenth: Extraction) -> None:
    # Orks.cat line 12 on: M 10", T 10, SV 3+, W 16, LD 7+, OC 5; infoLink to the shared
    # profile "Invulnerable Save (6+)"; Deadly Demise with "append D6"; Firing Deck "append 11"
    wagon = sheet(tenth, "orks/battlewagon")
    (profile,) = wagon.profiles
    stats = [s.text if s else None for s in (profile.movement, profile.toughness, profile.save)]
    assert stats == ['10"', "10", "3+"]
    assert profile.wounds and profile.wounds.value == 16
    assert profile.leadership and profile.leadership.text == "7+"
    assert profile.objective_control and profile.objective_control.value == 5
    assert profile.invulnerable_save and profile.invulnerable_save.text == "6+"
    core = [(a.name, a.parameter) for a in wagon.abilities.core]
    assert core == [("Deadly Demise", "D6"), ("Firing Deck", "11")]
    assert [a.name for a in wagon.abilities.faction] == ["Waaagh!"]
    assert wagon.damaged is not None and wagon.damaged.wounds == "1-5"
    transport = next(a for a in wagon.abilities.datasheet if a.name == "Transport")
    # **^^Orks Infantry^^** reads as Wahapedia prints a keyword
    assert transport.text and "22 ORKS INFANTRY models" in transport.text
    assert [a.name for a in wagon.abilities.wargear] == ["'Ard Case"]
    assert [(p.models, p.points) for p in wagon.points] == [(1, 160)]
    assert wagon.keywords == ["BATTLEWAGON", "TRANSPORT", "VEHICLE"]
    assert wagon.faction_keywords == ["ORKS"]


def test_weapon_keywords_typed_by_the_grammar(tenth: Extraction) -> None:
    boyz = sheet(tenth, "orks/boyz")
    kombi = next(w for w in boyz.weapons if w.name == "Kombi-weapon")
    # Keywords: "Anti-infantry 4+, Devastating Wounds, Rapid Fire 1"
    anti = kombi.abilities[0]
    assert (anti.id, anti.name, anti.keyword, anti.threshold) == (
        "anti",
        "ANTI-INFANTRY 4+",
        "INFANTRY",
        4,
    )
    assert [a.name for a in kombi.abilities[1:]] == ["DEVASTATING WOUNDS", "RAPID FIRE 1"]
    assert kombi.range.text == '24"' and kombi.skill.text == "5+"
    wagon = sheet(tenth, "orks/battlewagon")
    kannon = [(w.name, w.profile) for w in wagon.weapons if w.name == "Kannon"]
    assert kannon == [("Kannon", "shell"), ("Kannon", "frag")]  # "➤ Kannon - shell"
    assert [w.type for w in wagon.weapons] == sorted(
        (w.type for w in wagon.weapons), key=["ranged", "melee"].index
    )


def test_a_profile_set_off_by_a_hyphen(tenth: Extraction) -> None:
    # Orks.cat line 1156: <profile name="1-2 Bubblechukka - big bubble" … "Ranged Weapons">
    gunz = sheet(tenth, "orks/mek-gunz")
    chukka = [(w.name, w.profile) for w in gunz.weapons if "Bubblechukka" in w.name]
    assert chukka == [
        ("1-2 Bubblechukka", "big bubble"),
        ("3-4 Bubblechukka", "wobbly bubble"),
        ("5-6 Bubblechukka", "dense bubble"),
    ]


def test_boyz_points_from_modifiers_and_composition(tenth: Extraction) -> None:
    # cost 80; modifier "set 170" when more than 10 models; Boss Nob 1, group Boyz (9-19)
    boyz = sheet(tenth, "orks/boyz")
    assert [(p.models, p.points, p.text) for p in boyz.points] == [
        (10, 80, "10 models"),
        (20, 170, "20 models"),
    ]
    assert all(p.units_from is None for p in boyz.points)  # 10th edition: no tiers
    assert boyz.is_support is None  # 10th edition has no support characters
    assert boyz.unit_composition == ["1 Boss Nob", "9-19 Boyz"]
    assert [p.name for p in boyz.profiles] == ["Boy", "Boss Nob"]
    assert boyz.keywords == ["BATTLELINE", "BOYZ", "GRENADES", "INFANTRY", "MOB"]
    assert [a.name for a in boyz.abilities.datasheet] == ["Get Da Good Bitz", "Bodyguard"]


def test_model_scoped_invulnerable_save_keywords_and_leader(tenth: Extraction) -> None:
    ghaz = sheet(tenth, "orks/ghazghkull-thraka")
    ghazghkull, makari = ghaz.profiles
    assert ghazghkull.invulnerable_save and ghazghkull.invulnerable_save.text == "4+"
    # "Invulnerable Save (2+*): Makari": scoped by its name, its rest is the condition
    assert makari.invulnerable_save and makari.invulnerable_save.text == "2+"
    assert (
        makari.invulnerable_save.note
        == "You cannot re-roll invulnerable saving throws made for this model."
    )
    assert ghazghkull.keywords == ["GHAZGHKULL THRAKA", "WARBOSS"]
    assert ghaz.keywords == ["CHARACTER", "EPIC HERO", "INFANTRY"]
    # the Leader profiles name BOYZ, MEGANOBZ, NOBZ (Warboss, Orks.cat line 1514: "- BOYZ",
    # "- NOBZ"); the cut holds no Nobz or Meganobz: a link is a datasheet of the output, the
    # others are said
    assert ghaz.leader == ["orks/boyz"]
    assert sheet(tenth, "orks/warboss").leader == ["orks/boyz"]
    unanswered = [d.message for d in tenth.report.diagnostics if d.code == "missing-entry"]
    assert any("can lead 'MEGANOBZ'" in m for m in unanswered)
    assert any("can lead 'NOBZ'" in m for m in unanswered)
    assert sheet(tenth, "orks/boyz").led_by == ["orks/ghazghkull-thraka", "orks/warboss"]
    assert ghaz.unit_composition == ["1 Ghazghkull Thraka", "1 Makari"]
    assert [(a.name, a.aura) for a in ghaz.abilities.datasheet if a.aura] == [
        ("Ghazghkull's Waaagh! Banner", True)
    ]


def test_link_across_catalogues_resolved(tenth: Extraction) -> None:
    # Tyranids.cat offers Winged Hive Tyrant by a root entryLink into Library - Tyranids.cat,
    # which holds the entry, its weapons, the faction rule Synapse and its invulnerable save
    tyrant = sheet(tenth, "tyranids/winged-hive-tyrant")
    assert tyrant.sources[0].path.endswith("Library - Tyranids.cat")
    assert tyrant.faction == "Tyranids"
    assert "Synapse" in [a.name for a in tyrant.abilities.faction]
    assert (
        tyrant.profiles[0].invulnerable_save and tyrant.profiles[0].invulnerable_save.text == "4+"
    )
    assert tyrant.weapons


def test_rules_detachments_enhancements(tenth: Extraction) -> None:
    waaagh = entity(tenth, "orks/waaagh", "rule")
    assert isinstance(waaagh, Rule)
    assert waaagh.text.startswith("If your Army Faction is ORKS, once per battle")
    assert "\n- Models from your army with this ability have a 5+ invulnerable save." in waaagh.text
    deadly = entity(tenth, "core/deadly-demise", "rule")
    assert isinstance(deadly, Rule) and "roll one D6" in deadly.text
    horde = entity(tenth, "orks/war-horde", "detachment")
    assert isinstance(horde, Detachment) and horde.faction == "Orks" and horde.type is None
    rule = entity(tenth, "war-horde/get-stuck-in", "detachment_rule")
    assert isinstance(rule, DetachmentRule)
    assert (
        rule.text
        == "Melee weapons equipped by ORKS models from your army have the [SUSTAINED HITS 1] ability."
    )
    cybork = entity(tenth, "war-horde/supa-cybork-body", "enhancement")
    assert isinstance(cybork, Enhancement)
    assert (cybork.detachment, cybork.faction, cybork.cost) == ("War Horde", "Orks", 15)
    assert cybork.text == "ORKS model only. The bearer has the Feel No Pain 4+ ability."


def test_sources_are_element_lines(tenth: Extraction) -> None:
    lines = (TENTH / "Orks.cat").read_text(encoding="utf-8").split("\n")
    for e in tenth.entities:
        source = e.sources[0]
        if not source.path.endswith("Orks.cat"):
            continue
        first, last = lines[source.line_start - 1].strip(), lines[source.line_end - 1].strip()
        assert first.startswith("<") and 'name="' in first, (e.id, first)
        tag = first[1:].split()[0].rstrip(">")
        assert last == f"</{tag}>" or (
            source.line_start == source.line_end and first.endswith("/>")
        )


def test_missing_links_and_catalogues_are_warnings(tenth: Extraction) -> None:
    # Unaligned Forces is not here: Orks.cat and Tyranids.cat import it; the links of theirs
    # that resolve nowhere (the Crusade groups the cut left out) are counted in its one warning
    missing = [d for d in tenth.report.diagnostics if d.code == "missing-import"]
    assert [(d.path.rsplit("/", 1)[-1], d.line) for d in missing] == [("Orks.cat", 2200)]
    assert "'Unaligned Forces'" in missing[0].message
    assert "2 import it ('Xenos - Orks', 'Xenos - Tyranids')" in missing[0].message
    assert "their links to 6 entries none of the files holds" in missing[0].message
    assert "Crusade, Crusade Relic Upgrades" in missing[0].message
    # the library imports nothing: its links into the Crusade content are dangling, each said
    crusade = [
        d
        for d in tenth.report.diagnostics
        if d.code == "dangling-link" and "'Crusade'" in d.message
    ]
    assert crusade and all(d.severity == "warning" and d.line for d in crusade)
    assert crusade[0].path.endswith("Library - Tyranids.cat")
    assert "2fa5-0a8d-013e-fc12" in crusade[0].message


def test_a_link_whose_catalogue_is_absent(tmp_path: Path) -> None:
    # Tyranids.cat alone: its units are in the library, which is not given
    shutil.copy(TENTH / "Tyranids.cat", tmp_path / "Tyranids.cat")
    extraction = read(tmp_path)
    assert not [e for e in extraction.entities if e.kind == "datasheet"]
    assert not [d for d in extraction.report.diagnostics if d.code == "dangling-link"]
    missing = [d for d in extraction.report.diagnostics if d.code == "missing-import"]
    # once per catalogue it lacks, with what that costs: the library holds the unit it offers
    library = [d for d in missing if "'Library - Tyranids'" in d.message]
    assert len(library) == 1
    assert "1 of them entries a catalogue offers at its root (units): Winged Hive Tyrant" in (
        library[0].message
    )


def test_malformed_file_reported_and_the_rest_read(tmp_path: Path) -> None:
    for path in TENTH.iterdir():
        shutil.copy(path, tmp_path / path.name)
    broken = tmp_path / "Tyranids.cat"
    text = broken.read_text(encoding="utf-8").split("\n")
    broken.write_text("\n".join(text[:10]) + "\n<oops", encoding="utf-8")
    (tmp_path / "Empty.cat").write_bytes(b"")
    run = convert([tmp_path])
    errors = [d for d in run.diagnostics if d.severity == "error"]
    assert {d.code for d in errors} == {"malformed-file"}
    by_file = {d.path.rsplit("/", 1)[-1]: d for d in errors}
    assert set(by_file) == {"Tyranids.cat"}
    assert by_file["Tyranids.cat"].line is not None and by_file["Tyranids.cat"].line >= 10
    # an empty file opens no catalogue: no input of the set, skipped with a warning
    (skipped,) = [d for d in run.diagnostics if d.code == "skipped-input"]
    assert skipped.path.endswith("Empty.cat") and skipped.severity == "warning"
    # the others are read: the Orks units, and the Tyrant from the library
    ids = {e.id for e in run.entities if e.kind == "datasheet"}
    assert {"orks/boyz", "orks/battlewagon"} <= ids


def test_malformed_json_has_its_line(tmp_path: Path) -> None:
    (tmp_path / "Broken.json").write_text(
        '{\n  "catalogue": {\n    "name": "x",\n    oops\n', encoding="utf-8"
    )
    extraction = read(tmp_path)
    (error,) = extraction.report.diagnostics
    assert (error.code, error.severity, error.line) == ("malformed-file", "error", 4)
    assert error.excerpt and "oops" in error.excerpt


def test_an_xml_file_of_another_kind_is_an_error(tmp_path: Path) -> None:
    # zipped, a .catz is told by its name: what is inside is checked when read
    with zipfile.ZipFile(tmp_path / "page.catz", "w") as archive:
        archive.writestr("page.cat", '<?xml version="1.0"?>\n<html>\n<body/>\n</html>\n')
    extraction = read(tmp_path)
    (error,) = extraction.report.diagnostics
    assert (error.code, error.severity, error.line) == ("unknown-format", "error", 2)
    assert extraction.entities == []


def test_an_xml_file_of_another_kind_in_a_folder_is_skipped(tmp_path: Path) -> None:
    (tmp_path / "page.cat").write_text('<?xml version="1.0"?>\n<html>\n<body/>\n</html>\n')
    (tmp_path / "package.json").write_text('{\n  "name": "x",\n  "catalogue": {}\n}\n')
    shutil.copy(TENTH / "Orks.cat", tmp_path / "Orks.cat")
    run = convert([tmp_path])
    skipped = sorted(
        d.path.rsplit("/", 1)[-1] for d in run.diagnostics if d.code == "skipped-input"
    )
    assert skipped == ["package.json", "page.cat"]
    assert "orks/boyz" in {e.id for e in run.entities}


def test_no_game_system_guesses_the_edition_with_a_warning(tmp_path: Path) -> None:
    shutil.copy(TENTH / "Orks.cat", tmp_path / "Orks.cat")
    extraction = read(tmp_path)
    assert any(d.code == "edition-guessed" for d in extraction.report.diagnostics)
    said = read(tmp_path, edition=11)
    assert {e.edition for e in said.entities} == {11}
    assert not any(d.code == "edition-guessed" for d in said.report.diagnostics)


# --------------------------------------------------------------------------- 11th edition


def test_eleventh_edition_json(eleventh: Extraction) -> None:
    assert {e.edition for e in eleventh.entities} == {11}
    boyz = sheet(eleventh, "orks/boyz")
    # 11th edition: a cost table of one tier for every unit (YOUR UNIT COSTS)
    assert [(p.models, p.points, p.units_from, p.units_to) for p in boyz.points] == [
        (10, 75, 1, None),
        (20, 150, 1, None),
    ]
    assert boyz.is_support is False
    ghaz = sheet(eleventh, "orks/ghazghkull-thraka")
    makari = ghaz.profiles[1]
    # the InSv characteristic: "2+*", with the condition its ability profile gives
    assert makari.invulnerable_save and makari.invulnerable_save.text == "2+*"
    assert makari.invulnerable_save.value == 2
    assert makari.invulnerable_save.note


def test_eleventh_edition_cost_tiers(eleventh: Extraction) -> None:
    # 165 pts; +10 when at least 2 units of it were taken before: the 3rd unit on
    raveners = sheet(eleventh, "tyranids/hyperadapted-raveners")
    assert [(p.models, p.points, p.units_from, p.units_to) for p in raveners.points] == [
        (5, 165, 1, 2),
        (5, 175, 3, None),
    ]
    assert raveners.sources[0].path.endswith("Library - Tyranids.json")


def test_eleventh_edition_detachments(eleventh: Extraction) -> None:
    horde = entity(eleventh, "orks/war-horde", "detachment")
    assert isinstance(horde, Detachment)
    assert (horde.dp, horde.force_disposition, horde.type) == (3, "Take and Hold", None)
    raiders = entity(eleventh, "orks/ramship-raiders", "detachment")
    assert isinstance(raiders, Detachment) and raiders.type == "Boarding Actions"


def test_json_lines_are_the_entry_braces(eleventh: Extraction) -> None:
    boyz = sheet(eleventh, "orks/boyz")
    source = boyz.sources[0]
    lines = (ELEVENTH / "Orks.json").read_text(encoding="utf-8").split("\n")
    assert lines[source.line_start - 1].strip() == "{"
    assert lines[source.line_end - 1].strip() in ("}", "},")
    span = lines[source.line_start - 1 : source.line_end]
    # the entry's own id: its last key, at the entry's indentation
    indent = " " * (
        len(lines[source.line_start - 1]) - len(lines[source.line_start - 1].lstrip()) + 2
    )
    own = [line for line in span if line.startswith(indent + '"')]
    assert f'{indent}"id": "e3b1-1240-2476-cd86"' in own
    assert f'{indent}"name": "Boyz",' in own
    # and the parser agrees: the object at that position is the Boyz entry
    body = json.loads((ELEVENTH / "Orks.json").read_text(encoding="utf-8"))["catalogue"]
    assert any(e["id"] == "e3b1-1240-2476-cd86" for e in body["sharedSelectionEntries"])


# ---------------------------------------------------------------------------- recognising


@pytest.mark.parametrize(
    ("name", "head", "expected"),
    [
        ("Orks.cat", (TENTH / "Orks.cat").read_bytes()[:4096], True),
        ("x.gst", (TENTH / "Warhammer 40,000.gst").read_bytes()[:4096], True),
        ("Orks.json", (ELEVENTH / "Orks.json").read_bytes()[:4096], True),
        ("renamed.txt", (TENTH / "Orks.cat").read_bytes()[:4096], True),
        ("data.json", b'{"catalogues": [1, 2]}', False),
        ("package.json", b'{\n  "name": "x",\n  "catalogue": {}\n}', False),
        ("page.cat", b"<?xml version='1.0'?>\n<html><body/></html>", False),
        ("other.xml", b'<?xml version="1.0"?>\n<catalogue id="x">', False),
        ("a.catz", b"PK\x03\x04rest", True),
        ("a.zip", b"PK\x03\x04rest", False),
    ],
)
def test_is_bsdata(name: str, head: bytes, expected: bool) -> None:
    assert is_bsdata(Path(name), head) is expected


def test_zipped_catalogues_are_read(tmp_path: Path) -> None:
    for path in TENTH.iterdir():
        if path.name == "Orks.cat":
            with zipfile.ZipFile(tmp_path / "Orks.catz", "w") as archive:
                archive.write(path, "Orks.cat")
        else:
            shutil.copy(path, tmp_path / path.name)
    (tmp_path / "Bad.gstz").write_bytes(b"PK\x03\x04 not a zip")
    extraction = read(tmp_path)
    assert "orks/boyz" in {e.id for e in extraction.entities}
    bad = [d for d in extraction.report.diagnostics if d.severity == "error"]
    assert [(d.code, d.path.rsplit("/", 1)[-1]) for d in bad] == [("malformed-file", "Bad.gstz")]


# ------------------------------------------------------------------------------- factions


@pytest.mark.parametrize(
    ("name", "library", "faction"),
    [
        ("Xenos - Orks", False, "Orks"),  # Orks.cat
        ("Library - Tyranids", True, "Tyranids"),  # Library - Tyranids.cat
        ("Imperium - Astra Militarum - Library", True, "Astra Militarum"),
        ("Imperium - Astra Militarum", False, "Astra Militarum"),
        # BSData/wh40k-10e: where the units of "Faction: Adeptus Astartes" and "Faction:
        # Asuryani" are (Wahapedia's Space Marines and Aeldari)
        ("Imperium - Space Marines", False, "Space Marines"),
        ("Aeldari - Aeldari Library", True, "Aeldari"),
        ("Orks", False, "Orks"),
    ],
)
def test_a_catalogue_names_its_faction(name: str, library: bool, faction: str) -> None:
    flag = "true" if library else "false"
    xml = f'<catalogue id="x" name="{name}" library="{flag}"/>'.encode()
    assert catalogue_faction_name(load_xml(xml, "x.cat")) == faction


def test_a_faction_keyword_is_named_after_its_catalogue(tmp_path: Path) -> None:
    # BSData tags Space Marines "Faction: Adeptus Astartes" in the catalogue "Imperium - Space
    # Marines", which Wahapedia calls Space Marines. The same shape from the Orks fixture: its
    # units' keyword written otherwise than its catalogue "Xenos - Orks" names the faction.
    for path in TENTH.iterdir():
        text = path.read_text(encoding="utf-8")
        (tmp_path / path.name).write_text(
            text.replace('name="Faction: Orks"', 'name="Faction: Waaagh Tribes"'), encoding="utf-8"
        )
    extraction = read(tmp_path)
    boyz = sheet(extraction, "orks/boyz")
    assert (boyz.faction, boyz.faction_keywords) == ("Orks", ["WAAAGH TRIBES"])
    assert sheet(extraction, "orks/ghazghkull-thraka").leader == ["orks/boyz"]
    horde = entity(extraction, "orks/war-horde", "detachment")
    assert isinstance(horde, Detachment) and horde.faction == "Orks"
    entity(extraction, "orks/waaagh", "rule")
    (said,) = [d for d in extraction.report.diagnostics if d.code == "faction-name"]
    assert said.severity == "info" and said.path.endswith("Orks.cat")
    assert "'Waaagh Tribes' is named 'Orks'" in said.message
    # the shared fixture's keyword and catalogue agree: nothing to say
    assert not any(d.code == "faction-name" for d in read(TENTH).report.diagnostics)


def test_xml_tree_keeps_the_text_it_reads_and_every_element_line() -> None:
    # the shapes of the catalogues (Orks.cat: a profile's characteristics, a rule's
    # description, self-closing elements), with a prefix and a comment in the way
    xml = (
        b'<?xml version="1.0" encoding="UTF-8"?>\n'
        b'<bs:catalogue xmlns:bs="http://www.battlescribe.net/schema/catalogueSchema"'
        b' id="c1" name="Orks">\n'
        b"  <bs:sharedProfiles>\n"
        b'    <bs:profile id="p1" name="Boy" typeName="Unit">\n'
        b"      <bs:characteristics>\n"
        b'        <bs:characteristic name="M" typeId="m">6&quot;</bs:characteristic>\n'
        b'        <bs:characteristic name="T" typeId="t"/>\n'
        b"      </bs:characteristics>\n"
        b"    </bs:profile>\n"
        b"  </bs:sharedProfiles>\n"
        b"  <bs:sharedRules>\n"
        b'    <bs:rule id="r1" name="Waaagh!" hidden="false">\n'
        b"      <!-- said once -->\n"
        b"      <bs:description>Once per battle,\n&amp; the &lt;charge&gt;.</bs:description>\n"
        b"    </bs:rule>\n"
        b"  </bs:sharedRules>\n"
        b"</bs:catalogue>\n"
    )
    document = load_xml(xml, "Orks.cat")
    root = document.root
    assert (root.tag, root.attrs, root.line, root.end) == (
        "catalogue",
        {"id": "c1", "name": "Orks"},
        2,
        18,
    )
    (profile,) = root.items("sharedProfiles")
    assert (profile.name, profile.line, profile.end, profile.text) == ("Boy", 4, 9, "")
    move, toughness = profile.items("characteristics")
    assert (move.name, move.text, move.line, move.end) == ("M", '6"', 6, 6)
    assert (toughness.name, toughness.text, toughness.line, toughness.end) == ("T", "", 7, 7)
    (rule,) = root.items("sharedRules")
    assert (rule.line, rule.end) == (12, 16)
    assert rule.child_text("description") == "Once per battle,\n& the <charge>."
    (description,) = rule.children
    assert (description.tag, description.container, description.line) == ("description", "", 14)
    assert document.parents[id(move)] is profile and document.parents[id(profile)] is root
