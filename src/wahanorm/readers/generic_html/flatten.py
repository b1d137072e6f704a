"""Any HTML → plain text with block boundaries as line breaks (the generic HTML path).

An HTML input that is not a Wahapedia datasheet page is flattened here and read like a text
dump, by the one HTML walker (``blocks.html_text``): scripts, styles, forms, navigation, cookie
and consent banners and ad containers are dropped; every block element (paragraph, div, list
item, table cell …) starts a new line, list items start with ``- ``, and a run of hidden
alternatives (the site prints one copy of a keyword per filter and hides all but one with
script) shows its first copy only. The characters are left as they are (white space
collapsed): the dump reader's clean stage spells them, and says what it repaired.
"""

from __future__ import annotations

from wahanorm.blocks.html_text import OTHER_HTML, flat_lines, parse_document, walk


def html_to_text(html: str) -> str:
    """The text of an HTML document, one block per line, blank lines dropped, a final
    newline (empty text for a document without any)."""
    root = parse_document(html)
    if root is None:
        return ""
    return "".join(f"{line}\n" for line in flat_lines(walk(root, OTHER_HTML)))
