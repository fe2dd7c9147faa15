"""The seating core's error: plain data that cannot be seated, with a translatable message."""

from collections.abc import Mapping

from tournament.core_errors import CoreError


class SeatingError(CoreError):
    """Players, sessions or tables that cannot be seated as given.

    ``code`` is stable, for forms; ``template`` (a ``gettext_noop`` literal) and ``params``
    make the English ``message``, and the web pages' message in the reader's language
    (see ``tournament.core_errors``).
    """

    def __init__(
        self, template: str, params: Mapping[str, object] | None = None, *, code: str
    ) -> None:
        super().__init__(template, params)
        self.code = code
