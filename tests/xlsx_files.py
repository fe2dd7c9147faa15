"""Workbooks written part by part, for the tests of hostile player files.

openpyxl writes inline strings and only well-formed sizes; these builders write the parts
an .xlsx from Excel has (a shared-string table, a worksheet) with whatever content or
declared size a test needs, streamed so that a large part never sits in memory.
"""

import io
import struct
import zipfile
from collections.abc import Iterable

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
RELATIONSHIPS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PACKAGE_RELATIONSHIPS = "http://schemas.openxmlformats.org/package/2006/relationships"
SHEETML = "application/vnd.openxmlformats-officedocument.spreadsheetml"

CONTENT_TYPES = f"""<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
<Default Extension="xml" ContentType="application/xml"/>
<Override PartName="/xl/workbook.xml" ContentType="{SHEETML}.sheet.main+xml"/>
<Override PartName="/xl/worksheets/sheet1.xml" ContentType="{SHEETML}.worksheet+xml"/>
<Override PartName="/xl/sharedStrings.xml" ContentType="{SHEETML}.sharedStrings+xml"/>
</Types>"""
ROOT_RELS = f"""<Relationships xmlns="{PACKAGE_RELATIONSHIPS}">
<Relationship Id="rId1" Type="{RELATIONSHIPS}/officeDocument" Target="xl/workbook.xml"/>
</Relationships>"""
WORKBOOK = f"""<workbook xmlns="{MAIN}" xmlns:r="{RELATIONSHIPS}">
<sheets><sheet name="Players" sheetId="1" r:id="rId1"/></sheets></workbook>"""
WORKBOOK_RELS = f"""<Relationships xmlns="{PACKAGE_RELATIONSHIPS}">
<Relationship Id="rId1" Type="{RELATIONSHIPS}/worksheet" Target="worksheets/sheet1.xml"/>
<Relationship Id="rId2" Type="{RELATIONSHIPS}/sharedStrings" Target="sharedStrings.xml"/>
</Relationships>"""

# Row 1: number | name (shared strings 0 and 1); row 2: 1 | shared string 2.
HEADER_AND_ONE_PLAYER = (
    '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row>'
    '<row r="2"><c r="A2"><v>1</v></c><c r="B2" t="s"><v>2</v></c></row>'
)


def sheet_xml(rows: str, *, dimension: str = "A1:B2") -> str:
    return (
        f'<worksheet xmlns="{MAIN}"><dimension ref="{dimension}"/>'
        f"<sheetData>{rows}</sheetData></worksheet>"
    )


def workbook(
    *,
    strings: Iterable[str] = ("number", "name", "Alice"),
    sheet: str | Iterable[bytes] = sheet_xml(HEADER_AND_ONE_PLAYER),
    padding: tuple[str, int] | None = None,
) -> bytes:
    """An .xlsx with a shared-string table and one worksheet (XML text, or chunks of it).

    ``padding`` is (character, count): that many characters appended to the last shared
    string, written in 1 MiB pieces and deflated, so a file of a few hundred kilobytes can
    hold tens of megabytes of text.
    """
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", CONTENT_TYPES)
        archive.writestr("_rels/.rels", ROOT_RELS)
        archive.writestr("xl/workbook.xml", WORKBOOK)
        archive.writestr("xl/_rels/workbook.xml.rels", WORKBOOK_RELS)
        with archive.open("xl/sharedStrings.xml", "w") as part:
            part.write(f'<sst xmlns="{MAIN}">'.encode())
            texts = list(strings)
            for index, text in enumerate(texts):
                part.write(f"<si><t>{text}".encode())
                if padding is not None and index == len(texts) - 1:
                    character, count = padding
                    piece = (character * (1 << 20)).encode()
                    for _ in range(count // (1 << 20)):
                        part.write(piece)
                    part.write((character * (count % (1 << 20))).encode())
                part.write(b"</t></si>")
            part.write(b"</sst>")
        with archive.open("xl/worksheets/sheet1.xml", "w") as part:
            for chunk in [sheet.encode()] if isinstance(sheet, str) else sheet:
                part.write(chunk)
    return buffer.getvalue()


def declare_size(content: bytes, member: str, size: int) -> bytes:
    """``content`` with the central directory saying ``member`` inflates to ``size`` bytes,
    whatever it really holds (the declared size is only a claim of the file)."""
    name = member.encode()
    start = 0
    while True:
        start = content.index(b"PK\x01\x02", start)
        name_length = struct.unpack_from("<H", content, start + 28)[0]
        if content[start + 46 : start + 46 + name_length] == name:
            break
        start += 4
    return content[: start + 24] + struct.pack("<I", size) + content[start + 28 :]
