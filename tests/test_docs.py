"""The README and the manual (``docs/``) say what the program does: their pages are all linked
and their links land, the generated pages are what the code makes, every command line they show
is one the program takes, every option of every command is in the manual, and the README's
examples give what they say."""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import io
import json
import re
import shlex
import shutil
import sqlite3
import subprocess
import sys
import unicodedata
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import wahanorm
from wahanorm.cli import build_parser

REPO = Path(__file__).resolve().parents[1]
DOCS = REPO / "docs"
README = REPO / "README.md"
GENERATED = ("diagnostics.md", "commands.md")


def pages() -> list[Path]:
    return sorted(DOCS.glob("*.md"))


def written() -> list[Path]:
    """The README and every page of the manual written by hand."""
    return [README, *(p for p in pages() if p.name not in GENERATED)]


def fenced(text: str) -> list[tuple[str, str]]:
    """(language, body) of every fenced block of a Markdown text, in order (``""`` for none)."""
    found, language, body = [], None, list[str]()
    for line in text.splitlines():
        fence = re.fullmatch(r"\s*```(\w*)\s*", line)
        if fence and language is None:
            language, body = fence.group(1), []
        elif fence and not fence.group(1):
            found.append((language or "", "".join(f"{b}\n" for b in body)))
            language = None
        elif language is not None:
            body.append(line)
    return found


def blocks(path: Path, language: str) -> list[str]:
    return [body for lang, body in fenced(path.read_text(encoding="utf-8")) if lang == language]


def make_reference() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "make_reference", REPO / "scripts" / "make_reference.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# --- pages and links ---------------------------------------------------------------------


def nav_pages() -> list[str]:
    """The pages ``mkdocs.yml`` lists in its ``nav`` (``- Title: page.md``)."""
    text = (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    nav = text[text.index("\nnav:") :]
    return re.findall(r"^\s+- [^:]+: (\S+\.md)$", nav, re.M)


def test_every_page_of_the_manual_is_in_the_site_and_linked() -> None:
    names = [p.name for p in pages()]
    assert sorted(nav_pages()) == sorted(names)
    index = (DOCS / "index.md").read_text(encoding="utf-8")
    readme = README.read_text(encoding="utf-8")
    for name in names:
        if name != "index.md":
            assert f"]({name})" in index, f"docs/index.md does not link {name}"
            assert f"](docs/{name}" in readme, f"README.md does not link docs/{name}"


def slug(heading: str) -> str:
    """The anchor Python-Markdown's ``toc`` gives a heading (what mkdocs links to)."""
    text = re.sub(r"[`*]", "", heading)
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    text = re.sub(r"[^\w\s-]", "", text).strip().lower()
    return re.sub(r"[-\s]+", "-", text)


def anchors(path: Path) -> set[str]:
    text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.S)
    return {slug(h) for h in re.findall(r"^#+ (.+)$", text, re.M)}


def test_every_link_lands_on_a_file_and_heading() -> None:
    broken = []
    for path in [README, *pages()]:
        text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.S)
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+://", target):
                continue
            file, _, anchor = target.partition("#")
            landed = (path.parent / file).resolve() if file else path
            if not landed.exists():
                broken.append(f"{path.name}: {target} (no such file)")
            elif anchor and landed.suffix == ".md" and anchor not in anchors(landed):
                broken.append(f"{path.name}: {target} (no such heading)")
    assert broken == []


def test_the_module_map_says_what_the_layers_test_holds() -> None:
    from tests.test_layers import ALLOWED

    page = (DOCS / "development.md").read_text(encoding="utf-8")
    said = {
        part: {"*"} if may == "any" else {p.strip() for p in may.split(",")}
        for part, may in re.findall(r"^\| `(\w+)` \| .* \| ([\w, ]+) \|$", page, re.M)
    }
    assert said == ALLOWED


def test_the_readme_stays_short() -> None:
    assert len(README.read_text(encoding="utf-8").splitlines()) <= 200


# --- generated pages ---------------------------------------------------------------------


@pytest.mark.parametrize("name", GENERATED)
def test_generated_pages_are_what_the_code_makes(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "100")
    made = make_reference().PAGES[name]()
    assert (DOCS / name).read_text(encoding="utf-8") == made, (
        f"docs/{name} is stale: run python scripts/make_reference.py"
    )


# --- command lines -----------------------------------------------------------------------


def command_lines() -> list[tuple[str, str]]:
    """(page, command line) of every ``wahanorm …`` line in the ```sh blocks written by hand."""
    found = []
    for path in written():
        for block in blocks(path, "sh"):
            for line in block.replace("\\\n", " ").splitlines():
                for piece in re.split(r"&&|\|\||\||;|>", line):
                    words = shlex.split(piece, comments=True)
                    if words[:1] == ["wahanorm"]:
                        found.append((path.name, shlex.join(words)))
    return found


