"""Ranking rules (pure): a series' ranking from its tournaments' standings, and the EMA's
checks on a tournament's results with its ranking weight."""
