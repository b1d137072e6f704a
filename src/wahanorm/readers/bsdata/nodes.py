"""One BSData file (XML ``.cat``/``.gst`` or its JSON form) as a tree of ``Node``s.

Both forms hold the same data model (BattleScribe's catalogueSchema): elements with attributes,
repeated children gathered in containers (``<profiles><profile …/></profiles>`` in XML, a list
under ``"profiles"`` in JSON) and a few text elements (``description``, ``comment``, ``alias``;
a characteristic's value is its text, ``$text`` in JSON). ``Node`` keeps that model once for
both: its ``tag`` is the element's name, ``container`` the list it sits in, ``attrs`` its
attributes as text (JSON's ``true``/``1`` as XML spells them), ``text`` its text.

Positions (``SourceRef``): an XML element starts at lxml's ``sourceline`` and ends at the line
of its closing tag, found on demand in the raw bytes (matching nested tags of the same name);
a JSON entry spans the lines of its braces ``{`` … ``}``. Those come from one scan of the bytes
with every string blanked (a JSON string holds no raw line break, so blanking keeps the lines):
the braces left are the objects' own, matched by a stack, in the document order in which orjson
hands the objects over. Both are exact for any layout, pretty-printed or not.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from typing import Any, Literal

import orjson
from lxml import etree

TEXT_ELEMENTS = frozenset({"description", "comment", "alias", "readme"})
"""Elements whose content is text, not a container of elements."""

Form = Literal["xml", "json"]


class Node:
    """One element of a BSData file.

    An XML node reads its attributes from its lxml element when asked (copying every
    element's into a dict up front is most of the cost of loading a file, and many are never
    asked for); a JSON node holds them. A node has
    no link to its parent, so a tree is freed by reference counting alone (``Document.parents``
    holds the way up)."""

    __slots__ = (
        "_attrs",
        "_by_container",
        "_element",
        "children",
        "container",
        "end",
        "line",
        "tag",
        "text",
    )

    def __init__(
        self,
        tag: str,
        attrs: dict[str, str] | None = None,
        container: str = "",
        text: str = "",
        children: list[Node] | None = None,
        line: int = 0,
        end: int = 0,
        element: Any = None,
    ) -> None:
        self.tag = tag
        """The element's name: ``selectionEntry``, ``profile``, ``characteristic`` …"""
        self.container = container
        """The container it is listed in (``sharedSelectionEntries``, ``entryLinks`` …)."""
        self.text = text
        """Its text: a characteristic's value, a rule's description."""
        self.children: list[Node] = [] if children is None else children
        self.line = line
        """First line (1-based) of the element in its file."""
        self.end = end
        """Last line; 0 until asked for (``Document.end_line``)."""
        self._attrs = attrs
        self._element = element
        self._by_container: dict[str, list[Node]] | None = None

    def __repr__(self) -> str:
        return f"<Node {self.tag} {self.name!r} line {self.line}>"

    @property
    def attrs(self) -> dict[str, str]:
        """Its attributes, as text (``hidden``: ``true``/``false``)."""
        if self._attrs is None:
            self._attrs = dict(self._element.attrib) if self._element is not None else {}
        return self._attrs

    def get(self, name: str, default: str = "") -> str:
        """The attribute ``name``, or ``default``."""
        attrs = self._attrs
        if attrs is None:
            # most nodes are asked one or two attributes: lxml answers those faster than a
            # copy of all of them would
            value: str = self._element.get(name, default) if self._element is not None else default
            return value
        return attrs.get(name, default)

    @property
    def id(self) -> str:
        """The element's ``id`` attribute ("" when none)."""
        return self.get("id")

    @property
    def name(self) -> str:
        """The element's ``name`` attribute ("" when none)."""
        return self.get("name")

    def items(self, container: str) -> list[Node]:
        """The children listed in ``container``, in order."""
        groups = self._by_container
        if groups is None:
            groups = self._by_container = {}
            for child in self.children:
                groups.setdefault(child.container, []).append(child)
        return groups.get(container, [])

    def child_text(self, tag: str) -> str:
        """The text of the first text element ``tag`` (``description``), or ""."""
        for child in self.children:
            if child.tag == tag and not child.container:
                return child.text
        return ""

    def walk(self) -> list[Node]:
        """This node and every node below it, in document order."""
        found = [self]
        stack = list(reversed(self.children))
        while stack:
            node = stack.pop()
            found.append(node)
            stack.extend(reversed(node.children))
        return found


