from django.urls import URLPattern, path, register_converter

from games.challenges.doors import player_challenge
from games.clock.doors import api_clock, clock_pages
from games.handover.doors import open_seat_pages, seat_handover, standby_pages
from games.home.doors import (
    api_home,
    home_alerts,
    home_challenges,
    home_data,
    home_pages,
    home_tables,
    home_tournaments,
    next_game_pages,
    theme_pages,
    unsubscribe_page,
)
from games.learn.doors import learn_pages
from games.moderation.doors import dispute_form, talk_report_form
from games.notes.doors import note_form
from games.play.doors import api, replay_pages, seat_mail_settings
from games.play.doors import seat_page as seat
from games.players.doors import player_pages
from games.push.doors import api_devices, app_files, receipt
from games.setup.doors import seat_rematch, setup_pages
from games.site import help_pages as help
from games.site import ops_views as ops
from games.site import outbox_pages
from games.tables.doors import tables_pages as strangers_pages
from games.talk.doors import talk_forms
from games.tournaments.doors import event_hosting, event_pages


class TokenConverter:
    """Links' tokens and ids: url-safe characters only, so a NUL byte, a control character
    or anything odd in the path is a plain 404 before any view or query sees it."""

    regex = "[A-Za-z0-9_-]{1,80}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


class SignedConverter(TokenConverter):
    """A signed value (django.core.signing): url-safe characters and colons."""

    regex = "[A-Za-z0-9_:-]{1,200}"


register_converter(TokenConverter, "token")
register_converter(SignedConverter, "signed")

