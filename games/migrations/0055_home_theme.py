from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0054_seat_confirm_moves'),
    ]

    operations = [
        migrations.AddField(
            model_name='homelink',
            name='theme',
            field=models.CharField(blank=True, default='', max_length=8, verbose_name='theme'),
        ),
    ]
