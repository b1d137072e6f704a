"""A diagnostic is a plain row from the report that collects it to ``index.json``: the row holds
the JSON values of the contract's ``Diagnostic``, and crosses to another process as plain
tuples."""

from __future__ import annotations

import pickle
from pathlib import Path

import orjson
import pytest

from wahanorm import pipeline
from wahanorm.contract.models import Diagnostic, Index
from wahanorm.errors import DiagnosticRow, ParseFailure, Report
from wahanorm.outputs.canonical import _diagnostic_order as diagnostic_order

RAW = Path(__file__).resolve().parents[1] / "raw"


def test_a_row_has_the_fields_of_the_contracts_diagnostic_in_its_order() -> None:
    assert DiagnosticRow._fields == tuple(Diagnostic.model_fields)


@pytest.fixture(scope="module")
def samples() -> pipeline.Conversion:
    return pipeline.convert([RAW])


def test_every_row_of_a_run_is_the_json_of_a_valid_diagnostic(
    samples: pipeline.Conversion,
) -> None:
    rows = samples.rows()
    assert len(rows) > 100  # the samples say many things; each is held to the contract
    for row in rows:
        assert type(row) is DiagnosticRow
        model = Diagnostic(**row._asdict()).model_dump(mode="json")
        assert model == row._asdict()
        # ``==`` holds 3 == 3.0 == True; the JSON text does not.
        assert orjson.dumps(row._asdict()) == orjson.dumps(model)


def test_the_index_written_from_rows_is_the_contracts_index(
    samples: pipeline.Conversion,
) -> None:
    index = Index.model_validate_json(samples.files["index.json"])
    in_order = sorted(samples.rows(), key=diagnostic_order)
    assert [d.model_dump() for d in index.diagnostics] == [d._asdict() for d in in_order]
    assert samples.diagnostics == [Diagnostic(**d._asdict()) for d in samples.rows()]


def test_a_report_crosses_to_another_process_as_plain_tuples() -> None:
    report = Report("a.txt")
    report.warning("missing-entry", "an entry is missing", line=3)
    report.failure(ParseFailure("cannot read", line=7, column=2, excerpt="x\n ^"), "weapon-row")
    sent = pickle.dumps(report)
    assert b"DiagnosticRow" not in sent  # no call per row to unpickle it
    back = pickle.loads(sent)
    assert back == report
    assert [type(d) for d in back.diagnostics] == [DiagnosticRow, DiagnosticRow]
    assert back.diagnostics[1] == DiagnosticRow(
        "error", "weapon-row", "cannot read", "a.txt", 7, 2, "x\n ^"
    )


@pytest.mark.parametrize(
    "field",
    [
        {"line": 3.0},
        {"line": True},
        {"line": "3"},
        {"column": "?"},
        {"excerpt": b"x"},
        {"path": Path("a.txt")},
    ],
)
def test_a_value_of_the_wrong_type_is_refused_where_the_diagnostic_is_made(
    field: dict[str, object],
) -> None:
    # The model coerced or refused these; a row is written as it is, so it refuses them.
    report = Report("a.txt")
    with pytest.raises(TypeError):
        report.add("warning", "missing-entry", "an entry is missing", **field)  # type: ignore[arg-type]
    assert report.diagnostics == []
