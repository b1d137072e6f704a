"""The public Python API: what ``import wahanorm`` offers and costs, each function on real
inputs, the wheel's ``py.typed``, and the examples of the README and the manual, run as written."""

from __future__ import annotations

import contextlib
import io
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import wahanorm
from wahanorm.errors import UsageError

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO / "raw" / "002_4ce5d9c8bc5975ce.txt"
PAGE = REPO / "tests" / "fixtures" / "html" / "old_one_eye_trimmed.html"


def _python(code: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True
    )
    return done.stdout.strip()


def test_import_is_cheap_and_loads_no_parser_nor_pydantic() -> None:
    loaded = _python(
        "import sys, wahanorm; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('pydantic', 'lark', 'orjson', 'lxml', 'sqlite3') or m.startswith('wahanorm.')))"
    )
    # the version alone (a module of one line, below everything)
    assert loaded == "['wahanorm.contract', 'wahanorm.contract.version']"


def test_every_public_name_resolves_and_nothing_else_does() -> None:
    for name in wahanorm.__all__:
        assert getattr(wahanorm, name) is not None, name
    assert {"convert", "parse_text", "write", "load", "diff", "Datasheet", "Stratagem"} <= set(
        wahanorm.__all__
    )
    # __all__ and the table __getattr__ loads from name the same names (dir() adds __all__ to
    # the globals, so comparing __all__ with dir() could not fail).
    assert set(wahanorm.__all__) == {*wahanorm._MODULE_OF, "__version__"}
    # Every kind of entity has its model in the API, the detachment (issue 10) too.
    from wahanorm.contract.models import Entity
    from wahanorm.contract.vocabulary import KINDS

    models = [getattr(wahanorm, n) for n in wahanorm.__all__ if n[0].isupper()]
    entities = [m for m in models if isinstance(m, type) and issubclass(m, Entity)]
    assert {m.model_fields["kind"].default for m in entities} == set(KINDS)
    with pytest.raises(AttributeError):
        _ = wahanorm.pipeline_convert  # type: ignore[attr-defined]


def test_diff_is_callable_whether_or_not_the_diff_package_was_imported_first() -> None:
    # ``wahanorm.diff`` is also a subpackage: importing it must not hide the function.
    for first in ("", "import wahanorm.outputs.diff.engine; "):
        summary = _python(f"{first}import wahanorm; print(wahanorm.diff('out', 'out').summary)")
        assert summary == "added=0 removed=0 renamed=0 changed=0"


def test_convert_gives_entities_and_diagnostics_without_writing(
    repo_cwd: Path, tmp_path: Path
) -> None:
    result = wahanorm.convert(["raw", tmp_path / "missing.txt"])
    names = {e.name for e in result.entities if isinstance(e, wahanorm.Datasheet)}
    assert names == {"Bloodthirster", "'Iron Hand' Straken", "The Archivist", "Ufthak Blackhawk"}
    assert [d.code for d in result.errors] == ["missing-input"]
    assert result.failed == [str(tmp_path / "missing.txt")]
    assert not list(tmp_path.iterdir())
    assert result.files() == {
        **wahanorm.convert("raw").files(),
        "index.json": result.files()["index.json"],
    }


def test_parse_text_reads_a_dump_and_a_page() -> None:
    dump = wahanorm.parse_text(SAMPLE.read_text(encoding="utf-8"), name="sample.txt")
    sheet = next(e for e in dump.entities if isinstance(e, wahanorm.Datasheet))
    assert sheet.name == "Bloodthirster"
    assert [w.attacks.text for w in sheet.weapons if w.name == "Lash of Khorne"] == ["9"]
    assert {s.path for e in dump.entities for s in e.sources} == {"sample.txt"}
    page = wahanorm.parse_text(PAGE.read_text(encoding="utf-8"), format="html")
    assert [e.name for e in page.entities if e.kind == "datasheet"] == ["Old One Eye"]


