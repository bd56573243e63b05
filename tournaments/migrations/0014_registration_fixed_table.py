import django.core.validators
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0013_profiles_and_series"),
    ]

    operations = [
        migrations.AddField(
            model_name="registration",
            name="fixed_table",
            field=models.PositiveIntegerField(
                blank=True,
                null=True,
                validators=[
                    django.core.validators.MinValueValidator(1),
                    django.core.validators.MaxValueValidator(9999),
                ],
                verbose_name="fixed table",
            ),
        ),
    ]
