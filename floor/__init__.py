"""The event floor: many tables report to one floor over an MQTT broker.

A table publishes its journal (already hash-chained) and a retained status;
the floor checks each table's chain, stores every row exactly once and shows
all tables, their alarms and the players' standings on one page.  No table
ever waits on the network to play: its journal is the outbox.

``floor.messages`` is the wire contract (pure, versioned); everything else is
an adapter around it.  See docs/floor.md.
"""
