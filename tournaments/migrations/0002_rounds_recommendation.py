"""Seed the recommended number of Swiss rounds (Magic Tournament Rules, Appendix E).

For 2-8 players Appendix E recommends single elimination; a Swiss event of that
size still needs a number, so it gets log2 of the field rounded up.
"""

from django.db import migrations

TABLE = [
    # min, max, swiss rounds, top cut
    (2, 2, 1, 0),
    (3, 4, 2, 0),
    (5, 8, 3, 0),
    (9, 16, 5, 4),
    (17, 32, 5, 8),
    (33, 64, 6, 8),
    (65, 128, 7, 8),
    (129, 226, 8, 8),
    (227, 409, 9, 8),
    (410, None, 10, 8),
]


def seed(apps, schema_editor):
    Recommendation = apps.get_model("tournaments", "RoundsRecommendation")
    for low, high, rounds, cut in TABLE:
        Recommendation.objects.update_or_create(
            min_players=low, defaults={"max_players": high, "swiss_rounds": rounds, "top_cut": cut}
        )


def unseed(apps, schema_editor):
    apps.get_model("tournaments", "RoundsRecommendation").objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0001_initial")]
    operations = [migrations.RunPython(seed, unseed)]