app_name = "games"
urlpatterns: list[URLPattern] = [
    # The JSON API first: bots and scripts make most requests, and Django tries the
    # patterns in order (each a regex match) until one fits.
    path("api/play/<token:secret>/", api.api_seat, name="api-seat"),
    path("api/play/<token:secret>/moves", api.api_move, name="api-moves"),
    path("api/play/<token:secret>/version", api.api_version, name="api-version"),
    path("api/play/<token:secret>/record", api.api_record, name="api-record"),
    path("api/play/<token:secret>/accept", api.api_accept, name="api-accept"),
    path("api/play/<token:secret>/leave", api.api_leave, name="api-leave"),
    path("api/play/<token:secret>/nudge", api_clock.api_nudge, name="api-nudge"),
    path("api/play/<token:secret>/pause", api_clock.api_pause, name="api-pause"),
    path("api/me/<token:token>/", api_home.api_home, name="api-me"),
    path("api/me/<token:token>/tables", home_tables.api_home_tables, name="api-me-tables"),
    path("api/me/<token:token>/tables/<int:table_id>/leave", home_tables.api_home_leave,
         name="api-me-table-leave"),
    path("api/me/<token:token>/name", home_tables.api_home_name, name="api-me-name"),
    path("api/me/<token:token>/tournaments", event_hosting.api_host_event,
         name="api-me-tournaments"),
    path("api/me/<token:token>/tournaments/<int:event_id>/join",
         home_tournaments.api_join_tournament, name="api-me-tournament-join"),
    path("api/me/<token:token>/tournaments/<int:event_id>/leave",
         home_tournaments.api_leave_tournament, name="api-me-tournament-leave"),
    path("api/me/<token:token>/tournaments/<int:event_id>/cancel",
         home_tournaments.api_cancel_tournament, name="api-me-tournament-cancel"),
    path("api/me/<token:token>/tournaments/<int:event_id>/edit",
         home_tournaments.api_edit_tournament, name="api-me-tournament-edit"),
    path("api/me/<token:token>/challenges", home_challenges.api_challenges,
         name="api-me-challenges"),
    path("api/me/<token:token>/challenges/settings", home_challenges.api_challenge_settings,
         name="api-me-challenge-settings"),
    path("api/me/<token:token>/challenges/<int:challenge_id>/accept",
         home_challenges.api_accept, name="api-me-challenge-accept"),
    path("api/me/<token:token>/challenges/<int:challenge_id>/refuse",
         home_challenges.api_refuse, name="api-me-challenge-refuse"),
    path("api/me/<token:token>/challenges/<int:challenge_id>/withdraw",
         home_challenges.api_withdraw, name="api-me-challenge-withdraw"),
    # Before blocks/<name>: a public name may hold a slash (player_page.named checks it).
    path("api/me/<token:token>/blocks/<path:name>/unblock", home_challenges.api_unblock,
         name="api-me-unblock"),
    path("api/me/<token:token>/blocks/<path:name>", home_challenges.api_block,
         name="api-me-block"),
    path("api/me/<token:token>/devices", api_devices.api_devices, name="api-me-devices"),
    path("api/me/<token:token>/devices/<int:device_id>", api_devices.api_device,
         name="api-me-device"),
    path("api/me/<token:token>/devices/<int:device_id>/remove", api_devices.api_device_remove,
         name="api-me-device-remove"),
    path("push/receipt/<signed:receipt>", receipt.push_receipt, name="push-receipt"),
    path("api/tables/", strangers_pages.api_tables, name="api-tables"),
    path("api/tournaments/", event_pages.api_tournaments, name="api-tournaments"),
    path("api/tournaments/<int:event_id>/", event_pages.api_tournament,
         name="api-tournament"),
    path("api/ratings/", strangers_pages.api_ratings, name="api-ratings"),
    # A public name may hold any visible sign, a slash too (games.players.services
    # .player_page.named refuses what no name can be before any query).
    path("api/players/<path:name>", player_pages.api_player, name="api-player"),
    path("", setup_pages.home, name="home"),
    path("me/", home_pages.ask_home, name="me"),
    path("me/<token:token>/", home_pages.home_page, name="me-home"),
    path("me/<token:token>/preferences", home_pages.home_preferences, name="me-preferences"),
    path("me/<token:token>/emails", home_pages.home_emails, name="me-emails"),
    path("me/<token:token>/vacation", home_pages.home_vacation, name="me-vacation"),
    path("me/<token:token>/quiet", home_pages.home_quiet, name="me-quiet"),
    path("me/<token:token>/next", next_game_pages.home_next, name="me-next"),
    path("me/<token:token>/next/setting", next_game_pages.home_next_setting,
         name="me-next-setting"),
    path("me/<token:token>/theme", theme_pages.home_theme, name="me-theme"),
    path("me/<token:token>/rotate", home_pages.home_rotate, name="me-rotate"),
    path("me/<token:token>/data.json", home_data.home_data, name="me-data"),
    path("me/<token:token>/forget", home_data.home_forget, name="me-forget"),
    path("me/<token:token>/record", home_data.home_record_shown, name="me-record"),
    path("me/<token:token>/tables/find", home_tables.home_find_table, name="me-find-table"),
    path("me/<token:token>/tables/join", home_tables.home_join_table, name="me-join-table"),
    path("me/<token:token>/tables/leave", home_tables.home_leave_table, name="me-leave-table"),
    path("me/<token:token>/name", home_tables.home_name, name="me-name"),
    path("me/<token:token>/tournaments/join", home_tournaments.home_join_tournament,
         name="me-join-tournament"),
    path("me/<token:token>/tournaments/leave", home_tournaments.home_leave_tournament,
         name="me-leave-tournament"),
    path("me/<token:token>/tournaments/cancel", home_tournaments.home_cancel_tournament,
         name="me-cancel-tournament"),
    path("me/<token:token>/tournaments/<int:event_id>/edit",
         home_tournaments.home_edit_tournament, name="me-edit-tournament"),
    path("me/<token:token>/ratings", home_tables.home_ratings_listed, name="me-ratings"),
    path("me/<token:token>/challenges", home_challenges.home_challenge, name="me-challenge"),
    path("me/<token:token>/challenges/answer", home_challenges.home_answer,
         name="me-challenge-answer"),
    path("me/<token:token>/challenges/withdraw", home_challenges.home_withdraw,
         name="me-challenge-withdraw"),
    path("me/<token:token>/challenges/unblock", home_challenges.home_unblock,
         name="me-unblock"),
    path("me/<token:token>/challenges/setting", home_challenges.home_challenge_setting,
         name="me-challenge-setting"),
    path("me/<token:token>/open/<token:game>", home_pages.home_open, name="me-open"),
    path("me/<token:token>/alerts", home_alerts.home_alerts, name="me-alerts"),
    path("me/<token:token>/alerts/<int:device_id>", home_alerts.home_device,
         name="me-device"),
    path("me/<token:token>/manifest.webmanifest", app_files.manifest, name="me-manifest"),
    path("sw.js", app_files.service_worker, name="service-worker"),
    path("me/new/<token:token>/", home_pages.new_home, name="me-new"),
    path("tables/", strangers_pages.tables_page, name="tables"),
    path("ratings/", strangers_pages.ratings_page, name="ratings"),
    path("players/<path:name>/challenge", player_challenge.challenge_from_page,
         name="player-challenge"),
    path("players/<path:name>/", player_pages.player, name="player"),
    path("tournaments/", event_pages.tournaments_page, name="tournaments"),
    path("tournaments/<int:event_id>/", event_pages.tournament_page, name="tournament"),
    path("tournaments/new/", event_hosting.new_event, name="tournament-new"),
    path("tournaments/new/sent/", event_hosting.event_sent, name="tournament-sent"),
    path("tournaments/confirm/<token:token>/", event_hosting.confirm_event,
         name="tournament-confirm"),
    path("healthz", ops.healthz, name="healthz"),
    path("rules/<token:ruleset>/", help.rules, name="rules"),
    path("links/", help.ask_links, name="links"),
    path("links/sent/", help.links_sent, name="links-sent"),
    path("metrics", ops.metrics, name="metrics"),
    path("learn/", learn_pages.learn_page, name="learn"),
    path("learn/start", learn_pages.learn_start, name="learn-start"),
    path("new/", setup_pages.new_game, name="new"),
    path("new/sent/", setup_pages.setup_sent, name="setup-sent"),
    path("new/confirm/<token:token>/", setup_pages.confirm, name="setup-confirm"),
    path("new/host/<token:token>/", setup_pages.host_page, name="host"),
    path("new/host/<token:token>/resend", setup_pages.host_resend, name="host-resend"),
    path("new/host/<token:token>/cancel", setup_pages.host_cancel, name="host-cancel"),
    path("play/<token:secret>/", seat.seat_page, name="seat"),
    path("play/<token:secret>/live", seat.seat_live, name="seat-live"),
    path("play/<token:secret>/move", seat.seat_move, name="seat-move"),
    path("play/<token:secret>/accept", seat.seat_accept, name="seat-accept"),
    path("play/<token:secret>/say", seat.seat_say, name="seat-say"),
    path("play/<token:secret>/preferences", seat.seat_preferences, name="seat-preferences"),
    path("play/<token:secret>/rotate", seat.seat_rotate, name="seat-rotate"),
    path("play/<token:secret>/leave", seat_handover.seat_leave, name="seat-leave"),
    path("play/<token:secret>/stay", seat_handover.seat_stay, name="seat-stay"),
    path("play/<token:secret>/invite", seat_handover.seat_invite, name="seat-invite"),
    path("play/<token:secret>/rematch", seat_rematch.seat_rematch, name="seat-rematch"),
    path("play/<token:secret>/dispute", dispute_form.seat_dispute, name="seat-dispute"),
    path("play/<token:secret>/notes", note_form.seat_note, name="seat-note"),
    path("play/<token:secret>/mute", talk_forms.seat_mute, name="seat-mute"),
    path("play/<token:secret>/nudge", clock_pages.seat_nudge, name="seat-nudge"),
    path("play/<token:secret>/pause", clock_pages.seat_pause, name="seat-pause"),
    path("play/<token:secret>/report", talk_report_form.seat_report, name="seat-report"),
    path("play/<token:secret>/emails", seat_mail_settings.seat_emails, name="seat-emails"),
    path("play/<token:secret>/vacation", seat_mail_settings.seat_vacation, name="seat-vacation"),
    path("mail/unsubscribe/<signed:token>/", unsubscribe_page.unsubscribe, name="unsubscribe"),
    path("standby/", standby_pages.sign_up, name="standby"),
    path("standby/sent/", standby_pages.sent, name="standby-sent"),
    path("standby/<token:token>/", standby_pages.manage, name="standby-manage"),
    path("seats/", open_seat_pages.open_seats, name="open-seats"),
    path("seats/<int:open_seat_id>/ask", open_seat_pages.ask, name="open-seat-ask"),
    path("seats/offer/<token:token>/", open_seat_pages.offer_page, name="seat-offer"),
    path("outbox/", outbox_pages.outbox_list, name="outbox"),
    path("outbox/<str:name>", outbox_pages.outbox_message, name="outbox-message"),
    path("outbox/<str:name>/reply", outbox_pages.outbox_reply, name="outbox-reply"),
    path("play/<token:secret>/replay/", replay_pages.seat_replay, name="seat-replay"),
    path("watch/<token:public_id>/replay/", replay_pages.watch_replay, name="watch-replay"),
    path("watch/<token:public_id>/", replay_pages.watch, name="watch"),
]
