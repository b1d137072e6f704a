"""The BSData reader puts rules where the source puts them and reads a data set for its default
roster (issue 34, items 2, 4, 5), on a fixture cut from the whole 10th-edition repository of
``../shared`` (``tests/fixtures/bsdata/SOURCES.md``): a detachment whose rules are shared rules
linked from its entry (Necrons), invulnerable saves given as abilities, a category declared
hidden (T'au ``Non-Kroot``), and modifiers under a condition on the primary catalogue (Agents
of the Imperium). Facts checked against the XML of the fixture."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from wahanorm.contract.models import Datasheet, Detachment, DetachmentRule, Rule
from wahanorm.pipeline import read_path
from wahanorm.pipeline.after_read import Extraction

FOLDER = Path(__file__).parent / "fixtures" / "bsdata" / "wh40k-10e-2026-02-14-all"
NECRON_DETACHMENTS = {
    "Annihilation Legion": "Annihilation Protocol",
    "Awakened Dynasty": "Command Protocols",
    "Canoptek Court": "Power Matrix",
    "Cryptek Conclave": "Technosorcerous Augmentations",
    "Cursed Legion": "Cold Fervour",
    "Hypercrypt Legion": "Hyperphasing",
    "Obeisance Phalanx": "Worthy Foes",
    "Pantheon of Woe": "Cosmic Distortion",
    "Starshatter Arsenal": "Relentless Onslaught",
}
"""Necrons.cat, the Detachment entry: each choice and the rule its infoLink names."""


def read(folder: Path) -> Extraction:
    return read_path(folder, folder.name)


@pytest.fixture(scope="module")
def data_set() -> Extraction:
    return read(FOLDER)


def sheet(extraction: Extraction, entity_id: str) -> Datasheet:
    found = [e for e in extraction.entities if e.id == entity_id and e.kind == "datasheet"]
    assert len(found) == 1, [e.id for e in extraction.entities]
    assert isinstance(found[0], Datasheet)
    return found[0]


def names(datasheet: Datasheet) -> list[str]:
    groups = datasheet.abilities
    return [a.name for a in [*groups.core, *groups.faction, *groups.datasheet, *groups.wargear]]


def test_a_detachment_that_links_its_rule_is_a_detachment(data_set: Extraction) -> None:
    detachments = {e.name: e for e in data_set.entities if isinstance(e, Detachment)}
    assert set(detachments) == set(NECRON_DETACHMENTS)
    assert {d.faction for d in detachments.values()} == {"Necrons"}
    rules = {e.detachment: e for e in data_set.entities if isinstance(e, DetachmentRule)}
    assert {d: r.name for d, r in rules.items()} == NECRON_DETACHMENTS
    protocol = rules["Annihilation Legion"]
    assert protocol.id == "annihilation-legion/annihilation-protocol"
    assert protocol.text.startswith("Each time a DESTROYER CULT or FLAYED ONES unit from your army")
    # the rule's own element, in the catalogue's sharedRules
    lines = (FOLDER / "Necrons.cat").read_text(encoding="utf-8").split("\n")
    assert 'name="Annihilation Protocol"' in lines[protocol.sources[0].line_start - 1]
    # a detachment's rule is no faction rule: the faction's own rule is still one
    faction_rules = {e.id for e in data_set.entities if isinstance(e, Rule)}
    assert "necrons/reanimation-protocols" in faction_rules
    assert not faction_rules & {f"necrons/{r.id.split('/')[1]}" for r in rules.values()}


def test_detachment_rules_are_no_abilities_of_the_default_roster(data_set: Extraction) -> None:
    orikan = sheet(data_set, "necrons/orikan-the-diviner")
    # the unit links the "Detachment Rules" info group, each link hidden while fewer than one
    # of its detachment is selected: the default roster selects none
    assert [a.name for a in orikan.abilities.faction] == ["Reanimation Protocols"]
    assert not set(names(orikan)) & set(NECRON_DETACHMENTS.values())


def test_invulnerable_save_of_an_ability(data_set: Extraction) -> None:
    # "Models in this units have an invulnerable save of 4+" (no value in the name)
    aestred = sheet(data_set, "adepta-sororitas/aestred-thurga-and-agathae-dolan")
    saves = {p.name: p.invulnerable_save for p in aestred.profiles}
    assert {name: s and (s.text, s.value, s.note) for name, s in saves.items()} == {
        "Aestred Thurga": ("4+", 4, None),
        "Agathae Dolan": ("4+", 4, None),
    }
    assert "Invulnerable Save" not in names(aestred)
    assert not [d for d in data_set.report.diagnostics if d.code == "characteristic-missing"]


def _with_save_text(tmp_path: Path, text: str) -> Path:
    """The fixture with Orikan's "Invulnerable Save" description replaced by ``text``."""
    folder = tmp_path / "set"
    shutil.copytree(FOLDER, folder)
    path = folder / "Necrons.cat"
    raw = path.read_text(encoding="utf-8")
    old = "This model has a 4+ invulnerable save.</characteristic>"
    assert raw.count(old) == 1
    path.write_text(raw.replace(old, f"{text}</characteristic>"), encoding="utf-8")
    return folder


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # forms of the whole 10th-edition repository (31 profiles give "4+" alone, 17 this
        # sentence, 14 "an invulnerable save of 6+")
        ("4+", ("4+", None)),
        ("This model has a 5+ invulnerable save against ranged attacks.", ("5+", "against ranged attacks")),
        ("This model has an invulnerable save of 6+", ("6+", None)),
        (
            "This unit has a 5+ Invulnerable Save. This invulnerable save is improved to 4+ "
            "against melee attacks.",
            ("5+", "This invulnerable save is improved to 4+ against melee attacks."),
        ),
    ],
)  # fmt: skip
def test_invulnerable_save_forms(
    tmp_path: Path, text: str, expected: tuple[str, str | None]
) -> None:
    extraction = read(_with_save_text(tmp_path, text))
    (profile,) = sheet(extraction, "necrons/orikan-the-diviner").profiles
    save = profile.invulnerable_save
    assert save is not None and (save.text, save.note) == expected


