"""Hostile inputs (issue 6): never lose an input, never crash, never write outside ``--out``.

Each case puts one hostile input beside a good dump in a folder under ``tmp_path`` and runs the
command line (or the pipeline) on it: the exit code, the diagnostic (code, path, line) and the
good dump's entities are asserted. The working folder is ``tmp_path`` so that paths in sources and
diagnostics read ``in/<name>``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import time
from pathlib import Path
from typing import Any

import pytest

from wahanorm import cli, pipeline
from wahanorm.blocks import decode as decoding
from wahanorm.contract.ids import is_safe_id
from wahanorm.pipeline import discover as ingest
from wahanorm.pipeline import read_text
from wahanorm.readers import registry
from wahanorm.readers.base import Source
from wahanorm.readers.generic_html import flatten as html_text

REPO = Path(__file__).resolve().parents[1]
RAW = REPO / "raw"
ORKS = RAW / "000_47df9cafce3cbdb4.txt"  # datasheet orks/ufthak-blackhawk
WORLD_EATERS = RAW / "002_4ce5d9c8bc5975ce.txt"  # datasheet world-eaters/bloodthirster
ARCHIVIST = RAW / "003_3bddafab6d78ca00.txt"  # datasheet unaligned-forces/the-archivist
STRAKEN = RAW / "004_915fe25d03f9d2ef.txt"  # datasheet astra-militarum/iron-hand-straken
GOOD_FILE = "10ed/datasheet/astra-militarum/iron-hand-straken.json"
EXPORT_FIXTURE = REPO / "tests" / "fixtures" / "export" / "wahapedia-10ed-2025-11-14-html"


@pytest.fixture
def work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``tmp_path`` as working folder, with ``in/good.txt`` (raw/004) in it."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "in").mkdir()
    shutil.copy(STRAKEN, tmp_path / "in" / "good.txt")
    return tmp_path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``wahanorm`` with ``argv``: exit code, stdout, stderr."""
    code = cli.main(list(argv))
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    return code, captured.out, captured.err


def convert(capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, str, str]:
    """``wahanorm convert in --out out --no-cache --jobs 1`` plus ``extra``."""
    return run(capsys, "convert", "in", "--out", "out", "--no-cache", "--jobs", "1", *extra)


def index(out: Path = Path("out")) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((out / "index.json").read_text(encoding="utf-8"))
    return data


def diagnostics(code: str, path: str, out: Path = Path("out")) -> list[dict[str, Any]]:
    """The diagnostics of ``out/index.json`` with this code and path."""
    return [d for d in index(out)["diagnostics"] if d["code"] == code and d["path"] == path]


def entity(rel: str, out: Path = Path("out")) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((out / rel).read_text(encoding="utf-8"))
    return data


def assert_good_converted(out: Path = Path("out")) -> None:
    """The good dump of the batch was converted all the same."""
    assert (out / GOOD_FILE).is_file()
    ids = {e["id"] for e in index(out)["entities"]}
    assert "astra-militarum/iron-hand-straken" in ids


def all_files(root: Path) -> set[str]:
    return {p.relative_to(root).as_posix() for p in root.rglob("*") if not p.is_dir()}


# --- unreadable text ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "content",
    [b"", b"  \n\t\n   \r\n\n"],
    ids=["empty", "whitespace-only"],
)
def test_empty_input_is_reported_and_the_batch_goes_on(
    work: Path, capsys: pytest.CaptureFixture[str], content: bytes
) -> None:
    (work / "in" / "bad.txt").write_bytes(content)
    code, out, err = convert(capsys)
    assert code == 1
    (diag,) = diagnostics("empty-input", "in/bad.txt")
    assert diag["severity"] == "error"
    assert diag["line"] is None
    assert "in/bad.txt: error: no text in this input [empty-input]" in err
    assert "1 input failed: in/bad.txt" in out
    assert_good_converted()


