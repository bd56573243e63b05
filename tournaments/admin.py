from django.contrib import admin

from tournaments.models import (
    AuditEntry,
    Decklist,
    Event,
    EventStaff,
    Match,
    MatchSeat,
    Registration,
    Round,
    RoundsRecommendation,
)


class StaffInline(admin.TabularInline):
    model = EventStaff
    extra = 0
    raw_id_fields = ["user"]


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["name", "game_system", "format", "structure", "status", "created_at"]
    list_filter = ["status", "structure", "format", "game_system"]
    search_fields = ["name", "slug"]
    inlines = [StaffInline]
    readonly_fields = ["seed", "status", "phase"]


@admin.register(Registration)
class RegistrationAdmin(admin.ModelAdmin):
    list_display = ["display_name", "event", "status", "first_round", "is_bot"]
    list_filter = ["status", "is_bot"]
    search_fields = ["display_name", "event__name"]
    raw_id_fields = ["user", "event"]


class SeatInline(admin.TabularInline):
    model = MatchSeat
    extra = 0
    raw_id_fields = ["registration", "round"]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["event", "number", "kind", "status", "published_at"]
    list_filter = ["status", "kind"]


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["round", "table", "status", "result_source", "is_bye"]
    list_filter = ["status", "result_source"]
    inlines = [SeatInline]
    raw_id_fields = ["round", "winner"]


@admin.register(AuditEntry)
class AuditAdmin(admin.ModelAdmin):
    list_display = ["created_at", "event", "actor", "action", "summary"]
    list_filter = ["action"]
    search_fields = ["summary", "event__name"]

    def has_change_permission(self, request, obj=None):
        return False


admin.site.register(RoundsRecommendation)
admin.site.register(Decklist)