@dataclass(eq=False)
class Document:
    """One BSData file: its root (``catalogue`` or ``gameSystem``) and what positions need."""

    path: str
    """The file as shown in sources and diagnostics."""
    form: Form
    root: Node
    data: bytes
    parents: dict[int, Node]
    """``id()`` of each node below the root → the node above it."""
    _newlines: list[int] | None = None

    @property
    def newlines(self) -> list[int]:
        """Byte offsets of the line breaks of ``data`` (for line numbers; found when first
        asked: a file no entity comes from never needs them)."""
        if self._newlines is None:
            self._newlines = newline_offsets(self.data)
        return self._newlines

    @property
    def kind(self) -> str:
        """``catalogue`` or ``gameSystem``."""
        return self.root.tag

    @property
    def id(self) -> str:
        """The catalogue's or game system's id."""
        return self.root.id

    @property
    def name(self) -> str:
        """The catalogue's or game system's name."""
        return self.root.name

    @property
    def is_library(self) -> bool:
        """True for a library catalogue (data for other catalogues to link, no army of its own)."""
        return self.root.get("library") == "true"

    def end_line(self, node: Node) -> int:
        """The last line of ``node`` (its closing tag in XML, its closing brace in JSON)."""
        if not node.end:
            node.end = _xml_end_line(self, node) if self.form == "xml" else node.line
        return node.end

    def line_of(self, offset: int) -> int:
        """The 1-based line of byte ``offset``."""
        return bisect.bisect_left(self.newlines, offset) + 1


class FileError(Exception):
    """A file that is not well-formed XML or JSON, with where the parser stopped."""

    def __init__(self, message: str, line: int | None, column: int | None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column


def newline_offsets(data: bytes) -> list[int]:
    """The offset of every ``\\n`` in ``data``."""
    return [match.start() for match in re.finditer(rb"\n", data)]


# ---------------------------------------------------------------------------------------- XML


def load_xml(data: bytes, path: str) -> Document:
    """An XML ``.cat``/``.gst`` as a ``Document``; raises ``FileError`` when it is not
    well-formed (no entities are resolved and no network is touched)."""
    parser = etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        huge_tree=True,
        remove_comments=True,
        remove_blank_text=True,
    )
    try:
        element = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as error:
        line, column = error.position if error.position else (None, None)
        raise FileError(str(error.msg or error), line, column) from None
    parents: dict[int, Node] = {}
    root = _xml_tree(element, parents)
    return Document(path, "xml", root, data, parents)


def _xml_tree(root: Any, parents: dict[int, Node]) -> Node:
    """The ``Node`` tree of an lxml element, built in one walk of its start and end events
    (lxml's C iteration; a container element such as ``<profiles>`` becomes the
    ``container`` of the elements it holds, a text element a child holding its text)."""
    names: dict[str, str] = {}

    def local(tag: str) -> str:
        name = names.get(tag)
        if name is None:
            name = names[tag] = tag.rpartition("}")[2]
        return name

    top = Node(local(root.tag), line=root.sourceline or 0, element=root)
    owner, container = top, ""
    owners: list[tuple[Node, str]] = []
    kinds: list[str] = []
    events = etree.iterwalk(root, events=("start", "end"))
    next(events)  # the root's own start
    for event, element in events:
        if event == "end":
            kind = kinds.pop() if kinds else "root"
            if kind == "node":
                if not owner.children or owner.tag == "characteristic":
                    owner.text = element.text or ""
                owner, container = owners.pop()
            elif kind == "container":
                container = ""
            continue
        tag = element.tag
        if not isinstance(tag, str):
            kinds.append("skip")  # a processing instruction
            continue
        name = local(tag)
        if container:  # an element of a container
            node = Node(name, None, container, "", [], element.sourceline or 0, 0, element)
            owner.children.append(node)
            parents[id(node)] = owner
            owners.append((owner, container))
            owner, container = node, ""
            kinds.append("node")
        elif name in TEXT_ELEMENTS or (len(element) == 0 and (element.text or "").strip()):
            text = element.text or ""
            node = Node(name, None, "", text, [], element.sourceline or 0, 0, element)
            owner.children.append(node)
            parents[id(node)] = owner
            kinds.append("text")
        else:
            container = name
            kinds.append("container")
    if not top.children:
        top.text = root.text or ""
    return top


_TAG_PATTERNS: dict[str, re.Pattern[bytes]] = {}


