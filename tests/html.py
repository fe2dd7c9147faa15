"""Pages read as a reader sees them, through Python's HTML parser: the tests assert on the
tables' cells, an element's text or a link's address, so a change of markup that keeps what
a reader sees keeps them green.

    tables(html)                   every table: its rows (head and body), each a list of
                                   its cells' texts (th and td), spaces collapsed
    table(html, selector)          the rows of the one table ``selector`` finds
    texts(html, selector)          the text of each element ``selector`` finds
    elements(html, selector)       the elements themselves (``Element``: tag, attrs, text(),
                                   lines(), find(), one())
    one(html, selector)            the only element ``selector`` finds (fails on none or
                                   several)
    text(html)                     the whole page's text, as a reader reads it
    problems(html)                 what keeps a page from being well-formed (none: [])

A selector is a few simple selectors separated by spaces (descendants): each a tag name,
``*`` (any element), a ``.class``, an ``#id``, an ``[attribute]`` or ``[attribute=value]``,
or several joined (``table.standings``, ``th[aria-sort=descending]``, ``nav.pager a``). A
value in quotes may hold spaces (``small[title="Tablet of table 1"]``).

A text is read as a browser shows it: a line break, a table's cells and blocks part words,
and what is never shown (a script, a style, a ``<template>``'s content) is left out.
"""

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}  # fmt: skip
# Elements a browser shows apart from the text beside them.
BLOCK = {"address", "article", "aside", "blockquote", "caption", "dd", "details", "div", "dl",
         "dt", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4",
         "h5", "h6", "header", "legend", "li", "main", "nav", "ol", "option", "p", "pre",
         "section", "summary", "table", "tbody", "td", "tfoot", "th", "thead", "title", "tr",
         "ul"}  # fmt: skip


@dataclass
class Element:
    tag: str
    attrs: dict[str, str]
    children: list = field(default_factory=list)  # Elements and strings

    def text(self) -> str:
        """The element's text, as a reader reads it: spaces collapsed, trimmed."""
        return " ".join("".join(_texts(self)).split())

    def lines(self) -> list[str]:
        """The element's text line by line, as its line breaks (``<br>``) part it; blank
        lines left out."""
        found = "".join(_texts(self, line_break="\n")).split("\n")
        return [" ".join(line.split()) for line in found if line.strip()]

    @property
    def classes(self) -> set[str]:
        return set(self.attrs.get("class", "").split())

    def find(self, selector: str) -> list["Element"]:
        """The descendants ``selector`` finds, in document order."""
        found = [self]
        for part in _PART.findall(selector):
            match = _matcher(part)
            found = _unique(e for parent in found for e in _descendants(parent) if match(e))
        return found

    def one(self, selector: str) -> "Element":
        """The only descendant ``selector`` finds; fails when it finds none or several."""
        found = self.find(selector)
        assert len(found) == 1, f"{len(found)} elements for {selector!r}"
        return found[0]


def _texts(element, line_break=" "):
    for child in element.children:
        if isinstance(child, str):
            yield child
        elif child.tag == "br":
            yield line_break  # in a text, a line break parts words as a space does
        elif child.tag in BLOCK:
            yield " "  # so do a row's cells and blocks, however the markup joins them
            yield from _texts(child, line_break)
            yield " "
        elif child.tag in ("script", "style", "template"):
            continue  # never shown as text
        else:
            yield from _texts(child, line_break)


def _descendants(element):
    for child in element.children:
        if isinstance(child, Element):
            yield child
            yield from _descendants(child)


def _unique(elements) -> list[Element]:
    seen, result = set(), []
    for element in elements:
        if id(element) not in seen:
            seen.add(id(element))
            result.append(element)
    return result


# A simple selector (joined ones, up to a space outside an attribute's quoted value), and
# its parts: a name, a class or id, an attribute with or without a value (quoted or bare).
_PART = re.compile(r"""(?:[^\s\[]|\[(?:"[^"]*"|'[^']*'|[^\]"'])*\])+""")
_SIMPLE = re.compile(r"""([.#]?[\w-]+|\*)|\[([\w-]+)(?:=("[^"]*"|'[^']*'|[^\]]*))?\]""")


