"""Inputs bounded before they are read (issue 33, items 3 and 9): every table of an export is
held to the per-input size limit before it is read and while it is read, a table that is a
symbolic link or no regular file is refused unopened, and what one file can say is bounded (a
code repeated past 1,000 times is counted, a message or excerpt past 2,000 characters is cut).

Each case builds its files in ``tmp_path`` (a copy of the committed 11th-edition sample export,
``tests/fixtures/export/wahapedia-11ed-2026-09-13-sample``, damaged) and runs ``wahanorm
convert`` as a real process, its address space bounded where the case is about memory.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO / "tests" / "fixtures" / "export" / "wahapedia-11ed-2026-09-13-sample"
MEMORY = 1536 * 1024 * 1024
"""The address space a converting child may take (a clean run of the sample takes some 600 MiB
of it: Python, pydantic, lxml and Lark mapped)."""


def bounded(limit: int) -> Callable[[], None]:
    def set_limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    return set_limit


def convert(
    cwd: Path, *inputs: str, memory: int | None = MEMORY
) -> subprocess.CompletedProcess[str]:
    """``wahanorm convert INPUTS --out out --no-cache`` in ``cwd``, in a child whose address
    space is bounded; never a traceback or a crash."""
    done = subprocess.run(
        [sys.executable, "-m", "wahanorm", "convert", *inputs, "--out", "out", "--jobs", "1"],
        cwd=cwd,
        capture_output=True,
        text=True,
        errors="backslashreplace",
        env={**os.environ, "NO_COLOR": "1"},
        timeout=300,
        preexec_fn=bounded(memory) if memory else None,
    )
    assert done.returncode in (0, 1), (done.returncode, done.stdout[-2000:], done.stderr[-2000:])
    assert "Traceback" not in done.stderr, done.stderr[-4000:]
    assert "internal error" not in done.stderr, done.stderr[-4000:]
    return done


def index(cwd: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((cwd / "out" / "index.json").read_text(encoding="utf-8"))
    return data


def diagnostics(cwd: Path, code: str) -> list[dict[str, Any]]:
    return [d for d in index(cwd)["diagnostics"] if d["code"] == code]


@pytest.fixture
def export(tmp_path: Path) -> Path:
    """A writable copy of the sample export, as ``tmp_path/exp``."""
    shutil.copytree(SAMPLE, tmp_path / "exp")
    for path in (tmp_path / "exp").iterdir():
        path.chmod(0o644)
    return tmp_path / "exp"


def kinds(cwd: Path) -> dict[str, int]:
    counted: dict[str, int] = {}
    for entry in index(cwd)["entities"]:
        counted[entry["kind"]] = counted.get(entry["kind"], 0) + 1
    return counted


def test_clean_sample_for_comparison(export: Path) -> None:
    done = convert(export.parent, "exp")
    assert done.returncode == 0, done.stderr
    assert not diagnostics(export.parent, "table-refused")


def test_sparse_table_past_the_limit_is_refused_unread(export: Path) -> None:
    """``truncate -s 200M Abilities.csv``: 25 s, 5 GB, 838 MB on stderr before; now refused by
    its size before it is read, and the rest of the export read."""
    os.truncate(export / "Abilities.csv", 200 * 1024 * 1024)
    done = convert(export.parent, "exp", memory=1024 * 1024 * 1024)
    assert done.returncode == 1
    (refused,) = diagnostics(export.parent, "table-refused")
    assert refused["path"] == "exp/Abilities.csv"
    assert refused["severity"] == "error"
    assert "209715200 bytes, over the 67108864 byte limit" in refused["message"]
    assert "without the abilities glossary" in refused["message"]
    assert len(done.stderr) < 20_000
    assert kinds(export.parent).get("datasheet", 0) > 0  # the rest is read
    assert kinds(export.parent).get("stratagem", 0) > 0


def test_gigabyte_datasheets_table_is_refused_not_a_crash(export: Path) -> None:
    """A 1 GB (sparse) Datasheets.csv ended in a segmentation fault; now refused by its size,
    and the stratagems and rules are still read."""
    os.truncate(export / "Datasheets.csv", 1024 * 1024 * 1024)
    done = convert(export.parent, "exp", memory=1024 * 1024 * 1024)
    assert done.returncode == 1
    (refused,) = diagnostics(export.parent, "table-refused")
    assert refused["path"] == "exp/Datasheets.csv"
    assert "without every datasheet" in refused["message"]
    assert "datasheet" not in kinds(export.parent)
    assert kinds(export.parent).get("stratagem", 0) > 0


def test_table_under_the_limit_with_one_huge_field_says_little(export: Path) -> None:
    """A table under the limit whose last record runs on for 20 MB (NUL bytes): read, but what
    it says is bounded: each message at most 2,000 characters and a count."""
    os.truncate(export / "Abilities.csv", 20 * 1024 * 1024)
    done = convert(export.parent, "exp")
    assert len(done.stderr) < 50_000
    assert (export.parent / "out" / "index.json").stat().st_size < 5_000_000
    for diag in index(export.parent)["diagnostics"]:
        assert len(diag["message"]) <= 2100
        assert diag["excerpt"] is None or len(diag["excerpt"]) <= 2100
    assert any("more characters)" in d["message"] for d in index(export.parent)["diagnostics"])


def test_one_code_repeated_is_counted_past_a_thousand(export: Path) -> None:
    """Thirty thousand records too long in one table: the first 1,000 ``long-record``
    warnings are listed, the rest counted in one ``diagnostics-capped`` warning."""
    with (export / "Datasheets_keywords.csv").open("a", encoding="utf-8") as table:
        table.write("x|y|z|w|v|u|\r\n" * 30_000)
    done = convert(export.parent, "exp")
    shorts = [
        d for d in diagnostics(export.parent, "long-record")
        if d["path"] == "exp/Datasheets_keywords.csv"
    ]  # fmt: skip
    assert len(shorts) == 1000
    capped = {d["message"] for d in diagnostics(export.parent, "diagnostics-capped")}
    assert (
        "29000 more 'long-record' diagnostics of this file are not listed (the first 1000 are): "
        "it repeats one problem"
    ) in capped
    assert len(done.stderr) < 1_000_000


def test_table_that_is_a_symbolic_link_is_refused_unread(export: Path, tmp_path: Path) -> None:
    """A table linked to a file outside the folder printed its target's first line in a
    diagnostic; now the link is refused without being opened."""
    secret = tmp_path / "secret.txt"
    secret.write_text("SECRET-FIRST-LINE|token|\nmore\n", encoding="utf-8")
    (export / "Stratagems.csv").unlink()
    (export / "Stratagems.csv").symlink_to(secret)
    done = convert(export.parent, "exp")
    assert done.returncode == 1
    assert "SECRET" not in done.stderr + done.stdout
    assert "SECRET" not in (export.parent / "out" / "index.json").read_text(encoding="utf-8")
    (refused,) = diagnostics(export.parent, "table-refused")
    assert refused["path"] == "exp/Stratagems.csv"
    assert "symbolic link" in refused["message"]
    assert "stratagem" not in kinds(export.parent)
    assert kinds(export.parent).get("datasheet", 0) > 0
    assert not diagnostics(export.parent, "missing-table")  # said once, as refused


def test_table_linked_to_a_real_table_is_refused_too(export: Path, tmp_path: Path) -> None:
    shutil.move(export / "Abilities.csv", tmp_path / "Abilities.csv")
    (export / "Abilities.csv").symlink_to(tmp_path / "Abilities.csv")
    convert(export.parent, "exp")
    (refused,) = diagnostics(export.parent, "table-refused")
    assert refused["path"] == "exp/Abilities.csv" and "symbolic link" in refused["message"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_table_that_is_a_pipe_is_refused_without_waiting(export: Path) -> None:
    (export / "Detachments.csv").unlink()
    os.mkfifo(export / "Detachments.csv")
    convert(export.parent, "exp")  # a read of the pipe would wait for ever (the timeout)
    (refused,) = diagnostics(export.parent, "table-refused")
    assert refused["path"] == "exp/Detachments.csv"
    assert "not a regular file" in refused["message"]


def test_table_that_is_a_folder_is_refused(export: Path) -> None:
    (export / "Enhancements.csv").unlink()
    (export / "Enhancements.csv").mkdir()
    convert(export.parent, "exp")
    (refused,) = diagnostics(export.parent, "table-refused")
    assert refused["path"] == "exp/Enhancements.csv"
    assert "without every enhancement" in refused["message"]


def test_a_file_that_grows_while_read_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The size is checked before the read and the read stops one byte past the limit: a file
    whose size said less than it holds (it grew after the check) is refused, not read on."""
    from wahanorm.blocks import decode
    from wahanorm.errors import InputError

    grown = tmp_path / "grown.csv"
    grown.write_bytes(b"x" * 5000)
    real_fstat = os.fstat

    def stale(fd: int) -> os.stat_result:  # what the size said before the file grew
        info = real_fstat(fd)
        return os.stat_result((*info[:6], 100, *info[7:10]))

    monkeypatch.setattr(decode.os, "fstat", stale)
    assert decode.read_bounded(grown, "grown.csv", 6000) == b"x" * 5000  # grew, within limit
    with pytest.raises(InputError, match="grew past the 1000 byte limit"):
        decode.read_bounded(grown, "grown.csv", 1000)


