"""What the registration pages' tests share: the cast of two tournaments with their
organisers and referees, and player files to upload."""

import io

from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from openpyxl import Workbook

from tests import html
from tests.html import tables
from tournament.forms.players import sign_preview
from tournament.players.player_import import import_preview
from tournament.server.task_worker import tasks_run_ready

SLUG = "spring-open"
CSV_TWO_PLAYERS = (
    "number,name,name_zh,team,country,substitute\n"
    "1,Zhang San,张三,Lyon,FRA,no\n"
    "2,Li Si,李四,,CHN,yes\n"
)


def csv_file(text: str = CSV_TWO_PLAYERS, name: str = "players.csv") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, text.encode(), content_type="text/csv")


def xlsx_file(rows, name: str = "players.xlsx") -> SimpleUploadedFile:
    workbook = Workbook()
    for row in rows:
        workbook.active.append(row)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return SimpleUploadedFile(name, buffer.getvalue())


def players(tournament):
    return list(
        tournament.players.order_by("number").values_list(
            "number", "name", "name_zh", "team", "country", "is_substitute", "withdrawn_at"
        )
    )


def preview_payload(tournament, text: str = CSV_TWO_PLAYERS) -> str:
    preview = import_preview(tournament, filename="players.csv", content=text.encode())
    return sign_preview(tournament, preview)


def messages_of(response) -> list[str]:
    return [str(message) for message in response.context["messages"]]


def row_cells(html: str, first_cell: str) -> list[str]:
    """The text of each cell of the table row whose cells start with ``first_cell``."""
    for table in tables(html):
        for cells in table:
            if cells and cells[0] == first_cell:
                return cells
    raise AssertionError(f"no row starting with {first_cell!r}")


def upload(cast, file):
    return cast.organiser.post(reverse("player_import", args=[SLUG]), {"file": file})


def confirm(cast, payload, *, run: bool = True):
    """Confirm a preview, then (``run``) run the import's task here as a worker would, then
    open the page the confirmation redirects to (``redirect_chain`` says which)."""
    posted = cast.organiser.post(
        reverse("player_import_confirm", args=[SLUG]), {"payload": payload}
    )
    assert posted.status_code == 302
    if run:
        tasks_run_ready()
    page = cast.organiser.get(posted["Location"])
    page.redirect_chain = [(posted["Location"], posted.status_code)]
    return page


def import_result(response) -> str:
    """The text of the last import's section of the import page."""
    section = html.elements(response.content, "section#import-job")
    assert section, "no import on the page"
    return section[0].text()
