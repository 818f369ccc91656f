-- A game row changed without moving its updated_at (an edit by hand while the bot runs,
-- /forget-me's scrubbing) gets a new updated_at all the same, so the compare-and-swap
-- of the next save notices it and the bot reads the game again instead of writing over
-- it. The bot's own saves always move updated_at on, so for them this changes nothing.
CREATE FUNCTION games_changed_elsewhere() RETURNS trigger LANGUAGE plpgsql AS '
BEGIN
    IF NEW.updated_at IS NOT DISTINCT FROM OLD.updated_at THEN
        NEW.updated_at := OLD.updated_at + 0.001;
    END IF;
    RETURN NEW;
END';
CREATE TRIGGER games_changed_elsewhere
    BEFORE UPDATE OF status, starter_id, only_starter, seats, options, state, version, events,
        extra, deadline ON games
    FOR EACH ROW EXECUTE FUNCTION games_changed_elsewhere();