# --- saved pages: never cut silently (issue 33, item 6) ---------------------------------------

PAGE = REPO / "tests" / "fixtures" / "html" / "old_one_eye_trimmed.html"


def _first_ability(page: str) -> tuple[int, int]:
    """Where the first ``div.dsAbility`` of ``page`` starts and ends (its closing tag found by
    counting the ``div``\\ s inside it)."""
    import re

    start = page.index('<div class="dsAbility">')
    depth = 0
    for match in re.finditer(r"<div\b|</div>", page[start:]):
        depth += 1 if match.group() != "</div>" else -1
        if depth == 0:
            return start, start + match.end()
    raise AssertionError("no end of the first ability")


def _page_with(tmp_path: Path, change: Callable[[str], str]) -> Path:
    page = PAGE.read_text(encoding="utf-8")
    start, end = _first_ability(page)
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "Old_One_Eye.html").write_text(
        page[:start] + change(page[start:end]) + page[end:], encoding="utf-8"
    )
    return tmp_path


def _sheet(cwd: Path) -> dict[str, Any]:
    (path,) = (cwd / "out").glob("*/datasheet/*/old-one-eye.json")
    sheet: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return sheet


@pytest.fixture(scope="module")
def clean_sheet(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    cwd = _page_with(tmp_path_factory.mktemp("clean"), lambda ability: ability)
    convert(cwd, "in")
    return _sheet(cwd)


def _same_sheet(sheet: dict[str, Any], clean: dict[str, Any]) -> None:
    assert len(sheet["abilities"]) == len(clean["abilities"])
    assert sheet["keywords"] == clean["keywords"] and sheet["keywords"]
    assert sheet["points"] == clean["points"] and sheet["points"]
    assert sheet["weapons"] == clean["weapons"]


def nested(levels: int) -> Callable[[str], str]:
    return lambda ability: "<div>" * levels + ability + "</div>" * levels


@pytest.mark.parametrize("levels", [200, 260, 500])
def test_page_nested_past_the_parsers_256_levels_is_read_whole(
    tmp_path: Path, clean_sheet: dict[str, Any], levels: int
) -> None:
    """260 ``div``\\ s around the first ability gave a datasheet with no abilities, keywords or
    points and no diagnostic (libxml2 stops at 256 levels); now the page is read whole."""
    cwd = _page_with(tmp_path, nested(levels))
    done = convert(cwd, "in")
    assert "page-cut" not in done.stderr
    _same_sheet(_sheet(cwd), clean_sheet)


@pytest.mark.parametrize(
    ("levels", "reason"),
    [
        (600, "its elements are nested more than 512 levels deep"),
        (3000, "the HTML parser stopped at one of its limits (Excessive depth in document: 2048)"),
    ],
)
def test_page_nested_past_our_bound_is_an_error_naming_the_line(
    tmp_path: Path, levels: int, reason: str
) -> None:
    cwd = _page_with(tmp_path, nested(levels))
    line = PAGE.read_text(encoding="utf-8")[: _first_ability(PAGE.read_text())[0]].count("\n") + 1
    done = convert(cwd, "in")
    assert done.returncode == 1
    assert f"in/Old_One_Eye.html:{line}: error: the page cannot be read whole: {reason}" in (
        done.stderr
    )
    assert "[page-cut]" in done.stderr
    assert not list((cwd / "out").glob("*/datasheet/*/*.json"))  # never a partial datasheet


def test_page_with_an_11_mb_text_is_read_whole(tmp_path: Path, clean_sheet: dict[str, Any]) -> None:
    """An 11 MB text inside the first ability was cut with the rest of the page (libxml2's
    10 MB limit of one text); now read whole, and what is said of it is bounded."""
    big = "x" * (11 * 1024 * 1024)
    cwd = _page_with(tmp_path, lambda ability: ability.replace(">", ">" + big, 1))
    done = convert(cwd, "in")
    assert len(done.stderr) < 20_000
    sheet = _sheet(cwd)
    assert sheet["keywords"] == clean_sheet["keywords"] and sheet["points"] == clean_sheet["points"]
    assert len(sheet["abilities"]) >= len(clean_sheet["abilities"])


def test_page_with_an_11_mb_attribute_is_read_whole(
    tmp_path: Path, clean_sheet: dict[str, Any]
) -> None:
    big = "y" * (11 * 1024 * 1024)
    cwd = _page_with(tmp_path, lambda ability: ability.replace(">", f' title="{big}">', 1))
    done = convert(cwd, "in")
    assert "page-cut" not in done.stderr
    _same_sheet(_sheet(cwd), clean_sheet)


# --- saved pages: read in linear time (issue 33, item 7) --------------------------------------

TOOLTIPS = (
    "//div[contains(concat(' ', normalize-space(@class), ' '), ' tooltip_templates ')]/span[@id]"
)


def _open_tags_page(copies: int, part: int = 50_000) -> str:
    """The fixture page with the first ``part`` characters of its body repeated ``copies``
    times in front of it: tags left open nest each copy's tooltips in the one before (what
    ``scripts/bench_page_scale.py`` grows to 2, 4 and 8 MB)."""
    page = PAGE.read_text(encoding="utf-8")
    start = page.index(">", page.index("<body")) + 1
    return page[:start] + page[start : start + part] * copies + page[start:]


def test_nested_tooltips_are_read_apart_each_over_its_own_content() -> None:
    """The work of reading tooltips is the elements each one holds: with tooltips nested in
    each other it was the sum of all that follows each (quadratic); taken apart, each element
    is under one tooltip at most, so the sum is at most the document's elements."""
    from wahanorm.blocks import html as dom

    root, cut = dom.parse_page(_open_tags_page(40))
    assert root is not None and cut is None
    spans = root.xpath(TOOLTIPS)
    members = set(spans)
    nested = sum(1 for s in spans if any(a in members for a in s.iterancestors()))
    held = sum(sum(1 for _ in s.iter()) for s in spans)
    total = sum(1 for _ in root.iter())
    assert nested > 100 and held > 10 * total  # the hostile shape: quadratic work
    assert dom.apart(spans) == nested
    assert root.xpath(TOOLTIPS) == spans  # all still tooltips, in the same order
    assert not any(a in members for s in spans for a in s.iterancestors())
    assert sum(sum(1 for _ in s.iter()) for s in spans) <= sum(1 for _ in root.iter())


def test_apart_keeps_text_and_order() -> None:
    from wahanorm.blocks import html as dom

    root = dom.parse(
        '<html><body><div class="t"><span id="a">A1<span id="b">B<span id="c">C</span>'
        "c-tail</span>b-tail A2</span></div></body></html>"
    )
    spans = root.xpath("//span[@id]")
    assert dom.apart(spans) == 2
    assert [s.get("id") for s in root.xpath("//span[@id]")] == ["a", "b", "c"]
    assert [dom.cell_text(s) for s in spans] == ["A1b-tail A2", "Bc-tail", "C"]
    assert all(s.getparent().get("class") == "t" for s in spans)


def test_page_with_tags_left_open_converts_as_the_page_does(
    tmp_path: Path, clean_sheet: dict[str, Any]
) -> None:
    """The page grown by copies of its first part reads the same datasheet and tooltips as the
    page itself (the copies repeat them: one entity each)."""
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "Old_One_Eye.html").write_text(_open_tags_page(40), encoding="utf-8")
    done = convert(tmp_path, "in")
    assert "page-cut" not in done.stderr
    _same_sheet(_sheet(tmp_path), clean_sheet)
    clean = tmp_path / "clean"
    (clean / "in").mkdir(parents=True)
    shutil.copy(PAGE, clean / "in" / "Old_One_Eye.html")
    convert(clean, "in")
    assert {e["id"] for e in index(tmp_path)["entities"]} == {
        e["id"] for e in index(clean)["entities"]
    }


