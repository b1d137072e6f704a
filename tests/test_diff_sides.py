"""The sides of ``wahanorm diff``: raw inputs converted on the fly, and ``REV:PATH`` read from a
git repository without a second checkout."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from test_diff import run_cli
from test_diff_support import base_entities, berzerkers, blood_offering, bloodthirster, write_out
from wahanorm.cli.diff import EXIT_CHANGED, EXIT_ERROR, EXIT_SAME
from wahanorm.outputs.diff.result import DiffReport

REPO = Path(__file__).resolve().parents[1]
DUMP = REPO / "raw" / "000_47df9cafce3cbdb4.txt"

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def git(repo: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.org", *args],
        cwd=repo,
        check=True,
        capture_output=True,
    )


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A git repository whose first commit holds the base output folder in ``out/`` and whose
    second changes one stratagem's CP; the working folder is the repository."""
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q")
    write_out(root / "out", base_entities())
    git(root, "add", ".")
    git(root, "commit", "-q", "-m", "one")
    write_out(root / "out", [bloodthirster(), berzerkers(), blood_offering(cp=2)])
    git(root, "commit", "-q", "-am", "two")
    monkeypatch.chdir(root)
    return root


def json_report(argv: list[str]) -> tuple[int, DiffReport | None, str]:
    code, out, err = run_cli([*argv, "--format", "json"])
    return code, DiffReport.model_validate_json(out) if out else None, err


@needs_git
def test_rev_path_against_rev_path(repo: Path) -> None:
    code, report, err = json_report(["HEAD~1:out", "HEAD:out"])
    assert (code, err) == (EXIT_CHANGED, "")
    assert report is not None
    assert [c.summary for e in report.entities for c in e.changes] == ["CP 1 → 2"]
    assert (report.old.source, report.new.source) == ("git-output", "git-output")


@needs_git
def test_rev_path_against_working_folder(repo: Path) -> None:
    code, report, _ = json_report(["HEAD:out", "out"])
    assert code == EXIT_SAME
    assert report is not None and report.old.entities == 3


@needs_git
def test_rev_path_relative_to_working_subfolder(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(repo / "out")
    code, report, _ = json_report(["HEAD~1:./", "."])
    assert code == EXIT_CHANGED
    assert report is not None and report.summary.changed == 1


@needs_git
def test_side_without_rules_is_exit_2(repo: Path) -> None:
    # HEAD: is the repository's top: no index.json, and none of its files is a rules input
    code, _, err = run_cli(["HEAD:", "out"])
    assert code == EXIT_ERROR
    assert err.startswith("wahanorm diff: HEAD:: no rules found to compare")


@needs_git
def test_unknown_revision_is_exit_2(repo: Path) -> None:
    code, out, err = run_cli(["no-such-branch:out", "out"])
    assert (code, out) == (EXIT_ERROR, "")
    assert err.startswith("wahanorm diff: unknown revision 'no-such-branch'")
    assert err.count("\n") == 1


@needs_git
def test_path_missing_at_revision_is_exit_2(repo: Path) -> None:
    code, _, err = run_cli(["HEAD:nowhere", "out"])
    assert code == EXIT_ERROR
    assert err == "wahanorm diff: HEAD:nowhere: 'nowhere' does not exist at HEAD\n"


@needs_git
def test_outside_a_repository_is_exit_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path.parent))
    code, _, err = run_cli(["HEAD:out", "HEAD:out"])
    assert code == EXIT_ERROR
    assert "not a git repository" in err
    assert err.count("\n") == 1


def edited_dump(folder: Path, old: str, new: str) -> Path:
    """A copy of a sample dump with one edit."""
    folder.mkdir(parents=True)
    text = DUMP.read_text(encoding="utf-8")
    assert old in text
    target = folder / DUMP.name
    target.write_text(text.replace(old, new), encoding="utf-8")
    return target


def test_raw_dumps_are_converted_on_the_fly(tmp_path: Path) -> None:
    old = edited_dump(tmp_path / "old", "| 1 model | 70 |", "| 1 model | 70 |")
    new = edited_dump(tmp_path / "new", "| 1 model | 70 |", "| 1 model | 85 |")
    code, report, _ = json_report([str(old), str(new)])
    assert code == EXIT_CHANGED
    assert report is not None and report.new.source == "inputs"
    assert [(e.id, [c.summary for c in e.changes]) for e in report.entities] == [
        ("orks/ufthak-blackhawk", ["Points (1 model): 70 → 85"])
    ]


def test_output_folder_against_its_raw_inputs_is_no_change(tmp_path: Path) -> None:
    from wahanorm import pipeline
    from wahanorm.outputs.folder import write_outputs

    raw = edited_dump(tmp_path / "raw", "| 1 model | 70 |", "| 1 model | 70 |")
    write_outputs(tmp_path / "out", pipeline.convert([raw.parent]).files)
    code, report, _ = json_report([str(tmp_path / "out"), str(raw.parent)])
    assert code == EXIT_SAME
    assert report is not None and report.old.entities == report.new.entities > 50


@needs_git
def test_raw_inputs_at_a_revision(repo: Path) -> None:
    edited_dump(repo / "raw", "| 1 model | 70 |", "| 1 model | 70 |")
    git(repo, "add", "raw")
    git(repo, "commit", "-q", "-m", "raw")
    edited = (repo / "raw" / DUMP.name).read_text(encoding="utf-8")
    (repo / "raw" / DUMP.name).write_text(edited.replace("| 1 model | 70 |", "| 1 model | 60 |"))
    code, report, _ = json_report(["HEAD:raw", "raw"])
    assert code == EXIT_CHANGED
    assert report is not None and report.old.source == "git-inputs"
    assert [c.summary for e in report.entities for c in e.changes] == ["Points (1 model): 70 → 60"]
