from django.contrib import admin

from tournament.models import (
    DrawCommitment,
    Hand,
    HandRevision,
    HandSubmission,
    Penalty,
    Player,
    Seat,
    SeatingPlan,
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
class TournamentAdmin(ReadOnlyMixin, admin.ModelAdmin):
    # Settings change on the tournament's Settings page, whose service refuses what would
    # break drawn sessions; deleting is the organiser's confirmation page.
    list_display = ["name", "slug", "session_count", "seating_method", "created_at"]
    search_fields = ["name", "slug"]


@admin.register(Player)
class PlayerAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["tournament", "number", "name", "name_zh", "team", "is_substitute"]
    list_filter = ["tournament"]
    search_fields = ["name", "name_zh", "team"]


class SeatInline(ReadOnlyMixin, admin.TabularInline):
    model = Seat
    extra = 0


@admin.register(SeatingPlan)
class SeatingPlanAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["tournament", "seed", "fixed_sessions", "replans", "moved_seats", "updated_at"]


@admin.register(DrawCommitment)
class DrawCommitmentAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["tournament", "hash", "committed_at", "revealed_at", "withdrawn_at"]
    # The secret stays off the admin too: the fairness page shows it once public.
    exclude = ["secret_seed", "salt"]


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


@admin.register(TableReopening, HandRevision, HandSubmission)
class RecordAdmin(ReadOnlyMixin, admin.ModelAdmin):
    pass
