"""Which edition of the game (10th or 11th) a rules text belongs to, told from the input.

The signs, strongest first: a link of Wahapedia's own site (``/wh40k11ed/``); the core
stratagems' form (10th edition: ``Core – Battle Tactic Stratagem``, with a category; 11th:
``Core Stratagem``); the 11th edition's cost tiers (``YOUR UNIT COSTS``); numbered rules
(``HEROIC INTERVENTION15.11``: Wahapedia numbers the 11th-edition core rules only). An entity
that carries a sign of its own (a rule number, a core stratagem's form) takes that edition even
on a page of the other one; everything else takes its page's (or export's) edition.
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections import Counter
from collections.abc import Callable, Iterable

from wahanorm.contract.vocabulary import Edition
from wahanorm.errors import LINES_KEPT, LONGEST_KEPT, BatchMemo

_LINK = re.compile(r"/wh40k(1[01])ed/")
_NUMBER = re.compile(r"\d{2}(?:\.\d{2})+")
_CORE_INDEX = re.compile(r"Core(?P<category> [-–] [A-Z][A-Za-z ]+?)?(?P<stratagem> Stratagem)?")
_COST_TIER = re.compile(r"\bYOUR (?:UNIT COSTS|\d+(?:ST|ND|RD|TH).*UNITS? COSTS?)\b")
_NUMBERED_HEADING = re.compile(r"[A-Z][A-Z' -]*[A-Z]\d{2}\.\d{2}")
# A stratagem index whose cells ran together (``FIRE OVERWATCH1CPCore – Strategic PloyC``).
_GLUED_CORE = re.compile(r"\dCPCore(?P<category> [-–] [A-Z][a-z]+ [A-Z][a-z]+)?")


def as_edition(value: int) -> Edition | None:
    """``value`` as an edition, or None when it is not 10 or 11."""
    if value == 10:
        return 10
    if value == 11:
        return 11
    return None


def settle_edition(
    found: Edition | None,
    said: Edition | None,
    told: str,
    untold: str,
    warn: Callable[[str, str], None],
) -> Edition:
    """The edition to read a source as: the one it tells (``found``), else the one the user
    said (``--edition``), else 10th with an ``edition-guessed`` warning; a told edition that
    differs from the one said is an ``edition-disagrees`` warning. ``told`` names the sign and
    its verb (``the page's links say``), ``untold`` why nothing was told; ``warn`` records a
    warning (code, message) at the source's place."""
    if found is None:
        if said is not None:
            return said
        warn(
            "edition-guessed",
            f"{untold}; read as 10th edition: say it with --edition 10 or --edition 11",
        )
        return 10
    if said is not None and said != found:
        warn(
            "edition-disagrees",
            f"--edition {said} was given, but {told} {found}th edition; read as {found}th",
        )
    return found


def link_edition(text: str) -> Edition | None:
    """The edition a Wahapedia link names (``https://wahapedia.ru/wh40k11ed/…`` → 11)."""
    match = _LINK.search(text)
    return as_edition(int(match.group(1))) if match else None


def links_edition(text: str) -> Edition | None:
    """The edition most Wahapedia links in ``text`` name (a saved page links its own site)."""
    counts: Counter[Edition] = Counter()
    for match in _LINK.finditer(text):
        if (edition := as_edition(int(match.group(1)))) is not None:
            counts[edition] += 1
    return _majority(counts)


def _majority(counts: Counter[Edition]) -> Edition | None:
    """The edition counted most; None when none is counted or the two tie."""
    ranked = counts.most_common()
    if not ranked or (len(ranked) > 1 and ranked[0][1] == ranked[1][1]):
        return None
    return ranked[0][0]


def is_rule_number(number: str | None) -> bool:
    """True for an 11th-edition rule number such as ``15.02`` or ``01.05.01``."""
    return number is not None and _NUMBER.fullmatch(number) is not None


def core_stratagem_edition(source: str, category: str | None) -> Edition | None:
    """The edition a core stratagem's heading says: a 10th-edition core stratagem has a category
    (Battle Tactic, Strategic Ploy, Epic Deed, Wargear); an 11th-edition one has none. None for
    a stratagem that is not a core one."""
    if not source.startswith("Core"):
        return None
    return 10 if category else 11


def page_edition(lines: Iterable[str]) -> tuple[Edition | None, str]:
    """The edition the lines of one page say, and the sign it was told by ("" when none).

    Links decide; then the page's own cost table and stratagem index (``Core`` alone is 11th
    edition, ``Core – Battle Tactic`` 10th); then the majority of its core stratagem headings
    and numbered rules (the tooltip text behind a page can carry rules of both editions)."""
    texts = [line.strip() for line in lines]
    counts = _tally(_SIGNS.each(texts, line_signs))  # sign_counts(texts, sign_lines(texts))
    for counted, sign in zip(counts, _SIGN_NAMES, strict=True):
        if (found := _majority(counted)) is not None:
            return found, sign
    return None, ""


_SIGN_NAMES = ("a link", "the cost table and stratagem index", "core stratagems and numbered rules")
_SIGNS: BatchMemo[str, tuple[tuple[int, Edition], ...]] = BatchMemo(LINES_KEPT, LONGEST_KEPT)
"""``line_signs`` of the lines a batch repeats."""


def line_signs(texts: list[str]) -> list[tuple[tuple[int, Edition], ...]]:
    """``signs_of`` each text (a stripped line), told without a test of the lines that
    ``sign_lines`` leaves out. A pure function of each text, whatever texts it is given with."""
    none: tuple[tuple[int, Edition], ...] = ()
    said = [none] * len(texts)
    for at in sign_lines(texts):
        said[at] = signs_of(texts[at])
    return said


# A line that may open with a sign: ``Core`` (a core stratagem's heading or index row), a
# numbered heading (``_NUMBERED_HEADING``), each after the line break before it.
_SIGN_OPENING = re.compile(r"\n(?:Core|[A-Z][A-Z' -]*[A-Z]\d{2}\.\d{2})")
_SIGN_NEEDLES = ("YOUR ", "CPCore", "/wh40k")
"""What a sign inside a line holds: a cost tier, a glued core index row, a link."""


def sign_lines(texts: list[str]) -> list[int]:
    """The indexes of the lines (``texts``, stripped) that may hold a sign, in order: every
    line ``sign_counts`` counts anything in is among them (a test holds the counts equal to
    those of every line). They are found in the joined text (``str.find`` for a needle, a
    pattern that opens with the line break, which is scanned for fast), not line by line."""
    whole = "\n".join(texts)
    starts = list(itertools.accumulate((len(text) + 1 for text in texts), initial=0))
    found = {0} if texts else set()
    for needle in _SIGN_NEEDLES:  # no needle holds a line break: each one lies in one line
        at = whole.find(needle)
        while at != -1:
            found.add(bisect.bisect_right(starts, at) - 1)
            at = whole.find(needle, at + 1)
    for opening in _SIGN_OPENING.finditer(whole):
        found.add(bisect.bisect_right(starts, opening.start() + 1) - 1)
    return sorted(found)


def sign_counts(texts: list[str], indexes: Iterable[int]) -> Counts:
    """How often the lines ``texts[i]`` (``i`` in ``indexes``) name each edition by a link, by
    the page's cost table and stratagem index, and by core stratagem headings and numbered
    rules."""
    return _tally(signs_of(texts[at]) for at in indexes)


Counts = tuple[Counter[Edition], Counter[Edition], Counter[Edition]]


def _tally(signs: Iterable[tuple[tuple[int, Edition], ...]]) -> Counts:
    """The signs of lines (``signs_of`` each) counted towards what each counts towards."""
    counts: Counts = (Counter(), Counter(), Counter())
    for said in signs:
        for which, edition in said:
            counts[which][edition] += 1
    return counts


LINK, INDEX, TOOLTIPS = 0, 1, 2
"""What a sign counts towards, in ``sign_counts``' order: a link, the page's cost table and
stratagem index, core stratagem headings and numbered rules."""


def signs_of(text: str) -> tuple[tuple[int, Edition], ...]:
    """The signs of one line (stripped): (what it counts towards, the edition), in order."""
    found: list[tuple[int, Edition]] = []
    if "/wh40k" in text and (linked := link_edition(text)) is not None:
        found.append((LINK, linked))
    if "YOUR " in text and _COST_TIER.match(text.strip("| ")):
        found.append((INDEX, 11))
    elif text.startswith("Core") and (core := _CORE_INDEX.fullmatch(text)):
        found.append(
            (TOOLTIPS if core.group("stratagem") else INDEX, 10 if core.group("category") else 11)
        )
    elif "A" <= text[:1] <= "Z" and _NUMBERED_HEADING.match(text):
        found.append((TOOLTIPS, 11))
    if "CPCore" in text:
        for glued in _GLUED_CORE.finditer(text):
            found.append((INDEX, 10 if glued.group("category") else 11))
    return tuple(found)


def own_edition(
    kind: str, rule_number: str | None, source: str | None, category: str | None
) -> Edition | None:
    """The edition an entity's own heading says, whatever page it is on: a numbered rule or
    stratagem is 11th edition; a core stratagem says it by its form. None when it says none."""
    if is_rule_number(rule_number):
        return 11
    if kind == "stratagem" and source is not None:
        return core_stratagem_edition(source, category)
    return None
