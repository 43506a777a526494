"""Runs at every power-up of the Pico: the device described by config.json.

Hold GP22 low while powering up (a jumper to GND) to skip the firmware and
keep MicroPython's REPL, e.g. to copy new files with ``mpremote``.
"""

import machine

if machine.Pin(22, machine.Pin.IN, machine.Pin.PULL_UP).value():
    try:
        import pt_app

        pt_app.main()
    except Exception as exc:  # never leave a gate open on a crash: lock, then reboot
        import sys

        try:
            from pt_hal_pico import emergency_lock

            emergency_lock()
        finally:
            sys.print_exception(exc)
            import time

            time.sleep_ms(500)
            machine.reset()
