"""Moves by email reply (docs/playing.md "Playing by email"), one stage a module:

    screen    a request's raw bytes, before any parsing: a live reply address of ours?
              within the size limit? a sane MIME structure? (linear in the size)
    receive   the door: anymail's inbound signal and `manage.py inbound`; an accepted
              message is stored (an InboundMail row) and handed to a task
    incoming  an inbound message as plain data (lenient about charsets)
    parse     the reply's own words (quotes and signatures cut off, HTML read in one scan)
              and whether a message is a machine's
    commands  a reply's lines -> a Command -> an engine move against the seat's view
    apply     the commands applied through the same services as the page and the API
    process   the task's body: claim the stored message, act, plan the answer
    answer    the answer email, a Notification like every other (limited per seat)

The web view in front of anymail's webhook is `games.web.views.inbound_webhook`; the
reply addresses are `games.models.reply_tokens`; turn emails explain the commands with
`games.present.reply_help`.
"""
