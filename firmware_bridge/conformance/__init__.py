"""Black-box conformance checks of a device against ``docs/protocol.md``.

A maker's tool: it talks to a shoe or a panel bus over any pyserial URL (a
real board on ``/dev/ttyACM0``, a pty, ``socket://``), one small check per
clause of the spec, and says which clauses the device keeps.  It uses the
project's own codec (:mod:`firmware_bridge.wire`) and crafts by hand the
frames the codec would refuse (bad CRC, oversized, wrong version).

* :mod:`~firmware_bridge.conformance.probe` — the tester's end of the line.
* :mod:`~firmware_bridge.conformance.registry` — the list of checks.
* ``checks_*`` — the checks, by section of the spec.
* :mod:`~firmware_bridge.conformance.suite` — run them and report.

``docs/conformance.md`` explains each check and how to run the suite.
"""
