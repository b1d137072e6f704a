"""The SQLite database of a conversion: the five queries of the manual (``docs/database.md``) answer what the JSON says
(on the committed export slice and, when present, the whole February 2026 export, each converted
together with the 11th-edition sample so that one output holds both editions, with the same ids
in each), keys hold,
every table matches the JSON it came from, and the same output gives the same bytes."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import wahanorm
from wahanorm import cli
from wahanorm.errors import OutputError
from wahanorm.outputs.database import _stratagem_phase_rows, build_database
from wahanorm.outputs.output import Output

REPO = Path(__file__).resolve().parents[1]
SLICE = REPO / "tests" / "fixtures" / "export" / "wahapedia-10ed-2026-02-14"
ELEVENTH = REPO / "tests" / "fixtures" / "export" / "wahapedia-11ed-2026-09-13-sample"
CORPUS = REPO.parent / "shared" / "corpus" / "wahapedia-10ed-2026-02-14"
CORPUS_ELEVENTH = REPO.parent / "shared" / "corpus" / "wahapedia-11ed-2026-09-13-sample"
JSON = dict[str, Any]


@dataclass
class Built:
    """A converted export: its entities as JSON (by kind) and its database."""

    entities: dict[str, list[JSON]]
    db: sqlite3.Connection
    path: Path


def _build(sources: list[Path], folder: Path) -> Built:
    files = wahanorm.convert(sources).files()
    output = Output.from_files(files)
    by_kind: dict[str, list[JSON]] = {}
    for entity in output.entities():
        by_kind.setdefault(entity["kind"], []).append(entity)
    path = build_database(output, folder / "rules.db")
    return Built(by_kind, sqlite3.connect(path), path)


@pytest.fixture(scope="module")
def slice_db(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Built]:
    built = _build([SLICE, ELEVENTH], tmp_path_factory.mktemp("slice"))
    yield built
    built.db.close()


@pytest.fixture(scope="module")
def corpus_db(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Built]:
    if not CORPUS.is_dir() or not CORPUS_ELEVENTH.is_dir():
        pytest.skip(
            f"{CORPUS} is absent (the shared data sits beside the repo on the team's machines)"
        )
    built = _build([CORPUS, CORPUS_ELEVENTH], tmp_path_factory.mktemp("corpus"))
    yield built
    built.db.close()


PAGE = REPO / "docs" / "database.md"


def manual_queries() -> dict[str, str]:
    """The manual's ```sql blocks (``docs/database.md``) by the name their first comment gives
    them."""
    page = PAGE.read_text(encoding="utf-8")
    blocks = re.findall(r"```sql\n(.*?)```", page, re.S)
    return {re.match(r"-- ([\w-]+):", block).group(1): block for block in blocks}  # type: ignore[union-attr]


# --- the answers, computed from the JSON alone ----------------------------------------------


def opponent_shooting(e: dict[str, list[JSON]]) -> list[tuple[Any, ...]]:
    found = [
        (s["edition"], s["id"], s["name"], s["cp"], s["source"])
        for s in e.get("stratagem", [])
        if s["timing"]
        and any(
            p["phase"] == "shooting" and p["turn"] in ("opponent", "either")
            for p in s["timing"]["phases"]
        )
    ]
    return sorted(found)


def anti_infantry(e: dict[str, list[JSON]]) -> list[tuple[Any, ...]]:
    return [
        (d["edition"], d["id"], w["name"], w["profile"], a["threshold"])
        for d in sorted(e.get("datasheet", []), key=lambda d: (d["edition"], d["id"]))
        for w in d["weapons"]
        for a in w["abilities"]
        if a["id"] == "anti" and a["keyword"] == "INFANTRY"
    ]


def tough_and_cheap(e: dict[str, list[JSON]]) -> list[tuple[Any, ...]]:
    found = []
    for d in e.get("datasheet", []):
        toughness = [p["toughness"]["value"] for p in d["profiles"] if p["toughness"]]
        costs = [p["points"] for p in d["points"] if not p.get("add_on")]
        toughness = [t for t in toughness if t is not None]
        if toughness and costs and max(toughness) >= 10 and min(costs) < 150:
            found.append((d["edition"], d["id"], d["name"], max(toughness), min(costs)))
    return sorted(found)


def _texts(e: dict[str, list[JSON]]) -> Iterator[tuple[int, str, str, str, str]]:
    """(edition, kind, id, field, text) of every rules text of the output."""
    for d in e.get("datasheet", []):
        for group, abilities in d["abilities"].items():
            for ability in abilities:
                yield d["edition"], "datasheet", d["id"], f"ability:{group}", ability["text"] or ""
        yield d["edition"], "datasheet", d["id"], "damaged", (d["damaged"] or {}).get("text", "")
    for s in e.get("stratagem", []):
        for field in ("when", "target", "effect", "restrictions"):
            yield s["edition"], "stratagem", s["id"], field, s[field] or ""
    for kind in ("rule", "detachment_rule", "enhancement"):
        for x in e.get(kind, []):
            yield x["edition"], kind, x["id"], "text", x["text"] or ""
    for r in e.get("detachment_rule", []):
        yield r["edition"], "detachment_rule", r["id"], "restrictions", r["restrictions"] or ""
        for n, ability in enumerate(r["abilities"]):
            yield r["edition"], "detachment_rule", r["id"], f"ability:{n}", ability["text"]


def fights_first(e: dict[str, list[JSON]]) -> list[tuple[Any, ...]]:
    phrase = re.compile(r"(?<![^\W_])fights[\W_]+first(?![^\W_])", re.I)
    return sorted({(ed, k, i, f) for ed, k, i, f, text in _texts(e) if phrase.search(text)})


def leaders_of_boyz(e: dict[str, list[JSON]], edition: int = 11) -> list[tuple[Any, ...]]:
    return sorted(
        (d["id"], d["name"])
        for d in e.get("datasheet", [])
        if d["edition"] == edition and "orks/boyz" in d["leader"]
    )


def costly_modes(e: dict[str, list[JSON]]) -> list[tuple[Any, ...]]:
    found = [
        (x["edition"], kind, x["id"], position, m["name"], m["cost"], m["extra_cp"])
        for kind in ("rule", "stratagem")
        for x in e.get(kind, [])
        for position, m in enumerate(x.get("modes", []))
        if m.get("extra_cp") is not None
    ]
    return [(ed, kind, i, name, cost, cp) for ed, kind, i, _, name, cost, cp in sorted(found)]


ANSWERS = {
    "opponent-shooting": opponent_shooting,
    "anti-infantry": anti_infantry,
    "tough-and-cheap": tough_and_cheap,
    "fights-first": fights_first,
    "leaders-of-boyz": leaders_of_boyz,
    "costly-modes": costly_modes,
}


def test_the_manual_shows_six_queries() -> None:
    assert sorted(manual_queries()) == sorted(ANSWERS)


@pytest.mark.parametrize("name", sorted(ANSWERS))
def test_manual_query_on_the_slice_answers_what_the_json_says(slice_db: Built, name: str) -> None:
    rows = slice_db.db.execute(manual_queries()[name]).fetchall()
    expected = ANSWERS[name](slice_db.entities)
    assert [tuple(r) for r in rows] == expected
    if name not in ("tough-and-cheap", "fights-first"):  # the slice has no such unit or text
        assert expected, "the slice should hold an answer"
    if name == "opponent-shooting":  # both editions, each row saying which
        assert {row[0] for row in expected} == {10, 11}


def test_the_leaders_query_answers_for_the_11th_edition_only(slice_db: Built) -> None:
    # Boyz are in both editions, led by other characters in each: the query's edition matters,
    # and a link resolves to the datasheet of its own edition (the 11th-edition Warboss).
    rows = slice_db.db.execute(manual_queries()["leaders-of-boyz"]).fetchall()
    assert [tuple(r) for r in rows] == [("orks/warboss", "Warboss"), ("orks/weirdboy", "Weirdboy")]
    assert leaders_of_boyz(slice_db.entities, 10) == [
        ("orks/ghazghkull-thraka", "Ghazghkull Thraka"),
        ("orks/warboss", "Warboss"),
    ]


@pytest.mark.parametrize("name", sorted(ANSWERS))
def test_manual_query_on_the_whole_export_answers_what_the_json_says(
    corpus_db: Built, name: str
) -> None:
    rows = corpus_db.db.execute(manual_queries()[name]).fetchall()
    expected = ANSWERS[name](corpus_db.entities)
    assert [tuple(r) for r in rows] == expected
    # The 11th edition is only the sample's few units: its leaders of Boyz are two, its mode
    # with an extra cost one (HEROIC INTERVENTION's Into the Fray, +1CP).
    assert len(expected) > 10 or (name in ("leaders-of-boyz", "costly-modes") and expected)


def test_the_manual_counts_are_the_whole_exports(corpus_db: Built) -> None:
    page = PAGE.read_text(encoding="utf-8")
    said = re.search(
        r"On the February 2026 export with the 11th-edition sample these give ([\d, and]+) rows",
        page,
    )
    assert said
    counts = [int(n) for n in re.findall(r"\d+", said.group(1))]
    queries = manual_queries()
    assert counts == [
        len(corpus_db.db.execute(queries[name]).fetchall())
        for name in ("opponent-shooting", "anti-infantry", "tough-and-cheap", "fights-first",
                     "leaders-of-boyz", "costly-modes")
    ]  # fmt: skip


def _count(db: sqlite3.Connection, table: str) -> int:
    return int(db.execute(f"SELECT count(*) FROM {table}").fetchone()[0])


def test_every_table_holds_what_the_json_holds(slice_db: Built) -> None:
    e, db = slice_db.entities, slice_db.db
    sheets = e["datasheet"]
    assert _count(db, "entities") == sum(len(v) for v in e.values())
    for kind, table in (
        ("datasheet", "datasheets"),
        ("stratagem", "stratagems"),
        ("rule", "rules"),
        ("detachment", "detachments"),
        ("detachment_rule", "detachment_rules"),
        ("enhancement", "enhancements"),
    ):
        assert _count(db, table) == len(e[kind]), table
    assert _count(db, "profiles") == sum(len(d["profiles"]) for d in sheets)
    assert _count(db, "weapons") == sum(len(d["weapons"]) for d in sheets)
    assert _count(db, "weapon_abilities") == sum(
        len(w["abilities"]) for d in sheets for w in d["weapons"]
    )
    assert _count(db, "points") == sum(len(d["points"]) for d in sheets)
    assert _count(db, "keywords") == sum(
        len(d["keywords"]) + len(d["faction_keywords"]) for d in sheets
    )
    assert _count(db, "abilities") == sum(len(v) for d in sheets for v in d["abilities"].values())
    assert _count(db, "stratagem_phases") == sum(
        len(s["timing"]["phases"]) for s in e["stratagem"] if s["timing"]
    )
    assert _count(db, "stratagem_excluded_phases") == sum(
        len(s["timing"]["excluded_phases"]) for s in e["stratagem"] if s["timing"]
    )
    assert _count(db, "detachment_abilities") == sum(
        len(r["abilities"]) for r in e["detachment_rule"]
    )
    sections = {
        (r["edition"], r["id"], n, sec["label"], sec["text"])
        for r in e["rule"]
        for n, sec in enumerate(r["sections"])
    }
    assert sections, "the 11th-edition sample holds moves with sections"
    assert set(db.execute("SELECT * FROM rule_sections")) == sections
    assert _count(db, "sources") == sum(len(x["sources"]) for v in e.values() for x in v)
    cp = {(ed, i): cp for ed, i, cp in db.execute("SELECT edition, id, cp FROM stratagems")}
    assert cp == {(s["edition"], s["id"]): s["cp"] for s in e["stratagem"]}
    both = {i for ed, i in cp if ed == 10} & {i for ed, i in cp if ed == 11}
    assert "core/command-re-roll" in both  # one id, a row in each edition
    boyz = next(d for d in sheets if d["id"] == "orks/boyz" and d["edition"] == 11)
    stats = db.execute(
        "SELECT name, toughness, toughness_value, save, save_value FROM profiles "
        "WHERE edition = 11 AND datasheet_id = 'orks/boyz' ORDER BY position"
    ).fetchall()
    assert stats == [
        (p["name"], p["toughness"]["text"], p["toughness"]["value"], p["save"]["text"],
         p["save"]["value"])
        for p in boyz["profiles"]
    ]  # fmt: skip
    (version,) = db.execute("SELECT value FROM meta WHERE key = 'data_version'").fetchone()
    assert version and version[:4] == "2026"


def test_the_11th_edition_fields_have_columns(slice_db: Built) -> None:
    e, db = slice_db.entities, slice_db.db
    got = set(db.execute("SELECT edition, id, dp, force_disposition, faction FROM detachments"))
    assert got == {
        (d["edition"], d["id"], d["dp"], d["force_disposition"], d["faction"])
        for d in e["detachment"]
    }
    assert any(dp is not None for _, _, dp, _, _ in got)
    support = dict(
        db.execute("SELECT id, is_support FROM datasheets WHERE edition = 11 ORDER BY id")
    )
    assert support == {d["id"]: int(d["is_support"]) for d in e["datasheet"] if d["edition"] == 11}
    assert support["orks/weirdboy"] == 1
    upgrades = set(db.execute("SELECT edition, id, upgrade, support_leader FROM enhancements"))
    assert upgrades == {
        (x["edition"], x["id"], None if x["upgrade"] is None else int(x["upgrade"]),
         x["support_leader"])
        for x in e["enhancement"]
    }  # fmt: skip
    abilities = [
        (r["edition"], r["id"], n, a["name"], a["cost"], a["text"])
        for r in sorted(e["detachment_rule"], key=lambda r: (r["edition"], r["id"]))
        for n, a in enumerate(r["abilities"])
    ]
    assert [tuple(r) for r in db.execute(
        "SELECT * FROM detachment_abilities ORDER BY edition, detachment_rule_id, position"
    )] == abilities  # fmt: skip
    restrictions = set(db.execute("SELECT edition, id, restrictions FROM detachment_rules"))
    assert restrictions == {
        (r["edition"], r["id"], r["restrictions"]) for r in e["detachment_rule"]
    }
    any_phase = set(db.execute("SELECT edition, id, any_phase FROM stratagems"))
    assert any_phase == {
        (s["edition"], s["id"], int(s["timing"]["any_phase"]) if s["timing"] else None)
        for s in e["stratagem"]
    }
    excluded = set(db.execute("SELECT * FROM stratagem_excluded_phases"))
    assert excluded == {
        (s["edition"], s["id"], p)
        for s in e["stratagem"]
        if s["timing"]
        for p in s["timing"]["excluded_phases"]
    }


def test_keys_are_declared_and_hold(slice_db: Built) -> None:
    db = slice_db.db
    assert db.execute("PRAGMA foreign_key_check").fetchall() == []
    parents = {row[2] for row in db.execute("PRAGMA foreign_key_list(weapon_abilities)")}
    assert parents == {"weapons"}
    keys = {
        (row[2], row[3], row[4]) for row in db.execute("PRAGMA foreign_key_list(stratagem_phases)")
    }
    assert keys == {("stratagems", "edition", "edition"), ("stratagems", "stratagem_id", "id")}
    keys = {(row[2], row[3], row[4]) for row in db.execute("PRAGMA foreign_key_list(weapons)")}
    assert keys == {("datasheets", "edition", "edition"), ("datasheets", "datasheet_id", "id")}
    with pytest.raises(sqlite3.IntegrityError):
        db.execute(
            "INSERT INTO stratagems (edition, id, name, source) "
            "SELECT edition, id, name, source FROM stratagems LIMIT 1"
        )
    # The same id in the other edition is another stratagem.
    db.execute(
        "INSERT INTO stratagems (edition, id, name, source) "
        "SELECT 11, id, name, source FROM stratagems "
        "WHERE edition = 10 AND id NOT IN (SELECT id FROM stratagems WHERE edition = 11) LIMIT 1"
    )
    db.rollback()
    plan = " ".join(
        str(row[3])
        for row in db.execute(
            "EXPLAIN QUERY PLAN SELECT * FROM stratagem_phases WHERE phase = 'shooting'"
        )
    )
    assert "USING" in plan and "INDEX" in plan  # an index, not a scan


def test_full_text_search_finds_words_in_any_rules_text(slice_db: Built) -> None:
    db = slice_db.db
    hits = db.execute(
        "SELECT edition, kind, entity_id, field FROM rules_text WHERE rules_text MATCH 'mortal' "
        "ORDER BY edition, kind, entity_id, field"
    ).fetchall()
    expected = sorted(
        {(ed, k, i, f) for ed, k, i, f, t in _texts(slice_db.entities)
         if re.search(r"\bmortal\b", t, re.I)}
    )  # fmt: skip
    assert {h[0] for h in hits} == {10, 11}
    assert [tuple(h) for h in hits] == expected and expected


def test_the_same_output_gives_the_same_bytes(slice_db: Built, tmp_path: Path) -> None:
    again = _build([SLICE, ELEVENTH], tmp_path)
    again.db.close()
    assert again.path.read_bytes() == slice_db.path.read_bytes()


def test_the_phase_table_says_whose_turn_for_each_phase() -> None:
    timing = {
        "turn": "either",
        "phases": [{"phase": "shooting", "turn": "opponent"}, {"phase": "fight", "turn": "either"}],
    }
    assert list(_stratagem_phase_rows(11, "x", timing)) == [
        (11, "x", "shooting", "opponent"),
        (11, "x", "fight", "either"),
    ]


def test_db_command_and_convert_sqlite_write_the_same_database(
    tmp_path: Path, repo_cwd: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    args = ["convert", "raw", "--out", str(out), "--no-cache", "-q"]
    assert cli.main([*args, "--sqlite", str(tmp_path / "a.db")]) == 0
    assert cli.main(["db", str(out), str(tmp_path / "b.db")]) == 0
    assert (tmp_path / "a.db").read_bytes() == (tmp_path / "b.db").read_bytes()
    assert "b.db" in capsys.readouterr().out
    with sqlite3.connect(tmp_path / "a.db") as db:
        names = set(db.execute("SELECT edition, name FROM datasheets"))
        rerolls = set(
            db.execute("SELECT edition, kind FROM entities WHERE id = 'core/command-re-roll'")
        )
    db.close()
    assert names == {
        (10, "Bloodthirster"), (10, "'Iron Hand' Straken"), (10, "The Archivist"),
        (11, "Ufthak Blackhawk"),
    }  # fmt: skip
    assert rerolls == {(10, "stratagem"), (11, "stratagem")}  # one output, both editions


def test_db_of_a_folder_that_is_no_output_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["db", str(tmp_path), str(tmp_path / "r.db")]) == 2
    assert "not an output folder" in capsys.readouterr().err
    assert not (tmp_path / "r.db").exists()


def test_a_database_is_replaced_whole(slice_db: Built, tmp_path: Path) -> None:
    target = tmp_path / "rules.db"
    files = wahanorm.convert([SLICE, ELEVENTH]).files()
    build_database(Output.from_files(wahanorm.convert([SLICE]).files()), target)
    build_database(Output.from_files(files), target)  # a database wahanorm wrote: replaced
    assert target.read_bytes() == slice_db.path.read_bytes()
    assert [p.name for p in tmp_path.iterdir()] == ["rules.db"]  # no temporary file left


def test_a_file_that_is_no_wahanorm_database_is_never_replaced(tmp_path: Path) -> None:
    target = tmp_path / "rules.db"
    target.write_bytes(b"an old file that is not a database")
    with pytest.raises(OutputError, match="not a database wahanorm wrote"):
        build_database(Output.from_files(wahanorm.convert([SLICE]).files()), target)
    assert target.read_bytes() == b"an old file that is not a database"
    assert [p.name for p in tmp_path.iterdir()] == ["rules.db"]
