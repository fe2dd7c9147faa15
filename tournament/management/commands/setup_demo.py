from pathlib import Path

from django.conf import settings
from django.contrib.auth.models import Permission, User
from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import transaction

from tournament.models import Tournament

DEMO_SLUG = "demo-open-2026"
DEMO_FIXTURE = Path(settings.BASE_DIR) / "fixtures" / "demo.json"
# Demo-only accounts, printed on the console and in the README. Never use them for a real event.
DEMO_ACCOUNTS = {
    "organiser": ("demo-organiser", "organiser"),
    "referee": ("demo-referee", "referee"),
}


class Command(BaseCommand):
    help = "Load the demo tournament (once) and make sure the demo accounts exist."

    @transaction.atomic
    def handle(self, *args, **options):
        if not Tournament.objects.filter(slug=DEMO_SLUG).exists():
            call_command("loaddata", str(DEMO_FIXTURE), verbosity=0)
            self.stdout.write("Loaded the demo tournament.")
        tournament = Tournament.objects.get(slug=DEMO_SLUG)
        for username, (password, role) in DEMO_ACCOUNTS.items():
            user, created = User.objects.get_or_create(username=username)
            if created:
                user.set_password(password)
                user.save()
            if role == "organiser":
                user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
                tournament.organisers.add(user)
            else:
                tournament.referees.add(user)
        self.stdout.write("Demo accounts (for the demo only):")
        for username, (password, role) in DEMO_ACCOUNTS.items():
            self.stdout.write(f"  {role:<10} user {username!r} password {password!r}")