def test_the_pages_show_commands() -> None:
    shown = {line.split()[1] for _, line in command_lines()}
    assert {"convert", "diff", "crosscheck", "db", "show", "schema", "explain"} <= shown


@pytest.mark.parametrize(("page", "line"), command_lines())
def test_every_command_line_shown_is_one_the_program_takes(page: str, line: str) -> None:
    parser = build_parser()
    with contextlib.redirect_stderr(io.StringIO()) as said:
        try:
            parser.parse_args(shlex.split(line)[1:])
        except SystemExit:
            pytest.fail(f"{page}: {line}: {said.getvalue().strip()}")


def options() -> list[tuple[str, str]]:
    """(command, option) of every option of every command."""
    found = []
    for action in build_parser()._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                for option in sub._actions:
                    found += [(name, s) for s in option.option_strings if s not in ("-h", "--help")]
    return found


def test_every_option_of_every_command_is_in_the_manual() -> None:
    text = "\n".join(p.read_text(encoding="utf-8") for p in written())
    missing = [
        f"{cmd} {opt}"
        for cmd, opt in options()
        if not re.search(rf"`[^`]*{re.escape(opt)}\b", text)
    ]
    assert len(options()) > 20
    assert missing == []


# --- the README's examples ---------------------------------------------------------------


def test_the_readmes_dump_excerpt_is_the_sample_as_printed() -> None:
    readme = README.read_text(encoding="utf-8")
    said = re.search(r"\(`(raw/[\w.]+)`, line (\d+)\)", readme)
    assert said
    lines = (REPO / said.group(1)).read_text(encoding="utf-8").splitlines()
    (excerpt,) = blocks(README, "text")
    shown = excerpt.splitlines()
    start = int(said.group(2)) - 1
    assert shown == lines[start : start + len(shown)]


def test_the_readmes_json_is_what_out_holds() -> None:
    readme = README.read_text(encoding="utf-8")
    said = re.search(r"in `(out/[\w/.-]+\.json)`", readme)
    assert said
    written_file = json.loads((REPO / said.group(1)).read_text(encoding="utf-8"))
    (shown,) = [json.loads(b) for b in blocks(README, "json")]
    assert len(shown) >= 8
    assert {k: written_file[k] for k in shown} == shown


def test_the_readmes_samples_are_the_units_of_raw() -> None:
    readme = README.read_text(encoding="utf-8")
    said = re.search(r"`raw/` holds four real dumps of datasheet pages \(([^;]+);", readme)
    assert said
    index = json.loads((REPO / "out" / "index.json").read_text(encoding="utf-8"))
    units = sorted(e["name"] for e in index["entities"] if e["kind"] == "datasheet")
    assert sorted(n.strip() for n in said.group(1).replace("\n", " ").split(",")) == units
    assert [e["edition"] for e in index["entities"] if e["kind"] == "datasheet"].count(11) == 1


def test_the_readmes_python_prints_what_it_says(repo_cwd: Path) -> None:
    (example,) = blocks(README, "python")
    code = "\n".join(line.removeprefix("  ") for line in example.splitlines())
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, "README.md", "exec"), {})
    said = re.findall(r"^# (.*)$", code, re.M)
    assert printed.getvalue().splitlines() == said


def test_the_readmes_query_runs_on_the_samples(tmp_path: Path, repo_cwd: Path) -> None:
    query = next(
        shlex.split(line.strip())[2]
        for block in blocks(README, "sh")
        for line in block.splitlines()
        if line.strip().startswith("sqlite3 ")
    )
    wahanorm.build_database("out", tmp_path / "rules.db")
    db = sqlite3.connect(tmp_path / "rules.db")
    rows: list[Any] = db.execute(query).fetchall()
    db.close()
    index = json.loads((REPO / "out" / "index.json").read_text(encoding="utf-8"))
    core = sorted(
        (e["edition"], e["id"])
        for e in index["entities"]
        if e["kind"] == "stratagem" and e["id"].startswith("core/")
    )
    assert sorted((edition, sid) for edition, sid, _ in rows) == core
    assert all(isinstance(cp, int) for _, _, cp in rows)


# --- the first run -----------------------------------------------------------------------


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "wahanorm", *args], cwd=cwd, capture_output=True, text=True
    )


