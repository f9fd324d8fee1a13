/**
 * Every console's own journal, mirrored into the desk's: an entry a console wrote locally (an export, a sync, an
 * import, a setting, a money action) is appended here by `journal_mirror`, naming the person by the session's
 * login like every other entry, the console, and the local entry's sequence number and hash in its data.
 * `journal_mirrored` records which local entry became which desk entry, so a console that sends an entry again
 * (its answer was lost) gets the first desk entry back instead of a second one. The key holds the local hash too:
 * a cache moved aside restarts its chain at 1, and those are other entries. The forms it checks are wide enough for
 * every entry a console writes (`export.payoutCheck`, a long import's summary): one it refused would hold back
 * every entry after it.
 */
export default `
CREATE TABLE desk.journal_mirrored (
  console text NOT NULL,
  local_seq bigint NOT NULL,
  local_hash text NOT NULL,
  desk_seq bigint,
  PRIMARY KEY (console, local_seq, local_hash)
);
GRANT SELECT ON desk.journal_mirrored TO viewer;

CREATE FUNCTION desk.journal_mirror(console text, local_seq bigint, local_hash text, kind text, event text,
                                    outcome text, summary text, data jsonb, refers_to bigint DEFAULT NULL)
RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = desk, pg_catalog AS $fn$
DECLARE
  done bigint;
BEGIN
  PERFORM require('viewer', 'write to the journal');
  IF length(console) NOT BETWEEN 1 AND 200 OR local_seq < 1 OR local_hash !~ '^[0-9a-f]{64}$'
     OR kind !~ '^[a-z_]{1,40}$' OR event !~ '^[A-Za-z0-9_.]{1,200}$' OR outcome !~ '^[a-z_]{1,20}$'
     OR length(summary) > 100000 OR jsonb_typeof(data) <> 'object' OR octet_length(data::text) > 10000000 THEN
    RAISE EXCEPTION 'A mirrored journal entry needs a console, a local sequence number and hash, a kind, an event and an outcome of the documented forms.'
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  -- The key's row is taken first: a second try of the same entry waits here for the first to commit, then finds it.
  INSERT INTO journal_mirrored AS m (console, local_seq, local_hash)
    VALUES (journal_mirror.console, journal_mirror.local_seq, journal_mirror.local_hash)
    ON CONFLICT DO NOTHING;
  IF NOT FOUND THEN
    SELECT m.desk_seq INTO done FROM journal_mirrored m
     WHERE m.console = journal_mirror.console AND m.local_seq = journal_mirror.local_seq
       AND m.local_hash = journal_mirror.local_hash;
    RETURN done;
  END IF;
  done := journal_write(console, kind, event, outcome, summary,
    data || jsonb_build_object('local', coalesce(data -> 'local', '{}'::jsonb)
                                        || jsonb_build_object('seq', local_seq, 'hash', local_hash)),
    refers_to);
  UPDATE journal_mirrored m SET desk_seq = done
   WHERE m.console = journal_mirror.console AND m.local_seq = journal_mirror.local_seq
     AND m.local_hash = journal_mirror.local_hash;
  RETURN done;
END $fn$;
REVOKE ALL ON FUNCTION desk.journal_mirror(text, bigint, text, text, text, text, text, jsonb, bigint) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION desk.journal_mirror(text, bigint, text, text, text, text, text, jsonb, bigint) TO viewer;
`;
