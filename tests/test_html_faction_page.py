"""A faction overview page is not a datasheet page: its army rules, detachment rules,
enhancements and stratagems are read with their real faction and detachment, nothing lands in
``core/`` by accident, and the sections that hold no rules are named in one note."""

from __future__ import annotations

from collections import Counter

from conftest import shared_path
from wahanorm import pipeline
from wahanorm.contract.models import DetachmentRule, Enhancement, Rule, Stratagem
from wahanorm.pipeline.after_read import Extraction

HANDMADE = """<!DOCTYPE html><html><head><script>var x;</script></head><body>
<div class="NavColumns"><a href="/">Factions</a><a href="/x">Show Core Stratagems</a></div>
<h1 class="page_header"><span class="page_header_span">Test Swarm</span> <span class="noprint">
<select><option>No filter</option></select></span></h1>
<h2 class="outline_header">Books</h2><p>Codex: Test Swarm</p>
<h2 class="outline_header">Army Rules</h2><div class="Columns2"><div class="BreakInsideAvoid">
<h3 class="dsColorBgTYR">Hive Link</h3><p class="ShowFluff legend2">The swarm thinks as one.</p>
If your Army Faction is <span class="kwb">TEST SWARM</span>, units are linked.<br/>
<ul><li>One.</li><li>Two.</li></ul></div></div>
<h2 class="outline_header">Brood Fleet</h2><div class="Columns2"><div class="BreakInsideAvoid">
<h2>Detachment Rule</h2></div><div class="BreakInsideAvoid"><h3 class="dsColorBgTYR">Adaptation</h3>
<p class="ShowFluff legend2">Flesh changes.</p>At the start of the battle, select one:<br/>
<table><tr><td><p class="impact18">Claws</p><p>Add 1 to hit.</p></td></tr></table></div>
<div class="BreakInsideAvoid"><h2>Enhancements</h2><table><tr><td class="td_w">
<ul class="EnhancementsPts"><li><span>Alien Cunning</span> <span>30 pts</span></li></ul>
<p class="ShowFluff legend2">Cunning.</p><p><span class="kwb">TEST SWARM</span> model only. Redeploy.</p>
</td></tr></table></div></div>
<div class="BreakInsideAvoid"><h2>Stratagems</h2><div class="Columns2">
<div class=" str10Wrap BreakInsideAvoid str10ColorEither"><div class="str10Name">RAPID REGENERATION</div>
<div class="str10Border"><div class="str10CP">1CP</div>
<div class="str10Type">Brood Fleet – Battle Tactic Stratagem</div>
<div class="str10Legend ShowFluff">Armour regrows.</div>
<div class="str10Text"><span><b>WHEN:</b></span> Your opponent's Shooting phase.<br/><br/>
<span><b>TARGET:</b></span> One TEST SWARM unit from your army.<br/><br/>
<span><b>EFFECT:</b></span> Your unit has Feel No Pain 6+.</div></div></div></div></div>
<h2 class="outline_header">Crusade Rules</h2><p>Play a campaign.</p>
</body></html>"""


def _extract(html: str, display: str) -> Extraction:
    return pipeline.read_text(html, display, html=True)


def test_faction_page_entries_carry_faction_and_detachment() -> None:
    extraction = _extract(HANDMADE, "test-swarm/index.html")
    by_id = {e.id: e for e in extraction.entities}
    assert sorted(by_id) == [
        "brood-fleet/adaptation",
        "brood-fleet/alien-cunning",
        "brood-fleet/rapid-regeneration",
        "test-swarm/hive-link",
    ]
    rule = by_id["brood-fleet/adaptation"]
    assert isinstance(rule, DetachmentRule)
    assert (rule.detachment, rule.flavour) == ("Brood Fleet", "Flesh changes.")
    assert rule.text == "At the start of the battle, select one:\nClaws\nAdd 1 to hit."
    enhancement = by_id["brood-fleet/alien-cunning"]
    assert isinstance(enhancement, Enhancement)
    assert (enhancement.detachment, enhancement.faction, enhancement.cost) == (
        "Brood Fleet",
        "Test Swarm",
        30,
    )
    assert enhancement.text == "TEST SWARM model only. Redeploy."
    stratagem = by_id["brood-fleet/rapid-regeneration"]
    assert isinstance(stratagem, Stratagem)
    assert (stratagem.source, stratagem.cp, stratagem.effect) == (
        "Brood Fleet",
        1,
        "Your unit has Feel No Pain 6+.",
    )
    army = by_id["test-swarm/hive-link"]
    assert isinstance(army, Rule)
    assert army.text.endswith("units are linked.\n- One.\n- Two.")


def test_faction_page_sections_without_rules_are_one_note() -> None:
    extraction = _extract(HANDMADE, "test-swarm/index.html")
    [note] = [d for d in extraction.report.diagnostics if d.code == "section-skipped"]
    assert note.message.endswith("Books, Crusade Rules")
    assert not [d for d in extraction.report.diagnostics if d.code == "generic-html"]
    assert not [e for e in extraction.entities if "factions" in e.id or "show" in e.id]


def test_real_faction_page_is_read_as_one() -> None:
    html = shared_path("html-pages", "tyranids", "index.html").read_text(encoding="utf-8")
    extraction = _extract(html, "tyranids/index.html")
    kinds = Counter(e.kind for e in extraction.entities)
    # Eight detachments on the page, each with four enhancements and six stratagems.
    detachments = {
        "Invasion Fleet",
        "Crusher Stampede",
        "Unending Swarm",
        "Assimilation Swarm",
        "Vanguard Onslaught",
        "Synaptic Nexus",
        "Subterranean Assault",
        "Warrior Bioform Onslaught",
    }
    stratagems = Counter(e.source for e in extraction.entities if isinstance(e, Stratagem))
    assert {d: stratagems[d] for d in detachments} == dict.fromkeys(detachments, 6)
    assert kinds["enhancement"] == 32
    enhancements = {e.detachment for e in extraction.entities if isinstance(e, Enhancement)}
    assert enhancements == detachments
    ids = {e.id for e in extraction.entities}
    assert {"invasion-fleet/hyper-adaptations", "tyranids/synapse"} <= ids
    assert not [i for i in ids if "squad" in i or i.startswith("core/show")]
    # One entity per id: the page's body and its tooltips agree.
    assert len(ids) == len(extraction.entities)
    assert not [d for d in extraction.report.diagnostics if d.code == "generic-html"]
    assert not [d for d in extraction.report.diagnostics if d.severity == "error"]
    # An older stratagem printed as one paragraph keeps its text as the effect, said aloud.
    [unlabelled] = [d for d in extraction.report.diagnostics if d.code == "stratagem-unlabelled"]
    assert "INSANE BRAVERY" in unlabelled.message
    assert any(
        isinstance(e, Stratagem) and e.name == "INSANE BRAVERY" and e.effect
        for e in extraction.entities
    )
