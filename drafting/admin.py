from __future__ import annotations

from django.contrib import admin

from drafting.models import Pick, Pod, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("number", "user", "display_name", "is_bot", "abandoned", "deck_submitted_at")
    readonly_fields = fields
    can_delete = False


@admin.register(Pod)
class PodAdmin(admin.ModelAdmin):
    list_display = ("__str__", "kind", "status", "seats_count", "event", "created_by", "created_at")
    list_filter = ("status", "kind")
    search_fields = ("name", "event__name")
    readonly_fields = ("status", "seed", "state", "build_deadline", "started_at", "finished_at")
    inlines = [SeatInline]


@admin.register(Pick)
class PickAdmin(admin.ModelAdmin):
    list_display = ("pod", "seat", "booster_round", "pick_number", "card_id", "auto", "picked_at")
    list_filter = ("auto",)
    readonly_fields = [f.name for f in Pick._meta.fields]
