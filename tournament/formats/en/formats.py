"""English dates and times as an international event writes them: the day before the month
(6 December 2026, 2026-12-06 in short) and the 24-hour clock (13:46), as the timetables, the
score sheets and the Chinese pages do. Django's English formats are American (Dec. 6, 2026;
12/06/2026; 1:46 p.m.), which a reader outside the United States misreads, and whose "p.m."
ends a sentence with two full stops. Any format not set here is Django's."""

DATE_FORMAT = "j F Y"
TIME_FORMAT = "H:i"
DATETIME_FORMAT = "j F Y, H:i"
YEAR_MONTH_FORMAT = "F Y"
MONTH_DAY_FORMAT = "j F"
SHORT_DATE_FORMAT = "Y-m-d"
SHORT_DATETIME_FORMAT = "Y-m-d H:i"
FIRST_DAY_OF_WEEK = 1  # Monday
# What a typed date may look like: the ISO form first (the browsers' date fields send it),
# then day before month; never the American month first, which would read 06/12 as June.
DATE_INPUT_FORMATS = ["%Y-%m-%d", "%d/%m/%Y", "%d %B %Y", "%d %b %Y"]
DATETIME_INPUT_FORMATS = [
    "%Y-%m-%dT%H:%M",
    "%Y-%m-%d %H:%M:%S",
    "%Y-%m-%d %H:%M",
    "%d/%m/%Y %H:%M",
]
DECIMAL_SEPARATOR = "."
THOUSAND_SEPARATOR = ","
NUMBER_GROUPING = 3
