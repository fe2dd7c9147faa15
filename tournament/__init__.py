"""The MCR tournament manager. ``__version__`` is the software's version, as in
pyproject.toml: a draw's commitment names it (``seating.commitment``)."""

__version__ = "0.1.0"
