from django.contrib import admin

from tournament.models import (
    Hand,
    Penalty,
    Player,
    Seat,
    Session,
    Table,
    TableReopening,
    Tournament,
)


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "session_count"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["organisers", "referees"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["tournament", "number", "name", "name_zh", "team", "is_substitute"]
    list_filter = ["tournament"]
    search_fields = ["name", "name_zh", "team"]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0


@admin.register(Session)
class SessionAdmin(admin.ModelAdmin):
    list_display = ["tournament", "number", "seed", "opened_at", "closed_at"]


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["session", "number", "confirmed_at"]
    inlines = [SeatInline]


class ReadOnlyMixin:
    """Hands are settled by the scoring core through the referee pages: here they are only read."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class PenaltyInline(ReadOnlyMixin, admin.TabularInline):
    model = Penalty
    extra = 0


@admin.register(Hand)
class HandAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["table", "number", "outcome", "winner", "discarder", "fan", "flowers"]
    inlines = [PenaltyInline]


admin.site.register(TableReopening)
