"""The 11th edition's cards (``div.str11Wrap``) and numbered headings of a saved page.

A card is a head (``div.str11Name``, with the rule's number in a ``span.h_number`` where it has
one, and the cost in ``div.str11CP``) and a body (``div.str11Type``, the flavour
``div.str11Legend``, the rules text ``div.str11Text``, then a background picture
``div.str11Bg``). A card with a type is a stratagem (``Berzerker Warband – Epic Deed
Stratagem``, ``Core Stratagem``); a card without one is a move or an action, a rule of the
game, whose kind only its background says (``str11AMoveBg``: a move). Cards sit in a
detachment's section of a faction page, in a tooltip of their own, or inside another rule's
tooltip (the moves of disembarking inside ``18.03 Disembarking``): each is read on its own.

FAQ and errata boxes (``FAQ_BOXES``) follow rules and cards everywhere on an 11th-edition page;
they are no rules text and are left out wherever text is read.

A heading's number is printed one of two ways: in ``span.h_number`` after the name (``SCOUT
MOVE`` ``24.32``), or before the name in the same text (``03.04 Engagement``, the form
``LEADING_NUMBER`` reads); ``heading`` gives the name and the numbers apart.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from wahanorm.blocks import html as dom
from wahanorm.blocks import rules_text
from wahanorm.blocks.html import Element
from wahanorm.blocks.html_tables import TableRows
from wahanorm.blocks.parse import labelled_rule
from wahanorm.blocks.parse.numbers import game_int
from wahanorm.blocks.parse.stratagems import split_source, stratagem_fields, whole_effect
from wahanorm.blocks.parse.timing import derive_timing
from wahanorm.blocks.rules_text import RulesText
from wahanorm.contract.ids import make_id
from wahanorm.contract.models import Rule, RuleSection, SourceRef, Stratagem
from wahanorm.errors import Report
from wahanorm.readers.page.context import TooltipContext, report_tables

CARD = "str11Wrap"
"""The class of a card."""
NUMBER = "h_number"
"""The class of the span that holds a heading's rule number."""
FAQ_BOXES = ("faqErrataStrat", "faqErrataSpoiler", "faq")
"""The boxes of FAQ and errata the site prints under rules and cards: no rules text."""
CARD_KINDS = {"str11AMoveBg": "Movement Ability", "str11AShootBg": "Shooting Ability"}
"""A move or action card's background picture → its kind, in the words of the export's
``Stratagems.type`` for the same rules."""
LEADING_NUMBER = re.compile(r"^(?P<number>\d{2}(?:\.\d{2})+) (?P<name>\S.*)$")
"""A heading printed ``03.04 Engagement``: the form of the dumps' numbered headings
(``readers.dump.segment.NUMBERED_RULE``, which a test keeps equal to this one)."""

_CP = re.compile(r"(\d+)\s*CP", re.I)
_FIELDS = {
    "WHEN": "when",
    "TARGET": "target",
    "EFFECT": "effect",
    "RESTRICTIONS": "restrictions",
    "RESTRICTION": "restrictions",  # FURY UNLEASHED prints the singular
}
_WORD = re.compile(r"\S+")


@dataclass(frozen=True)
class Heading:
    """A heading's name and the rule numbers printed with it, in order."""

    name: str
    numbers: tuple[str, ...] = ()

    @property
    def number(self) -> str | None:
        """The rule number the heading is known by: its first."""
        return self.numbers[0] if self.numbers else None


def heading(el: Element, skip: tuple[str, ...] = ()) -> Heading:
    """The name and numbers of a heading element: its ``span.h_number``\\ s apart from the rest
    of its text (``LEADER`` 24.22 ``/ SUPPORT`` 24.23 → ``LEADER / SUPPORT``, both numbers), or
    a number printed before the name (``03.04 Engagement``)."""
    numbers = tuple(n for n in (dom.text(span) for span in dom.select(el, "span", NUMBER)) if n)
    name = dom.text(el, skip=(NUMBER, *skip))
    if not numbers and (match := LEADING_NUMBER.match(name)):
        return Heading(match.group("name").strip(), (match.group("number"),))
    return Heading(name, numbers)


def report_numbers(what: str, head: Heading, report: Report, line: int | None) -> None:
    """A heading with more than one number keeps its first as ``rule_number``; the others are
    said (the contract holds one number per rule)."""
    if len(head.numbers) > 1:
        report.info(
            "dropped-field",
            f"{what} {head.name!r} prints {len(head.numbers)} rule numbers "
            f"({', '.join(head.numbers)}); its rule_number is the first, "
            f"{', '.join(head.numbers[1:])} is left out",
            line=line,
        )


