"""A tournament's rules in words, for its public rules page, the standings workbook's Rules
sheet and the standings' line about a change (docs/rules.md): each option with whether it is
the site's reading of the profile's book, the penalty presets, the ranking order and the
changes made after play started."""

from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournament.models import (
    OFFENCES,
    RULE_PROFILE_CHOICES,
    TIEBREAK_CHOICES,
    RuleChange,
    Tournament,
)
from tournament.models.hands import Penalty
from tournament.models.rules import profile_options, rule_options
from tournament.scoring.profiles import PROFILES

# The rule book each profile reads, named where an option is the site's reading of it.
PROFILE_BOOKS = {
    "seed": gettext_lazy("the seed documents"),
    "ema": gettext_lazy("the EMA's rule book and regulations"),
    "mil_china_2025": gettext_lazy("the Mahjong International League's rules (China, 2025)"),
}
assert set(PROFILE_BOOKS) == set(PROFILES)

# Each line of the rules in words: its key, and the options (``services.rules.RULE_FIELDS``)
# it says; a line is the site's reading when the profile's ``readings`` name one of them
# and the tournament keeps the profile's value of each.
LINES = (
    ("rule_profile", ("rule_profile",)),
    ("melded_and_concealed_kong", ("melded_and_concealed_kong",)),
    ("flowers", ("flowers",)),
    ("blessings", ("blessings",)),
    ("minimum_fan", ("minimum_fan",)),
    ("session", ("session_minutes", "session_end", "gong_minute")),
    ("penalty_presets", ("penalty_presets",)),
    ("tiebreaks", ("tiebreak_order",)),
)
# The profiles' ``readings`` words that are not the fields' names.
READING_OPTIONS = {"tiebreaks": "tiebreak_order"}


@dataclass(frozen=True)
class RuleLine:
    key: str
    label: str
    text: str
    reading: bool = False


@dataclass(frozen=True)
class PresetRow:
    offence: str
    kind: str
    points: str


@dataclass(frozen=True)
class ChangeShown:
    change: RuleChange
    differences: list[tuple[str, str, str]]  # (label, before, after)


@dataclass(frozen=True)
class RulesShown:
    profile: str
    book: str
    lines: list[RuleLine]
    presets: list[PresetRow]
    presets_reading: bool
    tiebreaks: list[str]
    tiebreaks_reading: bool
    changes: list[ChangeShown]

    @property
    def options(self) -> list[RuleLine]:
        """The lines said one by one (the presets and the ranking order have their own
        table and list)."""
        return [line for line in self.lines if line.key not in ("penalty_presets", "tiebreaks")]


def line_labels() -> dict[str, str]:
    return {
        "rule_profile": _("Rules"),
        "melded_and_concealed_kong": _("One melded and one concealed kong"),
        "flowers": _("Flowers"),
        "blessings": _("Blessings"),
        "minimum_fan": _("Minimum"),
        "session": _("A session"),
        "penalty_presets": _("Penalty presets"),
        "tiebreaks": _("Ranking order"),
    }


def kong_text(points: int) -> str:
    return {
        3: _("3 points: Melded Kong (1) + Concealed Kong (2)"),
        5: _("5 points: the fan Melded and Concealed Kong (明暗杠)"),
        6: _("6 points: Two Melded Kongs (4) + Concealed Kong (2)"),
    }[points]


def session_text(minutes: int, end: str, gong: int | None) -> str:
    if end == "gong":
        return _(
            "%(minutes)s minutes; a gong at %(gong)s minutes, after which the hand in play is "
            "finished and no new hand starts"
        ) % {"minutes": minutes, "gong": gong}
    return _(
        "%(minutes)s minutes; at the bell the hand in play is abandoned and no new hand starts"
    ) % {"minutes": minutes}


def points_text(points) -> str:
    """A preset's points as the page writes them: the usual one first, then the others, a
    run of three or more written as a range ("10", "5, 10, 20", "5-60")."""
    points = list(points)
    if points == sorted(points):
        return _runs(points)
    return ", ".join([str(points[0]), _runs(sorted(points[1:]))])


def _runs(numbers: list[int]) -> str:
    words, run = [], []
    for number in [*numbers, None]:
        if run and (number is None or number != run[-1] + 1):
            words.append(f"{run[0]}-{run[-1]}" if len(run) >= 3 else ", ".join(map(str, run)))
            run = []
        if number is not None:
            run.append(number)
    return ", ".join(words)


