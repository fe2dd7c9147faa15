"""The audit trail: every change to tournament data kept with who made it (``audit``), beneath
the models that keep it (the organisers' activity log is read from it by
``selectors.activity``)."""
