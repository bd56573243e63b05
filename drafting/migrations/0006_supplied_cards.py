from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("drafting", "0005_default_game_from_the_registry")]

    operations = [
        migrations.RenameField("pod", "supplied_cities", "supplied_cards"),
        migrations.AlterField(
            model_name="pod",
            name="supplied_cards",
            field=models.JSONField(blank=True, default=list, verbose_name="supplied cards"),
        ),
    ]
