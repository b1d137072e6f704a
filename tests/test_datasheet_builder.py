"""The one datasheet builder (``blocks/datasheet.py``): each rule every reader shares, on drafts
holding what the sources give (the texts are the real ones of the pages and exports named)."""

from __future__ import annotations

from wahanorm.blocks.datasheet import (
    At,
    CostLine,
    DatasheetDraft,
    ScopedKeywords,
    UnitRef,
    build_datasheet,
    damaged_wounds,
)
from wahanorm.blocks.parse.points import cost_line
from wahanorm.contract.models import Ability, Points, Profile
from wahanorm.errors import Report

# Commissar, ORDERS (the saved page's ORDERS box; the export's ability row 000000716 ORDERS).
COMMISSAR_ORDERS = (
    "This OFFICER can issue 1 Order to a REGIMENT unit. This OFFICER can only issue the Duty "
    "and Honour! and Fix Bayonets! Orders."
)


def _draft(**fields: object) -> DatasheetDraft:
    draft = DatasheetDraft(name="Commissar", faction="Astra Militarum")
    for name, value in fields.items():
        setattr(draft, name, value)
    return draft


def test_an_ability_box_named_orders_is_the_orders() -> None:
    draft = _draft()
    draft.abilities.datasheet += [
        Ability(name="Summary Execution", text="Once per battle round …"),
        Ability(name="ORDERS", text=COMMISSAR_ORDERS),
    ]
    sheet = build_datasheet(draft, Report())
    assert sheet.orders == COMMISSAR_ORDERS
    assert [a.name for a in sheet.abilities.datasheet] == ["Summary Execution"]


def test_orders_given_apart_stay_and_no_box_is_invented() -> None:
    sheet = build_datasheet(_draft(orders=COMMISSAR_ORDERS), Report())
    assert sheet.orders == COMMISSAR_ORDERS and sheet.abilities.datasheet == []
    assert build_datasheet(_draft(), Report()).orders is None


def test_transport_is_the_last_datasheet_ability() -> None:
    # Valkyrie: the first sentence of Datasheets.transport of 000000727 (its TRANSPORT box).
    text = "This model has a transport capacity of 12 ASTRA MILITARUM INFANTRY models."
    draft = _draft(name="Valkyrie", transport=text)
    draft.abilities.datasheet.append(Ability(name="Airborne Insertion", text="…"))
    sheet = build_datasheet(draft, Report())
    assert [(a.name, a.text) for a in sheet.abilities.datasheet] == [
        ("Airborne Insertion", "…"),
        ("Transport", text),
    ]


def test_options_that_are_only_none_are_no_option() -> None:
    # Ufthak Blackhawk's WARGEAR OPTIONS in raw/000_…txt: "- None"; 276 Datasheets_options rows
    # of the Nov 2025 export are "None".
    assert build_datasheet(_draft(wargear_options=["None"]), Report()).wargear_options == []
    assert build_datasheet(_draft(wargear_options=[" none "]), Report()).wargear_options == []
    options = ["None", "This model can be equipped with 2 heavy bolters."]  # made up
    assert build_datasheet(_draft(wargear_options=options), Report()).wargear_options == options


def _scoped(model: str, profiles: list[str]) -> tuple[DatasheetDraft, Report]:
    draft = _draft(
        name="Saint Celestine",
        faction="Adepta Sororitas",
        profiles=[Profile(name=name) for name in profiles],
        keywords=["Infantry", "Fly"],
        scoped_keywords=[
            ScopedKeywords(model, ["Character", "Epic Hero"], At(12, "Datasheets_keywords.csv"))
        ],
    )
    return draft, Report()


def test_a_scope_names_its_profile_exactly_or_as_whole_words() -> None:
    # Datasheets_keywords of 000000898 scopes CHARACTER and EPIC HERO to "SAINT CELESTINE";
    # its profiles (Datasheets_models) are CELESTINE and GEMINAE SUPERIA.
    for model in ("Celestine", "SAINT CELESTINE"):
        draft, report = _scoped(model, ["CELESTINE", "GEMINAE SUPERIA"])
        sheet = build_datasheet(draft, report)
        assert [(p.name, p.keywords) for p in sheet.profiles] == [
            ("CELESTINE", ["CHARACTER", "EPIC HERO"]),
            ("GEMINAE SUPERIA", []),
        ]
        assert sheet.keywords == ["FLY", "INFANTRY"] and not report.diagnostics


