"""Long lists by pages, as a phone reads them: 100 rows a page, ``page`` naming the page in
the query, ``page=all`` for every row at once (to print). The standings table and the
players' list use it."""

from dataclasses import dataclass, field

from django.http import QueryDict
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

PAGE_SIZE = 100
ALL_PAGES = "all"
# The highest page number a link may name: 20,000 rows at 100 a page, twice the biggest
# event the site is built for. A number beyond shows the last page, as any past the last.
MAX_PAGE = 200


def page_value(asked: str) -> str | None:
    """``asked`` as a page parameter is read (``all``, or a number from 1 to ``MAX_PAGE``,
    written plainly), None when it reads as no page at all: the form a page kept whole is
    keyed by, so that ``?page=007`` or ``?page=junk`` makes no copy of its own."""
    if asked == ALL_PAGES:
        return asked
    try:
        number = int(asked)
    except ValueError:
        return None
    return str(min(max(number, 1), MAX_PAGE))


@dataclass
class Pager:
    """Which rows of ``row_count`` the query asks for, and the links to the others.

    ``page`` is the page shown, from 1, or None when every row is (``all``, or rows that
    fit on one page). A page past the last shows the last; anything unreadable, the first.
    """

    query: QueryDict
    row_count: int
    page_size: int | None = None  # PAGE_SIZE unless told
    parameter: str = "page"
    page_count: int = field(init=False)
    page: int | None = field(init=False)

    def __post_init__(self) -> None:
        self.page_size = self.page_size or PAGE_SIZE
        self.page_count = max(1, -(-self.row_count // self.page_size))
        self.page = None if self.page_count == 1 else self._requested()

    def _requested(self) -> int | None:
        asked = self.query.get(self.parameter, "")
        if asked == ALL_PAGES:
            return None
        try:
            number = int(asked)
        except ValueError:
            return 1
        return min(max(number, 1), self.page_count)

    def rows(self, rows: list) -> list:
        """The rows of the page shown."""
        if self.page is None:
            return rows
        first = (self.page - 1) * self.page_size
        return rows[first : first + self.page_size]

    def url(self, page: int | str) -> str:
        """The same query showing another page (or ``all``)."""
        query = self.query.copy()
        query[self.parameter] = str(page)
        return "?" + query.urlencode()

    def html(self) -> SafeString | str:
        """Links to the previous and next page, the page shown, and every row at once; from
        every row, back to pages. "" when the rows fit on one page."""
        if self.page_count == 1:
            return ""
        links = []
        if self.page is None:
            size = gettext("%(size)s a page") % {"size": self.page_size}
            links.append(format_html('<a href="{}">{}</a>', self.url(1), size))
        else:
            if self.page > 1:
                links.append(
                    format_html(
                        '<a href="{}" rel="prev">{}</a>',
                        self.url(self.page - 1),
                        gettext("Previous"),
                    )
                )
            shown = gettext("Page %(page)s of %(pages)s") % {
                "page": self.page,
                "pages": self.page_count,
            }
            links.append(format_html('<span aria-current="page">{}</span>', shown))
            if self.page < self.page_count:
                links.append(
                    format_html(
                        '<a href="{}" rel="next">{}</a>', self.url(self.page + 1), gettext("Next")
                    )
                )
            every = gettext("All %(count)s") % {"count": self.row_count}
            links.append(format_html('<a href="{}">{}</a>', self.url(ALL_PAGES), every))
        return format_html(
            '<nav class="pager no-print" aria-label="{}">{}</nav>\n',
            gettext("Pages of the table"),
            mark_safe(" ".join(links)),  # each link is escaped above
        )