def test_binary_file_is_refused_with_a_diagnostic(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10" + bytes(range(256)) * 4
    (work / "in" / "image.txt").write_bytes(png)
    code, out, err = convert(capsys)
    assert code == 1
    (diag,) = diagnostics("input-error", "in/image.txt")
    assert diag["severity"] == "error"
    assert "binary file (NUL bytes)" in diag["message"]
    assert "in/image.txt: error: binary file (NUL bytes)" in err
    assert "1 input failed: in/image.txt" in out
    assert_good_converted()


def test_cp1252_dump_reads_as_its_utf8_original(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = ORKS.read_text(encoding="utf-8")
    (work / "in" / "orks-cp1252.txt").write_bytes(text.encode("cp1252"))
    (work / "utf8").mkdir()
    (work / "utf8" / "orks-cp1252.txt").write_text(text, encoding="utf-8")
    code, _, err = convert(capsys)
    assert code == 0
    (diag,) = diagnostics("encoding", "in/orks-cp1252.txt")
    assert diag["severity"] == "warning"
    assert diag["message"].startswith("not UTF-8 (first at line 1): ")
    assert "in/orks-cp1252.txt: warning: not UTF-8" in err
    assert_good_converted()
    # Same entities, field for field, as the UTF-8 original (sources aside).
    code, _, _ = run(capsys, "convert", "utf8", "--out", "ref", "--no-cache", "--jobs", "1")
    assert code == 0
    for rel in (
        "11ed/datasheet/orks/ufthak-blackhawk.json",
        "11ed/stratagem/war-horde/ard-as-nails.json",
    ):
        got, want = entity(rel), entity(rel, Path("ref"))
        got.pop("sources")
        want.pop("sources")
        assert got == want
    assert entity("11ed/stratagem/war-horde/ard-as-nails.json")["name"] == "'ARD AS NAILS"


def test_latin1_text_is_decoded_and_noted(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (work / "in" / "latin.txt").write_bytes(
        "Caf\u00e9 na\u00efve r\u00e8gle\n\u00bfQu\u00e9?\n".encode("latin-1")
    )
    code, _, _err = convert(capsys)
    assert code == 1  # read, but in no layout wahanorm knows: an error, not "no entities"
    (unknown,) = diagnostics("unknown-layout", "in/latin.txt")
    assert (unknown["severity"], unknown["line"]) == ("error", 1)
    (note,) = diagnostics("encoding", "in/latin.txt")
    assert note["message"] == "not UTF-8 (first at line 1): 2 of 3 lines read as CP-1252"
    # Decoded right: the error quotes the line as written.
    assert unknown["excerpt"] == "Café naïve règle"
    assert not diagnostics("unparsed", "in/latin.txt")  # the one error says it all
    assert_good_converted()


def test_mojibake_is_repaired_in_the_entity_and_reported(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = ORKS.read_text(encoding="utf-8").split("\n")
    when = "WHEN: Your opponent’s Movement phase, just after an enemy unit falls back."
    number = lines.index(when) + 1
    lines[number - 1] = when.replace("’", "â€™")
    (work / "in" / "moji.txt").write_text("\n".join(lines), encoding="utf-8")
    (work / "in" / "short.txt").write_text("Itâ€™s a line of text.\n", encoding="utf-8")
    code, _, err = convert(capsys)
    assert code == 1  # short.txt holds one sentence and no entry: a layout not known
    assert not diagnostics("unknown-layout", "in/moji.txt")
    (diag,) = diagnostics("mojibake-repaired", "in/moji.txt")
    assert diag["line"] == number
    assert diag["severity"] == "warning"
    assert f"in/moji.txt:{number}: warning: mis-decoded text repaired" in err
    stratagem = entity("11ed/stratagem/freebooter-krew/krump-and-run.json")
    assert (
        stratagem["when"] == "Your opponent's Movement phase, just after an enemy unit falls back."
    )
    assert stratagem["sources"][0]["path"] == "in/moji.txt"
    (short,) = diagnostics("mojibake-repaired", "in/short.txt")
    assert short["line"] == 1
    assert "It’s a line of text." in short["message"]
    (unknown,) = diagnostics("unknown-layout", "in/short.txt")
    assert unknown["excerpt"] == "It's a line of text."
    assert_good_converted()


# --- size -----------------------------------------------------------------------------------


def test_one_megabyte_single_line_finishes_and_is_reported(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line = ("WHEN: Your Shooting phase. [ANTI-INFANTRY 4+] D6+1 | 12.12 ") * 17000
    assert len(line) > 1_000_000
    (work / "in" / "long.txt").write_text(line, encoding="utf-8")
    started = time.perf_counter()
    code, _, _err = convert(capsys)
    seconds = time.perf_counter() - started
    print(f"1 MB single line: {seconds:.2f} s")  # measured, not asserted
    assert code == 1  # no entry in any known layout
    (unknown,) = diagnostics("unknown-layout", "in/long.txt")
    assert unknown["line"] == 1 and len(unknown["excerpt"]) < 400
    assert unknown["excerpt"].startswith("WHEN: Your Shooting phase.")  # quoted cut, not whole
    assert_good_converted()


def test_file_over_the_size_limit_is_refused(
    work: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(decoding, "MAX_INPUT_BYTES", 60_000)
    shutil.copy(ORKS, work / "in" / "small.txt")  # 57 kB: under the limit
    (work / "in" / "huge.txt").write_text(ORKS.read_text() * 2, encoding="utf-8")
    size = (work / "in" / "huge.txt").stat().st_size
    code, out, err = convert(capsys)
    assert code == 1
    (diag,) = diagnostics("input-error", "in/huge.txt")
    assert diag["message"] == f"file is {size} bytes, over the 60000 byte limit for one input"
    assert "1 input failed: in/huge.txt" in out
    assert "in/huge.txt: error: file is" in err
    assert Path("out/11ed/datasheet/orks/ufthak-blackhawk.json").is_file()
    assert_good_converted()


def test_file_over_the_size_limit_is_never_read_whole(
    work: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(decoding, "MAX_INPUT_BYTES", 60_000)
    (work / "in" / "huge.txt").write_text(ORKS.read_text() * 2, encoding="utf-8")
    read_bytes = Path.read_bytes

    def guarded(self: Path) -> bytes:
        if self.is_file() and self.stat().st_size > decoding.MAX_INPUT_BYTES:
            raise AssertionError(f"{self} read whole though over the limit")
        return read_bytes(self)

    monkeypatch.setattr(Path, "read_bytes", guarded)
    code, _, _ = run(capsys, "convert", "in", "--out", "out", "--cache", "cache", "--jobs", "1")
    assert code == 1
    (diag,) = diagnostics("input-error", "in/huge.txt")
    assert "over the 60000 byte limit" in diag["message"]


# --- HTML -----------------------------------------------------------------------------------


def test_html_with_script_style_and_deep_nesting(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = ORKS.read_text(encoding="utf-8").split("\n")
    start = lines.index("COUNTEROFFENSIVE15.12")
    entry = lines[start : start + 6]  # name, cost, source, flavour, WHEN, TARGET, EFFECT
    paragraphs = "".join(
        f"<p>{line}</p><script>var leak{n} = 'SCRIPT-LEAK';</script>"
        for n, line in enumerate(entry)
    )
    depth = 5000
    html = (
        "<html><head><style>p { color: STYLE-LEAK; }</style>"
        "<script>document.write('SCRIPT-LEAK')</script></head><body>"
        + "<div>" * depth
        + "<style>.x{content:'STYLE-LEAK'}</style>"
        + paragraphs
        + "</div>" * depth
        + "</body></html>"
    )
    (work / "in" / "page.html").write_text(html, encoding="utf-8")
    text = html_text.html_to_text(html)
    assert "LEAK" not in text
    assert text.split("\n")[:3] == ["COUNTEROFFENSIVE15.12", "2CP", "Core Stratagem"]
    code, _, err = convert(capsys)
    assert code == 0
    assert "RecursionError" not in err and "internal-error" not in err
    assert not diagnostics("internal-error", "in/page.html")
    (note,) = diagnostics("generic-html", "in/page.html")
    assert note["severity"] == "info"
    stratagem = entity("11ed/stratagem/core/counteroffensive.json")
    assert stratagem["cp"] == 2
    assert stratagem["when"].startswith("Fight step of your opponent's Fight phase")
    assert stratagem["sources"][0]["path"] == "in/page.html"
    for path in Path("out").rglob("*.json"):
        assert "LEAK" not in path.read_text(encoding="utf-8"), path
    assert_good_converted()


# --- broken dumps ---------------------------------------------------------------------------


def _orks_cut_after(line: str) -> tuple[str, int]:
    """raw/000 cut just after ``line`` (inside the COUNTEROFFENSIVE entry), and its number."""
    lines = ORKS.read_text(encoding="utf-8").split("\n")
    start = lines.index("COUNTEROFFENSIVE15.12")
    number = lines.index(line, start) + 1
    return "\n".join(lines[:number]), number


def test_dump_cut_in_the_middle_of_a_stratagem(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text, number = _orks_cut_after("2CP")  # name and cost, then nothing
    (work / "in" / "cut.txt").write_text(text, encoding="utf-8")
    code, out, err = convert(capsys)
    assert code == 1  # the broken entry is an error ...
    assert "failed" not in out  # ... but the input is not lost
    (diag,) = diagnostics("stratagem-body", "in/cut.txt")
    assert diag["line"] == number
    assert diag["excerpt"].startswith("2CP")
    assert f"in/cut.txt:{number}:" in err
    ids = {(e["kind"], e["id"]) for e in index()["entities"]}
    for before in (
        ("datasheet", "orks/ufthak-blackhawk"),
        ("stratagem", "core/command-re-roll"),
        ("stratagem", "core/insane-bravery"),
        ("stratagem", "core/fire-overwatch"),
        ("stratagem", "core/rapid-ingress"),
        ("stratagem", "core/heroic-intervention"),
    ):
        assert before in ids
    assert ("stratagem", "core/counteroffensive") not in ids
    assert entity("11ed/stratagem/core/rapid-ingress.json")["effect"] == (
        "Your unit makes an ingress move (20.04)."
    )
    assert_good_converted()


def test_stratagem_cut_before_its_body_is_reported(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text, number = _orks_cut_after("Core Stratagem")
    (work / "in" / "cut.txt").write_text(text, encoding="utf-8")
    convert(capsys)
    reported = [
        d
        for d in index()["diagnostics"]
        if d["path"] == "in/cut.txt"
        and d["line"] in (number - 2, number - 1, number)
        and d["severity"] != "info"
    ]
    assert reported, "the truncated entry COUNTEROFFENSIVE is not reported"


def test_two_dumps_pasted_into_one_file(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first = WORLD_EATERS.read_text(encoding="utf-8")
    second = ARCHIVIST.read_text(encoding="utf-8")
    (work / "in" / "pasted.txt").write_text(first + second, encoding="utf-8")
    code, _, _ = convert(capsys)
    assert code == 0
    offset = first.count("\n")
    alone = read_text(second, "alone.txt", html=False).entities[0]
    assert alone.kind == "datasheet"
    bloodthirster = entity("10ed/datasheet/world-eaters/bloodthirster.json")
    archivist = entity("10ed/datasheet/unaligned-forces/the-archivist.json")
    assert bloodthirster["sources"][0]["path"] == "in/pasted.txt"
    assert bloodthirster["sources"][0]["line_start"] == 1
    assert archivist["sources"][0]["path"] == "in/pasted.txt"
    assert archivist["sources"][0]["line_start"] == offset + alone.sources[0].line_start
    # Each datasheet says what it says when its dump is converted alone.
    for sheet, text in ((bloodthirster, first), (archivist, second)):
        own = read_text(text, "alone.txt", html=False).entities[0].model_dump(mode="json")
        assert {k: v for k, v in sheet.items() if k != "sources"} == {
            k: v for k, v in own.items() if k != "sources"
        }
    assert archivist["weapons"] and bloodthirster["weapons"]
    assert_good_converted()


# --- names and paths ------------------------------------------------------------------------

HOSTILE_NAMES = [
    ("Orks – ../../../escaped", "../../ESCAPE", "orks/escaped", "blitz-brigade/escape"),
    ("../.. – a/b:c", "C:\\WIN/..:x", "unnamed/a-b-c", "blitz-brigade/c-win-x"),
    ("Орки – Боевой Юнит", "БОЕВОЙ ПРИКАЗ", "orki/boevoy-yunit", "blitz-brigade/boevoy-prikaz"),
    ("Orks – ..", "..", "orks/unnamed", "blitz-brigade/unnamed"),
    ("/ – /", ":", "unnamed/unnamed", "blitz-brigade/unnamed"),
]


def test_hostile_unit_names_give_safe_ids_and_stay_inside_out(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = ORKS.read_text(encoding="utf-8")
    for number, (header, stratagem, _, _) in enumerate(HOSTILE_NAMES):
        text = source.replace("Orks – Ufthak Blackhawk", header, 1)
        text = text.replace("MOUNT UP, LADZ", stratagem)
        (work / "in" / f"{number}.txt").write_text(text, encoding="utf-8")
    before = all_files(work)
    code, _, _ = convert(capsys)
    assert code == 1  # the stratagems ".." and ":" both give blitz-brigade/unnamed: an error
    [collision] = [d for d in index()["diagnostics"] if d["code"] == "id-collision"]
    assert collision["severity"] == "error"
    assert "'..' (in/3.txt:466) and ':' (in/4.txt:466)" in collision["message"]
    created = all_files(work) - before
    assert created and all(rel.startswith("out/") for rel in created), sorted(created)
    assert not list(work.parent.glob("escaped*"))
    ids = [e["id"] for e in index()["entities"]]
    assert all(is_safe_id(i) for i in ids)
    for _, _, sheet_id, stratagem_id in HOSTILE_NAMES:
        assert f"out/11ed/datasheet/{sheet_id}.json" in created, sheet_id
        assert Path("out/11ed/stratagem").joinpath(f"{stratagem_id}.json").is_file()
    assert entity("11ed/datasheet/orki/boevoy-yunit.json")["name"] == "Боевой Юнит"
    for path in Path("out").rglob("*.json"):
        rel = path.relative_to("out").as_posix()
        assert ".." not in rel and ":" not in rel and rel.isascii()
    assert_good_converted()


# --- folders --------------------------------------------------------------------------------


def test_symlink_loops_in_an_input_folder_terminate(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sub = work / "in" / "sub"
    sub.mkdir()
    shutil.copy(ORKS, sub / "orks.txt")
    (sub / "up").symlink_to("..", target_is_directory=True)  # in/sub/up -> in
    (sub / "self").symlink_to(".", target_is_directory=True)  # in/sub/self -> in/sub
    (sub / "deep").mkdir()
    (sub / "deep" / "top").symlink_to("../../..", target_is_directory=True)
    items, skipped, missing = ingest.discover([Path("in")])
    assert missing == []
    assert [i.display for i in items] == ["in/good.txt", "in/sub/orks.txt"]
    assert skipped == []
    code, out, _ = convert(capsys)
    assert code == 0
    assert "wahanorm: 2 inputs" in out
    assert Path("out/11ed/datasheet/orks/ufthak-blackhawk.json").is_file()
    assert_good_converted()


def test_file_symlink_loop_is_skipped_with_a_reason(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (work / "in" / "a.txt").symlink_to("b.txt")  # a.txt -> b.txt -> a.txt
    (work / "in" / "b.txt").symlink_to("a.txt")
    code, out, _ = convert(capsys)
    assert code == 0
    assert "wahanorm: 1 input " in out
    (warning,) = diagnostics("skipped-input", "in/a.txt")
    assert warning["message"] == "skipped: not a regular file"
    assert_good_converted()


# --- the output folder ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "out, why",
    [("blocker/out", "Not a directory"), ("blocker", "it is a file, not a folder")],
    ids=["file-as-parent", "file-as-out"],
)
def test_unwritable_out_exits_2_with_one_line(
    work: Path, capsys: pytest.CaptureFixture[str], out: str, why: str
) -> None:
    (work / "blocker").write_text("a regular file where a folder should be\n")
    code, _, err = run(
        capsys, "convert", "in/good.txt", "--out", out, "--no-cache", "--jobs", "1", "-q"
    )
    assert code == 2
    assert err.splitlines() == [f"wahanorm: error: cannot write to {out}: {why}"]
    assert (work / "blocker").read_text() == "a regular file where a folder should be\n"


def test_check_on_a_stale_out_exits_1(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert convert(capsys)[0] == 0
    code, out, _ = convert(capsys, "--check")
    assert code == 0
    assert "is up to date" in out
    target = Path("out") / GOOD_FILE
    target.write_text(target.read_text().replace("Straken", "Strakken"))
    (Path("out") / "rule").mkdir(exist_ok=True)
    (Path("out") / "rule" / "core").mkdir(exist_ok=True)
    Path("out/rule/core/left-over.json").write_text("{}\n")
    code, _, err = convert(capsys, "--check")
    assert code == 1
    assert f"stale: out/{GOOD_FILE}" in err.splitlines()
    # a file the user put there: convert leaves it, so --check says to remove it
    assert (
        "not wahanorm's: out/rule/core/left-over.json (convert leaves it; remove it)"
        in err.splitlines()
    )
    assert "remove the 1 file not wahanorm's" in err
    assert "(1 stale, 1 extra)" in err
    assert "Strakken" in target.read_text()  # --check writes nothing


def test_vanished_entity_is_removed_and_reported(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copy(ORKS, work / "in" / "orks.txt")
    assert convert(capsys)[0] == 0
    orks = Path("out/11ed/datasheet/orks/ufthak-blackhawk.json")
    assert orks.is_file()
    (work / "in" / "orks.txt").unlink()
    code, out, err = convert(capsys)
    assert code == 0
    assert not orks.exists()
    assert not Path("out/11ed/datasheet/orks").exists()  # emptied folders go too
    assert "removed (no longer in the input): out/11ed/datasheet/orks/ufthak-blackhawk.json" in err
    said = re.search(r" files? written, (\d+) removed", out)
    assert said
    removed = int(said.group(1))
    assert removed == len([x for x in err.splitlines() if x.startswith("removed ")]) > 1
    ids = {e["id"] for e in index()["entities"]}
    assert "orks/ufthak-blackhawk" not in ids
    assert_good_converted()


# --- usage ----------------------------------------------------------------------------------


def test_missing_input_path_exits_2(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, err = run(capsys, "convert", "nowhere", "--out", "out", "--no-cache")
    assert code == 2
    assert err.splitlines() == ["wahanorm: error: no such input: nowhere (give a file or folder)"]
    assert not Path("out").exists()


def test_missing_input_beside_a_good_one_fails_the_run(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(
        capsys, "convert", "in/good.txt", "nowhere.txt", "--out", "out", "--no-cache"
    )
    assert code == 1
    (diag,) = diagnostics("missing-input", "nowhere.txt")
    assert diag["severity"] == "error"
    assert diag["message"] == "no such file or folder"
    assert "nowhere.txt: error: no such file or folder [missing-input]" in err
    assert "1 input failed: nowhere.txt" in out
    assert_good_converted()


@pytest.mark.parametrize("jobs", ["0", "-3"])
def test_jobs_below_one_exits_2(work: Path, capsys: pytest.CaptureFixture[str], jobs: str) -> None:
    code, _, err = run(capsys, "convert", "in", "--out", "out", "--no-cache", "--jobs", jobs)
    assert code == 2
    assert err.splitlines() == ["wahanorm: error: --jobs takes a whole number of 1 or more"]
    assert not Path("out").exists()


# --- CSV exports ----------------------------------------------------------------------------


def _export(work: Path) -> Path:
    pytest.importorskip("wahanorm.readers.export")
    folder = work / "in" / "export"
    shutil.copytree(EXPORT_FIXTURE, folder)
    return folder


def test_export_with_a_missing_table(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _export(work)
    (folder / "Factions.csv").unlink()
    code, _out, err = convert(capsys)
    assert code == 0
    (missing,) = diagnostics("missing-table", "in/export/Factions.csv")
    assert missing["severity"] == "warning"
    assert "in/export/Factions.csv: warning: the export has no Factions.csv" in err
    unknown = [d for d in index()["diagnostics"] if d["code"] == "unknown-faction"]
    assert unknown and all(d["line"] for d in unknown)
    kinds = {e["kind"] for e in index()["entities"] if e["sources"][0]["path"].startswith("in/")}
    assert {"datasheet", "stratagem", "enhancement", "rule"} <= kinds
    assert_good_converted()


def test_export_with_a_missing_column(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _export(work)
    table = folder / "Datasheets.csv"
    table.write_bytes(table.read_bytes().replace(b"|role|", b"|rolez|", 1))
    code, _, err = convert(capsys)
    assert code == 0
    (missing,) = diagnostics("missing-column", "in/export/Datasheets.csv")
    assert missing["line"] == 1
    assert missing["message"] == "Datasheets.csv: no column 'role'; its values read as empty"
    (unknown,) = diagnostics("unknown-column", "in/export/Datasheets.csv")
    assert unknown["message"] == "Datasheets.csv: column 'rolez' is not read by wahanorm"
    assert "in/export/Datasheets.csv:1: warning: Datasheets.csv: no column 'role'" in err
    sheets = [
        e
        for e in index()["entities"]
        if e["kind"] == "datasheet" and e["sources"][0]["path"] == "in/export/Datasheets.csv"
    ]
    assert len(sheets) > 3
    assert_good_converted()


def test_export_without_its_stratagems_table(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _export(work)
    (folder / "Stratagems.csv").unlink()
    assert registry.folder_reader(folder) is not None  # Datasheets.csv still marks it
    code, _, _ = convert(capsys)
    assert code == 0
    (missing,) = diagnostics("missing-table", "in/export/Stratagems.csv")
    assert missing["message"] == "the export has no Stratagems.csv"
    sources = [e["sources"][0]["path"] for e in index()["entities"]]
    assert "in/export/Datasheets.csv" in sources
    assert not any(s == "in/export/Stratagems.csv" for s in sources)
    assert_good_converted()


# --- the pipeline boundary ------------------------------------------------------------------


def test_a_crash_inside_one_input_becomes_a_diagnostic(
    work: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shutil.copy(ORKS, work / "in" / "boom.txt")
    real = registry.read

    def explode(source: Source, reader: Any, stage: Any = None) -> Any:
        if source.display == "in/boom.txt":
            raise RecursionError("maximum recursion depth exceeded")
        return real(source, reader, stage)

    monkeypatch.setattr(registry, "read", explode)
    result = pipeline.convert([Path("in")], jobs=1)
    assert result.failed == ["in/boom.txt"]
    (diag,) = [d for d in result.diagnostics if d.code == "internal-error"]
    assert diag.path == "in/boom.txt"
    assert "RecursionError: maximum recursion depth exceeded" in diag.message
    assert f"{GOOD_FILE}" in result.files


def test_files_outside_the_walk_are_skipped_with_a_reason(work: Path) -> None:
    (work / "in" / "picture.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (work / "in" / ".hidden.txt").write_text("ignored")
    os.mkfifo(work / "in" / "pipe.txt")
    items, skipped, missing = ingest.discover([Path("in")])
    assert missing == []
    assert [i.display for i in items] == ["in/good.txt"]
    (work / "in" / "README").write_text("a file without an extension\n")
    items, skipped, missing = ingest.discover([Path("in")])
    assert ("in/picture.png", "not a known input format (a .png file)") in skipped
    assert ("in/README", "not a known input format (a file without an extension)") in skipped
    assert ("in/pipe.txt", "not a regular file") in skipped
