from django.contrib import admin

from tournament.models import (
    Hand,
    HandRevision,
    Penalty,
    Player,
    Seat,
    Session,
    Table,
    TableReopening,
    Tournament,
)


class ReadOnlyMixin:
    """Tournament data is written by the pages' services, which check and settle it: read here."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "session_count"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["organisers", "referees"]


@admin.register(Player)
class PlayerAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["tournament", "number", "name", "name_zh", "team", "is_substitute"]
    list_filter = ["tournament"]
    search_fields = ["name", "name_zh", "team"]


class SeatInline(ReadOnlyMixin, admin.TabularInline):
    model = Seat
    extra = 0


@admin.register(Session)
class SessionAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["tournament", "number", "seed", "opened_at", "closed_at"]


@admin.register(Table)
class TableAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["session", "number", "confirmed_at"]
    inlines = [SeatInline]


class PenaltyInline(ReadOnlyMixin, admin.TabularInline):
    model = Penalty
    extra = 0


@admin.register(Hand)
class HandAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["table", "number", "outcome", "winner", "discarder", "fan", "flowers"]
    inlines = [PenaltyInline]


@admin.register(TableReopening, HandRevision)
class RecordAdmin(ReadOnlyMixin, admin.ModelAdmin):
    pass