def _matcher(part: str):
    tests = []
    for name, attribute, value in _SIMPLE.findall(part):
        if name.startswith("."):
            tests.append(lambda e, c=name[1:]: c in e.classes)
        elif name.startswith("#"):
            tests.append(lambda e, i=name[1:]: e.attrs.get("id") == i)
        elif name == "*":
            continue  # any element
        elif name:
            tag = name.lower()
            tests.append(lambda e, t=tag: e.tag == t)
        elif value:
            wanted = value[1:-1] if value[0] in "\"'" else value
            tests.append(lambda e, a=attribute, v=wanted: e.attrs.get(a) == v)
        else:
            tests.append(lambda e, a=attribute: a in e.attrs)
    return lambda element: all(test(element) for test in tests)


class _TreeBuilder(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = Element("#document", {})
        self.open = [self.root]

    def handle_starttag(self, tag, attrs):
        element = Element(tag, {name: value or "" for name, value in attrs})
        self.open[-1].children.append(element)
        if tag not in VOID:
            self.open.append(element)

    def handle_startendtag(self, tag, attrs):
        self.open[-1].children.append(Element(tag, {name: value or "" for name, value in attrs}))

    def handle_endtag(self, tag):
        # Close up to the matching element (a missing end tag closes with its parent).
        for depth in range(len(self.open) - 1, 0, -1):
            if self.open[depth].tag == tag:
                del self.open[depth:]
                return

    def handle_data(self, data):
        self.open[-1].children.append(data)


def parse(html) -> Element:
    """The document's tree; ``html`` as text or bytes (a response's content)."""
    builder = _TreeBuilder()
    builder.feed(html.decode() if isinstance(html, bytes) else html)
    builder.close()
    return builder.root


def elements(html, selector: str) -> list[Element]:
    return parse(html).find(selector)


def one(html, selector: str) -> Element:
    return parse(html).one(selector)


def text(html) -> str:
    return parse(html).text()


def texts(html, selector: str) -> list[str]:
    return [element.text() for element in elements(html, selector)]


def rows_of(table: Element) -> list[list[str]]:
    """A table's rows, each its cells' texts (nested tables' rows aside)."""
    return [
        [
            cell.text()
            for cell in row.children
            if isinstance(cell, Element) and cell.tag in ("td", "th")
        ]
        for row in table.find("tr")
    ]


def tables(html) -> list[list[list[str]]]:
    return [rows_of(found) for found in elements(html, "table")]


def table(html, selector: str) -> list[list[str]]:
    (found,) = elements(html, selector)
    return rows_of(found)


class _Checker(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self.open: list[str] = []
        self.ids: list[str] = []
        self.links: list[str] = []
        self.doctype = False

    def handle_decl(self, decl):
        self.doctype = self.doctype or decl.lower() == "doctype html"

    def handle_starttag(self, tag, attrs):
        names = [name for name, _value in attrs]
        for name in sorted({name for name in names if names.count(name) > 1}):
            self.found.append(f"<{tag}> has {name} twice")
        values = dict(attrs)
        if values.get("id"):
            self.ids.append(values["id"])
        if (values.get("href") or "").startswith("#") and len(values["href"]) > 1:
            self.links.append(values["href"][1:])
        if tag not in VOID:
            self.open.append(tag)

    def handle_startendtag(self, tag, attrs):
        if tag not in VOID:
            self.found.append(f"<{tag}/> is no void element: it needs its end tag")
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.open.pop()

    def handle_endtag(self, tag):
        if tag in VOID:
            self.found.append(f"</{tag}> ends a void element")
        elif not self.open or self.open[-1] != tag:
            innermost = f"<{self.open[-1]}>" if self.open else "nothing"
            self.found.append(f"</{tag}> where {innermost} is open")
            if tag in self.open:  # closed with what it holds, as a browser would
                del self.open[len(self.open) - 1 - self.open[::-1].index(tag) :]
        else:
            self.open.pop()


def problems(html) -> list[str]:
    """What keeps the page ``html`` from being well-formed as the site writes its pages: no
    ``<!doctype html>``, an end tag that does not close the innermost open element (the
    pages write every end tag, even those HTML lets a page leave out), an element left open,
    an end tag to a void element, an attribute given twice, an id used twice, a link within
    the page (``href="#x"``) to no element. An empty list when there is none."""
    checker = _Checker()
    checker.feed(html.decode() if isinstance(html, bytes) else html)
    checker.close()
    found = list(checker.found)
    if not checker.doctype:
        found.insert(0, "no <!doctype html>")
    found.extend(f"<{tag}> is never closed" for tag in checker.open)
    found.extend(
        f"id {i!r} used twice" for i in sorted({i for i in checker.ids if checker.ids.count(i) > 1})
    )
    found.extend(
        f"a link to #{a}, which no element has" for a in checker.links if a not in checker.ids
    )
    return found
