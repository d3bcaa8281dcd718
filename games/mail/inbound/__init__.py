"""Moves by email reply (README "Playing by email").

    keywords   the command words of each language (English always works)
    commands   a reply's lines -> Command -> an engine move, and a legal move -> a command
    text       the reply's own words: quoted text and signatures cut off; auto-replies
    tokens     the Reply-To token: issued per seat and turn, stored hashed, found again
    incoming   an inbound message (anymail's or raw RFC 822) as plain data
    answer     the answer email's words, and sending it
    letter     turn emails with the Reply-To, the numbered hand and command examples

The pipeline that acts on a message is `games.play.inbound` (it makes moves).
"""