def test_the_first_run_over_the_samples_says_what_to_expect(tmp_path: Path) -> None:
    """``wahanorm convert`` as a newcomer runs it (raw/ → out/, in a real process): its summary
    points to the README's note on the samples and to ``explain``, that note is in the README,
    and every code the run prints is one ``explain`` knows."""
    shutil.copytree(REPO / "raw", tmp_path / "raw")
    done = _run(["convert", "--no-cache"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert 'see "The samples" in README.md' in done.stdout
    assert "'wahanorm explain CODE' says what a [code] means" in done.stdout
    assert "## The samples" in README.read_text(encoding="utf-8")
    codes = set(re.findall(r"\[([a-z][a-z0-9-]+)\]$", done.stderr, re.M))
    assert {"profile-missing", "hole", "conflict"} <= codes
    for code in sorted(codes):
        explained = _run(["explain", code], tmp_path)
        assert explained.returncode == 0 and explained.stdout.startswith(code), code


def test_a_run_over_the_users_inputs_points_to_explain_only(tmp_path: Path) -> None:
    dump = REPO / "tests" / "fixtures" / "dumps" / "transport.txt"
    done = _run(["convert", str(dump), "--out", "out", "--no-cache"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert "[edition-guessed]" in done.stderr
    assert "The samples" not in done.stdout
    assert "'wahanorm explain CODE'" in done.stdout


# --- the report schemas of diff and crosscheck ---------------------------------------------


def _report_models(module: ModuleType) -> dict[str, type[Any]]:
    from pydantic import BaseModel

    return {
        name: value
        for name, value in vars(module).items()
        if isinstance(value, type)
        and issubclass(value, BaseModel)
        and value is not BaseModel
        and not name.startswith("_")
    }


@pytest.mark.parametrize("page", ["diff.md", "crosscheck.md"])
def test_the_report_schema_a_page_shows_is_the_models(page: str) -> None:
    """The outline of the JSON report (``Model`` then its fields, two spaces in) names every
    model and field of ``outputs/<command>/result.py``, and nothing else; the JSON example is a
    report the model reads."""
    from importlib import import_module

    command = page.removesuffix(".md")
    module = import_module(f"wahanorm.outputs.{command}.result")
    models = _report_models(module)
    text = (DOCS / page).read_text(encoding="utf-8")
    outline = next(b for b in blocks_untyped(text) if b.startswith(next(iter(models_top(models)))))
    current: str | None = None
    for line in outline.splitlines():
        if not line.strip():
            continue
        if not line.startswith(" "):
            current = line.split()[0]
            assert current in models, f"{page}: {current} is no model of {module.__name__}"
            fields = set(models[current].model_fields)
            for name in fields:
                assert re.search(rf"\b{name}\b", outline), f"{page}: {current}.{name} not shown"
        elif line.startswith("  ") and not line.startswith("   ") and current:
            names = re.match(r"(?:\w+, )*\w+", line.strip())
            assert names, line
            for name in names.group(0).split(", "):
                assert name in models[current].model_fields, f"{page}: {current} has no {name}"
    shown = {line.split()[0] for line in outline.splitlines() if line and not line[0].isspace()}
    assert shown == set(models), f"{page}: models not shown: {set(models) - shown}"
    (example,) = blocks(DOCS / page, "json")
    top = next(iter(models_top(models)))
    models[top].model_validate(json.loads(example))


def blocks_untyped(text: str) -> list[str]:
    return [body for lang, body in fenced(text) if not lang]


def models_top(models: dict[str, type[Any]]) -> list[str]:
    """The report's own model (``DiffReport``, ``CrosscheckReport``)."""
    return [name for name in models if name.endswith("Report")]


def _within(shown: Any, real: Any) -> bool:
    """``shown`` is ``real`` shortened: each key shown has its value within the real one, each
    list item shown is within some real item."""
    if isinstance(shown, dict):
        return isinstance(real, dict) and all(
            k in real and _within(v, real[k]) for k, v in shown.items()
        )
    if isinstance(shown, list):
        return isinstance(real, list) and all(any(_within(s, r) for r in real) for s in shown)
    return bool(shown == real)


def test_the_crosscheck_example_is_what_the_fixtures_give(repo_cwd: Path) -> None:
    """The JSON example of ``docs/crosscheck.md``, shortened from the run it names on the
    committed fixtures."""
    from wahanorm.outputs.canonical import canonical_json

    page = (DOCS / "crosscheck.md").read_text(encoding="utf-8")
    said = re.search(
        r"Example \(`--kind (\w+) --field (\w+)`, the committed fixtures\n`([^`]+)` and `([^`]+)`",
        page,
    )
    assert said
    kind, field, a, b = said.groups()
    report = wahanorm.crosscheck(a, b, kinds=[kind], fields=[field])
    (example,) = blocks(DOCS / "crosscheck.md", "json")
    real = json.loads(canonical_json(report))
    assert _within(json.loads(example), real)


def test_the_pages_name_diagnostics_by_their_current_codes() -> None:
    """A code in backticks is one the catalogue has now, never one of an earlier version (a
    reader searching index.json for it would find nothing)."""
    from wahanorm.contract.codes import CATALOGUE, RENAMES

    old = set(RENAMES) - set(CATALOGUE)
    named = [
        f"{path.name}: `{word}` is now `{RENAMES[word]}`"
        for path in written()
        for word in re.findall(r"`([a-z][a-z0-9-]+)`", path.read_text(encoding="utf-8"))
        if word in old
    ]
    assert named == []
