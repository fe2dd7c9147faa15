"""How the forms are drawn: by the site's own template engine (``TEMPLATES``), like the pages,
so that a field's template can be one of the project's."""

from django.forms.renderers import TemplatesSetting


class FormRenderer(TemplatesSetting):
    """``FORM_RENDERER``: Django's widget templates, and every field drawn with its label,
    help and errors beside it by ``{{ field.as_field_group }}`` (``templates/forms/field.html``)."""

    field_template_name = "forms/field.html"
