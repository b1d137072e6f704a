"""Timing from a stratagem's WHEN: a phrase reader over its words.

The WHEN is read as a run of words; only the words that say *when* matter, everything else
breaks the phrase being read. A phrase is an owner, then one or more phase names, then the word
``phase`` (or a step, or ``phases`` after "any"):

    owner    := "your opponent's" | "your opponents" | "opponent's" | "your" | "the" | "any"
                | "either player's" | (none)
    mention  := owner NAME ("or" | "and" | ",")... NAME "phase"       "your Movement or Charge phase"
              | owner STEP                                            "your opponent's Reinforcements step"
              | "any" ["of"] owner "phase"|"phases"                   "any phase", "any of your phases"
              | owner "turn"                                          "End of your opponent's turn"

- A mention right after another one and joined to it by "or"/"and"/"," without an owner of its
  own takes the owner of the one before ("Your Movement phase or Charge phase": both yours);
  "the" is an owner of its own: either player's ("Your opponent's Shooting phase or the Fight
  phase": the Fight phase of either turn).
- A step is part of its phase (Reinforcements: Movement, Battle-shock: Command); a step says
  whose turn only when it has an owner of its own, else its phase's mention does.
- "excluding"/"except" before mentions makes them exclusions of an "any phase".
- A phase named twice with different owners is a phase of either turn.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from typing import Literal, cast, get_args

from wahanorm.contract.models import PhaseTiming, Timing
from wahanorm.contract.vocabulary import Phase, Turn

PHASES: tuple[Phase, ...] = get_args(Phase)
# The steps of a phase that a WHEN names on their own, and the phase each belongs to.
STEPS: dict[str, Phase] = {"reinforcements": "movement", "battle-shock": "command"}

Owner = Turn | None
"""None: the phrase does not say whose turn (a bare "Fight phase", "the Reinforcements step")."""

_TOKEN = re.compile(
    r"(?P<opponent>(?:your\s+)?opponent(?:['’]s|s['’]|s)?)"
    r"|(?P<either>(?:either|each)\s+player['’]?s)"
    r"|(?P<your>your)(?=\W|$)"
    r"|(?P<the>the)(?=\W|$)"
    r"|(?P<any>any)(?:\s+of)?(?=\W|$)"
    rf"|(?P<name>{'|'.join(PHASES)})(?=\W|$)"
    r"|(?P<phase>phases?)(?=\W|$)"
    rf"|(?P<step>{'|'.join(STEPS)})\s+step"
    r"|(?P<turn>turns?)(?=\W|$)"
    r"|(?P<exclude>excluding|except|other\s+than)(?=\W|$)"
    r"|(?P<join>(?:or|and)(?=\W|$|the\b)|,)"
    r"|(?P<other>[\w'’-]+|[^\w\s])",
    re.IGNORECASE,
)
# The same tokens with the white space before each: finditer then tries the alternatives once a
# token, not again at each space between two (no alternative opens with white space, and every
# other character opens one, so the tokens are the same).
_SPACED_TOKEN = re.compile(rf"\s*(?:{_TOKEN.pattern})", re.IGNORECASE)
_OWNER_WORDS: dict[str, Turn] = {"opponent": "opponent", "either": "either", "your": "your"}


@dataclass
class Mention:
    """One phase the WHEN names, with the owner its phrase gives (None: not said)."""

    phase: Phase
    owner: Owner
    excluded: bool = False


@dataclass
class Reading:
    """What the phrase reader found in a WHEN: its phase mentions, "any phase" and turns."""

    mentions: list[Mention] = field(default_factory=list)
    any_phase: Owner | Literal[False] = False
    turns: list[Owner] = field(default_factory=list)

    def phase_turns(self) -> dict[Phase, Owner]:
        """Each named phase (not excluded) with its owner; a phase named with two owners is
        either player's, an unsaid owner gives way to a said one."""
        found: dict[Phase, Owner] = {}
        for mention in self.mentions:
            if mention.excluded:
                continue
            if mention.phase not in found or found[mention.phase] is None:
                found[mention.phase] = mention.owner
            elif mention.owner is not None and mention.owner != found[mention.phase]:
                found[mention.phase] = "either"
        return found

    def excluded(self) -> list[Phase]:
        """The phases an "any phase" excludes, in turn order."""
        named = {m.phase for m in self.mentions if m.excluded}
        return [p for p in PHASES if p in named]


