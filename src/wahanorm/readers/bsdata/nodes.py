"""One BSData file (XML ``.cat``/``.gst`` or its JSON form) as a tree of ``Node``s.

Both forms hold the same data model (BattleScribe's catalogueSchema): elements with attributes,
repeated children gathered in containers (``<profiles><profile …/></profiles>`` in XML, a list
under ``"profiles"`` in JSON) and a few text elements (``description``, ``comment``, ``alias``;
a characteristic's value is its text, ``$text`` in JSON). ``Node`` keeps that model once for
both: its ``tag`` is the element's name, ``container`` the list it sits in, ``attrs`` its
attributes as text (JSON's ``true``/``1`` as XML spells them), ``text`` its text.

XML is read by expat in one pass that builds the nodes as it goes (no element tree is kept:
a whole repository is some 50 MB of XML); its attributes come as the dict the node keeps.

Positions (``SourceRef``): an XML element spans the lines of its start and end tags, as expat
reports them; a JSON entry spans the lines of its braces ``{`` … ``}``. Those come from one scan
of the bytes with every string cut out (a JSON string holds no raw line break, so cutting keeps
the lines): the braces left are the objects' own, matched by a stack, in the document order in
which orjson hands the objects over. Both are exact for any layout, pretty-printed or not.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal
from xml.parsers import expat

import orjson

TEXT_ELEMENTS = frozenset({"description", "comment", "alias", "readme"})
"""Elements whose content is text, not a container of elements."""

TEXTS = TEXT_ELEMENTS | {"characteristic"}
"""Elements whose text is read (a characteristic's value is its text)."""

Form = Literal["xml", "json"]

MAX_DEPTH = 100
"""The deepest nesting of elements a file may hold (the real data sets nest 11 deep, counting
the root and text elements; the containers such as ``<profiles>`` are not counted). A deeper
file is refused: whatever reads the tree may then walk it without a recursion limit."""


class Node:
    """One element of a BSData file.

    A node has no link to its parent, so a tree is freed by reference counting alone
    (``Document.parents`` holds the way up)."""

    __slots__ = (
        "_by_container",
        "attrs",
        "children",
        "container",
        "end",
        "file",
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
        file: str = "",
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
        """Last line (its end tag's, or its closing brace's)."""
        self.file = file
        """The file it is in, as shown (``Document.path``)."""
        self.attrs: dict[str, str] = {} if attrs is None else attrs
        """Its attributes, as text (``hidden``: ``true``/``false``)."""
        self._by_container: dict[str, list[Node]] | None = None

    def __repr__(self) -> str:
        return f"<Node {self.tag} {self.name!r} line {self.line}>"

    def get(self, name: str, default: str = "") -> str:
        """The attribute ``name``, or ``default``."""
        return self.attrs.get(name, default)

    @property
    def id(self) -> str:
        """The element's ``id`` attribute ("" when none)."""
        return self.attrs.get("id", "")

    @property
    def name(self) -> str:
        """The element's ``name`` attribute ("" when none)."""
        return self.attrs.get("name", "")

    def items(self, container: str) -> list[Node]:
        """The children listed in ``container``, in order."""
        groups = self._by_container
        if groups is None:
            if not self.children:
                return []
            groups = self._by_container = {}
            for child in self.children:
                key = child.container
                if key in groups:
                    groups[key].append(child)
                else:
                    groups[key] = [child]
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
    """One BSData file: its root (``catalogue`` or ``gameSystem``) and the way up its tree."""

    path: str
    """The file as shown in sources and diagnostics."""
    form: Form
    root: Node
    _parents: dict[int, Node] | None = None

    @property
    def parents(self) -> dict[int, Node]:
        """``id()`` of each node below the root → the node above it (made when first asked:
        most nodes are never asked for theirs)."""
        parents = self._parents
        if parents is None:
            parents = self._parents = {}
            stack = [self.root]
            while stack:
                node = stack.pop()
                children = node.children
                if children:
                    for child in children:
                        parents[id(child)] = node
                    stack.extend(children)
        return parents

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


class _Refused(Exception):
    """Raised by an expat handler to stop a file that holds what no BattleScribe file holds."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class FileError(Exception):
    """A file that is not well-formed XML or JSON, with where the parser stopped."""

    def __init__(
        self, message: str, line: int | None, column: int | None, refused: bool = False
    ) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column
        self.refused = refused
        """Well-formed, maybe, but holding what no BattleScribe file holds."""


# ---------------------------------------------------------------------------------------- XML


def load_xml(data: bytes, path: str) -> Document:
    """An XML ``.cat``/``.gst`` as a ``Document``; raises ``FileError`` when it is not
    well-formed, or holds what no BattleScribe file holds: a DTD that declares an entity (no
    entity is ever expanded: refused at its declaration, before any reference), an encoding
    not known, elements nested deeper than ``MAX_DEPTH``. No external entity is read, no
    network touched."""
    parser = expat.ParserCreate()  # no namespace handling: a prefix is cut from each name
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    parser.buffer_text = True
    parser.buffer_size = 1 << 16

    def entity(name: str, *_rest: object) -> None:
        raise _Refused(f"the DTD declares the entity {name[:40]!r} (no BattleScribe file has one)")

    parser.EntityDeclHandler = entity
    root = _build_on(parser, path)
    try:
        parser.Parse(data, True)
    except expat.ExpatError as error:
        message = expat.ErrorString(error.code) or str(error)
        raise FileError(message, error.lineno, error.offset + 1) from None
    except _Refused as refused:
        raise FileError(refused.message, parser.CurrentLineNumber, None, True) from None
    except (LookupError, ValueError) as error:  # the encoding its declaration names
        raise FileError(f"its encoding cannot be read ({str(error)[:100]})", 1, 1, True) from None
    finally:
        # the handlers close over the parser and the tree: let go of them, or the tree lives
        # on in that cycle until the cyclic collector (off while reading) gets to it
        parser.StartElementHandler = parser.EndElementHandler = None
        parser.CharacterDataHandler = None
        parser.EntityDeclHandler = None
    if not root:
        raise FileError("no root element", 1, 1)
    return Document(path, "xml", root[0])


def _build_on(parser: Any, path: str) -> list[Node]:
    """Handlers on ``parser`` that build the nodes from its events, and where they put the root
    (the way up is made later, when asked: ``Document.parents``). A container element
    (``<profiles>``) becomes the ``container`` of the elements it holds; a text element
    (``<description>``) a child holding its text. Only the elements of text in BSData's model
    have their text read (``TEXT_ELEMENTS`` and ``characteristic``, a characteristic's value):
    their text is what comes before their first child (if any), and the text of any other
    element is no data (the whitespace between tags). Text is gathered only while such an
    element is open (expat hands it straight to a list's ``append``: no Python call per piece
    of text), and no node is made for a container element.

    Closures, not methods: expat calls them for every element (some 460,000 in a whole
    repository), so the common case does as little as it can: an element of a container is
    made a node slot by slot (no ``__init__`` call), its start saves the (owner, container)
    it opened in and its end restores them in one step."""
    root: list[Node] = []
    opened: list[tuple[Node, Node | None, str]] = []  # each open node, the state around it
    owner: Node | None = None  # the innermost open node that is no text element
    container = ""  # the open container element (no element opens directly inside another)
    text: list[str] | None = None  # an open element of text's text, until a child begins
    text_elements = TEXT_ELEMENTS
    with_text = TEXTS
    new = Node
    blank = object.__new__
    push = opened.append
    pop = opened.pop
    deepest = MAX_DEPTH

    def start(tag: str, attrs: dict[str, str]) -> None:
        nonlocal owner, container, text
        if len(opened) >= deepest:
            raise _Refused(f"elements nested deeper than {deepest} (real data sets nest 11 deep)")
        if text is not None:  # an element of text's own text ends at its first child
            opened[-1][0].text = "".join(text)
            text = None
            parser.CharacterDataHandler = None
        if ":" in tag:
            tag = tag.rpartition(":")[2]
        if container:  # an element of a container: Node(tag, attrs, container, …) made bare
            node: Node = blank(new)
            node.tag = tag
            node.attrs = attrs
            node.container = container
            node.text = ""
            node.children = []
            node.line = parser.CurrentLineNumber
            node.file = path
            node._by_container = None
            owner.children.append(node)  # type: ignore[union-attr]
            push((node, owner, container))
            owner, container = node, ""
            if tag in with_text:
                text = []
                parser.CharacterDataHandler = text.append
        elif owner is None:
            attrs = {k: v for k, v in attrs.items() if not k.startswith("xmlns")}
            node = new(tag, attrs, "", "", [], parser.CurrentLineNumber, 0, path)
            root.append(node)
            push((node, None, ""))
            owner = node
        elif tag in text_elements:
            node = new(tag, attrs, "", "", [], parser.CurrentLineNumber, 0, path)
            owner.children.append(node)
            push((node, owner, ""))
            text = []
            parser.CharacterDataHandler = text.append
        else:  # a container
            container = tag

    def end(_tag: str) -> None:
        nonlocal owner, container, text
        if container:  # the container ends (its elements, being nodes, ended before)
            container = ""
            return
        node, owner, container = pop()
        node.end = parser.CurrentLineNumber
        if text is not None:  # no child began
            node.text = "".join(text)
            text = None
            parser.CharacterDataHandler = None
        elif node.text and not node.text.strip():  # only blanks before its first child
            node.text = ""

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    return root


# --------------------------------------------------------------------------------------- JSON

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
    spans = iter(_object_spans(data))
    next(spans)  # the outer object, around the catalogue's own
    root = _json_node(tag, body, "", spans, path, 1)
    return Document(path, "json", root)


def _object_spans(data: bytes) -> list[tuple[int, int]]:
    """(first line, last line) of every JSON object of ``data``, in the order they open."""
    blanked = outside_strings(data)  # same lines: strings hold no raw line break
    spans: list[tuple[int, int]] = []
    stack: list[int] = []
    line, counted = 1, 0  # the line at offset ``counted``
    count = blanked.count
    for match in _BRACE.finditer(blanked):
        at = match.start()
        line += count(b"\n", counted, at)
        counted = at
        if blanked[at] == 0x7B:  # {
            stack.append(len(spans))
            spans.append((line, line))
        elif stack:
            index = stack.pop()
            spans[index] = (spans[index][0], line)
    return spans


def outside_strings(data: bytes) -> bytes:
    """``data`` (well-formed JSON) with its strings cut out: what is left holds every brace
    outside a string and every line break, in order (a string holds no raw line break). An
    escape is a backslash and the byte after it, so each ``\\\\`` and then each ``\\"`` is
    made two plain bytes (pairs taken from the left, as a string's escapes pair; backslashes
    stand only in strings), and every quote left opens or closes a string: what lies between
    the first, between the second and third, the fourth and fifth … is outside. Three passes
    in C instead of a regular expression replacing each string (about half the time on the
    11th edition's files)."""
    plain = data.replace(b"\\\\", b"__").replace(b'\\"', b"__")
    return b"".join(plain.split(b'"')[::2])


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
    tag: str, body: dict[str, Any], container: str, spans: Any, path: str, depth: int
) -> Node:
    line, end = next(spans, (0, 0))
    if depth > MAX_DEPTH:
        raise FileError(
            f"objects nested deeper than {MAX_DEPTH} (real data sets nest 11 deep)",
            line,
            None,
            True,
        )
    attrs: dict[str, str] = {}
    node = Node(tag, attrs, container, "", [], line, end, path)
    children = node.children
    for key, value in body.items():
        if isinstance(value, str):
            if key == "$text":
                node.text = value
            elif key in TEXT_ELEMENTS:
                children.append(Node(key, {}, "", value, [], line, line, path))
            else:
                attrs[key] = value
        elif isinstance(value, list):
            element = _singular(key)
            for item in value:
                if isinstance(item, dict):
                    children.append(_json_node(element, item, key, spans, path, depth + 1))
                elif isinstance(item, str):  # a repeated text element (a rule's aliases)
                    children.append(Node(key, {}, "", item, [], line, line, path))
        elif isinstance(value, dict):
            children.append(_json_node(key, value, "", spans, path, depth + 1))
        elif key == "$text":
            node.text = _scalar(value)
        elif key in TEXT_ELEMENTS:
            children.append(Node(key, {}, "", _scalar(value), [], line, line, path))
        elif value is not None:
            attrs[key] = _scalar(value)
    return node
