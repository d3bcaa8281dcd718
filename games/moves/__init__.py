"""The one way a move is made, whoever makes it (the seat's link, an email reply, a bot,
the server at a deadline, a moderator): the Game row locked, the version checked, the
engine asked, the move and its outbox row written; the stores that read and write it;
the bots' turns.
"""