def test_a_hidden_category_is_no_keyword(data_set: Extraction) -> None:
    # T'au Empire.cat: <categoryEntry name="Non-Kroot" ... hidden="true">, linked by Shadowsun
    shadowsun = sheet(data_set, "t-au-empire/commander-shadowsun")
    assert "NON-KROOT" not in shadowsun.keywords
    assert shadowsun.keywords == [
        "BATTLESUIT",
        "CHARACTER",
        "COMMANDER SHADOWSUN",
        "EPIC HERO",
        "FLY",
        "INFANTRY",
    ]


def test_conditions_on_the_primary_catalogue(data_set: Extraction) -> None:
    eversor = sheet(data_set, "agents-of-the-imperium/eversor-assassin")
    # the rule Assigned Agents is hidden while Agents of the Imperium is the primary catalogue,
    # the unit's own catalogue: not on its datasheet; the rule itself is still its faction's
    assert "Assigned Agents" not in names(eversor)
    assigned = [e for e in data_set.entities if isinstance(e, Rule) and e.name == "Assigned Agents"]
    assert [r.id for r in assigned] == ["agents-of-the-imperium/assigned-agents"]
    # pts 110, and "increment 10" while Agents of the Imperium is NOT primary: the default
    # roster's 110, the conditional cost said in one diagnostic
    assert [(p.models, p.points) for p in eversor.points] == [(1, 110)]
    conditional = [
        d
        for d in data_set.report.diagnostics
        if d.code == "dropped-field" and "cost modifiers" in d.message
    ]
    assert len(conditional) == 1
    assert conditional[0].message.startswith("1 cost modifiers of 1 units")
    assert "another catalogue being the primary one" in conditional[0].message


