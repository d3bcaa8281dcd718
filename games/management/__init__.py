"""Django's place for the operator's commands (manage.py): each a thin shell over a
feature's services."""
