"""Hostile numbers and BattleScribe files (issue 33, items 2, 4 and 5): one bad value or one bad
file never loses a batch or a data set.

Each case is a real file built here beside a real input, read by a real process
(``python -m wahanorm convert``): a BattleScribe catalogue beside the committed cut of the 10th
edition data set (``tests/fixtures/bsdata/wh40k-10e-2026-02-14``, see its SOURCES.md), a dump,
an export folder and a saved page cut from the committed samples. The hostile file is a
diagnostic of its own (its path and line); everything else of the set is converted as it is
without it. The entity expansion runs with its address space bounded (``resource.setrlimit``
in the child).
"""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import orjson
import pytest

from wahanorm.blocks.decode import MAX_INPUT_BYTES
from wahanorm.blocks.parse.numbers import (
    MAX_GAME_VALUE,
    OUT_OF_RANGE,
    game_int,
    printed_int,
    read_number,
)
from wahanorm.blocks.parse.points import cost_line, model_count
from wahanorm.blocks.parse.stats import out_of_range, parse_dice, parse_stat

REPO = Path(__file__).resolve().parents[1]
SET = REPO / "tests" / "fixtures" / "bsdata" / "wh40k-10e-2026-02-14"
STRAKEN = REPO / "raw" / "004_915fe25d03f9d2ef.txt"
EXPORT = REPO / "tests" / "fixtures" / "export" / "wahapedia-10ed-2025-11-14-html"
PAGE = REPO / "tests" / "fixtures" / "html" / "old_one_eye_trimmed.html"
BIG = "123456789012345678901234567890"

HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
ROOT = (
    '<catalogue xmlns="http://www.battlescribe.net/schema/catalogueSchema" id="evil-0001" '
    'name="Evil" revision="1" battleScribeVersion="2.03" library="false" '
    'gameSystemId="sys-352e-adc2-7639-d6a9" gameSystemRevision="1" type="catalogue">\n'
)
STATS = {"M": '6"', "T": "4", "SV": "3+", "W": "2", "LD": "6+", "OC": "1"}
EVIL = "10ed/datasheet/evil/evil-unit.json"


def unit(inner: str = "", cost: str = "10", stats: dict[str, str] | None = None) -> str:
    """A root unit entry of one model, ``Evil Unit``: its profile, faction and cost, each on a
    line of its own (the cost on line 10 of the catalogue ``catalogue`` makes of it)."""
    chars = "".join(
        f'<characteristic name="{k}" typeId="t{k}">{v}</characteristic>'
        for k, v in (stats or STATS).items()
    )
    return (
        "<selectionEntries>\n"
        '<selectionEntry type="model" import="true" name="Evil Unit" hidden="false" '
        'id="evil-unit">\n'
        '<profiles><profile name="Evil Unit" typeId="c547-1836-d8a-ff4f" typeName="Unit" '
        f'hidden="false" id="evil-prof"><characteristics>{chars}</characteristics></profile>'
        "</profiles>\n"
        '<categoryLinks><categoryLink name="Faction: Evil" hidden="false" id="evil-cl" '
        'targetId="evil-cat" primary="false"/></categoryLinks>\n'
        f"{inner}\n"
        "<costs>\n"
        f'<cost name="pts" typeId="51b2-306e-1021-d207" value="{cost}"/>\n'
        "</costs>\n"
        "</selectionEntry>\n"
        "</selectionEntries>\n"
    )


def catalogue(body: str, head: str = HEAD) -> str:
    return head + ROOT + body + "</catalogue>\n"


