"""Every output file of whole conversions of committed real exports, frozen as bytes.

The committed slices of the 10th-edition export of 2026-02-14 and of the 11th-edition sample
(tests/fixtures/export, cut from the real CSV files by make_slice.py) are converted as
``wahanorm convert`` converts them: discovered, read, merged, rendered, and written through the
writer of ``out/`` into a folder. Each file read back from that folder (``index.json`` with its
diagnostics included) must be the committed snapshot byte for byte, so work on speed keeps the
bytes. A snapshot freezes what the code does, right or wrong: a changed one is reviewed like code.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from syrupy.assertion import SnapshotAssertion

from wahanorm import pipeline
from wahanorm.outputs.folder import list_files, write_outputs

EXPORTS = ("wahapedia-10ed-2026-02-14", "wahapedia-11ed-2026-09-13-sample")


@pytest.mark.parametrize("name", EXPORTS)
def test_every_output_file_of_a_whole_export(
    name: str, repo_cwd: Path, tmp_path: Path, json_snapshot: SnapshotAssertion
) -> None:
    conversion = pipeline.convert([Path("tests/fixtures/export") / name])
    out = tmp_path / "out"
    written, removed = write_outputs(out, conversion.files)
    assert (written, removed) == (len(conversion.files), [])
    assert list_files(out) == sorted(conversion.files)
    for rel in sorted(conversion.files):
        data = (out / rel).read_bytes()
        assert data.decode("utf-8") == json_snapshot(
            name=rel.removesuffix(".json").replace("/", "__")
        )
