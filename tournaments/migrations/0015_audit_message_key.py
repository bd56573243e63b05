"""The audit logs keep each line as a message and its parameters, translated when shown
(``tournaments.audit_text``); older entries keep only their English summary."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0014_registration_fixed_table"),
    ]

    operations = [
        migrations.AddField(
            model_name="auditentry",
            name="message",
            field=models.CharField(blank=True, default="", max_length=300),
        ),
        migrations.AddField(
            model_name="auditentry",
            name="params",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.AddField(
            model_name="seriesauditentry",
            name="message",
            field=models.CharField(blank=True, default="", max_length=300),
        ),
        migrations.AddField(
            model_name="seriesauditentry",
            name="params",
            field=models.JSONField(blank=True, default=dict),
        ),
    ]
