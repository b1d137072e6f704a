"""``wahanorm show``: the card of a datasheet and of a stratagem from the committed ``out/``,
found by id or a forgiving name, choices when ambiguous, plain text off a terminal, and rules text
that cannot drive the terminal."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

import wahanorm
from wahanorm import cli
from wahanorm.outputs.card import timing_text

REPO = Path(__file__).resolve().parents[1]
OUT = REPO / "out"


def show(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = cli.main(["show", *args, "--out", str(OUT)])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_a_datasheet_card_has_its_weapons_abilities_keywords_and_points(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = show(capsys, "world-eaters/bloodthirster")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "BLOODTHIRSTER"
    assert lines[1] == "World Eaters · datasheet · world-eaters/bloodthirster · 10th edition"
    header = next(line for line in lines if "RANGED WEAPONS" in line)
    assert header.split() == [
        "RANGED",
        "WEAPONS",
        "RANGE",
        "A",
        "SKILL",
        "S",
        "AP",
        "D",
        "ABILITIES",
    ]
    assert '  Bloodflail       12"    1   2+     16  -3  D6+1  DEVASTATING WOUNDS' in lines
    assert any(line.split()[:5] == ["Axe", "of", "Khorne", "–", "strike"] for line in lines)
    assert "CORE: Deadly Demise D6, Deep Strike" in lines
    assert "Daemon Lord of Khorne (Aura)" in lines
    assert "  BLOODTHIRSTER, CHAOS, CHARACTER, DAEMON, FLY, KHORNE, MONSTER, SUMMONED" in lines
    points = lines.index("POINTS")
    assert lines[points + 2].split() == ["1", "model", "305"]
    assert lines[-1] == "Read from raw/002_4ce5d9c8bc5975ce.txt:1"


def test_profiles_are_a_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    slice_ = REPO / "tests/fixtures/export/wahapedia-10ed-2026-02-14"
    wahanorm.write(tmp_path / "out", wahanorm.convert(slice_))
    assert cli.main(["show", "boyz", "--out", str(tmp_path / "out"), "--kind", "datasheet"]) == 0
    lines = capsys.readouterr().out.splitlines()
    header = lines.index(next(line for line in lines if line.split()[:2] == ["M", "T"]))
    assert lines[header].split() == ["M", "T", "SV", "W", "LD", "OC", "INV"]
    rows = [line.split() for line in lines[header + 1 : header + 3]]
    # Datasheets_models.csv: BOY 6" 5 5+ 1 7+ 2, BOSS NOB 6" 5 5+ 2 7+ 2, no invulnerable save
    assert rows == [["BOY", '6"', "5", "5+", "1", "7+", "2", "-"],
                    ["BOSS", "NOB", '6"', "5", "5+", "2", "7+", "2", "-"]]  # fmt: skip


def test_a_stratagem_card_has_cp_timing_and_its_sections(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = show(capsys, "blitz-brigade/mount-up-ladz")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("MOUNT UP, LADZ") and lines[0].endswith("1 CP")
    assert lines[1] == (
        "Blitz Brigade – Strategic Ploy · stratagem · blitz-brigade/mount-up-ladz · 11th edition"
    )
    assert "Timing: either player's Fight phase" in lines
    assert lines[lines.index("WHEN:") + 1] == "  End of the Fight phase."
    assert "TARGET:" in lines and "EFFECT:" in lines


@pytest.mark.parametrize(
    "query",
    [
        "iron hand straken",
        "'IRON HAND' STRAKEN",
        "straken",
        "Iron-Hand Strakken",
        "iron-hand-straken",
    ],
)
def test_names_are_matched_forgivingly(capsys: pytest.CaptureFixture[str], query: str) -> None:
    code, out, _ = show(capsys, query)
    assert code == 0
    assert out.splitlines()[0] == "'IRON HAND' STRAKEN"


def test_ambiguous_names_list_the_choices_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Two rules of one name, each in both editions, none a core rule: two entities to choose
    # from, each one line naming its editions (the one shown first), not four.
    rules = [
        wahanorm.Rule(id=f"{ns}/blood-tithe", name="Blood Tithe", text=f"{ns} {ed}", edition=ed)
        for ns in ("world-eaters", "khorne-daemonkin")
        for ed in (10, 11)
    ]
    wahanorm.write(tmp_path / "out", wahanorm.Result(rules, []))
    code = cli.main(["show", "Blood Tithe", "--out", str(tmp_path / "out")])
    out, err = capsys.readouterr()
    assert (code, out) == (2, "")
    assert err.splitlines() == [
        "wahanorm show: 2 entities match 'Blood Tithe'; give an id:",
        "  khorne-daemonkin/blood-tithe  (rule, 11th and 10th editions: Blood Tithe)",
        "  world-eaters/blood-tithe  (rule, 11th and 10th editions: Blood Tithe)",
    ]


def test_nothing_found_exits_2_and_so_does_a_missing_folder(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, err = show(capsys, "xyzzy plugh")
    assert (code, out) == (2, "") and "nothing is named 'xyzzy plugh'" in err
    assert cli.main(["show", "x", "--out", str(tmp_path)]) == 2
    assert "not an output folder" in capsys.readouterr().err


def test_kind_narrows_the_search(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = show(capsys, "deadly demise", "--kind", "rule")
    assert code == 0 and out.splitlines()[1] == "rule · core/deadly-demise · 10th edition"
    code, _, err = show(capsys, "deadly demise", "--kind", "stratagem")
    assert code == 2 and "nothing of kind stratagem is named 'deadly demise'" in err
    assert "core/deadly-demise  (rule, 10th edition)" in err


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _shown_on(stream: io.StringIO, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setattr(sys, "stdout", stream)
    assert cli.main(["show", "world-eaters/bloodthirster", "--out", str(OUT)]) == 0
    return stream.getvalue()


def test_bold_headings_on_a_terminal_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert "\x1b[1mBLOODTHIRSTER\x1b[0m" in _shown_on(_Terminal(), monkeypatch)
    assert "\x1b" not in _shown_on(io.StringIO(), monkeypatch)
    monkeypatch.setenv("NO_COLOR", "1")
    assert "\x1b" not in _shown_on(_Terminal(), monkeypatch)


def test_control_characters_in_the_text_are_printed_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hostile = wahanorm.Rule(
        id="core/hostile", name="Hostile\x1b[2J", text="Red \x1b[31malert\x07 \u202eevil\rline"
    )
    wahanorm.write(tmp_path / "out", wahanorm.Result([hostile], []))
    assert cli.main(["show", "core/hostile", "--out", str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out and "\u202e" not in out and "\r" not in out
    assert "HOSTILE\\x1b[2J" in out
    assert "Red \\x1b[31malert\\x07 \\u202eevil\\rline" in out


def test_timing_says_whose_turn_for_each_phase() -> None:
    assert timing_text({"turn": "either", "phases": []}) == "either player's turn"
    per_phase = {"turn": "either", "phases": [{"phase": "shooting", "turn": "opponent"},
                                              {"phase": "fight", "turn": "either"}]}  # fmt: skip
    assert timing_text(per_phase) == "your opponent's Shooting phase or either player's Fight phase"
    any_phase = {"turn": "either", "phases": [], "any_phase": True, "excluded_phases": ["command"]}
    assert timing_text(any_phase) == "either player's turn: any phase (excluding Command)"


def test_one_entity_in_both_editions_shows_the_current_one_and_names_the_other(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # out/ holds core/command-re-roll twice: 10th edition (Rule 15.02 of the 10th-edition dumps)
    # and 11th edition (from the 11th-edition dump). The id alone shows the 11th, and says so.
    code, out, err = show(capsys, "core/command-re-roll")
    assert code == 0
    assert out.splitlines()[1] == "Core · stratagem · core/command-re-roll · 11th edition"
    assert err == (
        "wahanorm show: core/command-re-roll is also in the 10th edition (--edition 10 shows it)\n"
    )
    # A name that only this entity has does the same.
    code, out, err = show(capsys, "fire overwatch")
    assert code == 0 and out.splitlines()[1].endswith("core/fire-overwatch · 11th edition")
    assert "also in the 10th edition" in err


def test_edition_narrows_the_search_and_names_itself_in_the_choices(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = show(capsys, "core/command-re-roll", "--edition", "10")
    assert (code, err) == (0, "")  # no other edition to name: the user chose
    assert out.splitlines()[1] == (
        "Core – Battle Tactic · stratagem · core/command-re-roll · 10th edition"
    )
    # The core stratagem and Boarding Actions' share the name: a player means the core one.
    code, out, err = show(capsys, "command re-roll", "--edition", "11")
    assert code == 0
    assert out.splitlines()[1] == "Core · stratagem · core/command-re-roll · 11th edition"
    assert err.splitlines() == [
        "wahanorm show: also named so: boarding-actions/command-re-roll (stratagem); "
        "'wahanorm show boarding-actions/command-re-roll' shows it"
    ]
    # Present in the 10th edition only: shown without a note, whatever the current edition.
    code, out, err = show(capsys, "world-eaters/bloodthirster")
    assert (code, err) == (0, "") and out.splitlines()[1].endswith("10th edition")
    code, _, err = show(capsys, "world-eaters/bloodthirster", "--edition", "11")
    assert code == 2 and "nothing of the 11th edition is named 'world-eaters/bloodthirster'" in err


def test_the_11th_edition_facts_are_on_the_cards(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sample = REPO / "tests/fixtures/export/wahapedia-11ed-2026-09-13-sample"
    wahanorm.write(tmp_path / "out", wahanorm.convert(sample))
    out = str(tmp_path / "out")
    # Detachments.csv: 000000765|AC|Shield Host|||2|Purge the Foe|
    assert cli.main(["show", "shield host", "--out", out, "--kind", "detachment"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1:3] == [
        "Adeptus Custodes · detachment · adeptus-custodes/shield-host · 11th edition",
        "2 DP · Force disposition: Purge the Foe",
    ]
    # Datasheets.csv: the Weirdboy's is_support is true.
    assert cli.main(["show", "orks/weirdboy", "--out", out]) == 0
    assert capsys.readouterr().out.splitlines()[1].endswith("· support character")
    # Datasheets_wargear.csv: Big Shoota|LETHAL HITS: non-MONSTER/VEHICLE, Rapid Fire 2|36|Ranged
    assert cli.main(["show", "orks/boyz", "--out", out]) == 0
    lines = capsys.readouterr().out.splitlines()
    [big_shoota] = [line for line in lines if line.startswith("  Big Shoota ")]
    assert big_shoota.endswith("LETHAL HITS: non-MONSTER/VEHICLE, RAPID FIRE 2")


def test_a_detachment_rule_card_has_its_sub_abilities_and_restrictions(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = show(capsys, "khorne-daemonkin/blood-tithe")
    lines = out.splitlines()
    assert code == 0
    assert lines[lines.index("Daemonic Rage [3BTP]:") + 1] == (
        "  Melee weapons equipped by BLOOD LEGIONS units from your army have the [lance] ability."
    )
    assert lines[lines.index("RESTRICTIONS:") + 1].startswith("  You can include the BLOOD LEGIONS")


def test_a_starred_characteristic_shows_its_condition_and_variants_are_said(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    exports = REPO / "tests/fixtures/export"
    wahanorm.write(
        tmp_path / "out",
        wahanorm.convert(
            [exports / "wahapedia-11ed-2026-09-13-more", exports / "wahapedia-10ed-2026-02-14"]
        ),
    )
    out = str(tmp_path / "out")
    # Datasheets_models.csv: the Castigator's inv_sv 5, inv_sv_descr "* Against ranged attacks only"
    assert cli.main(["show", "cerastus knight castigator", "--out", out]) == 0
    lines = capsys.readouterr().out.splitlines()
    row = next(line for line in lines if line.startswith("  Cerastus Knight Castigator  12"))
    assert row.split()[-1] == "5+*"
    assert "  * Cerastus Knight Castigator, INV 5+: Against ranged attacks only" in lines
    # Stratagems.csv of 2026-02-14 prints NEW ORDERS three times, one copy differing
    assert cli.main(["show", "core/new-orders", "--out", out, "--edition", "10"]) == 0
    card = capsys.readouterr().out
    assert "VARIANTS (1): the sources disagree on this entity" in card
    assert (
        "- another version, from tests/fixtures/export/wahapedia-10ed-2026-02-14/Stratagems.csv:"
        in card
    )


def test_a_name_kept_out_by_kind_or_edition_says_which_option_did(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, _, err = show(capsys, "straken", "--kind", "stratagem")
    assert code == 2
    assert "nothing of kind stratagem is named 'straken'; without --kind:" in err
    assert "astra-militarum/iron-hand-straken  (datasheet, 10th edition)" in err
    code, _, err = show(capsys, "ufthak", "--edition", "10")
    assert code == 2
    assert "nothing of the 10th edition is named 'ufthak'; without --edition:" in err
    # a name nothing holds is said as before, with near names
    code, _, err = show(capsys, "strakken", "--kind", "stratagem")
    assert code == 2 and "nothing is named 'strakken'" in err


def _sheet(entity_id: str, name: str, **fields: object) -> wahanorm.Datasheet:
    faction = entity_id.partition("/")[0].replace("-", " ").title()
    return wahanorm.Datasheet(id=entity_id, name=name, edition=10, faction=faction, **fields)  # type: ignore[arg-type]


@pytest.fixture
def players_out(tmp_path: Path) -> str:
    """Datasheets named as in the February 2026 export, the ones a player's search trips on."""
    sheets = [
        _sheet("space-marines/intercessor-squad", "Intercessor Squad"),
        _sheet("space-marines/heavy-intercessor-squad", "Heavy Intercessor Squad"),
        _sheet(
            "space-marines/assault-intercessors-with-jump-packs",
            "Assault Intercessors With Jump Packs",
        ),
        _sheet("tyranids/termagants", "Termagants", keywords=["ENDLESS MULTITUDE", "INFANTRY"]),
        _sheet("tyranids/hormagaunts", "Hormagaunts", keywords=["ENDLESS MULTITUDE", "INFANTRY"]),
        _sheet("tyranids/the-swarmlord", "The Swarmlord", keywords=["HIVE TYRANT", "MONSTER"]),
        _sheet(
            "space-marines/sternguard-veteran-squad",
            "Sternguard Veteran Squad",
            faction_keywords=["ADEPTUS ASTARTES"],
        ),
        _sheet(
            "space-marines/sternguard-veteran-squad-black-templars",
            "Sternguard Veteran Squad",
            faction_keywords=["ADEPTUS ASTARTES", "BLACK TEMPLARS"],
        ),
    ]
    wahanorm.write(tmp_path / "out", wahanorm.Result(sheets, []))
    return str(tmp_path / "out")


