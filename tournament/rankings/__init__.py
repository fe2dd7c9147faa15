"""Rankings across tournaments (pure): a series' ranking from its tournaments' standings."""
