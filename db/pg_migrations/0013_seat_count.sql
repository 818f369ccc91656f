-- How many seats a game has, for the queries over every open game (the idle sweep, the
-- computer players resumed at start): a seats column that is not a JSON array (a damaged
-- row) counts 0, as SQLite's queries count it, instead of failing the whole query.
CREATE OR REPLACE FUNCTION seat_count(seats TEXT) RETURNS INTEGER LANGUAGE plpgsql IMMUTABLE AS '
BEGIN
    IF jsonb_typeof(seats::jsonb) = ''array'' THEN
        RETURN jsonb_array_length(seats::jsonb);
    END IF;
    RETURN 0;
EXCEPTION WHEN others THEN
    RETURN 0;
END'
