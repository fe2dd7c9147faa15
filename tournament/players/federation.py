"""What a federation's results file needs of a player: the EMA number and the country code.

**EMA number.** The European Mahjong Association numbers its members' players with eight
digits, the first two being the member country's (04 France, 05 Germany, 08 the
Netherlands): "04010005". A number is taken only with its eight digits, and stored and shown
as given. One a spreadsheet dropped leading zeros from ("4010005") is refused, never padded:
a short number may as well have lost a digit elsewhere, and a number padded wrongly would
give one player's results to another. The message says how to keep the zeros (the column
formatted as text). A workbook's cell holding a number, not text, is read as its digits:
eight of them lost nothing and are taken; fewer are refused the same way, the message saying
that the cell is a number. A player without one is a guest.

**Country.** Three capital letters, as the EMA's result pages and workbooks write them. They
use the sports codes (GER, NED, DEN, SUI, POR), not ISO 3166's (DEU, NLD, DNK, CHE, PRT):
an EMA tournament page links its Dutch players to ``Country/NED_Information.html``, and the
scrapers of the EMA's site list its countries as RUS, DEN, NED, FRA, POL, GER, GBR, AUT, SVK,
FIN, UKR, SWE, CZE, ITA, BLR, SUI, BEL, HUN, ESP and POR. Any three letters are accepted
(a country not listed below keeps the code it is given); lower case is raised. The countries
common at MCR events (``COUNTRIES``) are also found by their English, own or Chinese name,
their two-letter code or their ISO three-letter code, so "France", "法国", "fr" and "FRA"
all give FRA, and "DEU" or "Deutschland" give GER.

Both normalisers raise ``FieldValueError`` with a message for the organiser. Pure Python
apart from the translation of those messages.
"""

import re

from django.utils.translation import gettext as _

from tournament.players.names import folded

EMA_NUMBER_DIGITS = 8


class FieldValueError(ValueError):
    """A value that cannot be stored: ``message`` says why, ``code`` names the reason."""

    def __init__(self, message: str, code: str):
        super().__init__(message)
        self.message = message
        self.code = code


# ---------------------------------------------------------------- EMA number

_DIGITS = re.compile(r"[0-9]+")


def normalise_ema_number(value: object) -> str:
    """The EMA number in ``value``: exactly eight digits ("04010005"; a workbook's number
    12345678 too), "" for none; raises ``FieldValueError`` for anything else."""
    if value is None:
        return ""
    is_number = isinstance(value, int | float) and not isinstance(value, bool)
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    text = str(value).strip()
    if not text:
        return ""
    if not _DIGITS.fullmatch(text):
        raise FieldValueError(
            _("The EMA number “%(value)s” must be digits only (for example 04010005).")
            % {"value": text},
            code="ema_number_not_digits",
        )
    if not text.strip("0"):
        raise FieldValueError(
            _("The EMA number cannot be zero: leave it empty for a guest."),
            code="ema_number_zero",
        )
    if len(text) > EMA_NUMBER_DIGITS:
        raise FieldValueError(
            _("The EMA number “%(value)s” is too long: an EMA number has %(digits)s digits.")
            % {"value": text, "digits": EMA_NUMBER_DIGITS},
            code="ema_number_too_long",
        )
    if len(text) < EMA_NUMBER_DIGITS and is_number:
        raise FieldValueError(
            _(
                "The EMA number %(value)s is too short, and the workbook holds it as a "
                "number, which keeps no leading zero: format the column as text and type "
                "the %(digits)s digits again (for example 04010005)."
            )
            % {"value": text, "digits": EMA_NUMBER_DIGITS},
            code="ema_number_short_cell",
        )
    if len(text) < EMA_NUMBER_DIGITS:
        raise FieldValueError(
            _(
                "The EMA number “%(value)s” is too short: an EMA number has %(digits)s "
                "digits, leading zeros included (for example 04010005). In a spreadsheet, "
                "format the column as text so that they stay."
            )
            % {"value": text, "digits": EMA_NUMBER_DIGITS},
            code="ema_number_too_short",
        )
    return text


# ---------------------------------------------------------------- country

