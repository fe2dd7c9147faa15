from django.core.management.base import BaseCommand, CommandError

from tournament.language import catalogue


class Command(BaseCommand):
    help = (
        "Bring the Chinese catalogue (locale/zh_Hans) in step with the source and compile it; "
        "with --check, list what is untranslated or out of date and fail if anything is."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--check", action="store_true", help="change nothing; fail on any problem"
        )

    def handle(self, *args, check=False, **options):
        if check:
            found = catalogue.problems()
            for problem in found:
                self.stdout.write(problem)
            if found:
                raise CommandError(f"{len(found)} problems in the Chinese catalogue.")
            self.stdout.write("The Chinese catalogue is complete and compiled.")
            return
        new, dropped = catalogue.update()
        self.stdout.write(
            f"{new} new strings to translate, {dropped} dropped; "
            f"{catalogue.Paths.default().mo} compiled."
        )
