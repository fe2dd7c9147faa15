"""The organiser's list of players, whole or as a search finds them."""

from tournament.players import names


def players_found(tournament, query: str = "") -> list:
    """The tournament's players by number, withdrawn ones included; with a ``query``, those
    it finds by name, Chinese name, team (any part, or its pinyin) or number
    (``names.matches``). Each player carries ``name_order``, the key that sorts names as a
    reader says them (pinyin for Chinese characters, ``names.sort_key``), for the list's
    sorting by name."""
    found = [
        player
        for player in tournament.players.order_by("number")
        if names.matches(
            query,
            name=player.name,
            name_zh=player.name_zh,
            number=player.number,
            team=player.team,
        )
    ]
    for player in found:
        player.name_order = names.sort_key(player.name)
    return found
