"""The tests' HTML reader (tests/html.py) reads pages as a browser shows them."""

import pytest

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
    assert [e.tag for e in form.find("*")] == ["input", "label"]


def test_one_finds_the_only_element_and_fails_on_none_or_several():
    page = '<ul><li class="a">one</li><li>two</li></ul><p id="x">Hi</p>'
    assert html.one(page, "p#x").text() == "Hi"
    (ul,) = html.elements(page, "ul")
    assert ul.one("li.a").text() == "one"
    for selector in ("li", "li.missing"):
        with pytest.raises(AssertionError):
            ul.one(selector)


def test_a_quoted_value_may_hold_spaces_quotes_and_markup():
    page = """<small title='Tablet <b> &amp; "1"'>via</small><a title="a b" href="/x">x</a>"""
    assert html.texts(page, """small[title='Tablet <b> & "1"']""") == ["via"]
    assert html.texts(page, 'a[title="a b"][href=/x]') == ["x"]
    assert html.texts(page, 'p a[title="a b"]') == []


def test_lines_part_the_text_at_its_line_breaks():
    cell = "<td>P1 self-drawn <b>8</b><br>\n<small>via  tablet</small><br><br></td>"
    (found,) = html.elements(cell, "td")
    assert found.lines() == ["P1 self-drawn 8", "via tablet"]
    assert found.text() == "P1 self-drawn 8 via tablet"


def test_a_pages_text_leaves_out_what_is_never_shown():
    page = """<title>T</title><style>p {}</style><p>Seen</p><script>let x = "<p>";</script>
    <template><p>Copied by a script</p></template>"""
    assert html.text(page) == "T Seen"
    # Blocks are read apart, as a browser shows them.
    assert html.texts("<ul><li>a</li><li>b</li></ul>", "ul") == ["a b"]
    assert html.texts(page, "template p") == ["Copied by a script"]


def test_problems_finds_what_keeps_a_page_from_being_well_formed():
    good = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>T</title></head>
    <body><p id="a">One<br>two <a href="#a">up</a></p><img src="x.svg" alt=""></body></html>"""
    assert html.problems(good) == []
    assert html.problems(good.encode()) == []
    page = """<p id="a" class="x" class="y"><b>Bold</p><a href="#b">no</a><br></br>
    <div id="a"><span/></div><ul><li>open</ul>"""
    assert html.problems(page) == [
        "no <!doctype html>",
        "<p> has class twice",
        "</p> where <b> is open",
        "</br> ends a void element",
        "<span/> is no void element: it needs its end tag",
        "</ul> where <li> is open",
        "id 'a' used twice",
        "a link to #b, which no element has",
    ]
    assert html.problems("<!doctype html><main><div>") == [
        "<main> is never closed",
        "<div> is never closed",
    ]
