from django.urls import URLPattern, path

from games.web.views import api, disputes, mail, seat, setup, spectate

app_name = "games"
urlpatterns: list[URLPattern] = [
    path("", setup.home, name="home"),
    path("new/", setup.new_game, name="new"),
    path("play/<str:secret>/", seat.seat_page, name="seat"),
    path("play/<str:secret>/move", seat.seat_move, name="seat-move"),
    path("play/<str:secret>/accept", seat.seat_accept, name="seat-accept"),
    path("play/<str:secret>/say", seat.seat_say, name="seat-say"),
    path("play/<str:secret>/preferences", seat.seat_preferences, name="seat-preferences"),
    path("play/<str:secret>/rotate", seat.seat_rotate, name="seat-rotate"),
    path("play/<str:secret>/dispute", disputes.seat_dispute, name="seat-dispute"),
    path("play/<str:secret>/emails", mail.seat_emails, name="seat-emails"),
    path("play/<str:secret>/vacation", mail.seat_vacation, name="seat-vacation"),
    path("mail/unsubscribe/<str:token>/", mail.unsubscribe, name="unsubscribe"),
    path("outbox/", mail.outbox_list, name="outbox"),
    path("outbox/<str:name>", mail.outbox_message, name="outbox-message"),
    path("outbox/<str:name>/reply", mail.outbox_reply, name="outbox-reply"),
    path("api/play/<str:secret>/", api.api_seat, name="api-seat"),
    path("api/play/<str:secret>/moves", api.api_move, name="api-moves"),
    path("watch/<str:public_id>/", spectate.watch, name="watch"),
]
