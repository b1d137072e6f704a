"""The GitHub Actions workflow of ``docs/diff.md``, its shell steps run as the page gives them on
a real git repository: a base branch ``main`` with the samples and their ``out/``, and a pull
request branch that changes The Archivist's points (70 → 75) and commits the ``out/`` it gives.

The steps run in order with bash, as a runner runs them: ``GITHUB_OUTPUT`` and
``GITHUB_STEP_SUMMARY`` are files, ``if:`` is read for the one form the workflow uses
(``steps.ID.outputs.NAME == 'VALUE'``), the values Actions would put in ``env:`` are given as
environment, and ``gh`` is a script on ``PATH`` that records the comment it is asked to post
(the one part that needs GitHub). The ``uses:`` steps (checkout, Python) and ``pip install .``
are what the test's own set-up has done.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

REPO = Path(__file__).resolve().parents[1]
PAGE = REPO / "docs" / "diff.md"
CONDITION = re.compile(r"^steps\.(?P<step>[\w-]+)\.outputs\.(?P<name>\w+) == '(?P<value>[^']*)'$")

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def workflow() -> dict[str, Any]:
    """The workflow as the page prints it."""
    text = PAGE.read_text(encoding="utf-8")
    [block] = re.findall(r"```yaml\n(name: rules\n.*?)```", text, re.S)
    loaded: dict[str, Any] = yaml.safe_load(block)
    return loaded


def git(cwd: Path, *argv: str) -> None:
    subprocess.run(["git", *argv], cwd=cwd, check=True, capture_output=True, timeout=60)


@pytest.fixture(scope="module")
def pull_request(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A clone whose ``origin/main`` holds the samples and their ``out/``, checked out on a
    branch that changes a points value and commits the new ``out/``."""
    base = tmp_path_factory.mktemp("ci")
    upstream = base / "upstream"
    upstream.mkdir()
    shutil.copytree(REPO / "raw", upstream / "raw")
    shutil.copytree(REPO / "out", upstream / "out")
    identity = ("-c", "user.name=CI", "-c", "user.email=ci@example.invalid")
    git(upstream, "init", "-q", "-b", "main")
    git(upstream, "add", "-A")
    git(upstream, *identity, "commit", "-q", "-m", "rules")
    clone = base / "clone"
    git(base, "clone", "-q", str(upstream), str(clone))
    git(clone, "checkout", "-q", "-b", "points")
    archivist = clone / "raw" / "003_3bddafab6d78ca00.txt"
    lines = archivist.read_text(encoding="utf-8").split("\n")
    assert lines[90:92] == ["1 model", "70"]  # The Archivist's cost, as the sample prints it
    lines[91] = "75"
    archivist.write_text("\n".join(lines), encoding="utf-8")
    converted = subprocess.run(
        [sys.executable, "-m", "wahanorm", "convert", "--no-cache", "-q"],
        cwd=clone,
        capture_output=True,
        timeout=120,
    )
    assert converted.returncode == 0, converted.stderr
    git(clone, "add", "-A")
    git(clone, *identity, "commit", "-q", "-m", "The Archivist costs 75")
    return clone


def run_steps(clone: Path, tmp_path: Path, from_fork: bool) -> tuple[str, list[str]]:
    """Every ``run:`` step of the workflow in ``clone``: (the job summary, the comments
    posted)."""
    job = workflow()["jobs"]["rules"]
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    comments = tmp_path / "comments"
    gh = bin_dir / "gh"
    gh.write_text(
        "#!/usr/bin/env bash\n# records: gh pr comment N --body-file F\n"
        f'printf "%s\\n" "$*" >> "{comments}"\ncat "$5" >> "{comments}"\n'
    )
    gh.chmod(0o755)
    summary = tmp_path / "summary.md"
    summary.touch()
    values = {
        "BASE_REF": "main",
        "GH_TOKEN": "token",
        "PR": "7",
        "FROM_FORK": "true" if from_fork else "false",
    }
    outputs: dict[str, dict[str, str]] = {}
    for step in job["steps"]:
        if "uses" in step:
            continue
        if step["run"].strip() == "pip install .":  # the test runs in an installed checkout
            continue
        if "if" in step:
            cond = CONDITION.match(step["if"])
            assert cond, step["if"]
            if outputs.get(cond["step"], {}).get(cond["name"]) != cond["value"]:
                continue
        output = tmp_path / f"output-{len(outputs)}"
        output.touch()
        env = {
            **os.environ,
            **{k: values[k] for k in {**job.get("env", {}), **step.get("env", {})}},
            "PATH": f"{bin_dir}{os.pathsep}{Path(sys.executable).parent}{os.pathsep}"
            + os.environ["PATH"],
            "GITHUB_OUTPUT": str(output),
            "GITHUB_STEP_SUMMARY": str(summary),
        }
        done = subprocess.run(
            ["bash", "-e", "-c", step["run"]], cwd=clone, env=env, capture_output=True,
            text=True, timeout=300,
        )  # fmt: skip
        assert done.returncode == 0, (step.get("name"), done.stdout, done.stderr)
        written = dict(line.split("=", 1) for line in output.read_text().splitlines())
        outputs[step.get("id", f"step-{len(outputs)}")] = written
    posted = comments.read_text(encoding="utf-8").split("\n") if comments.exists() else []
    return summary.read_text(encoding="utf-8"), posted


def test_the_workflow_uses_current_action_versions() -> None:
    uses = [s["uses"] for s in workflow()["jobs"]["rules"]["steps"] if "uses" in s]
    assert uses == ["actions/checkout@v6", "actions/setup-python@v6"]


def test_a_points_change_is_commented_in_the_games_terms(
    pull_request: Path, tmp_path: Path
) -> None:
    summary, posted = run_steps(pull_request, tmp_path, from_fork=False)
    assert posted[0] == "pr comment 7 --body-file diff.md"
    body = "\n".join(posted[1:])
    assert "**The Archivist**" in body and "Points (1 model): 70 → 75" in body
    assert "Points (1 model): 70 → 75" in summary


def test_a_pull_request_from_a_fork_is_not_commented_and_the_summary_says_why(
    pull_request: Path, tmp_path: Path
) -> None:
    summary, posted = run_steps(pull_request, tmp_path, from_fork=True)
    assert posted == []
    assert "Points (1 model): 70 → 75" in summary
    assert "No comment posted: this pull request comes from a fork" in summary