def test_a_bracketed_ability_name_is_kept_whole(tmp_path: Path) -> None:
    # Imperium - Space Marines.cat, the Librarian in Phobos Armour's profile (line 24791)
    folder = tmp_path / "set"
    shutil.copytree(FOLDER, folder)
    path = folder / "Necrons.cat"
    raw = path.read_text(encoding="utf-8")
    anchor = '        <profile name="The Stars Are Right"'
    profile = (
        '        <profile name="Shrouding [Psychic]" typeId="9cc3-6d83-4dd3-9b64" '
        'typeName="Abilities" hidden="false" id="3f4a-63fb-254-9364">\n'
        "          <characteristics>\n"
        '            <characteristic name="Description" typeId="9b8f-694b-e5e-b573">While this '
        "model is leading a unit, models in that unit have the Stealth ability and that unit "
        "cannot be targeted by ranged attacks unless the attacking\nmodel is within "
        "12&quot;.</characteristic>\n"
        "          </characteristics>\n"
        "        </profile>\n"
    )
    assert raw.count(anchor) == 1
    path.write_text(raw.replace(anchor, profile + anchor), encoding="utf-8")
    orikan = sheet(read(folder), "necrons/orikan-the-diviner")
    assert "Shrouding [Psychic]" in [a.name for a in orikan.abilities.datasheet]
    assert not [n for n in names(orikan) if n.endswith("]") and "[" not in n]


ELEVENTH = Path(__file__).parent / "fixtures" / "bsdata" / "wh40k-11e-2026-07-22"


def test_eleventh_edition_invulnerable_characteristic_with_its_condition(tmp_path: Path) -> None:
    # Library - Titans.json of wh40k-11e-2026-07-08 (and the Heresy Legends library) give
    # InSv "5+ (Ranged)": the value, its bracket the condition
    folder = tmp_path / "set"
    shutil.copytree(ELEVENTH, folder)
    path = folder / "Orks.json"
    raw = path.read_text(encoding="utf-8")
    empty = '"name": "InSv",\n                        "typeId": "55a7-5b54-c60d-11dc",\n                        "$text": ""'
    assert raw.count(empty) >= 1
    path.write_text(raw.replace(empty, empty.replace('""', '"5+ (Ranged)"'), 1), encoding="utf-8")
    boyz = sheet(read_path(folder, folder.name, edition=11), "orks/boyz")
    saves = [p.invulnerable_save for p in boyz.profiles if p.invulnerable_save is not None]
    assert [(s.text, s.value, s.note) for s in saves] == [("5+", 5, "Ranged")]


def test_a_starred_ability_name_is_the_save_it_explains(tmp_path: Path) -> None:
    # Chaos - Chaos Knights Library.json of wh40k-11e-2026-07-08 names 17 profiles
    # "*Invulnerable Save" ("This model has a 5+ invulnerable save against ranged attacks.")
    folder = _with_save_text(
        tmp_path, "This model has a 5+ invulnerable save against ranged attacks."
    )
    path = folder / "Necrons.cat"
    raw = path.read_text(encoding="utf-8")
    old = '<profile name="Invulnerable Save" typeId="9cc3-6d83-4dd3-9b64" typeName="Abilities" hidden="false" id="f817-4f10-91dd-cf9d">'
    assert raw.count(old) == 1
    path.write_text(raw.replace(old, old.replace('"Invulnerable Save"', '"*Invulnerable Save"')))
    orikan = sheet(read(folder), "necrons/orikan-the-diviner")
    assert "*Invulnerable Save" not in names(orikan)
    save = orikan.profiles[0].invulnerable_save
    assert save is not None and (save.text, save.note) == ("5+", "against ranged attacks")


def test_model_keywords_stay_the_models(data_set: Extraction) -> None:
    # Imperium - Black Templars.cat: the root link to Chaplain Grimaldus files him under
    # "Epic Hero"; the unit entry holds the profiles "Grimaldus" and "Cenobyte Servitor"; the
    # model entry "Chaplain Grimaldus" has Epic Hero, Character, Grenades and his own category
    grimaldus = sheet(data_set, "adeptus-astartes/chaplain-grimaldus")
    assert grimaldus.keywords == ["IMPERIUM", "INFANTRY", "TACTICUS"]
    assert [(p.name, p.keywords) for p in grimaldus.profiles] == [
        ("Grimaldus", ["CHAPLAIN GRIMALDUS", "CHARACTER", "EPIC HERO", "GRENADES"]),
        ("Cenobyte Servitor", []),
    ]