@dataclass
class _State:
    reading: Reading = field(default_factory=Reading)
    owner: Owner = None
    said: bool = False  # an owner word opened the phrase being read
    names: list[Phase] = field(default_factory=list)
    any: bool = False
    excluding: bool = False
    chained: Owner | Literal[False] = False  # owner of the mention just closed, while joined

    def reset(self) -> None:
        self.owner, self.said, self.names, self.any = None, False, [], False

    def phrase_owner(self) -> Owner:
        if self.said:
            return self.owner
        return self.chained if self.chained is not False else None


def read_when(when: str) -> Reading:
    """The phrase reading of one WHEN text."""
    state = _State()
    quiet = False  # a word that says nothing left the state blank: another one changes nothing
    for match in _SPACED_TOKEN.finditer(when):
        kind = match.lastgroup or "other"
        if kind == "other":
            if quiet:
                continue
            _step(state, kind, match.group(kind).lower())
            quiet = not state.excluding
            continue
        quiet = False
        _step(state, kind, match.group(kind).lower())
    return state.reading


def _step(state: _State, kind: str, word: str) -> None:
    if kind in _OWNER_WORDS:
        state.owner, state.said, state.names = _OWNER_WORDS[kind], True, []
    elif kind == "the":
        state.owner, state.said, state.names = "either", True, []
    elif kind == "any":
        state.reset()
        state.any = True
    elif kind == "name":
        state.names.append(cast(Phase, word))
    elif kind == "join":
        if not state.names:
            return
    elif kind == "phase":
        _close_phase(state)
    elif kind == "step":
        owner = state.owner if state.said and state.owner != "either" else None
        _add(state, [STEPS[word.split()[0]]], owner)
    elif kind == "turn":
        if state.said or state.any:
            state.reading.turns.append("either" if state.any and not state.said else state.owner)
        state.reset()
        state.chained = False
    elif kind == "exclude":
        state.excluding = True
        state.reset()
    else:
        state.reset()
        state.chained = False
        if word not in ("the", "of"):
            state.excluding = False


def _close_phase(state: _State) -> None:
    if state.names:
        owner = "either" if state.any and not state.said else state.phrase_owner()
        _add(state, list(state.names), owner)
    elif state.any:
        state.reading.any_phase = state.owner if state.said else None
        state.reset()
        state.chained = False
    else:
        state.reset()


def _add(state: _State, names: list[Phase], owner: Owner) -> None:
    for name in names:
        state.reading.mentions.append(Mention(name, owner, excluded=state.excluding))
    state.reset()
    state.chained = owner


def timing_of(reading: Reading) -> Timing:
    """The ``Timing`` a reading says: each phase with its turn, overall turn, any phase."""
    named = reading.phase_turns()
    phases: list[PhaseTiming]
    if reading.any_phase is not False:
        owner = reading.any_phase or "either"
        skipped = set(reading.excluded())
        phases = [PhaseTiming(phase=p, turn=owner) for p in PHASES if p not in skipped]
    else:
        phases = [PhaseTiming(phase=p, turn=named[p] or "either") for p in PHASES if p in named]
    turns = {p.turn for p in phases} or {t or "either" for t in reading.turns}
    return Timing(
        turn=turns.pop() if len(turns) == 1 else "either",
        phases=phases,
        any_phase=reading.any_phase is not False,
        excluded_phases=reading.excluded(),
    )


@functools.lru_cache(maxsize=4096)
def derive_timing(when: str | None) -> Timing | None:
    """The timing a WHEN says, or None without a WHEN. Once per distinct WHEN (a function of
    the text alone; an export or a batch of pages repeats a WHEN on many stratagems, and a
    ``Timing`` is immutable, safe to share)."""
    if not when:
        return None
    return timing_of(read_when(when))
