"""Ratings fair to both sides (docs/playing.md "Ratings"): OpenSkill's Plackett-Luce with
each side's virtual teammate learned from the rated rounds.

    model.py        the model itself, pure Python (bench/ratings.py runs it on self-play)
    sides.py        a round's sides and result, from its round_end event (pure)
    turn_shares.py  who played each seat's turns of a round (their shares)
    qualifying.py   whether a round counts: distinct people who each took their seat from
                    their own address
    rounds.py       after_moves: rate a rated game's rounds once their roles are revealed
    shown.py        the ratings as the home, the open tables and /ratings/ show them, and
                    which rounds of a rated game counted

Below games.play (the moves' follow-up calls rounds.after_moves) and above games.mail.
"""
