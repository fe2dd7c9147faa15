"""Formats of dates and times per language, where Django's own do not suit (settings'
``FORMAT_MODULE_PATH``)."""