def test_tables_together_are_held_to_the_limit_of_one_input(export: Path) -> None:
    """Each table is under the limit, but together they are one input: a 60 MB table of 3
    million rows took 1.8 GB of memory, so twenty would take some 36 GB. Past the limit of the
    export as a whole, the next table is refused as one too large."""
    rows = "000001|KW|m|false|\r\n" * 2_000_000  # 40 MB of rows of a keyword table
    with (export / "Datasheets_keywords.csv").open("a", encoding="utf-8") as table:
        table.write(rows)
    with (export / "Datasheets_models.csv").open("a", encoding="utf-8") as table:
        table.write(rows)
    done = convert(export.parent, "exp", memory=3 * 1024 * 1024 * 1024)
    assert done.returncode == 1
    (refused,) = diagnostics(export.parent, "table-refused")
    assert refused["path"] == "exp/Datasheets_models.csv"  # read after Datasheets_keywords.csv
    assert "without the datasheets' profiles" in refused["message"]
    assert (
        "with the tables read before it, the export would pass the 67108864 byte limit"
        in (refused["message"])
    )
    assert kinds(export.parent).get("datasheet", 0) > 0


def test_a_report_keeps_1000_of_one_code_per_file_and_counts_the_rest() -> None:
    from wahanorm.errors import Report

    report = Report("a.csv")
    for line in range(1, 1501):
        report.warning("short-record", "x" * 5000, line=line)
    report.warning("short-record", "other file", line=1, path="b.csv")
    memo: dict[str, str] = {}
    # past the cap nothing more is kept, but a reading that said something is still told
    made = report.read_once(memo, "k", lambda: report.warning("long-record", "y") or "v")
    assert made == "v" and "k" not in memo
    report.close()
    rows = report.diagnostics
    assert sum(r.code == "short-record" and r.path == "a.csv" for r in rows) == 1000
    assert len(rows[0].message) < 2100 and rows[0].message.endswith("(3000 more characters)")
    (capped,) = [r for r in rows if r.code == "diagnostics-capped"]
    assert capped.path == "a.csv" and capped.severity == "warning"
    assert capped.message.startswith("500 more 'short-record' diagnostics of this file")
    report.close()  # said once
    assert sum(r.code == "diagnostics-capped" for r in report.diagnostics) == 1


