"""Shared fixtures: the repo's folders, the samples converted once, the canonical-JSON snapshot
extension, and the place of ``../shared`` (tests that need it skip with a reason when absent)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from syrupy.assertion import SnapshotAssertion
from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode

from wahanorm import pipeline

# Hypothesis: the suite runs one fixed set of examples on every machine and every run
# (derandomized, no example database to replay last run's finds), whatever CI says. A long
# random search is opt-in: HYPOTHESIS_PROFILE=long python -m pytest tests/test_properties.py;
# what it finds goes into an @example above its test.
settings.register_profile(
    "fixed",
    max_examples=200,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "long",
    max_examples=5000,
    derandomize=False,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "fixed"))

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"


class CanonicalJSONExtension(SingleFileSnapshotExtension):
    """One ``.json`` snapshot file per assertion holding the exact canonical bytes wahanorm
    writes, so a snapshot reads like the output file it freezes."""

    file_extension = "json"
    _write_mode = WriteMode.TEXT

    def serialize(self, data: Any, **kwargs: Any) -> str:
        assert isinstance(data, str), "snapshot the canonical text, not a model"
        return data


@pytest.fixture
def json_snapshot(snapshot: SnapshotAssertion) -> SnapshotAssertion:
    """A snapshot that stores canonical JSON text as a ``.json`` file."""
    return snapshot.use_extension(CanonicalJSONExtension)


@pytest.fixture(scope="session")
def repo_cwd() -> Iterator[Path]:
    """Run with the repo as working folder, as the README's commands do (sources are written
    relative to it)."""
    before = Path.cwd()
    os.chdir(REPO)
    try:
        yield REPO
    finally:
        os.chdir(before)


@pytest.fixture(scope="session")
def samples(repo_cwd: Path) -> pipeline.Conversion:
    """The four sample dumps of ``raw/`` converted once."""
    return pipeline.convert([Path("raw")])


def shared_path(*parts: str) -> Path:
    """A path under ``../shared``, or skip the test with the reason."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(
            f"{path} is absent (the shared data sits beside the repo only on the team's machines)"
        )
    return path
