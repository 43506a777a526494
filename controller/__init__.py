"""The table's brain: the pure rules engine, the table state machine, the journal
and the wiring that runs a table.

Everything about the game is decided in :mod:`controller.rules`; the other modules
only move information between the devices, the engine and the display.
"""