def test_parse_text_turns_nonsense_into_diagnostics_and_refuses_unknown_formats() -> None:
    result = wahanorm.parse_text("\x00\x01 nothing of the rules here\n")
    assert result.entities == []
    assert result.diagnostics  # said, not silently empty
    with pytest.raises(UsageError):
        wahanorm.parse_text("x", format="pdf")  # type: ignore[arg-type]


def test_write_then_load_gives_back_the_same_files_and_models(
    samples_result: wahanorm.Result, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    written, removed = wahanorm.write(out, samples_result)
    assert (written, removed) == (len(samples_result.files()), [])
    on_disk = {p.relative_to(out).as_posix(): p.read_text() for p in out.rglob("*.json")}
    assert on_disk == samples_result.files()
    assert on_disk == {
        p.relative_to(REPO / "out").as_posix(): p.read_text()
        for p in (REPO / "out").rglob("*.json")
    }  # the same bytes as the committed out/, written by `wahanorm convert`
    loaded = wahanorm.load(out)
    assert sorted(loaded.entities, key=lambda e: (e.kind, e.id)) == sorted(
        samples_result.entities, key=lambda e: (e.kind, e.id)
    )
    assert [e.id for e in loaded.index.entities] == [e.id for e in loaded.entities]


def test_write_refuses_a_folder_that_is_not_its_own(
    samples_result: wahanorm.Result, tmp_path: Path
) -> None:
    (tmp_path / "notes.json").write_text("{}")
    with pytest.raises(UsageError):
        wahanorm.write(tmp_path, samples_result)
    assert [p.name for p in tmp_path.iterdir()] == ["notes.json"]


def test_diff_takes_results_and_folders(samples_result: wahanorm.Result, repo_cwd: Path) -> None:
    assert not wahanorm.diff(samples_result, "out").has_changes
    one = wahanorm.parse_text(SAMPLE.read_text(encoding="utf-8"), name=str(SAMPLE.name))
    report = wahanorm.diff("out", one)
    assert report.summary.removed > 0 and report.summary.added == 0


def test_the_wheel_ships_py_typed(tmp_path: Path) -> None:
    from hatchling.builders.wheel import WheelBuilder

    (wheel,) = WheelBuilder(str(REPO)).build(directory=str(tmp_path), versions=["standard"])
    names = zipfile.ZipFile(wheel).namelist()
    assert "wahanorm/py.typed" in names
    assert "wahanorm/api.py" in names and "wahanorm/grammars/stratagem.lark" in names


def test_the_manuals_example_runs_as_written(repo_cwd: Path) -> None:
    page = (REPO / "docs" / "api.md").read_text(encoding="utf-8")
    (example,) = re.findall(r"```python\n(.*?)```", page, re.S)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(example, "docs/api.md", "exec"), {})
    lines = printed.getvalue().splitlines()
    said = re.search(r"print\(units\)  # (.*)", example)
    assert said and lines[0] == said.group(1)
    assert "0 errors" in lines
    assert "Lash of Khorne 9 []" in lines
    assert lines[-1] == "0 entities differ from the committed out/"


@pytest.fixture(scope="module")
def samples_result(repo_cwd: Path) -> wahanorm.Result:
    """The sample dumps of ``raw/`` through the API."""
    return wahanorm.convert("raw")


def test_crosscheck_pairs_one_unit_of_two_sources(repo_cwd: Path) -> None:
    """The Valkyrie of its saved page and of its export rows (tests/fixtures/triples): one
    datasheet compared, and it agrees; the export's other entities are its own."""
    triples = REPO / "tests" / "fixtures" / "triples"
    report = wahanorm.crosscheck(triples / "export", triples / "Valkyrie.html")
    assert (report.summary.compared, report.summary.agreeing) == (1, 1)
    assert report.summary.disagreeing == 0 and not report.only_b
    with pytest.raises(wahanorm.WahanormError, match="no such kind: nope"):
        wahanorm.crosscheck(triples / "export", triples / "Valkyrie.html", kinds=["nope"])
