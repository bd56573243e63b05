from django.contrib import admin

from dashboard.models import ErrorRecord


@admin.register(ErrorRecord)
class ErrorRecordAdmin(admin.ModelAdmin):
    list_display = ("last_seen", "source", "logger", "message", "count")
    list_filter = ("source",)
    search_fields = ("message", "path", "task_name", "exception")
    readonly_fields = [f.name for f in ErrorRecord._meta.fields]

    def has_add_permission(self, request):
        return False
