"""What the page tests read from a rendered form: a field's block and its errors."""

import re


def field_html(response, name: str) -> str:
    """The rendered block of one form field: its label, input, help and errors."""
    html = response.content.decode()
    start = html.index(f'<label for="id_{name}"')
    following = re.compile(r'<div class="field[ "]').search(html, start)
    return html[start : following.start() if following else len(html)]


def assert_error_beside(response, name: str, text: str) -> None:
    assert response.status_code == 200
    assert any(text in error for error in response.context["form"].errors.get(name, []))
    block = field_html(response, name)
    assert 'class="field-errors"' in block
    assert text in block
