from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0026_player_data'),
    ]

    operations = [
        migrations.AddField(
            model_name='game',
            name='bot_level',
            field=models.CharField(choices=[('normal', 'normal'), ('strong', 'strong: reads the table and looks ahead')], default='normal', max_length=8, verbose_name='bot level'),
        ),
    ]