def preset_rows(presets: list[dict]) -> list[PresetRow]:
    offences = {offence.code: offence.reason for offence in OFFENCES}
    kinds = dict(Penalty.KIND_CHOICES)
    return [
        PresetRow(
            str(offences.get(p["offence"], p["offence"])),
            str(kinds.get(p["kind"], p["kind"])),
            points_text(p["points"]),
        )
        for p in presets
    ]


def tiebreak_labels(order: str) -> list[str]:
    labels = dict(TIEBREAK_CHOICES)
    return [str(labels.get(key, key)) for key in order.split(",") if key]


def option_texts(options: dict) -> dict[str, str]:
    """Each line's words for rule options (``services.rules.rule_options``)."""
    presets = "; ".join(
        f"{row.offence}: {row.points}" for row in preset_rows(options["penalty_presets"])
    )
    return {
        "rule_profile": str(dict(RULE_PROFILE_CHOICES)[options["rule_profile"]]),
        "melded_and_concealed_kong": kong_text(options["melded_and_concealed_kong"]),
        "flowers": _("played (144 tiles)") if options["flowers"] else _("not played (136 tiles)"),
        "blessings": _("counted: Heavenly, Earthly and Human Hand, 8 points each")
        if options["blessings"]
        else _("not counted"),
        "minimum_fan": _("%(fan)s fan, flowers not counted") % {"fan": options["minimum_fan"]},
        "session": session_text(
            options["session_minutes"], options["session_end"], options["gong_minute"]
        ),
        "penalty_presets": presets,
        "tiebreaks": ", ".join(tiebreak_labels(options["tiebreak_order"])),
    }


def reading_options(options: dict) -> list[str]:
    """The options (the profile's ``readings`` words) that are the site's reading of the
    profile's book: the profile names them, and the tournament keeps the profile's value."""
    profile = options["rule_profile"]
    preset = profile_options(profile)
    return sorted(
        word
        for word in PROFILES[profile].readings
        if options[READING_OPTIONS.get(word, word)] == preset[READING_OPTIONS.get(word, word)]
    )


def _readings(options: dict) -> set[str]:
    """The lines that are the site's reading (``reading_options``)."""
    kept = {READING_OPTIONS.get(word, word) for word in reading_options(options)}
    return {key for key, fields in LINES if kept & set(fields)}


def change_differences(before: dict, after: dict) -> list[tuple[str, str, str]]:
    """(label, before, after) of each line a change changed."""
    labels, old, new = line_labels(), option_texts(before), option_texts(after)
    return [(labels[key], old[key], new[key]) for key, _fields in LINES if old[key] != new[key]]


def rules_shown(tournament: Tournament) -> RulesShown:
    options = rule_options(tournament)
    texts, labels, readings = option_texts(options), line_labels(), _readings(options)
    changes = [
        ChangeShown(change, change_differences(change.before, change.after))
        for change in rule_changes(tournament)
    ]
    return RulesShown(
        profile=texts["rule_profile"],
        book=str(PROFILE_BOOKS[options["rule_profile"]]),
        lines=[RuleLine(key, labels[key], texts[key], key in readings) for key, _f in LINES],
        presets=preset_rows(options["penalty_presets"]),
        presets_reading="penalty_presets" in readings,
        tiebreaks=tiebreak_labels(options["tiebreak_order"]),
        tiebreaks_reading="tiebreaks" in readings,
        changes=changes,
    )


def rule_changes(tournament: Tournament) -> list[RuleChange]:
    """The changes of the tournament's rules after play started, oldest first."""
    return list(RuleChange.objects.filter(tournament=tournament).order_by("changed_at", "pk"))


def last_rule_change(tournament: Tournament) -> RuleChange | None:
    """The latest change of the rules after play started (the standings say so)."""
    return RuleChange.objects.filter(tournament=tournament).order_by("changed_at", "pk").last()


def rule_change_job(tournament):
    """The organiser's last change of the rules made by the task queue, while it is waiting
    or being made, or when it was refused (the rules page says why); None otherwise."""
    job = tournament.rule_change_jobs.order_by("-asked_at", "-pk").first()
    if job is None or job.status == "done":
        return None
    return job
