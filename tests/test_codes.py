"""The catalogue of diagnostic codes holds every code the program can emit, each with the
severity the program emits it with (read from the source, not from a run), and ``wahanorm
explain`` says each one."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from wahanorm.contract.codes import AREAS, CATALOGUE, RENAMES, check, explain

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "wahanorm"
SEVERITY_METHODS = {"error", "warning", "info"}
FORWARDERS = {
    # (module, function): a code reaches a report through a parameter here, from literals the
    # callers pass (checked below like any other literal)
    ("pipeline/after_read.py", "warn"),
}


def emitted() -> tuple[list[tuple[str, int, str, str]], list[str]]:
    """(file, line, code, severity or '') of every literal code in the source, and the sites
    that pass a code that is not a literal."""
    found: list[tuple[str, int, str, str]] = []
    unresolved: list[str] = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        functions = {
            node: outer.name
            for outer in ast.walk(tree)
            if isinstance(outer, ast.FunctionDef)
            for node in ast.walk(outer)
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                for item in node.body:
                    if (
                        isinstance(item, ast.Assign)
                        and [getattr(t, "id", None) for t in item.targets] == ["code"]
                        and isinstance(item.value, ast.Constant)
                    ):
                        found.append((rel, item.lineno, item.value.value, ""))
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "diagnostic_row":
                severity, code = (node.args + [ast.Constant(None)] * 2)[:2]
                if isinstance(code, ast.Constant) and isinstance(code.value, str):
                    said = severity.value if isinstance(severity, ast.Constant) else ""
                    found.append((rel, node.lineno, code.value, said or ""))
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
                continue
            method, args = node.func.attr, node.args
            if method in SEVERITY_METHODS and args and _reportish(node.func.value):
                code = args[0]
                if isinstance(code, ast.Constant) and isinstance(code.value, str):
                    found.append((rel, node.lineno, code.value, method))
                elif (rel, functions.get(node, "")) not in FORWARDERS:
                    unresolved.append(f"{rel}:{node.lineno}")
            elif method in ("failure", "to_diagnostic"):
                given = args[1:2] if method == "failure" else args[:1]
                for code in given:
                    if isinstance(code, ast.Constant) and isinstance(code.value, str):
                        found.append((rel, node.lineno, code.value, ""))
    return found, unresolved


def _reportish(node: ast.expr) -> bool:
    name = node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", "")
    return name.endswith("report") or name in ("run", "report")


def test_every_code_the_program_emits_is_in_the_catalogue_with_its_severity() -> None:
    found, unresolved = emitted()
    assert len(found) > 150  # the scan does see the program's calls
    wrong = [
        f"{rel}:{line}: {code} ({severity or 'any'})"
        for rel, line, code, severity in found
        if code not in CATALOGUE or (severity and CATALOGUE[code].severity != severity)
    ]
    assert wrong == []
    assert unresolved == []  # a code passed through a variable must be one of FORWARDERS


def test_the_forwarded_codes_are_the_catalogues() -> None:
    # settle_edition reports through the chain's warn(code, message): its two codes
    source = (PACKAGE / "blocks" / "edition.py").read_text(encoding="utf-8")
    for code in ("edition-guessed", "edition-disagrees"):
        assert f'"{code}"' in source and CATALOGUE[code].severity == "warning"


def test_the_catalogue_is_sound() -> None:
    assert check() == []
    assert set(AREAS) >= {c.area for c in CATALOGUE.values()}
    assert not set(RENAMES) & set(CATALOGUE)


def test_a_severity_other_than_the_catalogues_is_refused() -> None:
    from wahanorm.errors import Report

    report = Report("x.txt")
    report.warning("keyword-scope", "fine")
    with pytest.raises(ValueError, match="is a warning, not a error"):
        report.error("keyword-scope", "wrong severity")
    with pytest.raises(ValueError, match="not in the catalogue"):
        report.warning("no-such-code", "unknown")


def wahanorm(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "wahanorm", *argv], capture_output=True, text=True, timeout=60
    )


def test_explain_says_a_code_an_old_name_and_refuses_an_unknown_one() -> None:
    done = wahanorm("explain", "keyword-scope")
    assert done.returncode == 0
    assert done.stdout == explain("keyword-scope") + "\n"
    assert done.stdout.startswith("keyword-scope (warning): Keywords are given for a model")
    old = wahanorm("explain", "html-keyword-scope")
    assert old.stdout.splitlines()[0] == "html-keyword-scope is now keyword-scope."
    unknown = wahanorm("explain", "kewyord-scope")
    assert unknown.returncode == 2 and unknown.stdout == ""
    assert unknown.stderr == (
        "wahanorm explain: no diagnostic code 'kewyord-scope'; did you mean keyword-scope? "
        "('wahanorm explain --list' lists them)\n"
    )


@pytest.mark.parametrize("typed", ["HOLE", "[hole]", " Hole "])
def test_explain_takes_a_code_as_a_user_types_or_pastes_it(typed: str) -> None:
    done = wahanorm("explain", typed)
    assert (done.returncode, done.stdout) == (0, explain("hole") + "\n")


def test_explain_suggests_the_codes_a_word_begins() -> None:
    done = wahanorm("explain", "weapon")
    assert done.returncode == 2
    assert done.stderr == (
        "wahanorm explain: no diagnostic code 'weapon'; did you mean weapon-abilities, "
        "weapon-kind, weapon-row, weapon-table-empty, weapons-missing? "
        "('wahanorm explain --list' lists them)\n"
    )


def test_explain_list_lists_every_code_once() -> None:
    done = wahanorm("explain", "--list")
    assert done.returncode == 0
    listed = [line.split()[0] for line in done.stdout.splitlines() if line.startswith("  ")]
    assert sorted(listed) == sorted(CATALOGUE)
