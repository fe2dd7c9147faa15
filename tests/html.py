"""Pages read as a reader sees them, through Python's own ``html.parser``: a table as its rows
of cell texts, an element's text, a link's address. Tests that assert on what a page shows
go through these, so that a template change which keeps what a user sees keeps them green.

    >>> page = '<table class="players x"><tr><th>No.</th><td> Alice\\n <b>B</b></td></tr></table>'
    >>> tables(page, class_="players")
    [[['No.', 'Alice B']]]
    >>> texts('<p><a href="/a" rel="next">Next</a></p>', "a", rel="next")
    ['Next']
    >>> [e.attrs["href"] for e in elements('<a href="/a">A</a><a href="/b">B</a>', "a")]
    ['/a', '/b']

Attributes are given as keyword arguments (``class_`` for ``class``); a class matches when
the element has it among its classes, any other attribute when its value is the same.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser

# Elements that never have content, hence no end tag.
VOID = {
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
    "track", "wbr",
}  # fmt: skip
CELLS = ("th", "td")


@dataclass
class Element:
    tag: str
    attrs: dict[str, str]
    children: list[Element | str] = field(default_factory=list)

    @property
    def text(self) -> str:
        """The text inside, its white space collapsed as a browser shows it."""
        return " ".join("".join(self._pieces()).split())

    def _pieces(self):
        for child in self.children:
            if isinstance(child, str):
                yield child
            else:
                yield " " if child.tag == "br" else ""
                yield from child._pieces()

    def iter(self, tag: str | None = None):
        """This element's descendants named ``tag`` (all of them when None), in page order."""
        for child in self.children:
            if isinstance(child, Element):
                if tag is None or child.tag == tag:
                    yield child
                yield from child.iter(tag)

    def matches(self, **attrs: str) -> bool:
        for name, wanted in attrs.items():
            name = name.rstrip("_").replace("_", "-")
            value = self.attrs.get(name)
            if value is None:
                return False
            if name == "class" and wanted not in value.split():
                return False
            if name != "class" and value != wanted:
                return False
        return True


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
        # Close up to the matching open element; an end tag nothing opened is ignored.
        for depth in range(len(self.open) - 1, 0, -1):
            if self.open[depth].tag == tag:
                del self.open[depth:]
                return

    def handle_data(self, data):
        self.open[-1].children.append(data)


def parse(html: str | bytes) -> Element:
    """The page as a tree of elements (``bytes``, a response's content, are read as UTF-8)."""
    builder = _TreeBuilder()
    builder.feed(html.decode() if isinstance(html, bytes) else html)
    builder.close()
    return builder.root


def elements(html: str | bytes, tag: str, **attrs: str) -> list[Element]:
    """The elements named ``tag`` with ``attrs``, in page order."""
    return [found for found in parse(html).iter(tag) if found.matches(**attrs)]


def texts(html: str | bytes, tag: str, **attrs: str) -> list[str]:
    """The text of each element named ``tag`` with ``attrs``."""
    return [found.text for found in elements(html, tag, **attrs)]


def _cells(row: Element) -> list[str]:
    return [cell.text for cell in row.children if isinstance(cell, Element) and cell.tag in CELLS]


def rows(found: Element) -> list[list[str]]:
    """A table's rows (head and body), each as the texts of its cells."""
    return [_cells(row) for row in found.iter("tr")]


def tables(html: str | bytes, **attrs: str) -> list[list[list[str]]]:
    """Each table with ``attrs``: its rows, each as the texts of its cells (``th`` or ``td``)."""
    return [rows(table) for table in elements(html, "table", **attrs)]


def table(html: str | bytes, **attrs: str) -> list[list[str]]:
    """The one table with ``attrs``, as ``tables`` gives it; fails unless there is one."""
    found = tables(html, **attrs)
    assert len(found) == 1, f"{len(found)} tables with {attrs}"
    return found[0]


def body_rows(html: str | bytes, **attrs: str) -> list[list[str]]:
    """The rows of the one table with ``attrs`` that are in its body (its head left out)."""
    (found,) = elements(html, "table", **attrs)
    return [_cells(row) for body in found.iter("tbody") for row in body.iter("tr")]
