"""Names and text as a phone shows them: member names made safe for markdown
(:mod:`bot.text.names`), the room text takes on a phone line and cuts that keep letters
whole (:mod:`bot.text.widths`)."""
