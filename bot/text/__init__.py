"""Names and text as a phone shows them: member names made safe for markdown
(:mod:`bot.text.names`), names that read the same (:mod:`bot.text.alike`), the room
text takes on a phone line and cuts that keep letters whole (:mod:`bot.text.widths`)."""
