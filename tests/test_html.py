"""The tests' HTML reader (tests/html.py) reads pages as a browser shows them."""

import doctest

from tests import html


def test_the_examples_of_its_docstring_hold():
    assert doctest.testmod(html).failed == 0


def test_a_table_reads_as_rows_of_cell_texts_head_and_body():
    page = """<table class="players"><thead><tr><th scope="col">No.</th><th>Name</th></tr>
    </thead><tbody><tr id="p-1"><td class="num">1</td><td>Alice <span class="badge">sub</span>
    </td></tr><tr><td>2</td><td>Bo<br>Li</td></tr></tbody></table><table class="other"></table>"""
    assert html.table(page, class_="players") == [
        ["No.", "Name"],
        ["1", "Alice sub"],
        ["2", "Bo Li"],
    ]
    assert html.body_rows(page, class_="players") == [["1", "Alice sub"], ["2", "Bo Li"]]
    assert html.tables(page, class_="missing") == []


def test_attributes_select_elements_and_void_elements_hold_no_text():
    page = '<form><input type="search" name="q" value="li"><label for="q">Name</label></form>'
    assert html.texts(page, "label", for_="q") == ["Name"]
    assert [e.attrs["value"] for e in html.elements(page, "input", name="q")] == ["li"]
    assert html.elements(page, "input", name="other") == []
