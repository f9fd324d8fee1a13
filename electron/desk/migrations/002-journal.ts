/**
 * One journal for the desk: append-only for every role (no UPDATE or DELETE is granted, and a trigger refuses them
 * and TRUNCATE even for the table's owner), hash-chained. Entries are written only by `journal_write`, inside the
 * definer functions, which stamp the session's login as the person and the server's clock as the time, so
 * neither can be claimed. Each field enters the hash as `octet_length:value;`, a form the console recomputes
 * byte for byte (electron/desk/journal.ts); the data is stored as the text that was hashed.
 */
export default `
CREATE TABLE desk.journal (
  seq bigint PRIMARY KEY,
  at text NOT NULL,
  person text NOT NULL,
  console text NOT NULL,
  kind text NOT NULL,
  event text NOT NULL,
  outcome text NOT NULL,
  summary text NOT NULL,
  data text NOT NULL,
  refers_to bigint,
  prev_hash text NOT NULL,
  hash text NOT NULL UNIQUE
);
GRANT SELECT ON desk.journal TO viewer;

CREATE FUNCTION desk.journal_refuse() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
  RAISE EXCEPTION 'The desk journal is append-only: % is refused.', TG_OP USING ERRCODE = 'insufficient_privilege';
END $fn$;
CREATE TRIGGER journal_append_only BEFORE UPDATE OR DELETE ON desk.journal
  FOR EACH ROW EXECUTE FUNCTION desk.journal_refuse();
CREATE TRIGGER journal_no_truncate BEFORE TRUNCATE ON desk.journal
  FOR EACH STATEMENT EXECUTE FUNCTION desk.journal_refuse();

CREATE FUNCTION desk.hash_field(v text) RETURNS text
LANGUAGE sql IMMUTABLE AS $fn$ SELECT octet_length(coalesce(v, '')) || ':' || coalesce(v, '') || ';' $fn$;

-- Not granted to anyone: the definer functions call it after their change, in the same transaction.
CREATE FUNCTION desk.journal_write(console text, kind text, event text, outcome text, summary text, data jsonb,
                                   refers_to bigint DEFAULT NULL) RETURNS bigint
LANGUAGE plpgsql SET search_path = desk, pg_catalog AS $fn$
DECLARE
  tail record;
  next_seq bigint;
  prev text;
  stamp text := to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"');
  body text := data::text;
  h text;
BEGIN
  -- One writer at a time, so the chain never forks; readers are not held.
  LOCK TABLE desk.journal IN EXCLUSIVE MODE;
  SELECT j.seq, j.hash INTO tail FROM desk.journal j ORDER BY j.seq DESC LIMIT 1;
  next_seq := coalesce(tail.seq, 0) + 1;
  prev := coalesce(tail.hash, repeat('0', 64));
  h := encode(sha256(convert_to(prev || hash_field(next_seq::text) || hash_field(stamp) || hash_field(session_user)
         || hash_field(console) || hash_field(kind) || hash_field(event) || hash_field(outcome)
         || hash_field(summary) || hash_field(body) || hash_field(refers_to::text), 'UTF8')), 'hex');
  INSERT INTO desk.journal VALUES (next_seq, stamp, session_user, console, kind, event, outcome, summary, body,
                                   refers_to, prev, h);
  RETURN next_seq;
END $fn$;
REVOKE ALL ON FUNCTION desk.journal_write(text, text, text, text, text, jsonb, bigint) FROM PUBLIC;

-- What a console journals itself (an export, a statement import, a setting): any person, named by the server.
CREATE FUNCTION desk.journal_append(console text, kind text, event text, outcome text, summary text, data jsonb,
                                    refers_to bigint DEFAULT NULL) RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = desk, pg_catalog AS $fn$
BEGIN
  PERFORM require('viewer', 'write to the journal');
  IF length(console) NOT BETWEEN 1 AND 200 OR kind !~ '^[a-z_]{1,40}$' OR event !~ '^[a-z_.]{1,80}$'
     OR outcome !~ '^[a-z_]{1,20}$' OR length(summary) > 4000 OR octet_length(data::text) > 1000000 THEN
    RAISE EXCEPTION 'A journal entry needs a console, a kind, an event and an outcome of the documented forms.'
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  RETURN journal_write(console, kind, event, outcome, summary, data, refers_to);
END $fn$;
REVOKE ALL ON FUNCTION desk.journal_append(text, text, text, text, text, jsonb, bigint) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION desk.journal_append(text, text, text, text, text, jsonb, bigint) TO viewer;
`;
