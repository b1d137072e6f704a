"""The eight saved Wahapedia pages of ``../shared/html-pages`` (saved October 2025): snapshots of
what the reader makes of them, and their facts checked against the November 2025 CSV export.
Every test here skips with a reason when ``../shared`` is absent."""

from __future__ import annotations

import csv
import re
from functools import cache
from pathlib import Path

import pytest
from syrupy.assertion import SnapshotAssertion

from wahanorm.blocks.clean.characters import normalize_text
from wahanorm.contract.hashing import content_hash
from wahanorm.contract.models import Datasheet
from wahanorm.outputs.canonical import canonical_json
from wahanorm.pipeline import read_text
from wahanorm.pipeline.after_read import Extraction

SHARED = Path(__file__).resolve().parents[1].parent / "shared"


def shared_path(*parts: str) -> Path:
    """A path under ``../shared``, or skip the test with the reason."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"{path} is absent: the saved pages and the export sit beside the repo only")
    return path


PAGES = [
    "astra-militarum/Baneblade.html",
    "astra-militarum/Cadian_Shock_Troops.html",
    "astra-militarum/Commissar.html",
    "space-marines/Aggressor_Squad.html",
    "space-marines/Bladeguard_Veteran_Squad.html",
    "tyranids/Hive_Tyrant.html",
    "tyranids/Old_One_Eye.html",
    "tyranids/Termagants.html",
]
EXPORT = "wahapedia-10ed-2025-11-14-html"

# Where the October pages and the November export disagree (the rules changed in between, or
# the two print a value differently). Each entry: page → {field: (page value, export value)}.
KNOWN_DIFFERENCES: dict[str, dict[str, tuple[object, object]]] = {
    # Points went up between the page (October) and the export (November).
    "space-marines/Aggressor_Squad.html": {
        "points": ([("3 models", 95), ("6 models", 190)], [("3 models", 100), ("6 models", 200)]),
    },
    # The page prints the base as 28mm, the export as 28.5mm.
    "tyranids/Termagants.html": {"base_size": ("28mm", "28.5mm")},
}


@cache
def _extraction(page: str) -> Extraction:
    path = shared_path("html-pages", page)
    extraction = read_text(path.read_text(encoding="utf-8"), page, html=True)
    assert extraction is not None
    return extraction


def _sheet(page: str) -> Datasheet:
    [sheet] = [e for e in _extraction(page).entities if isinstance(e, Datasheet)]
    return sheet


@cache
def _table(name: str) -> list[dict[str, str]]:
    path: Path = shared_path("corpus", EXPORT, f"{name}.csv")
    csv.field_size_limit(1 << 30)
    with path.open(encoding="utf-8-sig", newline="") as handle:
        return list(csv.DictReader(handle, delimiter="|"))


def _export_id(sheet: Datasheet) -> str:
    factions = {row["name"]: row["id"] for row in _table("Factions")}
    rows = [
        r
        for r in _table("Datasheets")
        if r["name"] == sheet.name and r["faction_id"] == factions[sheet.faction]
    ]
    assert len(rows) == 1, f"{sheet.name}: {len(rows)} export rows"
    return rows[0]["id"]


def _rows(table: str, datasheet_id: str) -> list[dict[str, str]]:
    return [r for r in _table(table) if r["datasheet_id"] == datasheet_id]


def _plain(html: str) -> str:
    return normalize_text(re.sub(r"<[^>]+>", "", html))


def _suffixed(value: str, suffix: str) -> str:
    """The export writes range 24 and skill 3 where the pages print 24" and 3+."""
    return value + suffix if value.isdigit() else value


def _compare(page: str, field: str, on_page: object, in_export: object) -> None:
    known = KNOWN_DIFFERENCES.get(page, {}).get(field)
    if known is not None:
        assert (on_page, in_export) == known, f"{page} {field}: the known difference changed"
    else:
        assert on_page == in_export, f"{page} {field}"


# ---- snapshots --------------------------------------------------------------------------------


def _page_id(page: str) -> str:
    return page.replace("/", "-").removesuffix(".html")


@pytest.mark.parametrize("page", PAGES, ids=_page_id)
def test_datasheet_snapshot(page: str, json_snapshot: SnapshotAssertion) -> None:
    """The datasheet of each page, as the exact bytes wahanorm writes."""
    assert canonical_json(_sheet(page)) == json_snapshot


