"""A tournament's rules: the organisers' page that chooses and changes them, and the page
anyone reads them on (docs/rules.md)."""

from django.contrib import messages
from django.http import QueryDict
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_safe

from tournament import services
from tournament.forms.calculator import rules_query
from tournament.forms.rules import RulesForm, form_initial
from tournament.forms.service_errors import form_saved
from tournament.selectors.lookups import versions
from tournament.selectors.rules import rule_change_job, rule_changes, rules_shown
from tournament.services.rules import RuleChangeJob
from tournament.views.common import FORM, get_tournament, page, roles, tournament_page
from tournament.views.shared_pages import page_key, shared_page


@tournament_page("organiser", FORM)
def rules_edit(request, tournament):
    started = services.play_started(tournament)
    if request.method == "POST" and "take_profile" in request.POST:
        # Fill the form with the chosen profile's options; nothing is saved until "Save".
        chosen = request.POST.get("rule_profile")
        if chosen in dict(RulesForm.base_fields["rule_profile"].choices):
            form = RulesForm(
                initial=form_initial(services.profile_options(chosen)),
                tournament=tournament,
                started=started,
            )
            messages.info(
                request,
                _("The profile's options are filled in below: check them, then save."),
            )
            return _edit_page(request, tournament, form, started)
    form = RulesForm(request.POST or None, tournament=tournament, started=started)

    def change():
        return services.rules_change_ask(
            tournament=tournament,
            user=request.user,
            reason=form.cleaned_data.get("reason", ""),
            **form.options(),
        )

    if saved := form_saved(request, form, change):
        change = saved.result
        if change is None:
            messages.success(request, _("The rules are saved."))
        elif isinstance(change, RuleChangeJob):
            messages.info(
                request,
                _(
                    "The change is being made: every stored hand is settled again by the "
                    "task queue. This page says when it is done."
                ),
            )
            return redirect("rules_edit", tournament.slug)
        elif not change.hands_settled:
            messages.success(
                request, _("The rules are changed; no hand is scored differently under them.")
            )
        else:
            messages.success(
                request,
                ngettext(
                    "The rules are changed: %(settled)s hand settled again, %(changed)s of "
                    "them changed.",
                    "The rules are changed: %(settled)s hands settled again, %(changed)s of "
                    "them changed.",
                    change.hands_settled,
                )
                % {"settled": change.hands_settled, "changed": change.hands_changed},
            )
        return redirect("rules", tournament.slug)
    return _edit_page(request, tournament, form, started)


def _edit_page(request, tournament, form, started):
    return page(
        request,
        "rules/edit.html",
        tournament,
        form=form,
        started=started,
        changes=rule_changes(tournament),
        job=rule_change_job(tournament),
    )


@require_safe
def rules_page(request, slug):
    """The tournament's rules in words, for anyone; kept for the spectators under the
    tournament's versions (a change of the rules raises them) like the standings."""
    tournament = get_tournament(request, slug)
    found = versions(tournament, as_read=True)

    def context() -> dict:
        return {
            **roles(request, tournament),
            "tournament": tournament,
            "rules": rules_shown(tournament),
            "calculator_query": rules_query(tournament.rules, whole=True),
            "page_path": request.path,
        }

    shown = (tournament.pk, found, tournament.name, tournament.slug, tournament.time_zone)
    return shared_page(
        request, page_key("rules-page", shown, QueryDict()), "rules/page.html", context
    )
