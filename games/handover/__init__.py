"""When a player leaves: a seat opens for a newcomer, standby volunteers and invited people
are offered it, one takes it over with a new link; the pages and the admin of it.
"""

from games.handover.core.handover_errors import HandoverError, SeatGone

__all__ = ["HandoverError", "SeatGone"]
