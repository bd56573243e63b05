from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("play", "0002_seat_clock_check"),
    ]

    operations = [
        migrations.AddField(
            model_name="sessionseat",
            name="pending_move_at",
            field=models.DateTimeField(blank=True, editable=False, null=True),
        ),
    ]
