"""The playing hall: the projector's screen, the session clock, the tablets' table links, and
the statistics of the hands shown on the players' and the tournament's pages."""
