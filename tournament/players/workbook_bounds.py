"""What an .xlsx file may make its reader do, checked before openpyxl reads it.

An .xlsx is a zip of XML parts. Before the first row is read, openpyxl inflates and parses
some parts whole (the shared strings, the styles), building an object for every element;
and it holds a row's cells in memory until the row ends. So a file of 0.4 MB can hold
400 MB of text, a style table that takes a minute to build, or one row of a million cells.

``check_workbook`` refuses such a file from the zip's directory (the sizes the parts declare)
and one streaming pass of expat over the parts that counts XML nodes (elements and their
attributes), stopping as soon as a bound is passed. Counting costs a small fraction of what
openpyxl spends building the same nodes.

Pure Python, no Django: the caller turns ``WorkbookRefused`` into its own message.
"""

import io
import zipfile
import zlib
from dataclasses import dataclass
from xml.parsers import expat

MEGABYTE = 1024 * 1024
_CHUNK = 64 * 1024
# openpyxl reads the stylesheet by this name, whatever the package says.
STYLES_PART = "xl/styles.xml"


@dataclass(frozen=True)
class Bounds:
    """The most a workbook may hold. The defaults fit a list of 5,000 players in nine
    columns (it inflates to about 2 MB; its cells hold about 225,000 nodes, its shared
    strings and styles about 21,000), and keep the reading of any workbook within them to
    a second or two and well under 100 MB."""

    # All parts together, once inflated.
    inflated_bytes: int = 20 * MEGABYTE
    # An Excel workbook has a dozen parts, a few dozen with charts and images.
    parts: int = 1000
    # Nodes outside the worksheets' cells: openpyxl builds an object for each of them before
    # the first row (up to 25 µs a node for fonts), whatever part holds them.
    nodes_outside_cells: int = 60_000
    # Nodes inside the worksheets' cells (sheetData), cheaper to read (about 3 µs a node) and
    # read lazily, but all of them when rows repeat a row number.
    nodes_in_cells: int = 400_000
    # Nodes of one row, which openpyxl holds until the row ends.
    nodes_per_row: int = 1_000
    # Nodes of the stylesheet (``STYLES_PART``), the costliest to build (150 µs a font):
    # Excel writes a few hundred, a few thousand when copied formats have piled up.
    nodes_in_styles: int = 10_000


BOUNDS = Bounds()


class WorkbookRefused(Exception):
    """The file is not a workbook this reader will open; ``code`` says why.

    ``found`` and ``limit`` are the figures of the bound passed, when there is one (bytes for
    ``too_large``, nodes for ``too_many_nodes``, parts for ``too_many_parts``).
    """

    def __init__(self, code: str, *, found: int | None = None, limit: int | None = None):
        super().__init__(code if found is None else f"{code}: {found} > {limit}")
        self.code = code
        self.found = found
        self.limit = limit


def check_workbook(content: bytes, bounds: Bounds = BOUNDS) -> None:
    """Raise ``WorkbookRefused`` unless ``content`` is a zip within ``bounds``.

    Codes: ``not_a_zip``, ``too_many_parts``, ``unsupported_compression``, ``too_large``
    (inflated bytes), ``doctype`` (no workbook part has one; entity tricks need one), and
    ``too_many_nodes``. A part that is not XML (an image) is skipped: it is either never
    parsed, or fails to parse at the point where counting stopped.
    """
    try:
        archive = zipfile.ZipFile(io.BytesIO(content))
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError) as error:
        raise WorkbookRefused("not_a_zip") from error
    with archive:
        parts = archive.infolist()
        if len(parts) > bounds.parts:
            raise WorkbookRefused("too_many_parts", found=len(parts), limit=bounds.parts)
        # Excel deflates. Bzip2 and lzma inflate a whole block at a time, past any declared
        # size; zipfile never inflates a deflated part past the size it declares (a part that
        # holds more fails its CRC check), so the declared sizes bound what can be read.
        if any(
            part.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED) for part in parts
        ):
            raise WorkbookRefused("unsupported_compression")
        inflated = sum(part.file_size for part in parts)
        if inflated > bounds.inflated_bytes:
            raise WorkbookRefused("too_large", found=inflated, limit=bounds.inflated_bytes)
        counter = _NodeCounter(bounds)
        for part in parts:
            counter.scan(archive, part)