# The countries common at MCR events: the code the EMA writes, then the other ways a player
# list may name them (English, own and Chinese names, ISO two- and three-letter codes).
COUNTRIES: tuple[tuple[str, tuple[str, ...]], ...] = (
    # The EMA's members
    ("AUT", ("Austria", "Österreich", "奥地利", "AT")),
    ("BEL", ("Belgium", "België", "Belgique", "比利时", "BE")),
    ("BLR", ("Belarus", "白俄罗斯", "BY")),
    ("CZE", ("Czech Republic", "Czechia", "Česko", "捷克", "CZ")),
    ("DEN", ("Denmark", "Danmark", "丹麦", "DK", "DNK")),
    ("ESP", ("Spain", "España", "西班牙", "ES")),
    ("FIN", ("Finland", "Suomi", "芬兰", "FI")),
    ("FRA", ("France", "法国", "FR")),
    ("GBR", ("United Kingdom", "Great Britain", "UK", "英国", "GB")),
    ("GER", ("Germany", "Deutschland", "德国", "DE", "DEU")),
    ("HUN", ("Hungary", "Magyarország", "匈牙利", "HU")),
    ("IRL", ("Ireland", "Éire", "爱尔兰", "IE")),
    ("ITA", ("Italy", "Italia", "意大利", "IT")),
    ("NED", ("Netherlands", "The Netherlands", "Holland", "Nederland", "荷兰", "NL", "NLD")),
    ("NOR", ("Norway", "Norge", "挪威", "NO")),
    ("POL", ("Poland", "Polska", "波兰", "PL")),
    ("POR", ("Portugal", "葡萄牙", "PT", "PRT")),
    ("RUS", ("Russia", "Россия", "俄罗斯", "RU")),
    ("SLO", ("Slovenia", "Slovenija", "斯洛文尼亚", "SI", "SVN")),
    ("SUI", ("Switzerland", "Schweiz", "Suisse", "Svizzera", "瑞士", "CH", "CHE")),
    ("SVK", ("Slovakia", "Slovensko", "斯洛伐克", "SK")),
    ("SWE", ("Sweden", "Sverige", "瑞典", "SE")),
    ("UKR", ("Ukraine", "Україна", "乌克兰", "UA")),
    # Asia and elsewhere
    ("AUS", ("Australia", "澳大利亚", "AU")),
    ("BRA", ("Brazil", "Brasil", "巴西", "BR")),
    ("CAN", ("Canada", "加拿大", "CA")),
    ("CHN", ("China", "中国", "CN")),
    ("HKG", ("Hong Kong", "香港", "中国香港", "HK")),
    ("JPN", ("Japan", "日本", "JP")),
    ("KOR", ("South Korea", "Korea", "韩国", "KR")),
    ("MAC", ("Macau", "Macao", "澳门", "中国澳门", "MO")),
    ("MAS", ("Malaysia", "马来西亚", "MY", "MYS")),
    ("NZL", ("New Zealand", "新西兰", "NZ")),
    ("PHI", ("Philippines", "菲律宾", "PH", "PHL")),
    ("SGP", ("Singapore", "新加坡", "SG")),
    ("THA", ("Thailand", "泰国", "TH")),
    ("TPE", ("Chinese Taipei", "Taiwan", "中华台北", "台湾", "中国台湾", "TW", "TWN")),
    ("USA", ("United States", "United States of America", "美国", "US")),
    ("VIE", ("Vietnam", "Viet Nam", "越南", "VN", "VNM")),
)

_THREE_LETTERS = re.compile(r"[A-Z]{3}")


def _key(text: str) -> str:
    """How names are compared: case, accents and spacing ignored."""
    return " ".join(folded(text).replace(".", " ").split())


_BY_NAME = {_key(alias): code for code, aliases in COUNTRIES for alias in (code, *aliases)}


def country_code(text: str) -> str | None:
    """The code of a country the table knows by ``text``, or None."""
    return _BY_NAME.get(_key(text))


def normalise_country(value: object) -> str:
    """The three-letter code for ``value``: "" for none, a known country's code, or any three
    letters in capitals; raises ``FieldValueError`` for anything else."""
    text = "" if value is None else " ".join(str(value).split())
    if not text:
        return ""
    known = country_code(text)
    if known is not None:
        return known
    if _THREE_LETTERS.fullmatch(text.upper()) and text.isascii():
        return text.upper()
    raise FieldValueError(
        _(
            "“%(value)s” is not a country code: write the country as three letters, as the "
            "EMA does (CHN, FRA, GER, JPN, NED…)."
        )
        % {"value": text},
        code="country_not_a_code",
    )
