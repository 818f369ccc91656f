-- A game's results, found by the game: /forget-me rewrites the other players' results of
-- every game a member played, one game at a time (without this index each game's
-- results were found by a walk of every result kept, inside the write transaction that
-- every save waits for).
CREATE INDEX results_by_game ON results (game_id);