def cards_in(el: Element) -> list[Element]:
    """The cards inside ``el`` (itself when it is one), outermost only, in page order."""
    if dom.has_class(el, CARD):
        return [el]
    return [card for card in dom.select(el, "div", CARD) if not _in_class(card, CARD, el)]


def faq_boxes(el: Element) -> list[Element]:
    """The FAQ and errata boxes inside ``el``, outermost only (a spoiler's box of questions is
    part of the spoiler)."""
    found = [box for cls in FAQ_BOXES for box in dom.select(el, "div", cls)]
    return [box for box in found if not any(_in_class(box, cls, el) for cls in FAQ_BOXES)]


def leave_out_faq(elements: list[Element], ctx: TooltipContext) -> None:
    """Count the FAQ and errata boxes inside ``elements`` (or that they are) as left out of the
    rules text read from them."""
    for el in elements:
        if not isinstance(el.tag, str):
            continue
        boxes = [el] if any(dom.has_class(el, cls) for cls in FAQ_BOXES) else faq_boxes(el)
        for box in boxes:
            kind = next(cls for cls in FAQ_BOXES if dom.has_class(box, cls))
            questions = len(dom.select(box, "tr", "faq_Q_line"))
            errata = len(dom.select(box, "div", "errata"))
            ctx.faq_left_out.setdefault(box.getroottree().getpath(box), (kind, questions, errata))


def within(el: Element, holder: Element) -> bool:
    """Whether ``el`` sits inside ``holder``."""
    return any(ancestor is holder for ancestor in el.iterancestors())


def _in_class(el: Element, cls: str, stop: Element) -> bool:
    """Whether an ancestor of ``el`` below ``stop`` has the class ``cls``."""
    for ancestor in el.iterancestors():
        if ancestor is stop:
            return False
        if dom.has_class(ancestor, cls):
            return True
    return False


@dataclass
class CardBody:
    """The rules text of a card in the contract's shape (``blocks.rules_text``: its flat text,
    the labelled sections it makes (``WHEN``, ``ELIGIBLE IF`` …) with their lists, its modes and
    commentary), and its tables of rows."""

    shape: RulesText = field(default_factory=RulesText)
    tables: list[TableRows] = field(default_factory=list)

    @property
    def text(self) -> str:
        """The card's flat text (commentary out of it)."""
        return self.shape.text

    @property
    def sections(self) -> list[RuleSection]:
        """The card's labelled sections, in printed order."""
        return self.shape.sections


def _card_body(text_el: Element | None) -> CardBody:
    """The one place a card's ``div.str11Text`` becomes rules text: the shared builder
    (``rules_text.read_element``, FAQ and errata boxes left out) cuts the page's lines into
    sections at their labels (``grammars/labelled_rule.lark``), a stratagem card's and a move's
    alike, with their lists, modes and commentary apart."""
    if text_el is None:
        return CardBody()
    tables: list[TableRows] = []
    shape = rules_text.read_element(
        text_el, labelled_rule.line_parts, skip=FAQ_BOXES, tables=tables
    )
    return CardBody(shape, tables)


def read_card(
    wrap: Element, ctx: TooltipContext, detachment: str | None = None, namespace: str = ""
) -> Stratagem | Rule | None:
    """A card as a stratagem (it has a type) or a rule (a move or action). ``detachment`` is the
    section of the page the card is printed in, where it is printed in one; ``namespace`` the id
    namespace of an unnumbered move or action (a numbered one is a core rule)."""
    name_el = dom.select_one(wrap, "div", "str11Name")
    head = heading(name_el) if name_el is not None else Heading("")
    if not head.name:
        ctx.report.error("missing-field", "card without a name; left out", line=wrap.sourceline)
        return None
    report_numbers("card", head, ctx.report, wrap.sourceline)
    start, end = dom.line_range(wrap)
    sources = [SourceRef(path=ctx.display, line_start=start, line_end=end)]
    body = _card_body(dom.select_one(wrap, "div", "str11Text"))
    type_el = dom.select_one(wrap, "div", "str11Type")
    if type_el is not None:
        return _stratagem(wrap, head, dom.text(type_el), body, sources, detachment, ctx)
    return _move(wrap, head, body, sources, namespace or ctx.faction, ctx)


