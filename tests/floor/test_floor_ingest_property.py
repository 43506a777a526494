"""Any delivery the broker can make ends with the floor holding the table's chain.

Hypothesis draws how a table's rows reach the floor: in batches of any size,
some rows lost, some repeated, some swapped; whenever the floor asks for a
resend (a gap, or a stalled table whose status is ahead), the table sends
again from that row, as floor/publisher.py does.  Expected, independent of
the floor's code: the chain as the table wrote it (floor_rows.py), stored
once each, and no alarm (nothing was forged).
"""

from __future__ import annotations

from floor_rows import small_game
from hypothesis import given, settings
from hypothesis import strategies as st

from floor.ingest import RESEND_AGAIN_S, Floor
from floor.messages import TableStatus, decode_resend, encode_entry, encode_status, topic
from floor.store import SqliteStore

ROWS = small_game("table-1", count=8)
JOURNAL = topic("table-1", "journal")


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@settings(max_examples=150, deadline=None)
@given(
    plan=st.lists(
        st.tuples(
            st.sampled_from(["deliver", "lose", "repeat", "swap"]),
            st.integers(min_value=1, max_value=4),  # batch size
        ),
        min_size=1,
        max_size=30,
    )
)
def test_any_delivery_ends_with_the_chain_stored_once(plan: list[tuple[str, int]]) -> None:
    clock = Clock()
    floor = Floor(SqliteStore(":memory:"), clock=clock)
    outbox = list(ROWS)  # what the table will send next, in order
    status = (
        JOURNAL.replace("journal", "status"),
        encode_status(TableStatus("table-1", True, at=1.0, last_seq=len(ROWS))),
    )

    def resend_from(first: int) -> None:
        outbox[:] = ROWS[first - 1 :]

    def feed(batch: list[tuple[str, bytes]]) -> None:
        for out in floor.handle(batch):
            if out.payload:
                resend_from(decode_resend(out.payload))

    feed([status])
    for action, size in plan:
        chunk, outbox[:] = outbox[:size], outbox[size:]
        if action == "lose":
            chunk = chunk[1:]
        elif action == "repeat":
            chunk = chunk + chunk[:1]
        elif action == "swap" and len(chunk) >= 2:
            chunk = [chunk[1], chunk[0], *chunk[2:]]
        feed([(JOURNAL, encode_entry(e)) for e in chunk])
        clock.now += 0.5
    # the table keeps sending what it has; the floor asks again when it stalls
    for _ in range(40):
        if floor.store.count("table-1") == len(ROWS):
            break
        if outbox:
            feed([(JOURNAL, encode_entry(e)) for e in outbox[:3]])
            del outbox[:3]
        else:
            clock.now += RESEND_AGAIN_S
            for out in floor.check_behind():
                if out.payload:
                    resend_from(decode_resend(out.payload))
    assert floor.store.rows("table-1") == ROWS
    assert floor.board.view()["alarms"] == []
    assert floor.counts["conflict"] == floor.counts["broken"] == 0
