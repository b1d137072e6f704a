"""Any HTML → plain text with block boundaries as line breaks (the generic HTML path).

An HTML input that is not a Wahapedia datasheet page is flattened here and read like a text
dump. Scripts, styles, forms, navigation, cookie and consent banners and ad containers are
dropped; every block element (paragraph, div, list item, table cell …) starts a new line, list
items start with ``- ``, and a run of hidden alternatives (the site prints one copy of a
keyword per filter and hides all but one with script) shows its first copy only.
"""

from __future__ import annotations

import re

from bs4 import BeautifulSoup, CData, Tag
from bs4.element import NavigableString, PageElement

_DROP = ("script", "style", "noscript", "template", "head", "svg", "iframe", "form", "button",
         "select", "nav", "object", "embed", "canvas")  # fmt: skip
_BLOCK = ("address", "article", "aside", "blockquote", "dd", "div", "dl", "dt", "fieldset",
          "figcaption", "figure", "footer", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr",
          "li", "main", "ol", "p", "pre", "section", "table", "tbody", "thead", "tfoot", "tr",
          "td", "th", "ul", "caption")  # fmt: skip
# Containers of cookie/consent banners and ads, by a whole word of their id or class.
_CHROME = re.compile(r"(?:^|[\s_-])(?:cookie|consent|gdpr|advert|adsbygoogle|ad|ads)(?:$|[\s_-])")
_HIDDEN = re.compile(r"display\s*:\s*none", re.I)
_SPACES = re.compile(r"[ \t\r\f\v\u00a0]+")


def html_to_text(html: str) -> str:
    """The text of an HTML document, one block per line, blank lines dropped, a final
    newline (empty text for a document without any)."""
    soup = BeautifulSoup(html, "lxml")
    for tag in soup.find_all(_DROP):
        tag.decompose()
    for tag in soup.find_all(_is_chrome):
        tag.decompose()
    for tag in soup.find_all(_is_repeated_hidden):
        tag.decompose()
    lines = (_SPACES.sub(" ", line).strip() for line in _flatten(soup).split("\n"))
    kept = [line for line in lines if line and line != "-"]
    return "".join(f"{line}\n" for line in kept)


def _flatten(root: Tag) -> str:
    """The text under ``root``, a line break around every block and at every ``<br>``, ``- ``
    before a list item. An explicit stack, not recursion and not tree edits: time stays linear
    and a document nested thousands deep is no problem."""
    parts: list[str] = []
    stack: list[tuple[PageElement, bool]] = [(root, False)]
    while stack:
        node, closing = stack.pop()
        if closing:
            parts.append("\n")
        elif isinstance(node, Tag):
            if node.name == "br":
                parts.append("\n")
                continue
            if node.name in _BLOCK:
                parts.append("\n- " if node.name == "li" else "\n")
                stack.append((node, True))
            stack.extend((child, False) for child in reversed(node.contents))
        elif type(node) is NavigableString or isinstance(node, CData):
            parts.append(str(node))  # comments, doctypes and processing instructions are not text
    return "".join(parts)


def _words(tag: Tag) -> str:
    classes: object = tag.get("class") or []
    names = " ".join(classes) if isinstance(classes, list) else str(classes)
    return f"{tag.get('id') or ''} {names}".lower()


def _is_chrome(tag: Tag) -> bool:
    return tag.name not in ("html", "body") and bool(_CHROME.search(_words(tag)))


def _is_hidden(tag: Tag) -> bool:
    return bool(_HIDDEN.search(str(tag.get("style") or "")))


def _is_repeated_hidden(tag: Tag) -> bool:
    """A hidden element right after a hidden sibling: a further copy of an alternative."""
    if not _is_hidden(tag):
        return False
    previous = tag.previous_sibling
    while previous is not None and not isinstance(previous, Tag):
        if str(previous).strip():
            return False
        previous = previous.previous_sibling
    return previous is not None and _is_hidden(previous)
