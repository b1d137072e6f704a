"""Entity files of older contract versions, read as the current contract.

Every reader of an output folder (``db``, ``show``, ``diff``, ``wahanorm.load``) passes each
entity file through ``current_entity`` first, so an output written by an older wahanorm is
read, not refused and not mistaken for a change. The older versions (``schema_version`` stayed
1 through all of them, so they are told by their shape):

- **before editions** (as at 5999c04): no ``edition`` field, files at
  ``<kind>/<namespace>/<name>.json``. Read as 10th edition (wahanorm read nothing else then);
  the files stay where they are (``emit.entity_relpath`` of the index entry finds them).
- **Timing v1**: a stratagem's ``timing`` was ``{turn, phases: ["command", …]}``. Each phase
  becomes ``{phase, turn}`` with the overall turn: exact when that turn is ``your`` or
  ``opponent`` (v1's overall turn was the one all phases shared), and ``either`` otherwise, the
  value that claims nothing. v1 did not tell "any phase" or its exclusions: ``any_phase`` false,
  ``excluded_phases`` empty, as the current defaults say.

- **version 2** (before the shape of rules text): no ``blocks``, ``modes`` or ``commentary``
  on rules, no ``sections`` on stratagems, lists flat in the texts. The new fields are read
  empty (nesting, modes and commentary cannot be told from a flat text, and are not guessed);
  the texts stay as written. ``outputs.diff`` compares such a file with a version-3 one by
  their flattened texts, so the new layout is no rules change.

Fields added later with defaults (points' ``add_on``, a rule's ``sections`` …) need no step
here: the models fill them in. Anything this does not recognise is passed on unchanged, for the
contract's validation to judge.
"""

from __future__ import annotations

from typing import Any

from wahanorm.contract.vocabulary import SCHEMA_VERSION

JSON = dict[str, Any]

OLDEST_EDITION = 10
"""The edition of an entity written before editions existed."""


def current_index(index: JSON) -> JSON:
    """``index.json`` of an older output in the current contract: version 1 (every output
    before editions and after them until the version was raised) and version 2 (before the
    shape of rules text) become version 3; entries without ``edition`` are 10th edition,
    whatever the version; a newer or unknown version (or a current index) is passed on
    unchanged, for the contract's validation to judge."""
    version = index.get("schema_version")
    entries = index.get("entities")
    if not isinstance(version, int) or version > SCHEMA_VERSION or not isinstance(entries, list):
        return index
    if version == SCHEMA_VERSION and all(
        not isinstance(e, dict) or "edition" in e for e in entries
    ):
        return index
    entries = [
        {"edition": OLDEST_EDITION, **e} if isinstance(e, dict) and "edition" not in e else e
        for e in entries
    ]
    return {**index, "schema_version": SCHEMA_VERSION, "entities": entries}


def current_entity(data: JSON) -> JSON:
    """``data`` (an entity file as JSON) in the current contract; a new dict where something
    changed, ``data`` itself where nothing did."""
    changed: JSON = {}
    if "edition" not in data and "kind" in data:
        changed["edition"] = OLDEST_EDITION
    timing = data.get("timing")
    if isinstance(timing, dict) and _is_timing_v1(timing):
        changed["timing"] = _timing_v2(timing)
    variants = data.get("variants")
    if isinstance(variants, list):
        current = [current_entity(v) if isinstance(v, dict) else v for v in variants]
        if any(new is not old for new, old in zip(current, variants, strict=True)):
            changed["variants"] = current
    return {**data, **changed} if changed else data


def _is_timing_v1(timing: JSON) -> bool:
    phases = timing.get("phases")
    return isinstance(phases, list) and any(isinstance(p, str) for p in phases)


def _timing_v2(timing: JSON) -> JSON:
    turn = timing.get("turn")
    each = turn if turn in ("your", "opponent") else "either"
    phases = [{"phase": p, "turn": each} if isinstance(p, str) else p for p in timing["phases"]]
    return {"any_phase": False, "excluded_phases": [], **timing, "phases": phases}