def run(cwd: Path, *argv: str, limit: int | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m wahanorm argv`` in ``cwd`` (its address space at most ``limit`` bytes);
    never a traceback nor an internal error, whatever the input."""
    preexec = None
    if limit is not None:

        def preexec() -> None:
            import resource

            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    done = subprocess.run(
        [sys.executable, "-m", "wahanorm", *argv],
        cwd=cwd,
        capture_output=True,
        text=True,
        errors="backslashreplace",
        env={**os.environ, "NO_COLOR": "1"},
        timeout=300,
        preexec_fn=preexec,
    )
    assert "Traceback" not in done.stderr, done.stderr
    assert "internal error" not in done.stderr, done.stderr
    assert "internal-error" not in done.stderr, done.stderr
    return done


def convert(cwd: Path, limit: int | None = None) -> tuple[int, dict[str, Any]]:
    """``convert in --out out``: the exit code and ``out/index.json``."""
    done = run(cwd, "convert", "in", "--out", "out", "--no-cache", "--jobs", "1", limit=limit)
    assert done.returncode in (0, 1), done.stderr
    index: dict[str, Any] = json.loads((cwd / "out" / "index.json").read_text(encoding="utf-8"))
    return done.returncode, index


def datasheets(index: dict[str, Any]) -> set[str]:
    return {e["id"] for e in index["entities"] if e["kind"] == "datasheet"}


def found(index: dict[str, Any], code: str, path: str) -> list[dict[str, Any]]:
    return [d for d in index["diagnostics"] if d["code"] == code and d["path"] == path]


@pytest.fixture(scope="module")
def good(tmp_path_factory: pytest.TempPathFactory) -> set[str]:
    """The datasheets of the data set alone."""
    base = tmp_path_factory.mktemp("good")
    shutil.copytree(SET, base / "in")
    _, index = convert(base)
    sheets = datasheets(index)
    assert "orks/battlewagon" in sheets and len(sheets) >= 5
    return sheets


def beside(tmp_path: Path, name: str, content: str | bytes) -> Path:
    """The data set in ``tmp_path/in`` with ``content`` beside it as ``name``."""
    shutil.copytree(SET, tmp_path / "in")
    target = tmp_path / "in" / name
    if isinstance(content, str):
        target.write_text(content, encoding="utf-8")
    else:
        target.write_bytes(content)
    return target


def evil(tmp_path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((tmp_path / "out" / EVIL).read_text(encoding="utf-8"))
    return data


# ------------------------------------------------------------------------- the one bound


def test_the_bound_on_numbers() -> None:
    assert game_int("12") == 12 and game_int("-1") == -1 and game_int("+2") == 2
    assert game_int(str(MAX_GAME_VALUE)) == MAX_GAME_VALUE
    assert game_int(str(MAX_GAME_VALUE + 1)) is None
    assert game_int(BIG) is None and game_int("9" * 5000) is None and game_int("x") is None
    assert game_int("٣") is None  # a digit of another script is no number of the rules
    assert printed_int("25 pts") == 25 and printed_int(f"{BIG} pts") is None
    assert read_number("2.5") == 2.5 and read_number("1e2") == 100.0
    for raw in ("1e19", BIG, "inf", "-inf", "nan", "1" * 200):
        assert read_number(raw) is OUT_OF_RANGE, raw
    assert read_number("abc") is None and read_number("") is None
    assert parse_stat(BIG).value is None and parse_stat(BIG).text == BIG
    assert out_of_range(parse_stat(BIG)) and out_of_range(parse_stat(f"{BIG}+"))
    assert not out_of_range(parse_stat("N/A")) and not out_of_range(parse_stat("4"))
    assert parse_dice(f"{BIG}D6") is None and parse_dice("2D6+1") is not None
    assert out_of_range(parse_stat(f"D{BIG}"))
    assert cost_line("1 model", BIG, None) is None
    assert model_count(f"{BIG} models") is None


def test_the_writer_refuses_a_value_it_cannot_write() -> None:
    """The last line of defence: an entity holding a whole number beyond 64 bits is an error
    diagnostic of its own, and the other entities are written."""
    from wahanorm.contract.models import Enhancement, SourceRef
    from wahanorm.outputs.canonical import render_outputs

    sources = [SourceRef(path="in/x.txt", line_start=3, line_end=3)]
    fine = Enhancement(id="x/good", name="Good", edition=10, sources=sources, cost=20)
    bad = Enhancement(id="x/bad", name="Bad", edition=10, sources=sources, cost=2**70)
    diagnostics: list[Any] = []
    files = render_outputs([fine, bad], diagnostics)
    assert "10ed/enhancement/x/good.json" in files
    assert "10ed/enhancement/x/bad.json" not in files
    index = json.loads(files["index.json"])
    assert [e["id"] for e in index["entities"]] == ["x/good"]
    (row,) = [d for d in index["diagnostics"] if d["code"] == "unwritable-value"]
    assert row["severity"] == "error" and row["path"] == "in/x.txt" and row["line"] == 3
    assert "enhancement x/bad" in row["message"]


# ------------------------------------------------------------------------- numbers, BSData


@pytest.mark.parametrize("value", ["1e19", BIG, "inf", "nan", "-1e300"])
def test_a_cost_no_game_value_can_be(tmp_path: Path, good: set[str], value: str) -> None:
    beside(tmp_path, "Evil.cat", catalogue(unit(cost=value)))
    code, index = convert(tmp_path)
    assert good < datasheets(index)
    (said,) = found(index, "out-of-range", "in/Evil.cat")
    assert said["line"] == 9 and said["severity"] == "warning"  # the <cost …/> line
    assert value[:20] in said["message"]
    assert evil(tmp_path)["points"] == []
    assert code == 0  # warnings only


def test_a_characteristic_no_game_value_can_be(tmp_path: Path, good: set[str]) -> None:
    stats = {**STATS, "T": BIG, "W": "1e19", "OC": "inf", "SV": f"{BIG}+"}
    beside(tmp_path, "Evil.cat", catalogue(unit(stats=stats)))
    _, index = convert(tmp_path)
    assert good < datasheets(index)
    (profile,) = evil(tmp_path)["profiles"]
    assert profile["toughness"] == {"dice": None, "note": None, "text": BIG, "value": None}
    assert profile["save"]["text"] == f"{BIG}+" and profile["save"]["value"] is None
    assert profile["wounds"]["text"] == "1e19" and profile["wounds"]["value"] is None
    said = found(index, "out-of-range", "in/Evil.cat")
    assert sorted(d["message"].split(": ")[1].split(" ")[0] for d in said) == [
        "save",
        "toughness",
    ]


# ------------------------------------------------------------------------- numbers, others


def test_a_dump_with_a_cost_and_a_strength_of_thirty_digits(tmp_path: Path) -> None:
    text = STRAKEN.read_text(encoding="utf-8")
    assert "| 1 model | 55 |" in text and "| 6 | 2+ | 6 | -2 | 2 |" in text
    text = text.replace("| 1 model | 55 |", f"| 1 model | {BIG} |")
    text = text.replace("| 6 | 2+ | 6 | -2 | 2 |", f"| 6 | 2+ | {BIG} | -2 | 2 |")
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "straken.txt").write_text(text, encoding="utf-8")
    _, index = convert(tmp_path)
    (cost,) = found(index, "bad-cost", "in/straken.txt")
    assert cost["line"] == 20 and BIG in cost["message"]
    (strength,) = found(index, "out-of-range", "in/straken.txt")
    assert "strength" in strength["message"]
    sheet = json.loads(
        (tmp_path / "out" / "10ed/datasheet/astra-militarum/iron-hand-straken.json").read_text(
            encoding="utf-8"
        )
    )
    assert sheet["points"] == []
    claw = next(w for w in sheet["weapons"] if w["name"].startswith("Bionic arm"))
    assert claw["strength"]["text"] == BIG and claw["strength"]["value"] is None


def test_an_export_with_costs_and_a_toughness_no_game_value_can_be(tmp_path: Path) -> None:
    shutil.copytree(EXPORT, tmp_path / "in")
    costs = tmp_path / "in" / "Datasheets_models_cost.csv"
    rows = costs.read_text(encoding="utf-8")
    assert "000000001|1|1 model|75|" in rows and "000000008|1|2 models|235|" in rows
    rows = rows.replace("000000001|1|1 model|75|", f"000000001|1|1 model|{BIG}|")
    costs.write_text(rows.replace("000000008|1|2 models|235|", "000000008|1|2 models|1e19|"))
    models = tmp_path / "in" / "Datasheets_models.csv"
    rows = models.read_text(encoding="utf-8")
    assert '000000001|1|Warboss|6"|5|' in rows
    models.write_text(rows.replace('000000001|1|Warboss|6"|5|', f'000000001|1|Warboss|6"|{BIG}|'))
    _, index = convert(tmp_path)
    bad = found(index, "bad-cost", "in/Datasheets_models_cost.csv")
    assert sorted(d["line"] for d in bad) == [2, 3]
    (toughness,) = [d for d in index["diagnostics"] if d["code"] == "out-of-range"]
    assert "Warboss" in toughness["message"] and "toughness" in toughness["message"]
    assert len(datasheets(index)) > 2


def test_a_page_with_a_cost_of_thirty_digits(tmp_path: Path) -> None:
    page = PAGE.read_text(encoding="utf-8")
    assert '<div class="PriceTag">150</div>' in page
    (tmp_path / "in").mkdir()
    target = tmp_path / "in" / "old-one-eye.html"
    target.write_text(
        page.replace('<div class="PriceTag">150</div>', f'<div class="PriceTag">{BIG}</div>')
    )
    _, index = convert(tmp_path)
    (cost,) = found(index, "bad-cost", "in/old-one-eye.html")
    assert cost["line"] == 56
    (sheet,) = [e for e in index["entities"] if e["kind"] == "datasheet"]
    assert json.loads((tmp_path / "out" / sheet["path"]).read_text())["points"] == []


# ------------------------------------------------------------------ depth, links, encodings


def _nested(depth: int) -> str:
    opened = "".join(
        f'<selectionEntries><selectionEntry type="upgrade" name="n{i}" hidden="false" id="n{i}">'
        for i in range(depth)
    )
    return opened + "</selectionEntry></selectionEntries>" * depth


def _refused(tmp_path: Path, good: set[str], name: str, line: int, words: str) -> None:
    code, index = convert(tmp_path)
    assert code == 1
    assert datasheets(index) == good  # the rest of the set, as without the file
    (said,) = found(index, "malformed-file", f"in/{name}")
    assert said["severity"] == "error" and said["line"] == line
    assert words in said["message"], said["message"]


def test_500_nested_selection_entries(tmp_path: Path, good: set[str]) -> None:
    beside(tmp_path, "Evil.cat", catalogue(unit(inner=_nested(500))))
    _refused(tmp_path, good, "Evil.cat", 7, "nested deeper than 100")


def test_990_deep_json(tmp_path: Path, good: set[str]) -> None:
    """Objects 990 deep (within the JSON parser's own limit of 1,024), written as text: an
    entry whose ``infoGroup`` holds one whose ``infoGroup`` holds one …"""
    opened = "".join(
        f'{{"type": "upgrade", "name": "d{i}", "id": "d{i}", "infoGroup": ' for i in range(990)
    )
    deep = opened + '{"name": "leaf"}' + "}" * 990
    text = (
        '{"catalogue": {"id": "evil-0001", "name": "Evil", "gameSystemId": '
        f'"sys-352e-adc2-7639-d6a9", "type": "catalogue", "selectionEntries": [{deep}]}}}}'
    )
    orjson.loads(text)  # well-formed (json.loads would hit its recursion limit)
    beside(tmp_path, "Evil.json", text)
    _refused(tmp_path, good, "Evil.json", 1, "nested deeper than 100")


def test_an_unknown_encoding(tmp_path: Path, good: set[str]) -> None:
    head = '<?xml version="1.0" encoding="x-no-such-encoding"?>\n'
    beside(tmp_path, "Evil.cat", catalogue(unit(), head=head))
    _refused(tmp_path, good, "Evil.cat", 1, "x-no-such-encoding")


def test_an_info_group_that_links_to_itself(tmp_path: Path, good: set[str]) -> None:
    loop = (
        '<sharedInfoGroups><infoGroup name="Loop" hidden="false" id="loop-ig"><infoLinks>\n'
        '<infoLink name="Loop" hidden="false" type="infoGroup" id="loop-il" targetId="loop-ig"/>'
        "\n</infoLinks></infoGroup></sharedInfoGroups>\n"
    )
    link = (
        '<infoLinks><infoLink name="Loop" hidden="false" type="infoGroup" id="u-il" '
        'targetId="loop-ig"/></infoLinks>'
    )
    beside(tmp_path, "Evil.cat", catalogue(unit(inner=link) + loop))
    code, index = convert(tmp_path)
    assert code == 0 and good < datasheets(index) and "evil/evil-unit" in datasheets(index)
    (said,) = found(index, "link-loop", "in/Evil.cat")
    assert said["line"] == 14 and "links back" in said["message"]


def test_a_chain_of_200_linked_groups(tmp_path: Path, good: set[str]) -> None:
    groups = "".join(
        f'<selectionEntryGroup name="G{i}" hidden="false" id="g{i}"><entryLinks>'
        f'<entryLink name="G{i + 1}" hidden="false" type="selectionEntryGroup" id="l{i}" '
        f'targetId="g{i + 1}"/></entryLinks></selectionEntryGroup>\n'
        for i in range(200)
    )
    shared = f"<sharedSelectionEntryGroups>\n{groups}</sharedSelectionEntryGroups>\n"
    link = (
        '<entryLinks><entryLink name="G0" hidden="false" type="selectionEntryGroup" id="u-l" '
        'targetId="g0"/></entryLinks>'
    )
    beside(tmp_path, "Evil.cat", catalogue(unit(inner=link) + shared))
    code, index = convert(tmp_path)
    assert code == 0 and good < datasheets(index) and "evil/evil-unit" in datasheets(index)
    (said,) = found(index, "link-loop", "in/Evil.cat")
    assert "deeper than 64" in said["message"]


# ---------------------------------------------------------------- entities and archives


ENTITY = "A" * 252


def _expanding(references: int, abilities: int) -> str:
    """The issue's catalogue: an entity of 252 characters referenced ``references`` times in
    the description of each of ``abilities`` ability profiles of the unit (at 40,000 and 64,
    some 650 MB of text once expanded, and as much written out)."""
    dtd = f'<!DOCTYPE catalogue [<!ENTITY e "{ENTITY}">]>\n'
    many = "&e;" * references
    profiles = "".join(
        f'<profile name="Ability {i}" typeId="9cc3-6d83-4dd3-9b64" typeName="Abilities" '
        f'hidden="false" id="ab{i}"><characteristics><characteristic name="Description" '
        f'typeId="9b8f-694b-e5e-b573">{many}</characteristic></characteristics></profile>'
        for i in range(abilities)
    )
    return catalogue(unit(inner=f"<profiles>{profiles}</profiles>"), head=HEAD + dtd)


def test_a_dtd_entity_in_a_catalogue_is_refused(tmp_path: Path, good: set[str]) -> None:
    beside(tmp_path, "Evil.cat", _expanding(10, 1))
    _refused(tmp_path, good, "Evil.cat", 2, "declares the entity 'e'")


@pytest.mark.parametrize(
    ("dtd", "name"),
    [
        ('<!DOCTYPE catalogue [<!ENTITY x SYSTEM "file:///etc/passwd">]>', "x"),
        ('<!DOCTYPE catalogue [<!ENTITY % p SYSTEM "http://example.invalid/p.dtd"> %p;]>', "p"),
    ],
)
def test_an_external_entity_is_refused_unread(
    tmp_path: Path, good: set[str], dtd: str, name: str
) -> None:
    stats = {**STATS, "M": "&x;"}
    beside(tmp_path, "Evil.cat", catalogue(unit(stats=stats), head=f"{HEAD}{dtd}\n"))
    _refused(tmp_path, good, "Evil.cat", 2, f"declares the entity {name!r}")


def _zipped(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def test_entity_expansion_in_a_catz_within_bounded_memory(tmp_path: Path, good: set[str]) -> None:
    zipped = _zipped({"Evil.cat": _expanding(40_000, 64).encode("utf-8")})
    assert len(zipped) < 400_000  # some 136 KB zipped, 2.3 GB expanded
    beside(tmp_path, "Evil.catz", zipped)
    code, index = convert(tmp_path, limit=1536 * 1024 * 1024)
    assert code == 1 and datasheets(index) == good
    (said,) = found(index, "malformed-file", "in/Evil.catz")
    assert "declares the entity" in said["message"]
    total = sum(p.stat().st_size for p in (tmp_path / "out").rglob("*") if p.is_file())
    assert total < 5_000_000


def test_a_catz_over_the_limit_by_its_real_size(tmp_path: Path, good: set[str]) -> None:
    """The file inside decompresses past the per-input limit while its headers say 100
    bytes: no more than the headers' size is decompressed (zipfile stops there, and the
    checksum then fails), so the lie is refused in bounded memory; a file whose headers tell
    the truth is stopped at the limit (the next test)."""
    body = catalogue(unit()).encode("utf-8")
    padded = body + b" " * (MAX_INPUT_BYTES + 1 - len(body) + 10)
    zipped = bytearray(_zipped({"Evil.cat": padded}))
    real = len(padded).to_bytes(4, "little")
    lied = (100).to_bytes(4, "little")
    assert zipped.count(real) == 2  # the local header's and the directory's
    zipped = bytearray(bytes(zipped).replace(real, lied))
    beside(tmp_path, "Evil.catz", bytes(zipped))
    code, index = convert(tmp_path, limit=1536 * 1024 * 1024)
    assert code == 1 and datasheets(index) == good
    (said,) = found(index, "malformed-file", "in/Evil.catz")
    assert "not a readable zipped catalogue: Bad CRC-32" in said["message"]


def test_a_catz_over_the_limit_is_stopped(tmp_path: Path, good: set[str]) -> None:
    body = catalogue(unit()).encode("utf-8")
    padded = body + b" " * (MAX_INPUT_BYTES + 1 - len(body) + 10)
    beside(tmp_path, "Evil.catz", _zipped({"Evil.cat": padded}))
    code, index = convert(tmp_path, limit=1536 * 1024 * 1024)
    assert code == 1 and datasheets(index) == good
    (said,) = found(index, "malformed-file", "in/Evil.catz")
    assert f"over the {MAX_INPUT_BYTES} byte limit" in said["message"]


def test_a_catz_of_many_members(tmp_path: Path, good: set[str]) -> None:
    members = {f"m{i}.cat": b"<x/>" for i in range(5000)}
    beside(tmp_path, "Evil.catz", _zipped(members))
    code, index = convert(tmp_path)
    assert code == 1 and datasheets(index) == good
    (said,) = found(index, "malformed-file", "in/Evil.catz")
    assert "5000 entries listed" in said["message"]


ORKS = REPO / "raw" / "000_47df9cafce3cbdb4.txt"
WORLD_EATERS = REPO / "tests" / "fixtures" / "html" / "world_eaters_trimmed.html"


def test_a_dump_stratagem_of_thirty_digit_cp(tmp_path: Path) -> None:
    lines = ORKS.read_text(encoding="utf-8").split("\n")
    assert lines[474:477] == ["COMMAND RE-ROLL", "1CP", "Boarding Actions – Epic Deed Stratagem"]
    lines[475] = f"{BIG}CP"
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "orks.txt").write_text("\n".join(lines), encoding="utf-8")
    _, index = convert(tmp_path)
    (said,) = found(index, "out-of-range", "in/orks.txt")
    assert "COMMAND RE-ROLL" in said["message"] and said["line"] == 475
    path = tmp_path / "out" / "11ed/stratagem/boarding-actions/command-re-roll.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["cp"] is None and data["effect"] and data["sources"][0]["line_start"] == 475


def test_pages_with_a_cost_and_cp_no_game_value_can_be(tmp_path: Path) -> None:
    """An 11th-edition page (stratagem cards, enhancement tooltips) and a 10th-edition page
    (stratagem tooltips), each with a CP cost of thirty digits, the first with an enhancement
    of thirty-digit points too."""
    page = WORLD_EATERS.read_bytes()
    cp = b'str11CP">1CP</div>'
    pts = b"<span>Berzerker Glaive</span> <span>35 pts</span>"
    assert page.count(pts) == 1 and cp in page
    page = page.replace(cp, b'str11CP">' + BIG.encode() + b"CP</div>", 1)
    page = page.replace(
        pts, b"<span>Berzerker Glaive</span> <span>" + BIG.encode() + b" pts</span>"
    )
    old = PAGE.read_text(encoding="utf-8")
    assert 'str10CP">1CP</div>' in old
    old = old.replace('str10CP">1CP</div>', f'str10CP">{BIG}CP</div>', 1)
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "world-eaters.html").write_bytes(page)
    (tmp_path / "in" / "old-one-eye.html").write_text(old, encoding="utf-8")
    _, index = convert(tmp_path)
    (glaive,) = found(index, "bad-cost", "in/world-eaters.html")
    assert "Berzerker Glaive" in glaive["message"] and glaive["line"] == 43
    assert len(found(index, "out-of-range", "in/world-eaters.html")) == 1
    assert len(found(index, "out-of-range", "in/old-one-eye.html")) == 1
    (enhancement,) = [e for e in index["entities"] if e["name"] == "Berzerker Glaive"]
    data = json.loads((tmp_path / "out" / enhancement["path"]).read_text(encoding="utf-8"))
    assert data["cost"] is None and data["text"]


def test_a_count_of_models_no_unit_can_hold(tmp_path: Path, good: set[str]) -> None:
    """A model entry of the unit whose ``max`` constraint is 1e19 and a cost modifier of
    ``inf``: each is said at its line, and the unit is read without them."""
    model = (
        '<selectionEntries><selectionEntry type="model" name="Evil Trooper" hidden="false" '
        'id="evil-trooper">\n'
        '<constraints><constraint type="min" value="5" field="selections" scope="parent" '
        'id="c-min"/>\n'
        '<constraint type="max" value="1e19" field="selections" scope="parent" id="c-max"/>\n'
        "</constraints></selectionEntry></selectionEntries>\n"
        '<modifiers><modifier type="set" value="inf" field="51b2-306e-1021-d207">\n'
        '<conditions><condition type="greaterThan" value="5" field="selections" scope="self" '
        'childId="model"/></conditions></modifier></modifiers>'
    )
    body = unit(inner=model).replace('type="model" import="true"', 'type="unit" import="true"')
    beside(tmp_path, "Evil.cat", catalogue(body))
    code, index = convert(tmp_path)
    assert code == 0 and good < datasheets(index)
    said = found(index, "out-of-range", "in/Evil.cat")
    assert sorted(d["line"] for d in said) == [9, 11]
    sheet = evil(tmp_path)
    assert sheet["unit_composition"] == ["5+ Evil Trooper"]
    assert [(p["models"], p["points"]) for p in sheet["points"]] == [(5, 10)]


@pytest.mark.parametrize("value", [BIG, "1e300", "-1e300"])
def test_a_json_cost_no_game_value_can_be(tmp_path: Path, good: set[str], value: str) -> None:
    """The JSON form: a number of thirty digits (which the JSON parser gives as a float) or
    1e300 as a cost is said at its object's line, and the rest of the file is read. (A number
    beyond a double, ``1e400``, is refused by the JSON parser: the file is malformed-file.)"""
    entry = {
        "type": "model",
        "import": True,
        "name": "Evil Unit",
        "hidden": False,
        "id": "evil-unit",
        "profiles": [
            {
                "name": "Evil Unit",
                "typeId": "c547-1836-d8a-ff4f",
                "typeName": "Unit",
                "hidden": False,
                "id": "evil-prof",
                "characteristics": [
                    {"name": k, "typeId": f"t{k}", "$text": v} for k, v in STATS.items()
                ],
            }
        ],
        "categoryLinks": [
            {"name": "Faction: Evil", "hidden": False, "id": "evil-cl", "targetId": "evil-cat"}
        ],
        "costs": [{"name": "pts", "typeId": "51b2-306e-1021-d207", "value": "@VALUE@"}],
    }
    document = {
        "catalogue": {
            "id": "evil-0001",
            "name": "Evil",
            "gameSystemId": "sys-352e-adc2-7639-d6a9",
            "type": "catalogue",
            "selectionEntries": [entry],
        }
    }
    text = json.dumps(document, indent=2).replace('"@VALUE@"', value)
    row = next(n for n, row in enumerate(text.split("\n"), 1) if value in row)
    brace = row - 3  # the line opening the cost's object: {, "name", "typeId", "value"
    assert text.split("\n")[brace - 1].strip() == "{"
    beside(tmp_path, "Evil.json", text)
    code, index = convert(tmp_path)
    assert code == 0 and good < datasheets(index)
    (said,) = found(index, "out-of-range", "in/Evil.json")
    assert said["line"] == brace
    assert evil(tmp_path)["points"] == []
