"""What the registration pages' tests share: the cast of two tournaments with their
organisers and referees, and player files to upload."""

import io
import re

from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from openpyxl import Workbook

from tournament.forms.players import sign_preview
from tournament.players.player_import import import_preview

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
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", html, re.S):
        cells = [c.strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
        if cells and cells[0] == first_cell:
            return cells
    raise AssertionError(f"no row starting with {first_cell!r}")


def upload(cast, file):
    return cast.organiser.post(reverse("player_import", args=[SLUG]), {"file": file})


def confirm(cast, payload):
    return cast.organiser.post(
        reverse("player_import_confirm", args=[SLUG]), {"payload": payload}, follow=True
    )
