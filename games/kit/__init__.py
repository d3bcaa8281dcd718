"""Tools every feature may use and that know no feature: rate limits, the one way to hand
work to the worker after a commit, a bounded memory, JSON in and out, what people may
type, who is asking, the services' error base, month and weekday names, reads from a
replica (the router and the pages' opt-in).
"""
