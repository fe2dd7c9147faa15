"""How the forms' widgets are drawn: by Jinja2, from Django's own Jinja2 widget templates,
many times faster than Django's template engine (a tablet's sheet, drawn again after every
hand saved, has some sixty widgets); by Django's engine for the widgets that have no Jinja2
template (the admin's and the accounts' own, on the admin's account pages)."""

from django.forms.renderers import DjangoTemplates, Jinja2
from django.template import TemplateDoesNotExist


class WidgetRenderer(Jinja2):
    """``FORM_RENDERER``: Jinja2 where Django ships the widget's Jinja2 template, Django's
    engine otherwise."""

    fallback = DjangoTemplates()

    def get_template(self, template_name):
        try:
            return super().get_template(template_name)
        except TemplateDoesNotExist:
            return self.fallback.get_template(template_name)
