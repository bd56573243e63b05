from django.contrib import admin

from notifications.models import Notice, Preferences


@admin.register(Notice)
class NoticeAdmin(admin.ModelAdmin):
    list_display = ("created_at", "user", "kind", "key", "in_browser", "read_at", "mail")
    list_filter = ("kind", "mail", "in_browser")
    search_fields = ("user__username", "key")
    raw_id_fields = ("user", "event")
    readonly_fields = ("created_at", "mailed_at")


@admin.register(Preferences)
class PreferencesAdmin(admin.ModelAdmin):
    list_display = ("user", "language", "last_language", "updated_at")
    search_fields = ("user__username",)
    raw_id_fields = ("user",)
