"""The text of a PDF's pages and the sizes it is printed at, for the PDFs LibreOffice writes:
enough of PDF to read them without a PDF library.

LibreOffice writes each object whole (no object streams), each page's drawing as one
deflated stream, and its text in subsets of fonts whose codes a ``/ToUnicode`` map turns
back into characters. A page is read as its text runs (a run: the text of one ``BT`` ...
``ET`` block, a cell's text on a printed sheet) and the font size of each (the ``Tf``
operator's, in points, after the sheet's print scale).
"""

import re
import zlib
from collections import Counter
from dataclasses import dataclass

_OBJECT = re.compile(rb"(\d+) 0 obj(.*?)endobj", re.S)
_REFERENCE = rb"(\d+) 0 R"
# Operands and operators of a text block: a font and size, a hex or literal string, an
# array of them.
_TEXT_TOKEN = re.compile(
    rb"/([^\s/\[\]<>()]+)\s+([\d.]+)\s+Tf|<([0-9A-Fa-f\s]*)>|\(((?:\\.|[^\\)])*)\)"
)


@dataclass(frozen=True)
class Page:
    runs: list[tuple[str, float]]  # (text, font size in points), in the order drawn

    @property
    def text(self) -> str:
        return " ".join(text for text, _size in self.runs)

    def font_size(self) -> float:
        """The size most of the page's text is printed at."""
        return Counter(size for _text, size in self.runs).most_common(1)[0][0]


def _stream(objects: dict[int, bytes], body: bytes) -> bytes:
    """A stream object's data, inflated: its /Length bytes after "stream" and its line end."""
    head, _, rest = body.partition(b"stream")
    length = re.search(rb"/Length\s+(\d+)(\s+0\s+R)?", head)
    size = int(objects[int(length.group(1))].strip()) if length.group(2) else int(length.group(1))
    data = rest[2 : 2 + size] if rest.startswith(b"\r\n") else rest[1 : 1 + size]
    return zlib.decompress(data) if b"/FlateDecode" in head else data


def _dictionary(objects: dict[int, bytes], body: bytes, key: bytes) -> bytes:
    """The dictionary under ``key`` in ``body``, inline or referenced."""
    match = re.search(rb"/" + key + rb"\s*(?:" + _REFERENCE + rb"|<<(.*?)>>)", body, re.S)
    if match is None:
        return b""
    return objects[int(match.group(1))] if match.group(1) else match.group(2)


def _to_unicode(cmap: bytes) -> tuple[int, dict[bytes, str]]:
    """A ToUnicode map: (bytes per code, code -> text)."""
    width = len(re.search(rb"begincodespacerange\s*<([0-9A-Fa-f]+)>", cmap).group(1)) // 2
    codes: dict[bytes, str] = {}
    for block in re.findall(rb"beginbfchar(.*?)endbfchar", cmap, re.S):
        for code, text in re.findall(rb"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>", block):
            codes[bytes.fromhex(code.decode())] = bytes.fromhex(text.decode()).decode("utf-16-be")
    for block in re.findall(rb"beginbfrange(.*?)endbfrange", cmap, re.S):
        for first, last, text in re.findall(
            rb"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>", block
        ):
            start, end = int(first, 16), int(last, 16)
            base = int(text, 16)
            for offset in range(end - start + 1):
                codes[(start + offset).to_bytes(width, "big")] = chr(base + offset)
    return width, codes


def _fonts(objects: dict[int, bytes], page: bytes) -> dict[str, tuple[int, dict[bytes, str]]]:
    fonts = _dictionary(objects, _dictionary(objects, page, b"Resources"), b"Font")
    maps = {}
    for name, number in re.findall(rb"/([^\s/]+)\s+" + _REFERENCE, fonts):
        font = objects[int(number)]
        unicode = re.search(rb"/ToUnicode\s+" + _REFERENCE, font)
        if unicode:
            maps[name.decode()] = _to_unicode(_stream(objects, objects[int(unicode.group(1))]))
    return maps


def _decode(data: bytes, font: tuple[int, dict[bytes, str]]) -> str:
    width, codes = font
    return "".join(codes.get(data[i : i + width], "") for i in range(0, len(data), width))


def _page_runs(content: bytes, fonts) -> list[tuple[str, float]]:
    runs = []
    font, size = None, 0.0
    for block in re.findall(rb"BT(.*?)ET", content, re.S):
        parts = []
        for name, points, hex_text, literal in _TEXT_TOKEN.findall(block):
            if name:
                font, size = fonts.get(name.decode()), float(points)
            elif font is not None and (hex_text or literal):
                data = (
                    bytes.fromhex(hex_text.decode())
                    if hex_text
                    else re.sub(rb"\\(.)", rb"\1", literal)
                )
                parts.append(_decode(data, font))
        if parts:
            runs.append(("".join(parts), size))
    return runs


def pdf_pages(content: bytes) -> list[Page]:
    """The pages of a PDF LibreOffice wrote, in order."""
    objects = {int(number): body for number, body in _OBJECT.findall(content)}

    def leaves(node: bytes) -> list[bytes]:
        kids = re.search(rb"/Kids\s*\[(.*?)\]", node, re.S)
        if kids is None:
            return [node]
        return [
            leaf
            for number in re.findall(_REFERENCE, kids.group(1))
            for leaf in leaves(objects[int(number)])
        ]

    pages = []
    for page in leaves(_root_pages(objects)):
        fonts = _fonts(objects, page)
        contents = re.search(rb"/Contents\s*(?:\[(.*?)\]|" + _REFERENCE + rb")", page, re.S)
        if contents.group(1):
            numbers = re.findall(_REFERENCE, contents.group(1))
        else:
            numbers = [contents.group(2)]
        drawing = b"\n".join(_stream(objects, objects[int(number)]) for number in numbers)
        pages.append(Page(runs=_page_runs(drawing, fonts)))
    return pages


def _root_pages(objects: dict[int, bytes]) -> bytes:
    """The page tree's root: the /Pages node that the catalogue names."""
    catalogue = next(body for body in objects.values() if re.search(rb"/Type\s*/Catalog\b", body))
    return objects[int(re.search(rb"/Pages\s+" + _REFERENCE, catalogue).group(1))]
