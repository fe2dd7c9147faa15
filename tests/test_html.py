"""The tests' HTML reader (tests/html.py) reads pages as a browser shows them."""

from tests import html


def test_a_table_reads_as_rows_of_cell_texts_head_and_body():
    page = """<table class="players x"><thead><tr><th scope="col">No.</th><th>Name</th></tr>
    </thead><tbody><tr id="p-1"><td class="num">1</td><td>Alice <span class="badge">sub</span>
    </td></tr><tr><td>2</td><td>Bo<br>Li</td></tr></tbody></table><table class="other"></table>"""
    assert html.table(page, "table.players") == [
        ["No.", "Name"],
        ["1", "Alice sub"],
        ["2", "Bo Li"],
    ]
    assert html.tables(page) == [html.table(page, "table.players"), []]
    assert html.elements(page, "table.missing") == []
    assert html.texts(page, "table.players tbody tr#p-1 td.num") == ["1"]
    # A row's text parts its cells, as a browser shows them.
    assert html.texts("<table><tr><td>1</td><td>Alice</td></tr></table>", "tr") == ["1 Alice"]


def test_attributes_select_elements_and_void_elements_hold_no_text():
    page = '<form><input type="search" name="q" value="li"><label for="q">Name</label></form>'
    assert html.texts(page, "label[for=q]") == ["Name"]
    assert [e.attrs["value"] for e in html.elements(page, "input[name=q]")] == ["li"]
    assert html.elements(page, "input[name=other]") == []
    (form,) = html.elements(page, "form")
    assert [e.tag for e in form.find("[name]")] == ["input"]
