"""The command line itself: the schema every output file validates against, usage errors,
exit codes and the cache folder it keeps."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import jsonschema
import pytest

from wahanorm import cli, pipeline
from wahanorm.cli.convert import print_diagnostics
from wahanorm.contract.models import Rule
from wahanorm.errors import DiagnosticRow

REPO = Path(__file__).resolve().parents[1]


def _schema(capsys: pytest.CaptureFixture[str]) -> dict:
    printed = {}
    for which in ("entity", "index"):
        assert cli.main(["schema", which]) == 0
        printed[which] = json.loads(capsys.readouterr().out)
    return printed


def test_every_sample_output_validates_against_the_printed_schema(
    samples: pipeline.Conversion, capsys: pytest.CaptureFixture[str]
) -> None:
    schema = _schema(capsys)
    entity = jsonschema.Draft202012Validator(schema["entity"])
    index = jsonschema.Draft202012Validator(schema["index"])
    kinds = set()
    for rel, text in samples.files.items():
        data = json.loads(text)
        (index if rel == "index.json" else entity).validate(data)
        kinds.add(data.get("kind"))
    assert kinds == {None, "datasheet", "stratagem", "detachment_rule", "enhancement", "rule"}


def test_the_schema_rejects_what_the_contract_forbids(capsys: pytest.CaptureFixture[str]) -> None:
    entity = jsonschema.Draft202012Validator(_schema(capsys)["entity"])
    # An output file has every field: take them from the model, as emit writes them.
    rule = Rule(id="core/hazard-rolls", name="Hazard Rolls", text="Roll.")
    good = rule.model_dump(mode="json")
    entity.validate(good)
    with pytest.raises(jsonschema.ValidationError):
        entity.validate({**good, "kind": "spell"})
    with pytest.raises(jsonschema.ValidationError):
        entity.validate({**good, "colour": "red"})  # unknown fields are refused


def test_no_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main([]) == 2
    assert "name a command" in capsys.readouterr().err


def test_unknown_option_is_a_usage_error_without_traceback(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert cli.main(["convert", "--frobnicate"]) == 2
    err = capsys.readouterr().err
    assert "unrecognized arguments: --frobnicate" in err and "Traceback" not in err


def test_convert_writes_a_cache_that_is_safe_to_delete(
    tmp_path: Path, repo_cwd: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out, cache = tmp_path / "out", tmp_path / "cache"
    args = ["convert", "raw", "--out", str(out), "--cache", str(cache), "-q"]
    assert cli.main(args) == 0
    first = {p.relative_to(out): p.read_bytes() for p in out.rglob("*.json")}
    assert any(cache.rglob("*.json")) and not any(cache.rglob("*.pickle"))
    for path in sorted(cache.rglob("*"), reverse=True):
        path.unlink() if path.is_file() else path.rmdir()
    assert cli.main(args) == 0
    assert {p.relative_to(out): p.read_bytes() for p in out.rglob("*.json")} == first
    assert "4 inputs" in capsys.readouterr().out


def test_a_folders_readme_is_skipped_aloud_but_a_named_file_is_read(
    tmp_path: Path, repo_cwd: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    inputs = tmp_path / "dumps"
    inputs.mkdir()
    shutil.copy(REPO / "raw" / "000_47df9cafce3cbdb4.txt", inputs / "page.txt")
    (inputs / "README.md").write_text("# My dumps\n\nSaved from the site on Monday.\n")
    out = tmp_path / "out"
    assert cli.main(["convert", str(inputs), "--out", str(out), "--no-cache"]) == 0
    said = capsys.readouterr()
    assert "README.md" in said.err and "skipped" in said.err
    # Named on its own, the same file is read, and it is no rules text: an error, exit 1.
    lone = ["convert", str(inputs / "README.md"), "--out", str(tmp_path / "o2"), "--no-cache"]
    assert cli.main(lone) == 1
    assert "unknown-layout" in capsys.readouterr().err


def test_many_diagnostics_of_one_code_in_one_input_are_counted_not_flooded(
    capsys: pytest.CaptureFixture[str],
) -> None:
    def row(path: str, line: int, severity: str = "warning") -> DiagnosticRow:
        return DiagnosticRow(severity, "missing-entry", f"entry {line}", path, line, None, None)

    # As a Termagants page lists 48 stratagems whose texts it lacks: one line for the input,
    # the first with its place and the count of the rest.
    rows = [row("a.txt", n) for n in range(1, 9)] + [row("b.txt", 1), row("a.txt", 9, "error")]
    rows += [row("c.txt", n, "error") for n in range(1, 23)]
    print_diagnostics(rows)
    err = capsys.readouterr().err.splitlines()
    assert err[0] == (
        "a.txt:1: warning: entry 1 [missing-entry] (and 7 more in this input: all in index.json)"
    )
    assert "b.txt:1: warning: entry 1 [missing-entry]" in err
    assert "a.txt:9: error: entry 9 [missing-entry]" in err  # another severity: its own count
    # errors stop an entity: each is shown, up to 20 an input, then a count
    assert [line for line in err if line.startswith("c.txt:")][:-1] == [
        f"c.txt:{n}: error: entry {n} [missing-entry]" for n in range(1, 21)
    ]
    assert err[-1] == "c.txt: error: … and 2 more [missing-entry] (all in index.json)"
    assert len(err) == 24