@pytest.mark.parametrize(
    ("query", "shown", "also"),
    [
        # A plural finds the singular name; the fewest other words win over a longer name.
        ("intercessors", "INTERCESSOR SQUAD", ["heavy-intercessor-squad", "assault-intercessors"]),
        # Words in another order.
        ("squad intercessor", "INTERCESSOR SQUAD", ["heavy-intercessor-squad"]),
        ("jump pack intercessors", "ASSAULT INTERCESSORS WITH JUMP PACKS", []),
        # A near spelling: the closest name, the other close one named.
        ("termagaunts", "TERMAGANTS", ["tyranids/hormagaunts"]),
        # A keyword of the data as a nickname, when no name holds the words.
        ("hive tyrant", "THE SWARMLORD", []),
    ],
)
def test_show_finds_what_a_player_types(
    players_out: str, capsys: pytest.CaptureFixture[str], query: str, shown: str, also: list[str]
) -> None:
    code = cli.main(["show", query, "--out", players_out])
    out, err = capsys.readouterr()
    assert code == 0 and out.splitlines()[0] == shown
    for other in also:
        assert other in err
    if also:
        assert err.startswith(f"wahanorm show: {query!r} also matches (give an id to show one):")
    else:
        assert err == ""


def test_ids_that_display_alike_say_what_tells_them_apart(
    players_out: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code = cli.main(["show", "sternguard", "--out", players_out])
    out, err = capsys.readouterr()
    assert (code, out) == (2, "")
    assert err.splitlines()[1:] == [
        "  space-marines/sternguard-veteran-squad  (datasheet, 10th edition: "
        "Sternguard Veteran Squad)",
        "  space-marines/sternguard-veteran-squad-black-templars  (datasheet, 10th edition: "
        "Sternguard Veteran Squad; BLACK TEMPLARS)",
    ]


def test_a_card_says_aura_once_nests_sub_choices_and_never_cuts_an_id(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # As the February 2026 export gives the Hive Tyrant (Datasheets.csv line 1555), with a
    # LED BY list long enough to wrap.
    sheet = _sheet(
        "tyranids/hive-tyrant",
        "Hive Tyrant",
        abilities=wahanorm.Abilities(
            datasheet=[
                wahanorm.Ability(name="Onslaught (Aura, Psychic)", aura=True, text="While …"),
                wahanorm.Ability(name="Will of the Hive Mind", aura=True, text="Once per …"),
            ]
        ),
        wargear_options=[
            "This model's monstrous bonesword and lash whip can be replaced with one of the "
            "following:\n- 1 heavy venom cannon\n- 1 stranglethorn cannon"
        ],
        led_by=[f"tyranids/tyrant-guard-of-the-hive-number-{n}" for n in range(8)],
        keywords=["MONSTER"],
        enhancements=["leviathan/adaptive-biology"],
        points=[wahanorm.Points(text="1 model", models=1, points=195)],
    )
    wahanorm.write(tmp_path / "out", wahanorm.Result([sheet], []))
    assert cli.main(["show", "hive tyrant", "--out", str(tmp_path / "out")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "Onslaught (Aura, Psychic)" in lines and "Will of the Hive Mind (Aura)" in lines
    options = lines.index("WARGEAR OPTIONS")
    assert lines[options + 2 : options + 4] == [
        "    - 1 heavy venom cannon",
        "    - 1 stranglethorn cannon",
    ]
    led_by = lines[lines.index("LED BY") + 1 : lines.index("KEYWORDS") - 1]
    assert len(led_by) > 1
    ids = [i.strip() for line in led_by for i in line.split(",") if i.strip()]
    assert ids == sheet.led_by
    assert "  Lists 1 enhancement (in its file and the database)" in lines
    points = lines.index("POINTS")
    assert lines[points + 1].split() == ["PTS"]