WORLD_EATERS = Path(__file__).parent / "fixtures" / "html" / "world_eaters_trimmed.html"
ENHANCEMENT_BOXES = (
    "//*[contains(concat(' ', normalize-space(@class), ' '), ' EnhancementsPts ')]"
    "[not(ancestor::*[contains(concat(' ', normalize-space(@class), ' '), ' tooltip_templates ')])]"
    "/.."
)


def _open_faction_page(copies: int) -> str:
    """The 11th-edition faction page fixture with the first part of its body repeated in front
    of it, the part cut inside an enhancement's box (200 characters past its fourth
    ``EnhancementsPts``): each copy nests in that box of the one before, detachments and all
    (what ``scripts/bench_page_scale.py`` grows from the World Eaters page)."""
    page = WORLD_EATERS.read_text(encoding="utf-8")
    start = page.index(">", page.index("<body")) + 1
    cut = start
    for _ in range(4):
        cut = page.index("EnhancementsPts", cut + 1)
    return page[:start] + page[start : cut + 200] * copies + page[start:]


def test_nested_enhancement_boxes_of_a_faction_page_are_read_apart() -> None:
    """Each detachment's enhancement box was read over all that followed it (quadratic: 0.5,
    1 and 2 MB of the World Eaters page in 0.17, 0.43 and 2.1 s); now each element is under one
    box at most when the boxes are read."""
    from wahanorm.blocks import html as dom
    from wahanorm.errors import Report
    from wahanorm.readers.page import faction
    from wahanorm.readers.page.context import TooltipContext

    def read(text: str) -> tuple[Any, list[str]]:
        root, cut = dom.parse_page(text)
        assert root is not None and cut is None
        ctx = TooltipContext("World Eaters", "page.html", Report())
        return root, sorted({e.id for e in faction.read_faction_page(root, ctx).entities})

    root, _ = dom.parse_page(_open_faction_page(12))
    boxes = root.xpath(ENHANCEMENT_BOXES)
    total = sum(1 for _ in root.iter())
    assert sum(sum(1 for _ in b.iter()) for b in boxes) > 5 * total  # the hostile shape
    root, ids = read(_open_faction_page(12))
    boxes = root.xpath(ENHANCEMENT_BOXES)
    assert len(boxes) > 12 * 4
    assert sum(sum(1 for _ in b.iter()) for b in boxes) <= sum(1 for _ in root.iter())
    _, clean = read(WORLD_EATERS.read_text(encoding="utf-8"))
    # The copies sit inside the last detachment's container, so some of their items are read
    # as that detachment's; what the page itself reads is all read.
    assert set(clean) <= set(ids)
