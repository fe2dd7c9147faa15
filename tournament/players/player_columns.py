"""The columns of a player list: the headings a file may give each player field (in English
or Chinese), what each holds, and how a preview names the fields. The import page's help is
made of them (``column_help``), so that it lists every column the reader reads."""

from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from tournament.models import PLAYER_FIELDS

# Column name in the file → player field. Matched ignoring case, surrounding spaces, and
# underscores written as spaces ("First name" is first_name).
COLUMNS = {
    "number": "number",
    "name": "name",
    "first_name": "first_name",
    "given_name": "first_name",
    "last_name": "last_name",
    "family_name": "last_name",
    "surname": "last_name",
    "name_zh": "name_zh",
    "chinese_name": "name_zh",
    "team": "team",
    "club": "team",
    "country": "country",
    "country_code": "country",
    "ema_number": "ema_number",
    "ema_id": "ema_number",
    "substitute": "is_substitute",
    "is_substitute": "is_substitute",
    "email": "email",
    "guest": "ema_guest",
    "ema_guest": "ema_guest",
    "e-mail": "email",
    "e_mail": "email",
    "mail": "email",
    # Headings of Chinese player lists.
    "编号": "number",
    "姓名": "name",
    "名": "first_name",
    "姓": "last_name",
    "中文名": "name_zh",
    "队伍": "team",
    "俱乐部": "team",
    "国家": "country",
    "国家/地区": "country",
    "EMA编号": "ema_number",
    "替补": "is_substitute",
    "邮箱": "email",
    "嘉宾": "ema_guest",
    "电子邮件": "email",
}
# A list names its players by ``name``, or by first and last names, or both.
NAME_FIELDS = ("name", "first_name", "last_name")
TEXT_FIELDS = ("name", "first_name", "last_name", "name_zh", "team")


def field_label(name: str) -> str:
    return {
        "number": _("number"),
        "name": pgettext("player", "name"),
        "first_name": _("first name"),
        "last_name": _("last name"),
        "name_zh": _("Chinese name"),
        "team": _("team"),
        "country": _("country"),
        "ema_number": _("EMA number"),
        "is_substitute": _("substitute"),
        "email": _("e-mail"),
        "ema_guest": _("EMA guest"),
    }[name]


def field_help(name: str) -> str:
    """What the column of player field ``name`` holds, as the import page says it."""
    return {
        "number": _(
            "Required. The player's number in this tournament: a new number adds a player, a "
            "known one updates that player."
        ),
        "name": _(
            "The name as pages and sheets show it. A row needs a name, or first and last names. "
            "Given alone, it is split into them: the family name first when a Chinese name is "
            "given (Wang Fang with 王芳: family name Wang, given name Fang)."
        ),
        "first_name": _(
            "Given name(s), as the federation's results list them; given, never split again."
        ),
        "last_name": _(
            "Family name, as the federation's results list them; given, never split again."
        ),
        "name_zh": _("The name in Chinese characters."),
        "team": _("Team or club."),
        "country": _(
            "Three letters, as the EMA writes them (CHN, FRA, GER, JPN, NED…); a country's "
            "name is read as its code."
        ),
        "ema_number": _(
            "Eight digits with their leading zeros (04010005): format the column as text so "
            "that they stay. Empty for a guest."
        ),
        "is_substitute": _("yes or no (是 or 否)."),
        "email": _("The player's e-mail address."),
        "ema_guest": _(
            "yes or no (是 or 否): a player without an EMA number, marked as the EMA's guest."
        ),
    }[name]


@dataclass(frozen=True)
class ColumnHelp:
    """One player field as the import page lists it: the headings read as its column."""

    field: str
    label: str
    headings: tuple[str, ...]
    help: str


def column_help() -> list[ColumnHelp]:
    """Every field a player list may give, in the players' order, with every heading the
    reader takes for it (``COLUMNS``)."""
    return [
        ColumnHelp(
            field=name,
            label=field_label(name),
            headings=tuple(title for title, field in COLUMNS.items() if field == name),
            help=field_help(name),
        )
        for name in PLAYER_FIELDS
        if name in COLUMNS.values()
    ]
