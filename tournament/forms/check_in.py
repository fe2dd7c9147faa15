"""The check-in's forms: a player's own, the desk's tick, the timetable, and the seats of
players who did not come."""

from django import forms
from django.utils.translation import gettext_lazy as _

from tournament.services.check_in import AbsentSeatChoice, absent_field


class OwnCheckInForm(forms.Form):
    """A player's *Check in* button: the session whose check-in it is."""

    session = forms.IntegerField(min_value=1, max_value=30)


class TimetableForm(forms.Form):
    """When each session starts: one date and time field a session, empty for none yet."""

    def __init__(self, *args, timetable, **kwargs):
        super().__init__(*args, **kwargs)
        for scheduled in timetable:
            self.fields[self.field_name(scheduled.number)] = forms.DateTimeField(
                label=_("Session %(n)s starts") % {"n": scheduled.number},
                required=False,
                initial=scheduled.starts_at,
                widget=forms.DateTimeInput(
                    attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"
                ),
            )

    @staticmethod
    def field_name(number: int) -> str:
        return f"session_{number}"

    def starts(self) -> dict[int, object]:
        return {
            int(name.removeprefix("session_")): value for name, value in self.cleaned_data.items()
        }


class AbsentSeatsForm(forms.Form):
    """For each seated player who has not checked in: the player who takes their seat (or
    nobody yet), and whether they are withdrawn from the sessions still to come."""

    def __init__(self, *args, absent, **kwargs):
        super().__init__(*args, **kwargs)
        self.absent = absent
        choices = [("", _("Nobody: the seat stays theirs"))] + [
            (
                str(player.number),
                f"{player.number} {player.name}"
                + (f" · {_('substitute')}" if player.is_substitute else "")
                + (f" · {_('checked in')}" if checked_in else ""),
            )
            for player, checked_in in absent.candidates
        ]
        self.by_number = {player.number: player for player, _checked in absent.candidates}
        for each in absent.seats:
            self.fields[absent_field(each.player, "substitute")] = forms.TypedChoiceField(
                label=_("Seat given to"),
                choices=choices,
                coerce=int,
                empty_value=None,
                required=False,
            )
            self.fields[absent_field(each.player, "withdraw")] = forms.BooleanField(
                label=_(
                    "Also withdraw %(player)s: not drawn for the sessions still to come; "
                    "the sessions already played stand."
                )
                % {"player": each.player},
                required=False,
            )

    def rows(self):
        """Each absent seat with its two fields, for the page."""
        return [
            (
                each,
                self[absent_field(each.player, "substitute")],
                self[absent_field(each.player, "withdraw")],
            )
            for each in self.absent.seats
        ]

    def choices(self) -> list[AbsentSeatChoice]:
        data = self.cleaned_data
        return [
            AbsentSeatChoice(
                absent=each.player,
                substitute=self.by_number.get(data.get(absent_field(each.player, "substitute"))),
                withdraw=bool(data.get(absent_field(each.player, "withdraw"))),
            )
            for each in self.absent.seats
        ]
