"""Games set up by a host on the web page, by an operator's command or as a rematch:
checked, capped against abuse, confirmed by the host, their players invited.
"""