def test_a_scope_naming_no_single_profile_stays_on_the_unit_aloud() -> None:
    # Made-up scopes: "SAINT" holds no profile's name as words, "CELESTINE GEMINAE" two.
    for model, profiles in (
        ("SAINT", ["CELESTINE", "GEMINAE SUPERIA"]),
        ("CELESTINE GEMINAE", ["CELESTINE", "GEMINAE"]),
    ):
        draft, report = _scoped(model, profiles)
        sheet = build_datasheet(draft, report)
        assert sheet.keywords == ["CHARACTER", "EPIC HERO", "FLY", "INFANTRY"]
        assert all(p.keywords == [] for p in sheet.profiles)
        [scope] = report.diagnostics
        assert (scope.code, scope.severity, scope.line, scope.path) == (
            "keyword-scope",
            "warning",
            12,
            "Datasheets_keywords.csv",
        )


def test_a_cost_line_without_a_certain_count_is_said() -> None:
    # Datasheets_models_cost: "1 Spanner and 4 Lootas" 50 (000000044) counts five models;
    # "Invader ATV" +60 (000002712) is an add-on that says no count.
    certain = cost_line("1 Spanner and 4 Lootas", "50", None)
    unsure = cost_line("Invader ATV", "+60", None)
    assert certain is not None and unsure is not None
    report = Report()
    costs = [CostLine(certain, At(3)), CostLine(unsure, At(4))]
    sheet = build_datasheet(_draft(costs=costs), report)
    assert [p.models for p in sheet.points] == [5, None]
    assert [(d.code, d.severity, d.line) for d in report.diagnostics] == [
        ("cost-models", "info", 4)
    ]


def test_leader_links_name_the_faction_of_the_linked_page() -> None:
    # Cadian Shock Troops' LED BY: /factions/astra-militarum/Commissar and
    # /factions/imperial-agents/Inquisitor; a dump gives names only; an export its own ids.
    draft = _draft(name="Cadian Shock Troops")
    draft.led_by = [
        UnitRef("Commissar", namespace="astra-militarum"),
        UnitRef("Inquisitor", namespace="imperial-agents"),
        UnitRef("Ursula Creed"),
        UnitRef(id="imperial-agents/inquisitor-coteaz"),
        UnitRef("Commissar"),
    ]
    assert build_datasheet(draft, Report()).led_by == [
        "astra-militarum/commissar",
        "astra-militarum/ursula-creed",
        "imperial-agents/inquisitor",
        "imperial-agents/inquisitor-coteaz",
    ]


def test_keywords_and_listed_ids_once_each_upper_case_sorted() -> None:
    draft = _draft(
        keywords=["Officer", "INFANTRY", "officer"],
        faction_keywords=["Astra Militarum"],
        stratagems=["core/insane-bravery", "core/command-re-roll", "core/insane-bravery"],
    )
    sheet = build_datasheet(draft, Report())
    assert sheet.keywords == ["INFANTRY", "OFFICER"]
    assert sheet.faction_keywords == ["ASTRA MILITARUM"]
    assert sheet.stratagems == ["core/command-re-roll", "core/insane-bravery"]


def test_the_id_is_the_sources_own_else_faction_and_name() -> None:
    assert build_datasheet(_draft(), Report()).id == "astra-militarum/commissar"
    ready = _draft(id="space-marines/terminator-squad-black-templars")
    assert build_datasheet(ready, Report()).id == "space-marines/terminator-squad-black-templars"


def test_points_keep_their_order_and_tiers() -> None:
    lines = [
        Points(models=10, points=65, text="10 models"),
        Points(models=20, points=120, text="20 models"),
    ]
    sheet = build_datasheet(_draft(costs=[CostLine(p) for p in lines]), Report())
    assert sheet.points == lines


def test_one_pattern_reads_every_damaged_heading() -> None:
    # the saved pages' box title, the dumps' heading line, BSData's ability profile name
    # (Orks.cat: "Damaged: 1-5 Wounds Remaining")
    assert damaged_wounds("DAMAGED: 1-8 WOUNDS REMAINING") == "1-8"
    assert damaged_wounds("DAMAGED: 1-5 WOUNDS REMAINING") == "1-5"
    assert damaged_wounds("Damaged: 1-5 Wounds Remaining") == "1-5"
    assert damaged_wounds("DAMAGED: 1-4 WOUND REMAINING") == "1-4"
    # an ability whose name starts with the word is no DAMAGED box
    assert damaged_wounds("DAMAGED REACTOR") is None
    assert damaged_wounds("Damaged") is None