class _NodeCounter:
    """Counts the nodes of every part, refusing past the bounds; one expat parser a part."""

    def __init__(self, bounds: Bounds):
        self.bounds = bounds
        self.outside_cells = 0
        self.in_cells = 0
        self.in_row = 0
        self.sheet_data_depth = 0
        self.row_depth = 0
        self.in_styles = 0
        # Local names of the element names met: a few dozen, each met thousands of times.
        self.local_names: dict[str, str] = {}

    def scan(self, archive: zipfile.ZipFile, part: zipfile.ZipInfo) -> None:
        parser = expat.ParserCreate(namespace_separator=" ")
        parser.ordered_attributes = True  # a flat list: name, value, name, value...
        styles = part.filename == STYLES_PART
        parser.StartElementHandler = self._start_in_styles if styles else self._start
        parser.EndElementHandler = self._end
        parser.StartDoctypeDeclHandler = self._doctype
        self.sheet_data_depth = self.row_depth = self.in_styles = 0
        try:
            with archive.open(part) as stream:
                while chunk := stream.read(_CHUNK):
                    parser.Parse(chunk, False)
                parser.Parse(b"", True)
        except (
            expat.ExpatError,
            zipfile.BadZipFile,
            zlib.error,
            EOFError,
            RuntimeError,
            ValueError,
        ):
            # Not XML, damaged or encrypted: counted as far as any parser can read it.
            return

    def _start(self, name: str, attributes: list) -> None:
        nodes = 1 + len(attributes) // 2
        local = self.local_names.get(name) or self._local(name)
        if not self.sheet_data_depth:
            self.outside_cells += nodes
            if self.outside_cells > self.bounds.nodes_outside_cells:
                raise _too_many(self.outside_cells, self.bounds.nodes_outside_cells)
            if local == "sheetData":
                self.sheet_data_depth = 1
            return
        self.in_cells += nodes
        if self.in_cells > self.bounds.nodes_in_cells:
            raise _too_many(self.in_cells, self.bounds.nodes_in_cells)
        if self.row_depth:
            self.in_row += nodes
            if self.in_row > self.bounds.nodes_per_row:
                raise _too_many(self.in_row, self.bounds.nodes_per_row)
        elif local == "row":
            self.in_row = nodes
        if local == "row":
            self.row_depth += 1
        elif local == "sheetData":
            self.sheet_data_depth += 1

    def _start_in_styles(self, name: str, attributes: list) -> None:
        # Built whole, cells or not: every node counts.
        nodes = 1 + len(attributes) // 2
        self.in_styles += nodes
        if self.in_styles > self.bounds.nodes_in_styles:
            raise _too_many(self.in_styles, self.bounds.nodes_in_styles)
        self.outside_cells += nodes
        if self.outside_cells > self.bounds.nodes_outside_cells:
            raise _too_many(self.outside_cells, self.bounds.nodes_outside_cells)

    def _end(self, name: str) -> None:
        if self.sheet_data_depth:
            local = self.local_names.get(name) or self._local(name)
            if local == "row" and self.row_depth:
                self.row_depth -= 1
            elif local == "sheetData":
                self.sheet_data_depth -= 1

    def _local(self, name: str) -> str:
        """The element's name without its namespace (expat gives ``namespace local``)."""
        local = name.rpartition(" ")[2]
        if len(self.local_names) < 1000:  # a file of made-up names does not fill memory
            self.local_names[name] = local
        return local

    def _doctype(self, *args) -> None:
        raise WorkbookRefused("doctype")


def _too_many(found: int, limit: int) -> WorkbookRefused:
    return WorkbookRefused("too_many_nodes", found=found, limit=limit)
