"""Every read that is more than a lookup, one module per area (docs/architecture.md lists
them); callers import from the area they read
(``from tournament.selectors.standings import tournament_standings``)."""
