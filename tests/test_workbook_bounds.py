"""The bounds on what an .xlsx may make openpyxl do, checked before it reads. No database."""

import io
import tracemalloc
import zipfile

import pytest
from openpyxl import load_workbook

from tests import xlsx_files
from tournament.players.workbook_bounds import (
    BOUNDS,
    STYLES_PART,
    Bounds,
    WorkbookRefused,
    check_workbook,
)

MEGABYTE = 1024 * 1024


def refusal(content: bytes, bounds: Bounds = BOUNDS) -> WorkbookRefused:
    with pytest.raises(WorkbookRefused) as raised:
        check_workbook(content, bounds)
    return raised.value


def peak_bytes_while(call) -> int:
    """The most memory Python held while ``call()`` ran, above what it held before."""
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        before = tracemalloc.get_traced_memory()[0]
        call()
    except WorkbookRefused:
        pass
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return peak - before


def cells_row(number: int, cells: int) -> str:
    return f'<row r="{number}">' + f'<c r="A{number}"/>' * cells + "</row>"


def test_a_small_workbook_passes_and_openpyxl_reads_it():
    content = xlsx_files.workbook()
    check_workbook(content)
    sheet = load_workbook(io.BytesIO(content), read_only=True).worksheets[0]
    assert list(sheet.iter_rows(values_only=True)) == [("number", "name"), (1, "Alice")]


def test_a_list_of_5000_players_in_nine_columns_is_within_the_bounds():
    strings = ["number", "name"] + [f"Player {n}" for n in range(5000)]
    cell = '<c r="{column}{row}" s="1" t="s"><v>{value}</v></c>'
    rows = "".join(
        f'<row r="{row}" spans="1:9">'
        + "".join(cell.format(column=column, row=row, value=row) for column in "ABCDEFGHI")
        + "</row>"
        for row in range(1, 5002)
    )
    check_workbook(xlsx_files.workbook(strings=strings, sheet=xlsx_files.sheet_xml(rows)))


def test_a_shared_string_bomb_is_refused_from_the_sizes_the_zip_declares():
    # 30 MiB of one letter deflate to about 30 KB.
    content = xlsx_files.workbook(padding=("a", 30 * MEGABYTE))
    assert len(content) < MEGABYTE

    refused = refusal(content)

    assert refused.code == "too_large"
    assert refused.found > 30 * MEGABYTE
    assert refused.limit == BOUNDS.inflated_bytes
    # Refused before anything was inflated: no more memory than the zip's directory.
    assert peak_bytes_while(lambda: check_workbook(content)) < MEGABYTE


def test_a_part_holding_more_than_it_declares_is_never_inflated_past_its_declared_size():
    content = xlsx_files.workbook(padding=("a", 30 * MEGABYTE))
    lying = xlsx_files.declare_size(content, "xl/sharedStrings.xml", 4096)
    # zipfile stops at the declared size (and fails the part's CRC check): counting reads
    # 4 KB of it, and so would openpyxl.
    assert peak_bytes_while(lambda: check_workbook(lying)) < MEGABYTE
    with pytest.raises(zipfile.BadZipFile):
        load_workbook(io.BytesIO(lying), read_only=True)


def test_one_row_of_more_nodes_than_a_row_may_hold_is_refused():
    # Each cell is two nodes (the element and its r attribute); the row two more.
    bounds = BOUNDS
    fits = (bounds.nodes_per_row - 2) // 2
    check_workbook(xlsx_files.workbook(sheet=xlsx_files.sheet_xml(cells_row(1, fits))))

    wide = xlsx_files.workbook(sheet=xlsx_files.sheet_xml(cells_row(1, fits + 1)))
    refused = refusal(wide)
    assert refused.code == "too_many_nodes"
    assert refused.limit == bounds.nodes_per_row


