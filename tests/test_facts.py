"""Facts of the four sample dumps, each checked by hand against the raw text in ``raw/``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import TypeAdapter

from wahanorm import pipeline
from wahanorm.contract.models import AnyEntity, Datasheet, Stratagem

ENTITY = TypeAdapter(AnyEntity)


def entity(samples: pipeline.Conversion, kind: str, entity_id: str, edition: int = 10) -> dict:
    return json.loads(samples.files[f"{edition}ed/{kind}/{entity_id}.json"])


def weapon(sheet: dict, name: str, profile: str | None = None) -> dict:
    [found] = [w for w in sheet["weapons"] if w["name"] == name and w["profile"] == profile]
    return found


def test_bloodthirster_has_seven_weapon_profiles_and_lash_of_khorne(
    samples: pipeline.Conversion,
) -> None:
    sheet = entity(samples, "datasheet", "world-eaters/bloodthirster")
    assert len(sheet["weapons"]) == 7
    lash = weapon(sheet, "Lash of Khorne")
    got = [
        lash[k]["text"]
        for k in ("range", "attacks", "skill", "strength", "armour_penetration", "damage")
    ]
    assert got == ['12"', "9", "2+", "8", "-1", "2"]
    assert lash["attacks"]["value"] == 9 and lash["type"] == "ranged"


def test_bloodthirster_axe_profiles_and_dice(samples: pipeline.Conversion) -> None:
    sheet = entity(samples, "datasheet", "world-eaters/bloodthirster")
    strike = weapon(sheet, "Axe of Khorne", "strike")
    assert strike["type"] == "melee" and strike["range"]["text"] == "Melee"
    assert strike["damage"] == {
        "text": "D3+1",
        "value": None,
        "dice": {"count": 1, "sides": 3, "modifier": 1},
        "note": None,
    }
    breath = weapon(sheet, "Hellfire breath")
    assert breath["skill"]["text"] == "N/A"
    assert [a["id"] for a in breath["abilities"]] == ["ignores-cover", "torrent"]


def test_bloodthirster_abilities_damaged_points_keywords(samples: pipeline.Conversion) -> None:
    sheet = entity(samples, "datasheet", "world-eaters/bloodthirster")
    core = sheet["abilities"]["core"]
    assert core[0]["name"] == "Deadly Demise" and core[0]["parameter"] == "D6"
    assert core[1]["name"] == "Deep Strike"
    named = {a["name"]: a for a in sheet["abilities"]["datasheet"]}
    assert named["Daemon Lord of Khorne"]["aura"] is True
    assert named["Relentless Carnage"]["text"].startswith("At the end of the Fight phase")
    assert sheet["damaged"]["wounds"] == "1-6"
    assert sheet["points"] == [
        {
            "models": 1,
            "points": 305,
            "text": "1 model",
            "add_on": False,
            "units_from": None,
            "units_to": None,
        }
    ]
    assert sheet["faction_keywords"] == ["BLOOD LEGIONS"]  # printed twice in the dump
    assert "BLOODTHIRSTER" in sheet["keywords"] and len(sheet["keywords"]) == 8
    assert sheet["detachment_rules"] == ["khorne-daemonkin/blood-tithe"]
    assert "khorne-daemonkin/daemontide" in sheet["stratagems"]


def test_straken_claw_is_anti_monster_4(samples: pipeline.Conversion) -> None:
    sheet = entity(samples, "datasheet", "astra-militarum/iron-hand-straken")
    claw = weapon(sheet, "Bionic arm with devil's claw")
    [anti] = claw["abilities"]
    assert (anti["id"], anti["keyword"], anti["threshold"]) == ("anti", "MONSTER", 4)
    supercharge = weapon(sheet, "Plasma pistol", "supercharge")
    assert [a["id"] for a in supercharge["abilities"]] == ["hazardous", "pistol"]
    assert sheet["abilities"]["core"][1] == {
        "name": "Scouts",
        "parameter": '6"',
        "text": None,
        "aura": False,
    }
    assert sheet["orders"] == "This OFFICER can issue up to 2 Orders to REGIMENT units."


def test_the_archivist_stats_and_base(samples: pipeline.Conversion) -> None:
    sheet = entity(samples, "datasheet", "unaligned-forces/the-archivist")
    [profile] = sheet["profiles"]
    stats = {
        k: profile[k]["text"]
        for k in ("movement", "toughness", "save", "wounds", "leadership", "objective_control")
    }
    assert stats == {
        "movement": '5"',
        "toughness": "6",
        "save": "3+",
        "wounds": "6",
        "leadership": "7+",
        "objective_control": "2",
    }
    assert sheet["base_size"] == "50mm"
    assert sheet["points"][0]["points"] == 70
    assert [w["name"] for w in sheet["weapons"]] == ["Atomic disassembler", "Eradicator glove"]
    assert sheet["faction_keywords"] == ["UNALIGNED", "UNALIGNED FORCES"]


def test_bare_weapon_words_become_abilities(samples: pipeline.Conversion) -> None:
    sheet = entity(samples, "datasheet", "orks/ufthak-blackhawk", 11)
    shokk = weapon(sheet, "Shokk rifle")
    assert [a["name"] for a in shokk["abilities"]] == [
        "DEVASTATING WOUNDS",
        "HAZARDOUS",
        "PRECISION",
    ]
    assert shokk["damage"]["text"] == "D6+1"
    assert [a["id"] for a in weapon(sheet, "Princess' jaws")["abilities"]] == ["extra-attacks"]
    assert [a["name"] for a in sheet["abilities"]["datasheet"]] == [
        "Tellyporta Tech",
        "Gargantsmasha",
    ]


def test_the_two_editions_of_a_core_stratagem_are_two_entities(
    samples: pipeline.Conversion,
) -> None:
    numbered = [entity(samples, "stratagem", "core/command-re-roll", 11)]
    older = entity(samples, "stratagem", "core/command-re-roll", 10)
    assert numbered[0]["rule_number"] == "15.02" and numbered[0]["edition"] == 11
    assert numbered[0]["variants"] == [] and older["variants"] == []
    assert {s["path"] for s in numbered[0]["sources"]} == {"raw/000_47df9cafce3cbdb4.txt"}
    assert numbered[0]["when"].endswith(
        "- A roll to determine the number of attacks generated with a weapon."
    )
    assert numbered[0]["timing"] == {
        "turn": "either",
        "phases": [
            {"phase": p, "turn": "either"}
            for p in ("command", "movement", "shooting", "charge", "fight")
        ],
        "any_phase": True,
        "excluded_phases": [],
    }
    assert older["rule_number"] is None and older["edition"] == 10
    assert older["category"] == "Battle Tactic"
    assert {s["path"] for s in older["sources"]} == {
        "raw/002_4ce5d9c8bc5975ce.txt",
        "raw/003_3bddafab6d78ca00.txt",
        "raw/004_915fe25d03f9d2ef.txt",
    }


def test_stratagem_fields(samples: pipeline.Conversion) -> None:
    fury = entity(samples, "stratagem", "khorne-daemonkin/daemonic-fury")
    assert (fury["cp"], fury["source"], fury["category"]) == (
        1,
        "Khorne Daemonkin",
        "Battle Tactic",
    )
    assert fury["when"] == "Start of your Fight phase."
    assert fury["timing"] == {
        "turn": "your",
        "phases": [{"phase": "fight", "turn": "your"}],
        "any_phase": False,
        "excluded_phases": [],
    }
    dakka = entity(samples, "stratagem", "more-dakka/call-dat-dakka", 11)
    assert (dakka["source"], dakka["category"]) == ("More Dakka!", None)
    assert dakka["timing"]["turn"] == "opponent"
    heroic = entity(samples, "stratagem", "core/heroic-intervention", 11)
    assert heroic["rule_number"] == "15.11"
    assert heroic["effect"].count("- Leap to Defend") == 1 and "+1CP" in heroic["effect"]


def test_no_stratagem_target_appears_twice(samples: pipeline.Conversion) -> None:
    stratagems = [e for e in samples.entities if isinstance(e, Stratagem)]
    assert len(stratagems) > 40
    for s in stratagems:
        for version in [s, *s.variants]:
            for field in (version.when, version.target, version.effect, version.restrictions):
                assert field is None or "TARGET:" not in field, version.id
            if version.target:
                lines = version.target.split("\n")
                assert len(lines) == len(set(lines)), version.id


def test_detachment_rules_and_enhancement(samples: pipeline.Conversion) -> None:
    tithe = entity(samples, "detachment_rule", "khorne-daemonkin/blood-tithe")
    assert tithe["detachment"] == "Khorne Daemonkin"
    assert (
        tithe["flavour"]
        == "To call forth the blood legions requires the spilling of oceans of crimson gore."
    )
    stuck = entity(samples, "detachment_rule", "war-horde/get-stuck-in", 11)
    assert (
        stuck["text"]
        == "Melee weapons equipped by ORKS models from your army have the [SUSTAINED HITS 1] ability."
    )
    armour = entity(samples, "enhancement", "world-eaters/blood-forged-armour")
    assert armour["cost"] == 20 and armour["text"] is None


def test_glossary_rules(samples: pipeline.Conversion) -> None:
    hazard = entity(samples, "rule", "core/hazard-rolls", 11)
    assert hazard["rule_number"] == "06.03"
    assert hazard["text"].startswith("To make a hazard roll for a unit, roll one D6")
    lethal = entity(samples, "rule", "core/lethal-hits", 11)
    assert (lethal["rule_number"], lethal["name"], lethal["variants"]) == (
        "24.23",
        "LETHAL HITS",
        [],
    )
    assert entity(samples, "rule", "core/lethal-hits", 10)["rule_number"] is None
    assert entity(samples, "rule", "orks/waaagh", 11)["text"].startswith("The infamous war cry")
    assert "10ed/rule/world-eaters/blessings-of-khorne.json" in samples.files


def test_holes_and_dropped_repetitions_are_diagnostics(samples: pipeline.Conversion) -> None:
    index = json.loads(samples.files["index.json"])

    def where(code: str, path: str) -> set[int]:
        return {d["line"] for d in index["diagnostics"] if d["code"] == code and d["path"] == path}

    assert 152 in where(
        "hole", "raw/002_4ce5d9c8bc5975ce.txt"
    )  # "If your Army Faction is , at the start"
    assert 440 in where("hole", "raw/004_915fe25d03f9d2ef.txt")  # "The and INFANTRY keywords"
    assert 21 in where("leader-empty", "raw/000_47df9cafce3cbdb4.txt")  # LEADER with no units
    assert 187 in where("hole", "raw/002_4ce5d9c8bc5975ce.txt")  # %000015069performing actions%
    assert 3 in where("duplicate-dropped", "raw/000_47df9cafce3cbdb4.txt")  # weapon name row
    assert 34 in where(
        "duplicate-dropped", "raw/002_4ce5d9c8bc5975ce.txt"
    )  # FACTION KEYWORDS twice
    hole = next(d for d in index["diagnostics"] if d["code"] == "hole" and d["line"] == 152)
    assert hole["column"] is not None and hole["excerpt"].endswith("^")


def test_every_output_file_validates_and_is_canonical(samples: pipeline.Conversion) -> None:
    for rel, text in samples.files.items():
        assert text.endswith("\n") and "\r" not in text
        if rel != "index.json":
            model = ENTITY.validate_json(text)
            assert f"{model.edition}ed/{model.kind}/{model.id}.json" == rel


def test_same_input_same_bytes(repo_cwd: Path, samples: pipeline.Conversion) -> None:
    again = pipeline.convert([Path("raw")])
    assert again.files == samples.files


def test_committed_out_is_current(repo_cwd: Path, samples: pipeline.Conversion) -> None:
    from wahanorm.outputs.folder import existing_outputs

    assert existing_outputs(Path("out")) == samples.files, "run 'wahanorm convert'"


@pytest.mark.parametrize(
    "kind", ["datasheet", "stratagem", "detachment_rule", "enhancement", "rule"]
)
def test_every_kind_is_present(samples: pipeline.Conversion, kind: str) -> None:
    assert samples.counts()[kind] >= 1
    assert all(isinstance(e, Datasheet) for e in samples.entities if e.kind == "datasheet")
