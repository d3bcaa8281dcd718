"""A first game with a guide (/learn/): a scripted first round against two bots, each
step explaining one rule on the learner's own seat page, then a normal game."""
