"""A real streaming replica (tests/replica.py: a throwaway primary and its standby made
with pg_basebackup, some 5 s): it has the primary's writes, refuses its own, and the lag
the router asks it for (games.kit.replica_reads.replica_lag) is what it says: about 0
while it streams, None (not to be read) once the stream stops. The router's choices are
tested on the suite's mirror (tests/ops/test_replica_reads.py) and the pages on a real
replica by the production topology (.ci/topology.py)."""

from __future__ import annotations

import time

import psycopg
import pytest
from django.db import connection

from games.kit.replica_reads import replica_lag
from tests import replica

pytestmark = [pytest.mark.postgres, pytest.mark.slow]


def test_a_streaming_replica_has_the_primarys_writes_and_says_how_far_behind_it_is() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("runs with the PostgreSQL tests (run.py test's PostgreSQL leg)")
    if not replica.available():
        pytest.skip("needs PostgreSQL's server programs: initdb, pg_ctl, pg_basebackup")
    with replica.StreamingReplica.started() as pair:
        pair.query(pair.primary_url(), "CREATE TABLE written (id int)")
        pair.query(pair.primary_url(), "INSERT INTO written VALUES (1), (2)")
        pair.wait_replayed()
        with psycopg.connect(pair.standby_url(), autocommit=True) as standby:
            assert standby.execute("SELECT count(*) FROM written").fetchone() == (2,)
            with pytest.raises(psycopg.errors.ReadOnlySqlTransaction):
                standby.execute("INSERT INTO written VALUES (3)")
            lag = replica_lag(standby.cursor())
            assert lag is not None
            assert lag < 1
            pair.stop_primary()
            deadline = time.monotonic() + 30
            while replica_lag(standby.cursor()) is not None:  # the receiver ends with it
                assert time.monotonic() < deadline, "the standby still streams"
                time.sleep(0.05)
