"""Names vulture (the test command's dead-code check) cannot see used, each used by name
by something outside the Python call graph. Grouped by who uses them:

- Django: middleware, routers and checks named in settings (MIDDLEWARE, DATABASE_ROUTERS,
  SILENCED_SYSTEM_CHECKS), a router's methods,
  the app config, handler500, URL converters (regex, to_python, to_url), form fields'
  to_python and default_validators, a form's bound_field_class, the admin's Media, email backends, axes' callables (AXES_*_CALLABLE),
  system-check functions' signature (app_configs).
- Templates: attributes of the dataclasses and forms the templates read (is_me,
  is_actor, picture, discardable, free_count, can_resend, sitters, seating, game_rows,
  player_rows, option_rows, player_zones, by, made_at).
- Model fields written for the admin, exports and moderators (mailbox keys, resolved_by,
  ended_at, retry_at, ...) and the engine's view keys (TypedDict fields: the view's JSON
  shape is the engine's contract, games/engine/README.md).
- Celery and kombu: signal handlers (redact_worker_logs, _configure) and the embedded
  broker's transport methods (_put, _get, _queue_bind).
- The model instances the fast move store builds (`_state`, its `adding`): Django reads
  them.
- gunicorn's logger_class, Sentry's before_send hooks (hint), psycopg's Loader.load,
  logging records (msg), the CSP decorator's attribute, settings helpers (env_*, the queues'
  task_routes and celery_queues).
- The tests' entry to the email pipeline (games.inbound.services.receive.receive), kept beside
  receive_bytes so both share one acceptance path.
- The bots' maze reading (on_route), kept for the strong level's search.
- The rating model's prediction of a round (games.ratings.core.model.predict), which
  bench/ratings.py measures and no page shows (the update computes its own chances).
- The plain references of the seat page's HTML written in Python (plain_hand_cards,
  plain_talk_items, plain_mute_items, plain_sheet_rows, plain_log_items: each renders
  its template under templates/games/reference/), which no page uses:
  tests/web/test_seat_html_reference.py holds each fast writer to its reference.

Regenerate the list with `python -m vulture --make-whitelist` and keep only names whose
user is one of the above.
"""
# ruff: noqa
# mypy: ignore-errors

