"""Every read that is more than a lookup, one module per area; callers import from the area
they read (``from tournament.selectors.standings import tournament_standings``).

- ``lookups``: a tournament, session, player or table by its key; the data and seating
  versions that key every cache; the cache helper they share (one computation per key).
- ``sheets``: a table's score sheet on the tablet, its corrections, the session clock.
- ``paper``: the printed score sheets and the penalty record.
- ``referees``: the referee's home page, which tables each referee holds.
- ``standings``: session results, standings and their ties, the rank after each session,
  teams, penalties, the stored results checked against the hands.
- ``statistics``: a player's and the tournament's figures, read from the hands.
- ``overview``: the tournament page's figures, its dates, what deleting it takes along.
- ``withdrawals``: substitutes and withdrawn players, the registration summary.
- ``seating``: the drawn tables, the seating figures, seat lists and a player's schedule.
- ``fairness``: the committed draw and its fairness page.
- ``screen``: the hall's screen state.
- ``activity``: the organisers' activity log, read from the audit trail.
"""
