"""The SQLite database of a conversion: the README's five queries answer what the JSON says
(on the committed export slice and, when present, the whole February 2026 export), keys hold,
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
from wahanorm.database import _stratagem_phase_rows, build_database
from wahanorm.outputs import Output

REPO = Path(__file__).resolve().parents[1]
SLICE = REPO / "tests" / "fixtures" / "export" / "wahapedia-10ed-2026-02-14"
CORPUS = REPO.parent / "shared" / "corpus" / "wahapedia-10ed-2026-02-14"
JSON = dict[str, Any]


@dataclass
class Built:
    """A converted export: its entities as JSON (by kind) and its database."""

    entities: dict[str, list[JSON]]
    db: sqlite3.Connection
    path: Path


def _build(source: Path, folder: Path) -> Built:
    files = wahanorm.convert(source).files()
    output = Output.from_files(files)
    by_kind: dict[str, list[JSON]] = {}
    for entity in output.entities():
        by_kind.setdefault(entity["kind"], []).append(entity)
    path = build_database(output, folder / "rules.db")
    return Built(by_kind, sqlite3.connect(path), path)


@pytest.fixture(scope="module")
def slice_db(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Built]:
    built = _build(SLICE, tmp_path_factory.mktemp("slice"))
    yield built
    built.db.close()


@pytest.fixture(scope="module")
def corpus_db(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Built]:
    if not CORPUS.is_dir():
        pytest.skip(
            f"{CORPUS} is absent (the shared data sits beside the repo on the team's machines)"
        )
    built = _build(CORPUS, tmp_path_factory.mktemp("corpus"))
    yield built
    built.db.close()


def readme_queries() -> dict[str, str]:
    """The README's ```sql blocks by the name their first comment gives them."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```sql\n(.*?)```", readme, re.S)
    return {re.match(r"-- ([\w-]+):", block).group(1): block for block in blocks}  # type: ignore[union-attr]


# --- the answers, computed from the JSON alone ----------------------------------------------