def test_the_row_bound_applies_to_prefixed_names_too():
    cells = '<x:c r="A1"/>' * 600
    sheet = (
        f'<x:worksheet xmlns:x="{xlsx_files.MAIN}"><x:sheetData>'
        f'<x:row r="1">{cells}</x:row></x:sheetData></x:worksheet>'
    )
    assert refusal(xlsx_files.workbook(sheet=sheet)).limit == BOUNDS.nodes_per_row


def test_a_shared_string_table_of_too_many_strings_is_refused():
    bounds = BOUNDS
    # Each string is two elements; 30,001 of them pass the bound before the first row.
    strings = [f"s{n}" for n in range(bounds.nodes_outside_cells // 2 + 1)]
    refused = refusal(xlsx_files.workbook(strings=strings))
    assert refused.code == "too_many_nodes"
    assert refused.limit == bounds.nodes_outside_cells


def with_styles(xml: str) -> bytes:
    buffer = io.BytesIO(xlsx_files.workbook())
    with zipfile.ZipFile(buffer, "a", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(STYLES_PART, xml)
    return buffer.getvalue()


def test_a_stylesheet_of_too_many_nodes_is_refused_even_inside_a_sheet_data_element():
    font = "<font><b/><sz val='11'/><name val='Calibri'/></font>"  # 6 nodes
    fits = (BOUNDS.nodes_in_styles - 2) // 6
    stylesheet = f'<styleSheet xmlns="{xlsx_files.MAIN}"><fonts>{{}}</fonts></styleSheet>'
    check_workbook(with_styles(stylesheet.format(font * fits)))

    refused = refusal(with_styles(stylesheet.format(font * (fits + 1))))
    assert (refused.code, refused.limit) == ("too_many_nodes", BOUNDS.nodes_in_styles)
    # openpyxl builds the whole stylesheet tree, so no element there reads as cheap cells.
    hidden = stylesheet.format("<sheetData>" + font * (fits + 1) + "</sheetData>")
    assert refusal(with_styles(hidden)).limit == BOUNDS.nodes_in_styles


def test_rows_repeating_one_row_number_count_against_the_cells_bound():
    # openpyxl parses every one of them, whatever row it stops at.
    bounds = Bounds(nodes_in_cells=1000)
    sheet = xlsx_files.sheet_xml(cells_row(1, 1) * 300)  # 4 nodes a row
    refused = refusal(xlsx_files.workbook(sheet=sheet), bounds)
    assert (refused.code, refused.limit) == ("too_many_nodes", 1000)
    check_workbook(xlsx_files.workbook(sheet=xlsx_files.sheet_xml(cells_row(1, 1) * 240)), bounds)


def test_a_doctype_is_refused_so_no_entity_can_expand():
    laughs = (
        '<?xml version="1.0"?><!DOCTYPE sst [<!ENTITY a "aaaaaaaaaa">'
        '<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>'
    )
    sheet = laughs + xlsx_files.sheet_xml(xlsx_files.HEADER_AND_ONE_PLAYER)
    assert refusal(xlsx_files.workbook(sheet=sheet)).code == "doctype"


def test_a_file_that_is_not_a_zip_is_refused():
    assert refusal(b"number,name\n1,Alice\n").code == "not_a_zip"


def test_parts_compressed_other_than_deflate_are_refused():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_BZIP2) as archive:
        archive.writestr("xl/sharedStrings.xml", "<sst/>")
    assert refusal(buffer.getvalue()).code == "unsupported_compression"


def test_a_zip_of_too_many_parts_is_refused():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for number in range(BOUNDS.parts + 1):
            archive.writestr(f"xl/media/{number}.bin", b"")
    refused = refusal(buffer.getvalue())
    assert (refused.code, refused.found) == ("too_many_parts", BOUNDS.parts + 1)


def test_a_part_that_is_not_xml_is_skipped():
    buffer = io.BytesIO(xlsx_files.workbook())
    with zipfile.ZipFile(buffer, "a", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("xl/media/image1.png", b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 40)
    check_workbook(buffer.getvalue())
