"""Every write to the tournament data, one module per area.

Each service is keyword-only, validates with the pure cores, and runs in one
transaction, so a failure leaves nothing half-saved. Errors are Django
``ValidationError``s with codes, keyed by the form field they concern, so a
form can show them beside that field.

The services are named here so that callers write ``services.hand_record``; each lives in
the module of its area (docs/architecture.md lists them).
"""

from tournament.services.check_in import (
    AbsentSeatChoice,
    absent_field,
    absent_seats_give,
    check_in_close,
    check_in_open,
    player_check_in,
    player_check_in_undo,
    session_times_set,
)
from tournament.services.commitments import (
    draw_commit,
    draw_commitment_public_value,
    draw_commitment_withdraw,
)
from tournament.services.draws import (
    seat_replace,
    session_cancel_draw,
    session_draw,
    session_publish,
)
from tournament.services.exports import export_build_ask
from tournament.services.hands import (
    HandEntry,
    HandRefused,
    PenaltyEntry,
    entered_fields,
    fan_list,
    hand_record,
    penalty_entries,
    score_winning_hand,
    stored_hand_result,
)
from tournament.services.mail import emails_send_due, emails_send_now
from tournament.services.people import (
    people_link,
    people_link_by_ema_numbers,
    person_create_for,
    person_unlink,
)
from tournament.services.player_imports import (
    ImportOutcome,
    ImportRowRefused,
    player_import_start,
    players_import,
)
from tournament.services.players import (
    player_link_revoke,
    player_save,
)
from tournament.services.referees import (
    parse_table_numbers,
    referees_copy_from_previous,
    tables_assign,
)
from tournament.services.reseating import table_seats_swap
from tournament.services.rules import (
    RULE_FIELDS,
    play_started,
    profile_options,
    rule_options,
    rules_change,
    rules_change_ask,
    rules_change_run,
)
from tournament.services.rulings import (
    appeal_decide,
    appeal_lodge,
    call_cancel,
    call_make,
    call_take,
    desk_touch,
    ruling_give,
)
from tournament.services.series import series_delete, series_save
from tournament.services.sessions import (
    device_link_revoke,
    device_links_revoke,
    session_close,
    session_close_undo,
    session_open,
    session_open_undo,
    session_publish_undo,
    session_reopen,
    table_extra_time,
)
from tournament.services.sheets import table_sheet_record
from tournament.services.sign_ups import (
    sign_up,
    sign_up_accept,
    sign_up_move,
    sign_up_refuse,
    sign_up_withdraw,
    waiting_list_promote,
)
from tournament.services.tables import table_confirm, table_reopen
from tournament.services.tournaments import (
    tournament_create,
    tournament_delete,
    tournament_update,
)
from tournament.services.withdrawals import player_reinstate, player_withdraw

__all__ = [
    "RULE_FIELDS",
    "AbsentSeatChoice",
    "HandEntry",
    "HandRefused",
    "ImportOutcome",
    "ImportRowRefused",
    "PenaltyEntry",
    "absent_field",
    "absent_seats_give",
    "appeal_decide",
    "appeal_lodge",
    "call_cancel",
    "call_make",
    "call_take",
    "check_in_close",
    "check_in_open",
    "desk_touch",
    "device_link_revoke",
    "device_links_revoke",
    "draw_commit",
    "draw_commitment_public_value",
    "draw_commitment_withdraw",
    "emails_send_due",
    "emails_send_now",
    "entered_fields",
    "export_build_ask",
    "fan_list",
    "hand_record",
    "parse_table_numbers",
    "penalty_entries",
    "people_link",
    "people_link_by_ema_numbers",
    "person_create_for",
    "person_unlink",
    "play_started",
    "player_check_in",
    "player_check_in_undo",
    "player_import_start",
    "player_link_revoke",
    "player_reinstate",
    "player_save",
    "player_withdraw",
    "players_import",
    "profile_options",
    "referees_copy_from_previous",
    "rule_options",
    "rules_change",
    "rules_change_ask",
    "rules_change_run",
    "ruling_give",
    "score_winning_hand",
    "seat_replace",
    "series_delete",
    "series_save",
    "session_cancel_draw",
    "session_close",
    "session_close_undo",
    "session_draw",
    "session_open",
    "session_open_undo",
    "session_publish",
    "session_publish_undo",
    "session_reopen",
    "session_times_set",
    "sign_up",
    "sign_up_accept",
    "sign_up_move",
    "sign_up_refuse",
    "sign_up_withdraw",
    "stored_hand_result",
    "table_confirm",
    "table_extra_time",
    "table_reopen",
    "table_seats_swap",
    "table_sheet_record",
    "tables_assign",
    "tournament_create",
    "tournament_delete",
    "tournament_update",
    "waiting_list_promote",
]
