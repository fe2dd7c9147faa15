"""The audit trail: every change to tournament data kept with who made it (``audit``), and the
organisers' activity log read from it (``activity``)."""
