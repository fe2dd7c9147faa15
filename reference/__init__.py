"""Development tools around the reference fan calculator, for the tests and the benchmark.

- ``reference.oracle``: the adapter to ``pymahjonggb``, a C++ MCR calculator used as the
  test oracle, and the comparison of its fans with ours;
- ``reference.hand_generators``: seeded random legal winning hands to compare on.

Not part of the shipped app (only ``tournament`` is packaged); needs the development
dependencies (``pip install -e ".[dev]"``, which ``make test`` runs).
"""