Media  # unused class (games/moderation/doors/admin_games.py:152)
is_actor  # unused variable (games/moderation/doors/truth.py:43)
by  # unused variable (games/moderation/doors/truth.py:50)
made_at  # unused variable (games/moderation/doors/truth.py:51)
GamesConfig  # unused class (games/apps.py:4)
_.on_route  # unused method (games/bots/maze.py:203)
predict  # unused function (games/ratings/core/model.py:247)
set_aside_roles  # unused variable (games/engine/types.py:87)
discarded_roles  # unused variable (games/engine/types.py:88)
set_aside_roles  # unused variable (games/engine/types.py:112)
discarded_roles  # unused variable (games/engine/types.py:113)
removed_name  # unused variable (games/engine/types.py:119)
secret_to  # unused variable (games/engine/types.py:123)
discard_size  # unused variable (games/engine/types.py:138)
gold_offer_size  # unused variable (games/engine/types.py:144)
gold_cards  # unused variable (games/engine/types.py:146)
dwarves_aside  # unused variable (games/engine/types.py:153)
deck_top_first  # unused variable (games/engine/types.py:162)
gold_pile_top_first  # unused variable (games/engine/types.py:166)
theft_order  # unused variable (games/engine/types.py:169)
hats_discarded  # unused variable (games/engine/types.py:170)
PRIVATE_KEYS  # unused variable (games/engine/views.py:130)
_.encoding  # unused attribute (games/inbound/core/providers.py:119)
receive  # unused function (games/inbound/services/receive.py:85)
OutboxBackend  # unused class (games/mail/core/outbox.py:39)
option_string  # unused variable (games/management/commands/creategame.py:85)
host_key  # unused variable (games/game/core/game.py:109)
sender_key  # unused variable (games/inbound/core/inbound_mail.py:48)
seat_key  # unused variable (games/inbound/core/inbound_mail.py:49)
from_mismatch  # unused variable (games/inbound/core/inbound_mail.py:67)
abstract  # unused variable (games/people/core/mailbox_keys.py:96)
resolved_by  # unused variable (games/moderation/core/moderation_rows.py:30)
mailed_at  # unused variable (games/moderation/core/moderation_rows.py:44)
by_seat  # unused variable (games/talk/core/mutes.py:27)
by_mailbox  # unused variable (games/talk/core/mutes.py:28)
muted_seat  # unused variable (games/talk/core/mutes.py:29)
muted_mailbox  # unused variable (games/talk/core/mutes.py:30)
to_key  # unused variable (games/mail/core/notifications.py:59)
last_error  # unused variable (games/mail/core/notifications.py:64)
delivery_at  # unused variable (games/mail/core/notifications.py:70)
claimed_at  # unused variable (games/mail/core/notifications.py:77)
retry_at  # unused variable (games/mail/core/notifications.py:78)
owner  # unused variable (games/people/core/public_names.py:35)
rated_at  # unused variable (games/ratings/core/rating_rows.py:64)
taken_by_mailbox  # unused variable (games/seats/core/reliability.py:45)
TOKEN_BYTES_RE  # unused variable (games/seats/core/reply_tokens.py:35)
ended_at  # unused variable (games/tables/core/table_rows.py:39)
_.resolved_by  # unused attribute (games/moderation/services/dispute_acts.py:78)
_.load  # unused method (games/moves/services/fast_move_store.py:157)
can_resend  # unused variable (games/setup/services/host_view.py:42)
MONTHS  # unused variable (games/kit/calendar_names.py:14)
WEEKDAYS  # unused variable (games/kit/calendar_names.py:20)
discardable  # unused variable (games/seatview/core/move_forms.py:72)
free_count  # unused variable (games/seatview/core/move_forms.py:89)
_.discardable  # unused attribute (games/seatview/core/move_forms.py:139)
_.free_count  # unused attribute (games/seatview/core/move_forms.py:163)
picture  # unused variable (games/seatview/services/facts.py:33)
is_me  # unused variable (games/seatview/services/facts.py:41)
is_actor  # unused variable (games/seatview/services/facts.py:42)
is_actor  # unused variable (games/seatview/services/pages.py:45)
is_me  # unused variable (games/seatview/services/pages.py:46)
_.ended_at  # unused attribute (games/tables/services/forming.py:152)
_.ended_at  # unused attribute (games/tables/services/starting.py:59)
_.ended_at  # unused attribute (games/tables/services/starting.py:89)
sitters  # unused variable (games/tables/services/table_list.py:39)
AdminInlineStyles  # unused class (games/site/csp.py:13)
_._csp_update  # unused attribute (games/site/csp.py:23)
NoReferrerCsrfViewMiddleware  # unused class (games/site/csrf.py:22)
limits_are_shared  # unused function (games/site/deploy_checks.py:20)
app_configs  # unused variable (games/site/deploy_checks.py:21)
FriendlyNotFound  # unused class (games/site/friendly_errors.py:18)
_._has_been_logged  # unused attribute (games/site/friendly_errors.py:32)
RejectControlCharacters  # unused class (games/site/guards.py:37)
NoStoreForSecrets  # unused class (games/site/guards.py:58)
ProviderWebhookErrors  # unused class (games/site/guards.py:71)
_.process_exception  # unused method (games/site/guards.py:82)
login_name  # unused function (games/site/lockout.py:39)
cool_off  # unused function (games/site/lockout.py:49)
locked_out  # unused function (games/site/lockout.py:86)
_.to_python  # unused method (games/play/doors/seat_forms.py:161)
seating  # unused variable (games/play/doors/seat_forms.py:251)
_.game_rows  # unused method (games/play/doors/seat_forms.py:321)
_.player_rows  # unused method (games/play/doors/seat_forms.py:327)
_.option_rows  # unused method (games/play/doors/seat_forms.py:333)
_.player_zones  # unused method (games/play/doors/seat_forms.py:336)
regex  # unused variable (games/site/urls.py:31)
_.to_python  # unused method (games/site/urls.py:33)
default_validators  # unused variable (games/people/core/deliverable.py: Django's form field reads it)
bound_field_class  # unused variable (games/kit/remembered_forms.py: Django's form reads it)
_.to_url  # unused method (games/site/urls.py:36)
regex  # unused variable (games/site/urls.py:43)
server_error  # unused function (games/site/error_pages.py:23)
_._queue_bind  # unused method (saboteur_site/broker.py:65)
_._put  # unused method (saboteur_site/broker.py:93)
_._get  # unused method (saboteur_site/broker.py:105)
redact_worker_logs  # unused function (saboteur_site/celery.py:32)
_configure  # unused function (saboteur_site/celery.py:74)
env_str  # unused function (saboteur_site/env.py:13)
env_bool  # unused function (saboteur_site/env.py:17)
env_int  # unused function (saboteur_site/env.py:29)
env_list  # unused function (saboteur_site/env.py:39)
task_routes  # unused function (saboteur_site/queues.py: called by settings.py)
celery_queues  # unused function (saboteur_site/queues.py: called by settings.py)
env_zone  # unused function (saboteur_site/env.py:47)
RedactingLogger  # unused class (saboteur_site/gunicorn_logging.py:18)
_.msg  # unused attribute (saboteur_site/log_redaction.py:57)
hint  # unused variable (saboteur_site/sentry.py:26)
hint  # unused variable (saboteur_site/sentry.py:31)
hint  # unused variable (saboteur_site/sentry.py:36)
clock_rows  # unused method (games/clock/doors/clock_forms.py: the setup template's clock fields)
email_provider  # unused function (saboteur_site/email_providers.py: called by settings.py, which vulture skips)
interval  # unused variable (games/site/bot_strength.py: the rules page's template reads it)
mentioned_at  # unused variable (games/talk/core/reads.py: read and written by name in filters)
mark_label  # unused variable (games/notes/services/sheet.py: templates/games/_sheet.html and replay.html read it)
change_list_template  # unused variable (games/push/doors/push_admin.py: Django's admin reads it)
development_pair  # unused function (saboteur_site/push_keys.py: called by settings.py, which vulture skips)
heading  # unused variable (games/mail/core/letter_parts.py: templates/emails/_parts.* read it)
ALWAYS  # unused variable (games/game/core/choices.py ConfirmMoves: a stored value, the seat page form offers it and static/games/play.js reads it by name)
by_key  # unused variable (games/challenges/core/challenge_rows.py ChallengeBlock: read and written by name in filters)
ReplicaRouter  # unused class (games/kit/replica_reads.py: DATABASE_ROUTERS)
_.db_for_read  # unused method (games/kit/replica_reads.py: Django's router protocol)
_.db_for_write  # unused method (games/kit/replica_reads.py)
_.allow_relation  # unused method (games/kit/replica_reads.py)
_.allow_migrate  # unused method (games/kit/replica_reads.py)
RememberWrites  # unused class (games/kit/replica_reads.py: MIDDLEWARE with a replica)
after_move  # unused function (games/mail/services/plan.py: one game's planning by id, as the tests plan it; the follow-up plans batches with after_move_of)
plain_hand_cards  # unused function (games/play/doors/hand_cards.py)
plain_talk_items  # unused function (games/talk/doors/talk_lists.py)
plain_mute_items  # unused function (games/talk/doors/talk_lists.py)
plain_sheet_rows  # unused function (games/notes/doors/sheet_box.py)
plain_log_items  # unused function (games/seatview/services/timeline.py)
ops_class  # unused variable (saboteur_site/test_postgresql/base.py: Django's DatabaseWrapper reads it)
_._state  # unused attribute (games/moves/services/fast_move_store.py _plain_instance: Django's Model reads it)
_.adding  # unused attribute (games/moves/services/fast_move_store.py _plain_instance: Django's ModelState, read by save())
