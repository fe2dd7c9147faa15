"""Players' first and last names, EMA number and country as a three-letter code.

Existing players keep everything: the first and last names are split from the name
(``tournament.players.names``); a country already written as three letters is put in capitals, a
country the table of ``tournament.players.federation`` knows by name or other code is replaced by
its code ("France" by FRA), and any other country text moves to ``country_unrecognised``,
which the players page shows to the organiser until the player's country is given again.
Each player changed gets a history row saying so, and every tournament's version is raised
so that nothing cached from before is read again.
"""

from django.db import migrations, models
from django.db.models import F
from django.utils import timezone

# The conversion uses the app's own rules, so that a country the migration recognises is
# one a player list recognises too.
from tournament.history.audit import COUNTRY_CODES
from tournament.players.federation import FieldValueError, normalise_country
from tournament.players.names import split_name


def convert_players(apps, schema_editor):
    player_model = apps.get_model("tournament", "Player")
    history_model = apps.get_model("tournament", "HistoricalPlayer")
    fields = [field.attname for field in player_model._meta.concrete_fields]
    now = timezone.now()
    history = []
    for player in player_model.objects.order_by("pk").iterator(chunk_size=500):
        before = [getattr(player, name) for name in fields]
        player.first_name, player.last_name = split_name(player.name)
        try:
            player.country = normalise_country(player.country)
        except FieldValueError:
            player.country_unrecognised, player.country = player.country, ""
        if [getattr(player, name) for name in fields] == before:
            continue
        player.save(update_fields=["first_name", "last_name", "country", "country_unrecognised"])
        history.append(
            history_model(
                **{name: getattr(player, name) for name in fields},
                history_date=now,
                history_type="~",
                history_change_reason=COUNTRY_CODES,
            )
        )
    history_model.objects.bulk_create(history, batch_size=500)
    apps.get_model("tournament", "TournamentVersion").objects.update(
        number=F("number") + 1, seating=F("seating") + 1
    )


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0013_draw_commitment"),
    ]

    operations = [
        migrations.AddField(
            model_name="historicalplayer",
            name="country_unrecognised",
            field=models.CharField(
                blank=True, max_length=60, verbose_name="country as written before codes"
            ),
        ),
        migrations.AddField(
            model_name="historicalplayer",
            name="ema_number",
            field=models.CharField(blank=True, max_length=8, verbose_name="EMA number"),
        ),
        migrations.AddField(
            model_name="historicalplayer",
            name="first_name",
            field=models.CharField(blank=True, max_length=60, verbose_name="first name"),
        ),
        migrations.AddField(
            model_name="historicalplayer",
            name="last_name",
            field=models.CharField(blank=True, max_length=60, verbose_name="last name"),
        ),
        migrations.AddField(
            model_name="player",
            name="country_unrecognised",
            field=models.CharField(
                blank=True, max_length=60, verbose_name="country as written before codes"
            ),
        ),
        migrations.AddField(
            model_name="player",
            name="ema_number",
            field=models.CharField(blank=True, max_length=8, verbose_name="EMA number"),
        ),
        migrations.AddField(
            model_name="player",
            name="first_name",
            field=models.CharField(blank=True, max_length=60, verbose_name="first name"),
        ),
        migrations.AddField(
            model_name="player",
            name="last_name",
            field=models.CharField(blank=True, max_length=60, verbose_name="last name"),
        ),
        migrations.RunPython(convert_players, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="player",
            constraint=models.UniqueConstraint(
                condition=models.Q(("ema_number", ""), _negated=True),
                fields=("tournament", "ema_number"),
                name="player_ema_number_unique_in_tournament",
            ),
        ),
        migrations.AddConstraint(
            model_name="player",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("country", ""), ("country__regex", "^[A-Z]{3}$"), _connector="OR"),
                    models.Q(
                        ("ema_number", ""), ("ema_number__regex", "^[0-9]{8}$"), _connector="OR"
                    ),
                ),
                name="player_country_and_ema_number_codes",
            ),
        ),
    ]
