"""The layers of the house (DESIGN.md, "What each part may touch"), held by reading every import.

Every ``import`` of a wahanorm module (at the top of a file, inside a function, or for type
checking only) is checked against what its layer may touch; a cycle between packages fails too.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "wahanorm"

ALLOWED: dict[str, set[str]] = {
    "contract": {"contract"},
    "errors": {"contract", "errors"},
    "blocks": {"contract", "errors", "blocks"},
    "readers": {"contract", "errors", "blocks", "readers"},
    "outputs": {"contract", "errors", "outputs"},
    "pipeline": {"contract", "errors", "blocks", "readers", "outputs", "pipeline"},
    "api": {"*"},
    "cli": {"*"},
    "__init__": {"contract", "errors", "api", "outputs", "pipeline"},
    "__main__": {"cli"},
}
"""Which top-level parts of wahanorm each part may import (``*``: any)."""


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(path: Path) -> list[tuple[int, str]]:
    """(line, module) of every wahanorm module ``path`` imports."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    here = module_name(path)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names if a.name.startswith("wahanorm")]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            if base == "wahanorm":
                found += [(node.lineno, f"wahanorm.{a.name}") for a in node.names]
            elif base.startswith("wahanorm."):
                found.append((node.lineno, base))
    return found


def part_of(module: str) -> str:
    """The top-level part of a module: ``wahanorm.readers.dump.segment`` → ``readers``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def reader_of(module: str) -> str | None:
    """The reader package a module of ``readers`` belongs to (None for the shared ones)."""
    parts = module.split(".")
    if (len(parts) > 3 and parts[1] == "readers") or (len(parts) == 3 and parts[1] == "readers"):
        name = parts[2]
        return None if name in ("base", "registry") else name
    return None


def sources() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)


def test_no_import_runs_against_the_layers() -> None:
    wrong: list[str] = []
    for path in sources():
        here = module_name(path)
        mine = part_of(here) if here != "wahanorm" else "__init__"
        allowed = ALLOWED[mine if here != "wahanorm.__main__" else "__main__"]
        for line, target in imports(path):
            theirs = part_of(target)
            if theirs == "__version__" or "*" in allowed:
                continue
            if theirs not in allowed:
                wrong.append(f"{path.relative_to(PACKAGE)}:{line}: {mine} imports {target}")
    assert wrong == []


def test_readers_know_the_shared_parts_never_each_other() -> None:
    wrong: list[str] = []
    for path in sources():
        here = module_name(path)
        mine = reader_of(here)
        if mine is None:
            continue
        for line, target in imports(path):
            theirs = reader_of(target)
            if part_of(target) == "readers" and theirs not in (None, mine):
                wrong.append(f"{path.relative_to(PACKAGE)}:{line}: reader {mine} imports {target}")
    assert wrong == []


def test_no_cycle_between_parts() -> None:
    edges: dict[str, set[str]] = defaultdict(set)
    for path in sources():
        mine = part_of(module_name(path))
        for _, target in imports(path):
            theirs = part_of(target)
            if theirs != mine and theirs in ALLOWED:
                edges[mine].add(theirs)
    for start in ALLOWED:
        seen: set[str] = set()
        todo = list(edges[start])
        while todo:
            node = todo.pop()
            assert node != start or start in ("api", "cli"), f"cycle through {start}"
            if node not in seen:
                seen.add(node)
                todo += edges[node]


def test_only_the_command_line_prints() -> None:
    printing = []
    for path in sources():
        if path.relative_to(PACKAGE).parts[0] in ("cli", "__main__.py"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "print":
                printing.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    assert printing == []


def module_imports(path: Path, known: set[str]) -> set[str]:
    """The wahanorm modules ``path`` imports (anywhere in it): ``from package import module``
    as that module (its package, being its parent, is no circle), ``from module import name``
    as the module."""
    here = module_name(path)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name in known}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            if not base.startswith("wahanorm"):
                continue
            modules = {f"{base}.{a.name}" for a in node.names} & known
            names = [a for a in node.names if f"{base}.{a.name}" not in known]
            found |= modules
            if names and base in known:
                found.add(base)
    return found - {here}


def test_no_cycle_between_modules() -> None:
    """No module imports, through others, a module that imports it (at the top, in a function
    or for type checking): what a module needs lies below it."""
    known = {module_name(p) for p in sources()}
    edges = {module_name(p): module_imports(p, known) for p in sources()}
    cycles: list[str] = []
    done: set[str] = set()

    def walk(node: str, trail: list[str]) -> None:
        if node in trail:
            cycles.append(" → ".join([*trail[trail.index(node) :], node]))
            return
        if node in done:
            return
        for target in sorted(edges.get(node, ())):
            walk(target, [*trail, node])
        done.add(node)

    for start in sorted(edges):
        walk(start, [])
    assert cycles == []
