"""Names and texts of a Game-Datacards file: a language picked from the objects by language
(11th edition: ``{"en": …, "de": …}``; 10th edition: plain strings), and the file's markup
made the contract's rules text.

The markup is a few conventions over plain lines: ``**bold**``, ``<b>``, ``<u>``, ``<k>KEYWORD</k>``,
``<ul><li>`` lists, and lines (or runs inside a line) opened by a bullet (``■``, ``▪``, ``•``
for a first level, ``◦``, ``▫`` for a level under it). Each text is written as an HTML fragment
(bold as ``<b>``, a keyword as the keyword in capitals, bullets as list items, line breaks as
``<br>``) and read by the one HTML walker (``blocks.html_text``), so that its lines, lists and
items are the same as from a page; no converter of its own.
"""

from __future__ import annotations

import functools
import html
import re
from dataclasses import dataclass, field

from wahanorm.blocks.clean.characters import normalize_text
from wahanorm.blocks.html_text import Element, TextLine, nested_lines, parse_fragment, walk

ENGLISH = "en"
_BOLD = re.compile(r"\*\*(.+?)\*\*", re.S)
_KEYWORD = re.compile(r"<k>(.*?)</k>", re.S | re.I)
_KNOWN_TAG = re.compile(r"</?(?:b|i|u|ul|ol|li|br|strong|em)\s*/?>", re.I)
_TAG_OR_TEXT = re.compile(r"(</?(?:b|i|u|ul|ol|li|br|strong|em)\s*/?>)", re.I)
_FIRST = "■▪•●"
_SECOND = "◦▫"
_BULLET = re.compile(rf"\s*([{_FIRST}{_SECOND}])\s*")
_BLOCK_END = re.compile(r"</?(?:ul|ol|li|br)\s*/?>$", re.I)
_LI_BULLET = re.compile(rf"(<li>)\s*[{_FIRST}{_SECOND}]\s*", re.I)
_INLINE_BULLET = re.compile(rf"(?<=\S)\s+(?=[{_FIRST}{_SECOND}]\s)")


@dataclass
class Language:
    """The language names and texts are read in, and what had no translation in it."""

    code: str = ENGLISH
    missing: int = 0
    """Names and texts of the file with no translation in ``code`` (English kept)."""
    plain: int = 0
    """Names and texts the file gives as plain strings (no translations at all)."""
    seen: set[str] = field(default_factory=set)
    """The languages the file's objects give."""

    def pick(self, value: object) -> str:
        """The text of ``value`` in the language (English where it has no translation); a
        plain string as it is; anything else empty."""
        if isinstance(value, str):
            if self.code != ENGLISH and value.strip():
                self.plain += 1
            return value
        if isinstance(value, dict):
            self.seen.update(k for k in value if isinstance(k, str))
            chosen = value.get(self.code)
            if isinstance(chosen, str) and (chosen.strip() or self.code == ENGLISH):
                return chosen
            english = value.get(ENGLISH)
            if isinstance(english, str):
                if english.strip():
                    self.missing += 1
                return english
        return ""


def english(value: object) -> str:
    """The English of a name (the one ids are made from)."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        found = value.get(ENGLISH)
        if isinstance(found, str):
            return found
    return ""


def name_text(raw: str) -> str:
    """A name or a short field: markup out, white space one space, the clean spelling."""
    return normalize_text(" ".join(plain_markup(raw).split()))


def plain_markup(raw: str) -> str:
    """``raw`` without its bold and keyword markup (a keyword in capitals) nor other tags."""
    text = _BOLD.sub(r"\1", raw)
    text = _KEYWORD.sub(lambda m: m.group(1).upper(), text)
    return re.sub(r"</?[A-Za-z][^<>]*>", "", text)


@functools.lru_cache(maxsize=16384)
def text_lines(raw: str) -> tuple[TextLine, ...]:
    """A text's lines as the HTML walker reads them, bullets as list items."""
    if not raw.strip():
        return ()
    root = parse_fragment(as_html(raw))
    _nest_lists(root)
    return tuple(line for line in walk(root) if line.mark is None)


def _nest_lists(root: Element) -> None:
    """A list the file writes straight inside a list (``<ul><li>…</li><ul><li>…</li></ul></ul>``)
    is the sub-list of the item before it, as a page nests it."""
    for inner in list(root.iter("ul", "ol")):
        parent = inner.getparent()
        before = inner.getprevious()
        nested = parent is not None and parent.tag in ("ul", "ol")
        if nested and before is not None and before.tag == "li":
            before.append(inner)


def rules_text(raw: str) -> str:
    """A text as the contract writes it: an item ``- text``, two spaces further in per level."""
    return "\n".join(nested_lines(text_lines(raw)))


def as_html(raw: str) -> str:
    """The file's markup as an HTML fragment (see the module's docstring)."""
    text = _BOLD.sub(r"<b>\1</b>", raw.replace("\r\n", "\n"))
    text = _KEYWORD.sub(lambda m: m.group(1).upper(), text)
    # What is no tag of the markup is text: escaped, so a "<" or "&" of the rules stays a word.
    pieces = _TAG_OR_TEXT.split(text)
    text = "".join(p if _KNOWN_TAG.fullmatch(p) else html.escape(p, quote=False) for p in pieces)
    out: list[str] = []
    depth = 0
    kinds: list[bool] = []  # the kinds of bullet of the open list, by level (True: ◦ ▫)
    for line in text.split("\n"):
        for piece in _INLINE_BULLET.sub("\n", line).split("\n"):
            bullet = _BULLET.match(piece)
            level = 0
            if bullet is not None and piece.strip()[:1] in _FIRST + _SECOND:
                # a kind of bullet (■ or ◦) keeps the level it was first met at in this list;
                # another kind after it is a level under it
                kind = bullet.group(1) in _SECOND
                if kind in kinds:
                    del kinds[kinds.index(kind) + 1 :]
                else:
                    kinds.append(kind)
                level = len(kinds)
                piece = piece[bullet.end() :]
            else:
                # a bullet opening an item of the file's own list is the item's marker
                piece = _LI_BULLET.sub(r"\1", piece)
            if level:
                while depth < level:
                    out.append("<ul>")
                    depth += 1
                while depth > level:
                    out.append("</ul>")
                    depth -= 1
                out.append(f"<li>{piece.strip()}</li>")
                continue
            if not piece.strip():
                continue  # a blank line: the walker's lines have none
            kinds.clear()
            while depth:
                out.append("</ul>")
                depth -= 1
            piece = piece.strip()
            out.append(piece if _BLOCK_END.search(piece) else f"{piece}<br>")
    while depth:
        out.append("</ul>")
        depth -= 1
    return "".join(out)
