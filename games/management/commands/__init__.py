"""The operator's commands: creategame, demo, createmoderator, playerdata, inbound,
rotatelinks, verifygame."""
