"""Ratings fair to both sides: the model (a softmax over each round's results from the
teams' strengths, each side's learned teammate, the ratings moved by its surprise), which
rounds count, rating them as they end, and the ratings as players see them.
"""
