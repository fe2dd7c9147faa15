"""People across tournaments: the organiser's page linking the tournament's players to
people (matches by name to confirm, a search to link by hand, new people), and a person's
public page of tournaments and results."""

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_safe

from tournament import services
from tournament.forms.people import HandLinkForm, LinkForm, NewPeopleForm
from tournament.forms.service_errors import form_saved
from tournament.selectors.people import (
    linked_players,
    person_by_id,
    person_results,
    person_search,
    person_suggestions,
)
from tournament.selectors.series import person_series
from tournament.tables import paginate
from tournament.tables.people import LinkedPlayersTable, PersonResultsTable
from tournament.views.common import POST, READ, action_told, get_player, page, tournament_page


def _suggestion_choices(suggestions) -> list[str]:
    return [f"{s.player.number}:{person.pk}" for s in suggestions for person in s.people]


def _people_page(request, tournament, **forms):
    suggestions, others = person_suggestions(tournament)
    linked = linked_players(tournament)
    query = request.GET.get("q", "")[:100]
    return page(
        request,
        "people/tournament.html",
        tournament,
        suggestions=suggestions,
        others=others,
        linked=linked,
        linked_table=paginate(request, LinkedPlayersTable(linked, slug=tournament.slug)),
        query=query,
        found=person_search(query, exclude_tournament=tournament),
        link_form=forms.get("link_form") or LinkForm(choices=_suggestion_choices(suggestions)),
        new_form=forms.get("new_form"),
        hand_form=forms.get("hand_form"),
    )


@tournament_page("organiser", READ)
def tournament_people(request, tournament):
    """The players and the people they are: matches to confirm, the others, the links."""
    return _people_page(request, tournament)


@tournament_page("organiser", POST)
def people_link(request, tournament):
    """Link the matches by name the organiser ticked."""
    suggestions, _others = person_suggestions(tournament)
    form = LinkForm(request.POST, choices=_suggestion_choices(suggestions))
    if saved := form_saved(
        request, form, lambda: services.people_link(tournament=tournament, links=form.links())
    ):
        messages.success(
            request,
            ngettext("%(count)s player linked.", "%(count)s players linked.", saved.result)
            % {"count": saved.result},
        )
        return redirect("tournament_people", tournament.slug)
    return _people_page(request, tournament, link_form=form)


@tournament_page("organiser", POST)
def person_link_by_hand(request, tournament):
    """Link one player to the person the organiser found by the search."""
    form = HandLinkForm(request.POST)

    def link():
        links = [(form.cleaned_data["player"], form.cleaned_data["person"])]
        return services.people_link(tournament=tournament, links=links)

    if form_saved(request, form, link):
        messages.success(request, _("Player linked."))
        return redirect("tournament_people", tournament.slug)
    return _people_page(request, tournament, hand_form=form)


@tournament_page("organiser", POST)
def people_new(request, tournament):
    """A new person for each player ticked (playing here for the first time)."""
    _suggestions, others = person_suggestions(tournament)
    numbers = [p.number for p in others] + [s.player.number for s in _suggestions]
    form = NewPeopleForm(request.POST, numbers=numbers)

    def create():
        return services.person_create_for(
            tournament=tournament, numbers=form.cleaned_data["player"]
        )

    if saved := form_saved(request, form, create):
        messages.success(
            request,
            ngettext("%(count)s new person.", "%(count)s new people.", saved.result)
            % {"count": saved.result},
        )
        return redirect("tournament_people", tournament.slug)
    return _people_page(request, tournament, new_form=form)


@tournament_page("organiser", POST)
def people_link_by_ema(request, tournament):
    """Link every player with an EMA number to that number's person (players registered
    before people were kept)."""
    changed = services.people_link_by_ema_numbers(tournament=tournament)
    messages.success(
        request,
        ngettext(
            "%(count)s player linked by EMA number.",
            "%(count)s players linked by EMA number.",
            changed,
        )
        % {"count": changed},
    )
    return redirect("tournament_people", tournament.slug)


@tournament_page("organiser", POST)
def person_unlink(request, tournament, number):
    player = get_player(tournament, number)
    action_told(
        request,
        lambda: services.person_unlink(player=player),
        _("%(player)s is no longer linked.") % {"player": player},
    )
    return redirect("tournament_people", tournament.slug)


@require_safe
def person_page(request, pk):
    """A person's tournaments, newest first, with their rank, table points and score, and
    the series they are ranked in: public, as the standings are."""
    person = person_by_id(pk)
    if person is None:
        raise Http404(_("No such person."))
    return render(
        request,
        "people/person.html",
        {
            "person": person,
            "results": paginate(request, PersonResultsTable(person_results(person))),
            "series": person_series(person),
        },
    )
