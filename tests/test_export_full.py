"""The two whole exports in ../shared/corpus, when present: counts, every labelled stratagem
parses, no HTML left in any string, the fast HTML walk agrees with BeautifulSoup's."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from wahanorm.contract.models import Datasheet
from wahanorm.errors import Report
from wahanorm.outputs.canonical import canonical_json
from wahanorm.pipeline import read_path
from wahanorm.pipeline.after_read import Extraction
from wahanorm.readers.export.context import TABLES
from wahanorm.readers.export.markup import (
    html_to_parts,
    html_to_parts_bs4,
    html_to_text,
    html_to_text_bs4,
)
from wahanorm.readers.export.tables import read_table

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
EXPORTS = ["wahapedia-10ed-2025-11-14-html", "wahapedia-10ed-2026-02-14"]
# Rows of each table, counted with `grep -c` on the raw files (header and blank rows left out).
EXPECTED = {
    EXPORTS[0]: {"datasheet": 1675, "stratagem": 1290, "enhancement": 797, "detachment_rule": 244},
    EXPORTS[1]: {"datasheet": 1685, "stratagem": 1397, "enhancement": 869, "detachment_rule": 269},
}
_MARKUP = re.compile(
    r"<(?:span|/span|a |/a|b>|/b>|br|li|/li|ul|div|s |/s>)|&(?:nbsp|lt|gt|amp|emsp);"
)

pytestmark = pytest.mark.skipif(
    not CORPUS.is_dir(), reason=f"the full exports are not here ({CORPUS} is absent)"
)


@pytest.fixture(scope="module", params=EXPORTS)
def export(request: pytest.FixtureRequest) -> tuple[str, Extraction]:
    name: str = request.param
    return name, read_path(CORPUS / name, f"corpus/{name}")


def test_counts_per_kind(export: tuple[str, Extraction]) -> None:
    name, extraction = export
    kinds: list[str] = [e.kind for e in extraction.entities]
    # a row printed again exactly (NEW ORDERS three times) is one entity and one note
    repeats = [
        d.message.split()[0] for d in extraction.report.diagnostics if d.code == "duplicate-dropped"
    ]
    for kind, count in EXPECTED[name].items():
        assert kinds.count(kind) + repeats.count(kind) == count, kind
    # Abilities.csv holds 90 glossary rows in both exports.
    assert kinds.count("rule") == 90
    weapons = sum(len(e.weapons) for e in extraction.entities if isinstance(e, Datasheet))
    assert weapons > 8900  # 9,100+ wargear rows, less placeholders and rows of no datasheet


def test_every_labelled_stratagem_parses(export: tuple[str, Extraction]) -> None:
    _, extraction = export
    failures = [d for d in extraction.report.diagnostics if d.code == "stratagem-body"]
    assert failures == []
    assert not [d for d in extraction.report.diagnostics if d.severity == "error"]


def test_no_html_left_in_any_string(export: tuple[str, Extraction]) -> None:
    _, extraction = export
    left = [e.id for e in extraction.entities if _MARKUP.search(canonical_json(e))]
    assert left == []


def test_timing_agreement_reported(export: tuple[str, Extraction]) -> None:
    _, extraction = export
    (agreement,) = [d for d in extraction.report.diagnostics if d.code == "timing-agreement"]
    rate = float(re.search(r"\(([\d.]+)%\)", agreement.message).group(1))  # type: ignore[union-attr]
    assert rate > 80


@pytest.mark.parametrize("name", EXPORTS)
def test_lxml_walk_agrees_with_beautifulsoup_on_every_field(name: str) -> None:
    fields: set[str] = set()
    for table, columns in TABLES.items():
        for record in read_table(CORPUS / name, table, name, columns, Report()):
            fields.update(v for v in record.fields.values() if "<" in v or "&" in v)
    assert len(fields) > 4000
    assert [f for f in fields if html_to_text(f) != html_to_text_bs4(f)] == []
    assert [f for f in fields if html_to_parts(f) != html_to_parts_bs4(f)] == []