def opponent_shooting(e: dict[str, list[JSON]]) -> list[tuple[Any, ...]]:
    found = [
        (s["id"], s["name"], s["cp"], s["source"])
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
        (d["id"], w["name"], w["profile"], a["threshold"])
        for d in sorted(e.get("datasheet", []), key=lambda d: d["id"])
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
            found.append((d["id"], d["name"], max(toughness), min(costs)))
    return sorted(found)


def _texts(e: dict[str, list[JSON]]) -> Iterator[tuple[str, str, str, str]]:
    """(kind, id, field, text) of every rules text of the output."""
    for d in e.get("datasheet", []):
        for group, abilities in d["abilities"].items():
            for ability in abilities:
                yield "datasheet", d["id"], f"ability:{group}", ability["text"] or ""
        yield "datasheet", d["id"], "damaged", (d["damaged"] or {}).get("text", "")
    for s in e.get("stratagem", []):
        for field in ("when", "target", "effect", "restrictions"):
            yield "stratagem", s["id"], field, s[field] or ""
    for kind in ("rule", "detachment_rule", "enhancement"):
        for x in e.get(kind, []):
            yield kind, x["id"], "text", x["text"] or ""


def fights_first(e: dict[str, list[JSON]]) -> list[tuple[Any, ...]]:
    phrase = re.compile(r"(?<![^\W_])fights[\W_]+first(?![^\W_])", re.I)
    return sorted({(k, i, f) for k, i, f, text in _texts(e) if phrase.search(text)})


def leaders_of_boyz(e: dict[str, list[JSON]]) -> list[tuple[Any, ...]]:
    return sorted(
        (d["id"], d["name"]) for d in e.get("datasheet", []) if "orks/boyz" in d["leader"]
    )


ANSWERS = {
    "opponent-shooting": opponent_shooting,
    "anti-infantry": anti_infantry,
    "tough-and-cheap": tough_and_cheap,
    "fights-first": fights_first,
    "leaders-of-boyz": leaders_of_boyz,
}


def test_the_readme_shows_five_queries() -> None:
    assert sorted(readme_queries()) == sorted(ANSWERS)


@pytest.mark.parametrize("name", sorted(ANSWERS))
def test_readme_query_on_the_slice_answers_what_the_json_says(slice_db: Built, name: str) -> None:
    rows = slice_db.db.execute(readme_queries()[name]).fetchall()
    expected = ANSWERS[name](slice_db.entities)
    assert [tuple(r) for r in rows] == expected
    if name not in ("tough-and-cheap", "fights-first"):  # the slice has no such unit or text
        assert expected, "the slice should hold an answer"


@pytest.mark.parametrize("name", sorted(ANSWERS))
def test_readme_query_on_the_whole_export_answers_what_the_json_says(
    corpus_db: Built, name: str
) -> None:
    rows = corpus_db.db.execute(readme_queries()[name]).fetchall()
    expected = ANSWERS[name](corpus_db.entities)
    assert [tuple(r) for r in rows] == expected
    assert len(expected) > 10


def test_the_readme_counts_are_the_whole_exports(corpus_db: Built) -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    said = re.search(r"On the February 2026 export these give ([\d, and]+) rows", readme)
    assert said
    counts = [int(n) for n in re.findall(r"\d+", said.group(1))]
    queries = readme_queries()
    assert counts == [
        len(corpus_db.db.execute(queries[name]).fetchall())
        for name in ("opponent-shooting", "anti-infantry", "tough-and-cheap", "fights-first",
                     "leaders-of-boyz")
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
    assert _count(db, "sources") == sum(len(x["sources"]) for v in e.values() for x in v)
    cp = dict(db.execute("SELECT id, cp FROM stratagems").fetchall())
    assert cp == {s["id"]: s["cp"] for s in e["stratagem"]}
    boyz = next(d for d in sheets if d["id"] == "orks/boyz")
    stats = db.execute(
        "SELECT name, toughness, toughness_value, save, save_value FROM profiles "
        "WHERE datasheet_id = 'orks/boyz' ORDER BY position"
    ).fetchall()
    assert stats == [
        (p["name"], p["toughness"]["text"], p["toughness"]["value"], p["save"]["text"],
         p["save"]["value"])
        for p in boyz["profiles"]
    ]  # fmt: skip
    (version,) = db.execute("SELECT value FROM meta WHERE key = 'data_version'").fetchone()
    assert version and version[:4] == "2026"


def test_keys_are_declared_and_hold(slice_db: Built) -> None:
    db = slice_db.db
    assert db.execute("PRAGMA foreign_key_check").fetchall() == []
    parents = {row[2] for row in db.execute("PRAGMA foreign_key_list(weapon_abilities)")}
    assert parents == {"weapons"}
    parents = {row[2] for row in db.execute("PRAGMA foreign_key_list(stratagem_phases)")}
    assert parents == {"stratagems"}
    with pytest.raises(sqlite3.IntegrityError):
        db.execute(
            "INSERT INTO stratagems (id, name, source) SELECT id, name, source FROM stratagems LIMIT 1"
        )
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
        "SELECT kind, entity_id, field FROM rules_text WHERE rules_text MATCH 'mortal' "
        "ORDER BY kind, entity_id, field"
    ).fetchall()
    expected = sorted(
        {(k, i, f) for k, i, f, t in _texts(slice_db.entities) if re.search(r"\bmortal\b", t, re.I)}
    )
    assert [tuple(h) for h in hits] == expected and expected


def test_the_same_output_gives_the_same_bytes(slice_db: Built, tmp_path: Path) -> None:
    again = _build(SLICE, tmp_path)
    again.db.close()
    assert again.path.read_bytes() == slice_db.path.read_bytes()


def test_the_phase_table_says_whose_turn_for_each_phase() -> None:
    timing = {
        "turn": "either",
        "phases": [{"phase": "shooting", "turn": "opponent"}, {"phase": "fight", "turn": "either"}],
    }
    assert list(_stratagem_phase_rows("x", timing)) == [
        ("x", "shooting", "opponent"),
        ("x", "fight", "either"),
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
        names = {n for (n,) in db.execute("SELECT name FROM datasheets")}
    db.close()
    assert names == {"Bloodthirster", "'Iron Hand' Straken", "The Archivist", "Ufthak Blackhawk"}


def test_db_of_a_folder_that_is_no_output_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["db", str(tmp_path), str(tmp_path / "r.db")]) == 2
    assert "not an output folder" in capsys.readouterr().err
    assert not (tmp_path / "r.db").exists()


def test_a_database_is_replaced_whole(slice_db: Built, tmp_path: Path) -> None:
    target = tmp_path / "rules.db"
    target.write_bytes(b"an old file that is not a database")
    build_database(Output.from_files(wahanorm.convert(SLICE).files()), target)
    assert target.read_bytes() == slice_db.path.read_bytes()
    assert [p.name for p in tmp_path.iterdir()] == ["rules.db"]  # no temporary file left
