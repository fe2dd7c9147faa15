from pathlib import Path

from django.conf import settings
from django.contrib.auth.models import Permission, User
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from tournament import services
from tournament.models import Tournament
from tournament.server.demo import give_free_tables, load_demo, read_plan

DEMO_PLAN = Path(settings.BASE_DIR) / "fixtures" / "demo.json"
# Demo-only accounts, printed on the console and in the README. Never use them for a real event.
DEMO_ACCOUNTS = {
    "organiser": ("demo-organiser", "organiser"),
    "referee": ("demo-referee", "referee"),
}


class Command(BaseCommand):
    help = "Load the demo tournament (once) and make sure the demo accounts exist."

    @transaction.atomic
    def handle(self, *args, **options):
        if not settings.DEBUG:
            # A real event's server (MCR_DEBUG=0): accounts whose passwords anyone can read
            # in the README would let anyone in as its organiser.
            raise CommandError(
                "setup_demo makes accounts whose passwords are public (they are in the "
                "README), so it runs only with MCR_DEBUG=1, as make run sets. For a real "
                "event, make the organiser's account with manage.py createsuperuser."
            )
        plan = read_plan(DEMO_PLAN)
        tournament = Tournament.objects.filter(slug=plan["tournament"]["slug"]).first()
        if tournament is None:
            tournament = load_demo(plan)
            self.stdout.write("Loaded the demo tournament.")
        self.stdout.write("Demo accounts (for the demo only):")
        roles = {
            "organiser": set(tournament.organisers.all()),
            "referee": set(tournament.referees.all()),
        }
        accounts = {}
        for username, (password, role) in DEMO_ACCOUNTS.items():
            user, created = User.objects.get_or_create(username=username)
            if created:
                user.set_password(password)
                user.save()
            if role == "organiser":
                user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
            roles[role].add(user)
            accounts[role] = user
            # An account that existed before keeps its password: say so rather than mislead.
            shown = repr(password) if created or user.check_password(password) else "(changed)"
            self.stdout.write(f"  {role:<10} user {username!r} password {shown}")
        services.tournament_update(
            tournament=tournament, organisers=roles["organiser"], referees=roles["referee"]
        )
        # The demo referee may enter at every table of the demo, as its organiser may.
        give_free_tables(tournament, accounts["referee"])
        # The demo organiser runs the demo's series too.
        for series in tournament.series.all():
            services.series_save(
                series=series,
                tournaments=list(series.tournaments.all()),
                organisers={*series.organisers.all(), accounts["organiser"]},
            )
