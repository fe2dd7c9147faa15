"""The columns of a player list: the headings a file may give each player field (in English
or Chinese), and how a preview names the fields."""

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

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