@pytest.mark.parametrize("page", PAGES, ids=_page_id)
def test_page_index_snapshot(page: str, json_snapshot: SnapshotAssertion) -> None:
    """Every entity the page yields (id, kind, name, content hash, lines) and its diagnostics:
    a change to any stratagem, rule or enhancement text shows up as a changed hash."""
    extraction = _extraction(page)
    index = {
        "entities": [
            {
                "id": e.id,
                "kind": e.kind,
                "name": e.name,
                "hash": content_hash(e),
                "lines": [e.sources[0].line_start, e.sources[0].line_end],
            }
            for e in extraction.entities
        ],
        "diagnostics": [d._asdict() for d in extraction.report.diagnostics],
    }
    assert canonical_json(index) == json_snapshot


@pytest.mark.parametrize(
    "entity_id",
    [
        "invasion-fleet/adrenal-surge",
        "core/heroic-intervention",
        "invasion-fleet/hyper-adaptations",
        "invasion-fleet/adaptive-biology",
        "core/feel-no-pain",
        "tyranids/synapse",
    ],
    ids=lambda entity_id: entity_id.replace("/", "--"),
)
def test_tooltip_entity_snapshot(entity_id: str, json_snapshot: SnapshotAssertion) -> None:
    """One entity of each kind the tooltips give, in full (from the Hive Tyrant page)."""
    [entity] = [e for e in _extraction("tyranids/Hive_Tyrant.html").entities if e.id == entity_id]
    assert canonical_json(entity) == json_snapshot


# ---- facts against the export -----------------------------------------------------------------


@pytest.mark.parametrize("page", PAGES)
def test_characteristics_match_export(page: str) -> None:
    sheet = _sheet(page)
    [model] = _rows("Datasheets_models", _export_id(sheet))
    [profile] = sheet.profiles
    stats = [
        s.text if s else None
        for s in (
            profile.movement,
            profile.toughness,
            profile.save,
            profile.wounds,
            profile.leadership,
            profile.objective_control,
        )
    ]
    assert stats == [model[k] for k in ("M", "T", "Sv", "W", "Ld", "OC")], page
    invul = profile.invulnerable_save.text if profile.invulnerable_save else "-"
    assert invul == _suffixed(model["inv_sv"], "+"), page
    _compare(page, "base_size", sheet.base_size, model["base_size"])


@pytest.mark.parametrize("page", PAGES)
def test_weapons_match_export(page: str) -> None:
    sheet = _sheet(page)
    on_page = sorted(
        (
            w.name + (f" – {w.profile}" if w.profile else ""),
            w.type,
            w.range.text,
            w.attacks.text,
            w.skill.text,
            w.strength.text,
            w.armour_penetration.text,
            w.damage.text,
            ", ".join(a.name for a in w.abilities),
        )
        for w in sheet.weapons
    )
    in_export = sorted(
        (
            normalize_text(r["name"]),
            r["type"].lower(),
            _suffixed(r["range"], '"'),
            r["A"],
            _suffixed(r["BS_WS"], "+"),
            r["S"],
            r["AP"],
            r["D"],
            _plain(r["description"]).upper(),
        )
        for r in _rows("Datasheets_wargear", _export_id(sheet))
    )
    assert on_page == in_export


@pytest.mark.parametrize("page", PAGES)
def test_points_match_export(page: str) -> None:
    sheet = _sheet(page)
    on_page = [(p.text, p.points) for p in sheet.points]
    in_export = [
        (r["description"], int(r["cost"]))
        for r in _rows("Datasheets_models_cost", _export_id(sheet))
    ]
    _compare(page, "points", on_page, in_export)


@pytest.mark.parametrize("page", PAGES)
def test_composition_and_keywords_match_export(page: str) -> None:
    sheet = _sheet(page)
    export_id = _export_id(sheet)
    composition = [
        _plain(r["description"]) for r in _rows("Datasheets_unit_composition", export_id)
    ]
    assert sheet.unit_composition == composition
    keywords = _rows("Datasheets_keywords", export_id)
    assert sorted(sheet.keywords) == sorted(
        k["keyword"].upper() for k in keywords if k["is_faction_keyword"] == "false"
    )
    assert sorted(sheet.faction_keywords) == sorted(
        k["keyword"].upper() for k in keywords if k["is_faction_keyword"] == "true"
    )


