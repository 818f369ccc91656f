"""The Discord side of a board: routing clicks, rendering, posting and edits, turn notices
and computer players."""
