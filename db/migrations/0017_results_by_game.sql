-- A game's results, found by the game: /forget-me rewrites the other players' results of
-- every game a member played, one game at a time, and read each game's
-- results by a walk of every result kept before (a member of a year's games held every
-- save of the bot for tens of seconds).
CREATE INDEX results_by_game ON results (game_id);
