"""Every output file of the four samples, frozen as the exact bytes wahanorm writes.

A snapshot freezes what the code does, right or wrong: a changed snapshot is reviewed like code.
"""

from __future__ import annotations

from syrupy.assertion import SnapshotAssertion

from wahanorm import pipeline


def test_every_sample_output_file(
    samples: pipeline.Conversion, json_snapshot: SnapshotAssertion
) -> None:
    for rel, text in sorted(samples.files.items()):
        assert text == json_snapshot(name=rel.removesuffix(".json").replace("/", "__"))
