"""Pages read as pages: HTML parsed by Python's ``html.parser`` into elements that a test finds
by tag, id, class and attribute and reads as a reader would (its text, whitespace collapsed),
so that a template changed without changing what a user sees keeps the tests green.

    page = parse(response.content)
    row = page.one("tr", id="hand-2")
    assert row.one("a", class_="hand-link")["href"] == "/t/open/.../hands/2/#entry"
    assert page.find_all("button", data_preset_kind=True)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser

# Elements that have no end tag.
VOID = {
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
    "track", "wbr",
}  # fmt: skip


@dataclass(eq=False)
class Element:
    tag: str
    attrs: dict[str, str | None]
    children: list[Element | str] = field(default_factory=list)

    def __getitem__(self, name: str) -> str | None:
        return self.attrs[name]

    def get(self, name: str, default=None):
        return self.attrs.get(name, default)

    @property
    def classes(self) -> set[str]:
        return set((self.attrs.get("class") or "").split())

    @property
    def text(self) -> str:
        """What the element says, its children's text included, whitespace collapsed."""
        parts = []

        def walk(element):
            for child in element.children:
                if isinstance(child, str):
                    parts.append(child)
                else:
                    walk(child)

        walk(self)
        return " ".join("".join(parts).split())

    def elements(self):
        """Every element inside this one, in document order."""
        for child in self.children:
            if isinstance(child, Element):
                yield child
                yield from child.elements()

    def find_all(self, tag: str | None = None, *, class_: str | None = None, **attrs):
        """The elements inside this one of ``tag`` (any when None), with the class ``class_``
        and the attributes ``attrs`` (``data_x=True``: ``data-x`` present, whatever its value;
        a string: that value; ``None``: absent). Underscores in names stand for hyphens, and
        one at the end keeps a Python word free (``for_="id_fan"``)."""
        wanted = {name.rstrip("_").replace("_", "-"): value for name, value in attrs.items()}
        found = []
        for element in self.elements():
            if tag is not None and element.tag != tag:
                continue
            if class_ is not None and class_ not in element.classes:
                continue
            if all(_matches(element, name, value) for name, value in wanted.items()):
                found.append(element)
        return found

    def find(self, tag: str | None = None, **kwargs) -> Element | None:
        """The first element ``find_all`` finds, or None."""
        found = self.find_all(tag, **kwargs)
        return found[0] if found else None

    def one(self, tag: str | None = None, **kwargs) -> Element:
        """The only element ``find_all`` finds (fails when there are none or several)."""
        found = self.find_all(tag, **kwargs)
        assert len(found) == 1, f"{len(found)} elements {tag} {kwargs}"
        return found[0]


def _matches(element: Element, name: str, value) -> bool:
    if value is True:
        return name in element.attrs
    if value is None:
        return name not in element.attrs
    return element.attrs.get(name) == value


class _Builder(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = Element("#document", {})
        self.open = [self.root]

    def handle_starttag(self, tag, attrs):
        element = Element(tag, dict(attrs))
        self.open[-1].children.append(element)
        if tag not in VOID:
            self.open.append(element)

    def handle_startendtag(self, tag, attrs):
        self.open[-1].children.append(Element(tag, dict(attrs)))

    def handle_endtag(self, tag):
        # Closes the nearest open element of that tag (and any left open inside it).
        for depth in range(len(self.open) - 1, 0, -1):
            if self.open[depth].tag == tag:
                del self.open[depth:]
                return

    def handle_data(self, data):
        self.open[-1].children.append(data)


def parse(html: str | bytes) -> Element:
    """``html`` (a page or a part of one) as a tree of elements under a document element."""
    if isinstance(html, bytes):
        html = html.decode()
    builder = _Builder()
    builder.feed(html)
    builder.close()
    return builder.root
