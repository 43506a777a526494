"""The serial link to the card shoe and the seat panels.

A sans-I/O protocol core (framing, CRC, the reliable link) with thin pyserial
transports and typed device drivers on top; see ``docs/protocol.md``.
"""
