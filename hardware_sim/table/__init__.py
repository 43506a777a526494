"""The controller's table put on the simulated hardware: ``pontoon-table sim``.

These modules are composition roots: they wire the product (the controller's
:class:`controller.table.Table`, the real drivers, the recogniser and the
dealer display) to the emulated shoe and panels and the simulated camera.
They live here, not in ``controller/``, because the rule runs one way: the
simulator may import the product, the product never imports the simulator
(``lint-imports`` checks it; the contracts are in ``pyproject.toml``).

* :mod:`hardware_sim.table.cli` — the ``sim`` sub-command (registered in
  ``controller.cli.COMMANDS`` by module name, as ``sim-hw`` is).
* :mod:`hardware_sim.table.scenario_run` — a scenario played through the whole
  stack (``sim --scenario``, the tests, the soak benchmark).
* :mod:`hardware_sim.table.bot_table` — bots and a simulated dealer at a
  simulated table, with the dealer display served (``sim`` alone).
"""
