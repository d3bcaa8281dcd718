"""Moves by email reply (docs/playing.md "Playing by email"), one stage a module:

    providers each provider's post read without reading the email: the envelope's
              recipients (where the reply token is), the message as posted
    receive   the door: a delivery for a live reply address is stored unread (an
              InboundMail row) and handed to a task; `manage.py inbound` and the outbox
              accept and process at once
    screen    the worker's parser under limits: every spelling of a multipart level
              counted first, then depth, parts and CPU time while parsing
    incoming  an inbound message as plain data (lenient about charsets)
    parse     the reply's own words (quotes and signatures cut off, HTML read in one scan)
              and whether a message is a machine's
    commands  a reply's lines -> a Command -> an engine move against the seat's view
    apply     the commands applied through the same services as the page and the API
    process   the task's body (time-limited): claim the stored message, read it, act,
              plan the answer
    answer    the answer email, a Notification like every other (limited per seat)

The webhook (with anymail's credential checks) is `games.web.views.inbound_webhook`; the
reply addresses are `games.models.reply_tokens`; turn emails explain the commands with
`games.present.reply_help`.
"""
