"""Sub-commands of ``pontoon-table`` that belong to the controller."""
