"""A form field as every page shows it: its label, the field, its help and its errors next to
it (``{% form_field form.name %}``).

Written in Python rather than included as a template: the tablet's sheet, drawn again after
every hand saved, shows a dozen of them, and an include costs several times the field.
"""

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

register = template.Library()


def field_errors(field) -> str:
    """The field's errors in their ``div.field-errors``; "" without any."""
    if not field.errors:
        return ""
    return format_html('<div class="field-errors" role="alert">{}</div>', field.errors)


@register.simple_tag
def form_field(field) -> SafeString:
    """``field`` (a bound field) in its ``div.field``: "has-error" with its errors below it."""
    errors = field.errors
    parts = [
        format_html(
            '\n<div class="field{}">\n  <label for="{}">{}</label>\n  {}\n  ',
            " has-error" if errors else "",
            field.id_for_label,
            field.label,
            field,
        )
    ]
    if field.help_text:
        parts.append(format_html('<small class="help">{}</small>', field.help_text))
    parts.append("\n  ")
    parts.append(field_errors(field))
    parts.append("\n</div>\n")
    return mark_safe("".join(parts))