def test_named_facts() -> None:
    """A few facts spelled out, each checked by hand against the export rows."""
    tyrant = _sheet("tyranids/Hive_Tyrant.html")
    # Datasheets_models 000000460: invulnerable save 4+; Datasheets_abilities: Onslaught is an
    # aura (and a psychic ability).
    assert tyrant.profiles[0].invulnerable_save is not None
    assert tyrant.profiles[0].invulnerable_save.text == "4+"
    onslaught = [a for a in tyrant.abilities.datasheet if a.name.startswith("Onslaught")]
    assert len(onslaught) == 1 and onslaught[0].aura
    assert [(a.name, a.parameter) for a in tyrant.abilities.core] == [
        ("Deadly Demise", "D3"),
        ("Leader", None),
    ]
    baneblade = _sheet("astra-militarum/Baneblade.html")
    # Datasheets 000000702: damaged_w 1-8; base "Use model".
    assert baneblade.damaged is not None and baneblade.damaged.wounds == "1-8"
    assert baneblade.base_size == "Use model"
    bolter = [w for w in baneblade.weapons if w.name == "Twin heavy bolter"]
    assert [(a.id, a.value) for a in bolter[0].abilities] == [
        ("sustained-hits", "1"),
        ("twin-linked", None),
    ]
    commissar = _sheet("astra-militarum/Commissar.html")
    assert commissar.orders is not None and commissar.orders.startswith("This OFFICER can issue 1")
    assert "astra-militarum/cadian-shock-troops" in commissar.leader and len(commissar.leader) == 6
    cadians = _sheet("astra-militarum/Cadian_Shock_Troops.html")
    assert [a.name for a in cadians.abilities.wargear] == ["Vox-caster"]
    assert len(cadians.wargear_options) == 5  # four options and the footnote


# ---- the page path and the dump path agree ----------------------------------------------------


@pytest.mark.parametrize("page", PAGES, ids=_page_id)
def test_page_and_its_text_dump_give_the_same_datasheet(page: str) -> None:
    from wahanorm.pipeline import read_text
    from wahanorm.readers.generic_html.flatten import html_to_text

    html = shared_path("html-pages", page).read_text(encoding="utf-8")
    from_page = _sheet(page)
    from_dump = [
        e for e in read_text(html_to_text(html), page, html=False).entities if e.id == from_page.id
    ]
    assert len(from_dump) == 1
    # Flattened text keeps no links, so the units it lists are named in the page's own faction;
    # the page links each to its faction's page (Cadian Shock Troops: seven Inquisitors of
    # Imperial Agents). The same units, the same names.
    links = ("leader", "led_by")
    for field in links:
        assert _unit_names(getattr(from_dump[0], field)) == _unit_names(getattr(from_page, field))
    unlinked = {"sources": [], "leader": [], "led_by": []}
    assert canonical_json(from_dump[0].model_copy(update=unlinked)) == canonical_json(
        from_page.model_copy(update=unlinked)
    )


def _unit_names(ids: list[str]) -> list[str]:
    return sorted(unit.partition("/")[2] for unit in ids)


def test_leader_links_name_the_faction_of_the_linked_page() -> None:
    """Cadian Shock Troops' LED BY list links ``/factions/imperial-agents/Inquisitor``: those
    units are Imperial Agents' (as the export's ``Datasheets_leader.csv`` gives them), the rest
    Astra Militarum's."""
    led_by = _sheet("astra-militarum/Cadian_Shock_Troops.html").led_by
    assert len(led_by) == 16
    assert [u for u in led_by if u.startswith("imperial-agents/")] == [
        "imperial-agents/inquisitor",
        "imperial-agents/inquisitor-coteaz",
        "imperial-agents/inquisitor-draxus",
        "imperial-agents/inquisitor-eisenhorn",
        "imperial-agents/inquisitor-greyfax",
        "imperial-agents/inquisitor-in-terminator-armour",
        "imperial-agents/inquisitor-ostromandeus",
    ]
    assert "astra-militarum/commissar" in led_by
