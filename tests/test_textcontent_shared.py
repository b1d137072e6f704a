"""The eight textContent dumps of ``../shared/textcontent-dumps`` (made from the saved pages by
``../shared/tools/textcontent_dump.py``): each gives the datasheet its saved page gives (name,
profiles, weapons, points, keywords). Skips with the reason when ``../shared`` is absent."""

from __future__ import annotations

import pytest

from conftest import shared_path
from wahanorm.contract.models import Datasheet
from wahanorm.outputs.canonical import canonical_json
from wahanorm.pipeline import read_text

PAGES = [
    "astra-militarum/Baneblade",
    "astra-militarum/Cadian_Shock_Troops",
    "astra-militarum/Commissar",
    "space-marines/Aggressor_Squad",
    "space-marines/Bladeguard_Veteran_Squad",
    "tyranids/Hive_Tyrant",
    "tyranids/Old_One_Eye",
    "tyranids/Termagants",
]
COMPARED = ("id", "name", "faction", "base_size", "profiles", "weapons", "points", "keywords")


def _sheet(entities: list[object]) -> Datasheet:
    [sheet] = [e for e in entities if isinstance(e, Datasheet)]
    return sheet


@pytest.mark.parametrize("page", PAGES)
def test_textcontent_dump_gives_the_page_datasheet(page: str) -> None:
    html = shared_path("html-pages", f"{page}.html").read_text(encoding="utf-8")
    dump = shared_path("textcontent-dumps", page.replace("/", "__") + ".txt")
    from_page = read_text(html, page, html=True)
    assert from_page is not None
    extraction = read_text(dump.read_text(encoding="utf-8"), dump.name, html=False)
    page_sheet, dump_sheet = _sheet(from_page.entities), _sheet(extraction.entities)
    page_json, dump_json = page_sheet.model_dump(mode="json"), dump_sheet.model_dump(mode="json")
    for name in COMPARED:
        assert canonical_json({name: dump_json[name]}) == canonical_json({name: page_json[name]})
    assert dump_sheet.faction_keywords == page_sheet.faction_keywords
    assert not [d for d in extraction.report.diagnostics if d.severity == "error"]
