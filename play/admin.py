from __future__ import annotations

from django.contrib import admin

from play.models import ActionLog, GameSession, SessionSeat


class SessionSeatInline(admin.TabularInline):
    model = SessionSeat
    extra = 0
    raw_id_fields = ("user", "match_seat")


@admin.register(GameSession)
class GameSessionAdmin(admin.ModelAdmin):
    list_display = (
        "pk",
        "system",
        "match",
        "game_number",
        "status",
        "seq",
        "end_reason",
        "created_at",
    )
    list_filter = ("system", "status", "end_reason")
    raw_id_fields = ("match", "created_by")
    readonly_fields = ("seed", "state", "seq", "result")
    inlines = [SessionSeatInline]


@admin.register(ActionLog)
class ActionLogAdmin(admin.ModelAdmin):
    list_display = ("session", "seq", "seat", "applied_at")
    raw_id_fields = ("session",)
