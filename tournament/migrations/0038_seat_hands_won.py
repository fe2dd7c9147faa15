"""Each seat's hands won at its table, stored with the rest of its result (the tie-break
"hands_won"): counted here from the hands already entered, as ``services.results`` keeps it
from now on."""

from django.db import migrations, models
from django.db.models import Count, F


def count_hands_won(apps, schema_editor):
    Hand = apps.get_model("tournament", "Hand")
    Seat = apps.get_model("tournament", "Seat")
    wins = (
        Hand.objects.filter(winner__isnull=False)
        .order_by()
        .values_list("table_id", "winner")
        .annotate(won=Count("id"))
    )
    for table_id, winner, won in wins:
        Seat.objects.filter(table_id=table_id, seat=winner).update(hands_won=won)
    # What was computed from the seats before (the standings) is computed again.
    apps.get_model("tournament", "TournamentVersion").objects.update(number=F("number") + 1)


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0037_rule_profiles"),
    ]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="hands_won",
            field=models.PositiveSmallIntegerField(default=0),
        ),
        migrations.RunPython(count_hands_won, migrations.RunPython.noop),
    ]
