"""Ratings fair to both sides: the model (OpenSkill's Plackett-Luce with each side's
learned teammate), which rounds count, rating them as they end, and the ratings as
players see them.
"""