def _stratagem(
    wrap: Element,
    head: Heading,
    type_text: str,
    body: CardBody,
    sources: list[SourceRef],
    detachment: str | None,
    ctx: TooltipContext,
) -> Stratagem:
    named, category = split_source(type_text) if type_text else ("", None)
    if detachment is not None and named and named != detachment:
        ctx.report.warning(
            "source-disagrees",
            f"stratagem {head.name!r}: its type names {named!r}, the section it is printed "
            f"in is {detachment!r}; the section is kept as its source",
            line=wrap.sourceline,
        )
    source = detachment or named
    if not source:
        ctx.report.warning(
            "no-detachment",
            f"stratagem {head.name!r} names neither a type nor a detachment; source 'Unknown'",
            line=wrap.sourceline,
        )
        source = "Unknown"
    cp_el = dom.select_one(wrap, "div", "str11CP")
    cp = _CP.search(dom.text(cp_el)) if cp_el is not None else None
    if cp is None:
        ctx.report.info(
            "no-cp", f"stratagem {head.name!r} prints no CP cost; cp left empty", wrap.sourceline
        )
    elif game_int(cp.group(1)) is None:
        ctx.report.warning(
            "out-of-range",
            f"stratagem {head.name!r}: its CP cost {cp.group(1)[:40]!r} is no number a cost "
            "can be; left out",
            wrap.sourceline,
        )
    legend = dom.select_one(wrap, "div", "str11Legend")
    flavour = "\n".join(dom.text_lines(legend)) if legend is not None else ""
    fields = _stratagem_fields(head.name, body, ctx, wrap.sourceline)
    return Stratagem(
        id=make_id(source, head.name),
        name=head.name,
        sources=sources,
        cp=game_int(cp.group(1)) if cp else None,
        source=source,
        category=category,
        rule_number=head.number,
        flavour=flavour or None,
        timing=derive_timing(fields.get("when")),
        **fields,
    )


def _stratagem_fields(
    name: str, body: CardBody, ctx: TooltipContext, line: int | None
) -> dict[str, Any]:
    """WHEN / TARGET / EFFECT / RESTRICTIONS from the card's sections, with the sections, modes
    and commentary. A text without labels is kept as the effect (a warning); one whose sections
    do not hold all of it, or that holds another label, is kept whole as the effect (an
    error)."""
    if not body.text:
        ctx.report.warning("empty-text", f"stratagem {name!r} has no text", line=line)
        return {}
    if not body.sections:
        ctx.report.warning(
            "stratagem-unlabelled",
            f"stratagem {name!r} has no WHEN/TARGET/EFFECT: its text is kept as the effect",
            line=line,
        )
        return stratagem_fields(whole_effect(body.shape))
    fields: dict[str, Any] = {}
    other = [s.label for s in body.sections if s.label not in _FIELDS]
    repeated = len({_FIELDS.get(s.label) for s in body.sections}) < len(body.sections)
    said = " ".join(f"{s.label}: {s.text}" for s in body.sections)
    if other or repeated or _WORD.findall(said) != _WORD.findall(body.text):
        problem = (
            f"labels {', '.join(other)} are none of WHEN/TARGET/EFFECT/RESTRICTIONS"
            if other
            else "a label printed twice"
            if repeated
            else "text outside its labelled sections"
        )
        ctx.report.error(
            "stratagem-body",
            f"stratagem {name!r}: {problem}; its whole text is kept as its effect",
            line=line,
        )
        return stratagem_fields(whole_effect(body.shape))
    for section in body.sections:
        fields[_FIELDS[section.label]] = section.text or None
    shape = body.shape
    return {
        **fields,
        "sections": shape.sections,
        "modes": shape.modes,
        "commentary": shape.commentary,
    }


def _move(
    wrap: Element,
    head: Heading,
    body: CardBody,
    sources: list[SourceRef],
    namespace: str,
    ctx: TooltipContext,
) -> Rule | None:
    backgrounds = [
        cls
        for bg in dom.select(wrap, "div", "str11Bg")
        for cls in dom.classes(bg)
        if cls != "str11Bg"
    ]
    kinds = [CARD_KINDS[cls] for cls in backgrounds if cls in CARD_KINDS]
    if not kinds:
        ctx.report.warning(
            "card-kind",
            f"card {head.name!r}: its background ({', '.join(backgrounds) or 'none'}) is no kind "
            "of move or action known; its category is left empty",
            line=wrap.sourceline,
        )
    if not body.text:
        ctx.report.warning("empty-text", f"card {head.name!r} has no text", line=wrap.sourceline)
        return None
    report_tables(f"rule {head.name!r}", body.tables, ctx.report, wrap.sourceline)
    return Rule(
        id=make_id("core" if head.number else namespace, head.name),
        name=head.name,
        sources=sources,
        rule_number=head.number,
        tables=[t for t in body.tables if t],
        category=kinds[0] if kinds else None,
        **labelled_rule.rule_fields(body.shape),
    )