def _tag_pattern(tag: str) -> re.Pattern[bytes]:
    """Start and end tags of ``tag`` (any namespace prefix): group 1 is ``/`` for an end tag,
    group 2 is ``/`` for an empty-element tag."""
    pattern = _TAG_PATTERNS.get(tag)
    if pattern is None:
        name = re.escape(tag.encode())
        pattern = re.compile(
            rb"<(/?)(?:[\w.-]+:)?" + name + rb"(?=[\s/>])(?:[^>\"']|\"[^\"]*\"|'[^']*')*?(/?)>"
        )
        _TAG_PATTERNS[tag] = pattern
    return pattern


def _xml_end_line(document: Document, node: Node) -> int:
    """The line of ``node``'s closing tag: from its start line, the tags of its name are
    matched (an element nests others of its name) until its own end tag."""
    if node.line <= 0:
        return 0
    start = document.newlines[node.line - 2] + 1 if node.line > 1 else 0
    depth = 0
    for match in _tag_pattern(node.tag).finditer(document.data, start):
        if match.group(1):
            depth -= 1
        elif not match.group(2):
            depth += 1
        if depth <= 0:
            return document.line_of(match.end() - 1)
    return node.line


# --------------------------------------------------------------------------------------- JSON

_JSON_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')
_BRACE = re.compile(rb"[{}]")


def load_json(data: bytes, path: str) -> Document:
    """A BSData JSON file (``{"catalogue": …}`` or ``{"gameSystem": …}``) as a ``Document``;
    raises ``FileError`` when it is not JSON or not of that shape."""
    try:
        parsed = orjson.loads(data)
    except orjson.JSONDecodeError as error:
        raise FileError(error.msg, error.lineno, error.colno) from None
    if not isinstance(parsed, dict) or len(parsed) != 1:
        raise FileError(
            "not a BSData file: the top level is not one catalogue or game system", 1, 1
        )
    ((tag, body),) = parsed.items()
    if tag not in ("catalogue", "gameSystem") or not isinstance(body, dict):
        raise FileError(f"not a BSData file: the top level holds {tag!r}", 1, 1)
    newlines = newline_offsets(data)
    spans = iter(_object_spans(data, newlines))
    next(spans)  # the outer object, around the catalogue's own
    parents: dict[int, Node] = {}
    root = _json_node(tag, body, "", parents, spans)
    return Document(path, "json", root, data, parents, newlines)


def _object_spans(data: bytes, newlines: list[int]) -> list[tuple[int, int]]:
    """(first line, last line) of every JSON object of ``data``, in the order they open."""
    blanked = _JSON_STRING.sub(b'""', data)  # same lines: strings hold no raw line break
    lines = newline_offsets(blanked) if len(blanked) != len(data) else newlines
    spans: list[tuple[int, int]] = []
    stack: list[int] = []
    for match in _BRACE.finditer(blanked):
        line = bisect.bisect_left(lines, match.start()) + 1
        if match.group() == b"{":
            stack.append(len(spans))
            spans.append((line, line))
        elif stack:
            index = stack.pop()
            spans[index] = (spans[index][0], line)
    return spans


def _singular(container: str) -> str:
    """The element a container holds: ``sharedSelectionEntries`` → ``selectionEntry``."""
    name = container.removeprefix("shared")
    name = name[:1].lower() + name[1:]
    if name.endswith("ies"):
        return name[:-3] + "y"
    return name[:-1] if name.endswith("s") else name


def _scalar(value: object) -> str:
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _json_node(
    tag: str,
    body: dict[str, Any],
    container: str,
    parents: dict[int, Node],
    spans: Any,
) -> Node:
    line, end = next(spans, (0, 0))
    attrs: dict[str, str] = {}
    node = Node(tag, attrs, container, "", [], line, end)
    children = node.children
    for key, value in body.items():
        if isinstance(value, list):
            element = _singular(key)
            for item in value:
                if isinstance(item, dict):
                    child = _json_node(element, item, key, parents, spans)
                elif isinstance(item, str):  # a repeated text element (a rule's aliases)
                    child = Node(key, {}, "", item, [], line)
                else:
                    continue
                children.append(child)
                parents[id(child)] = node
        elif isinstance(value, dict):
            child = _json_node(key, value, "", parents, spans)
            children.append(child)
            parents[id(child)] = node
        elif key == "$text":
            node.text = _scalar(value)
        elif key in TEXT_ELEMENTS:
            child = Node(key, {}, "", _scalar(value), [], line)
            children.append(child)
            parents[id(child)] = node
        elif value is not None:
            attrs[key] = _scalar(value)
    return node
