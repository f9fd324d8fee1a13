/**
 * Reconciliation for the desk: bank accounts, imported statements and their lines, matches made by hand, the pairs
 * someone took apart, and the match settings. Settlement batches stay in each console's cache (they roll up its
 * synced records), and automatic matches are worked out by each console from these tables and its batches, so
 * only what a person decided is shared. Every table is read-only to every group: an operator imports, matches and
 * unmatches, an approver sets the match settings, each through a function below that journals the person and
 * refuses a match or unmatch on a batch of a closed period with who closed it and when. Lines keep exact paise.
 */
export default `
CREATE TABLE desk.bank_accounts (
  id serial PRIMARY KEY,
  name text NOT NULL UNIQUE CHECK (length(name) BETWEEN 1 AND 200),
  mapping jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL DEFAULT session_user
);

CREATE TABLE desk.bank_statements (
  id bigserial PRIMARY KEY,
  account_id integer NOT NULL REFERENCES desk.bank_accounts (id),
  file_name text NOT NULL,
  digest text NOT NULL,
  layout text NOT NULL,
  lines integer NOT NULL,
  added integer NOT NULL,
  bad integer NOT NULL,
  imported_at timestamptz NOT NULL DEFAULT now(),
  imported_by text NOT NULL DEFAULT session_user,
  journal_seq bigint
);

-- A line's key is the digest of its content and its ordinal among identical lines of its file (the console's
-- lineKey), so importing a file again, from any console, adds nothing.
CREATE TABLE desk.bank_lines (
  id bigserial PRIMARY KEY,
  account_id integer NOT NULL REFERENCES desk.bank_accounts (id),
  statement_id bigint NOT NULL REFERENCES desk.bank_statements (id),
  line_key text NOT NULL,
  date date NOT NULL,
  value_date date,
  narration text NOT NULL,
  reference text,
  amount bigint NOT NULL,
  balance bigint,
  rail text,
  utr text,
  row_number integer NOT NULL,
  UNIQUE (account_id, line_key)
);
CREATE INDEX bank_lines_by_date ON desk.bank_lines (account_id, date);

-- Matches made by hand only: a batch in at most one, a credit in at most one.
CREATE TABLE desk.recon_matches (
  id bigserial PRIMARY KEY,
  account_id integer NOT NULL REFERENCES desk.bank_accounts (id),
  batch_date date NOT NULL,
  pg text NOT NULL,
  utr text NOT NULL,
  settlement_date text NOT NULL,
  note text NOT NULL,
  matched_at timestamptz NOT NULL DEFAULT now(),
  matched_by text NOT NULL DEFAULT session_user,
  UNIQUE (batch_date, pg, utr, settlement_date)
);
CREATE TABLE desk.recon_match_lines (
  match_id bigint NOT NULL REFERENCES desk.recon_matches (id) ON DELETE CASCADE,
  line_id bigint NOT NULL UNIQUE REFERENCES desk.bank_lines (id),
  PRIMARY KEY (match_id, line_id)
);

-- What someone took apart: no console's matcher puts the batch and the credit together again.
CREATE TABLE desk.recon_apart (
  batch_key text NOT NULL,
  line_id bigint NOT NULL REFERENCES desk.bank_lines (id),
  note text NOT NULL,
  kept_at timestamptz NOT NULL DEFAULT now(),
  kept_by text NOT NULL DEFAULT session_user,
  PRIMARY KEY (batch_key, line_id)
);

CREATE TABLE desk.recon_settings (
  key text PRIMARY KEY CHECK (key = 'matching'),
  value jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by text NOT NULL DEFAULT session_user
);

GRANT SELECT ON desk.bank_accounts, desk.bank_statements, desk.bank_lines, desk.recon_matches,
  desk.recon_match_lines, desk.recon_apart, desk.recon_settings TO viewer;

-- Not granted: the functions below call it. Refuses a batch date inside a period the desk has closed.
CREATE FUNCTION desk.refuse_closed_batch(batch_date date) RETURNS void
LANGUAGE plpgsql STABLE SET search_path = desk, pg_catalog AS $fn$
DECLARE closed record;
BEGIN
  SELECT * INTO closed FROM desk.periods p
   WHERE p.reopened_at IS NULL AND batch_date BETWEEN p.range_from AND p.range_to LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'The period % to % is closed (closed by % on %); an approver must reopen it before its batches are matched or unmatched.',
      to_char(closed.range_from, 'DD/MM/YYYY'), to_char(closed.range_to, 'DD/MM/YYYY'), closed.closed_by,
      to_char(closed.closed_at AT TIME ZONE 'Asia/Kolkata', 'DD/MM/YYYY HH24:MI')
      USING ERRCODE = 'P0001', DETAIL = 'PERIOD_CLOSED';
  END IF;
END $fn$;
REVOKE ALL ON FUNCTION desk.refuse_closed_batch(date) FROM PUBLIC;

CREATE FUNCTION desk.recon_account(account_name text) RETURNS desk.bank_accounts
LANGUAGE plpgsql STABLE SET search_path = desk, pg_catalog AS $fn$
DECLARE a desk.bank_accounts;
BEGIN
  SELECT * INTO a FROM desk.bank_accounts WHERE name = account_name;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'No bank account "%" on the desk: import a statement into it first.', account_name
      USING ERRCODE = 'P0001';
  END IF;
  RETURN a;
END $fn$;
REVOKE ALL ON FUNCTION desk.recon_account(text) FROM PUBLIC;

-- A batch as one line of the journal, as the console words it (reconcile.ts batchWords).
CREATE FUNCTION desk.batch_words(b jsonb) RETURNS text
LANGUAGE sql IMMUTABLE AS $fn$
  SELECT format('%s %s settled %s (%s)', b->>'pg', CASE WHEN b->>'utr' = '' THEN 'UTR pending' ELSE b->>'utr' END,
                b->>'settlementDate', b->>'date')
$fn$;

-- A statement's good lines into an account (made on first use), with the mapping that read it, and one entry.
CREATE FUNCTION desk.import_statement(in_account text, in_mapping jsonb, in_file jsonb, in_lines jsonb, in_console text)
RETURNS jsonb
LANGUAGE plpgsql SECURITY DEFINER SET search_path = desk, pg_catalog AS $fn$
DECLARE
  acc desk.bank_accounts;
  statement_id bigint;
  wanted integer := jsonb_array_length(in_lines);
  n_added integer;
  bad integer := (in_file->>'bad')::integer;
  seq bigint;
BEGIN
  PERFORM require('operator', 'import statements');
  INSERT INTO desk.bank_accounts (name) VALUES (in_account) ON CONFLICT (name) DO NOTHING;
  SELECT * INTO acc FROM desk.bank_accounts WHERE name = in_account FOR UPDATE;
  UPDATE desk.bank_accounts SET mapping = in_mapping WHERE id = acc.id;
  INSERT INTO desk.bank_statements (account_id, file_name, digest, layout, lines, added, bad)
    VALUES (acc.id, in_file->>'fileName', in_file->>'digest', in_file->>'layout', wanted, 0, bad)
    RETURNING id INTO statement_id;
  INSERT INTO desk.bank_lines (account_id, statement_id, line_key, date, value_date, narration, reference, amount,
                               balance, rail, utr, row_number)
  SELECT acc.id, statement_id, l."lineKey", l.date, l."valueDate", l.narration, l.reference, l.amount, l.balance,
         l.rail, l.utr, l."rowNumber"
    FROM jsonb_to_recordset(in_lines) AS l("lineKey" text, date date, "valueDate" date, narration text,
                                           reference text, amount bigint, balance bigint, rail text, utr text,
                                           "rowNumber" integer)
  ON CONFLICT (account_id, line_key) DO NOTHING;
  GET DIAGNOSTICS n_added = ROW_COUNT;
  seq := journal_write(in_console, 'reconciliation', 'statement.imported', 'done',
    format('Imported %s into %s: %s new lines, %s already held, %s unreadable.', in_file->>'fileName', acc.name,
           n_added, wanted - n_added, bad),
    jsonb_build_object('account', acc.name, 'fileName', in_file->>'fileName', 'sha256', in_file->>'digest',
      'layout', in_file->>'layout', 'lines', wanted, 'added', n_added, 'duplicates', wanted - n_added, 'bad', bad));
  UPDATE desk.bank_statements SET added = n_added, journal_seq = seq WHERE id = statement_id;
  RETURN jsonb_build_object('accountId', acc.id, 'added', n_added, 'duplicates', wanted - n_added, 'journalSeq', seq);
END $fn$;

-- A batch matched by hand to credits of the account, with a note; the credits and the batch leave any match by
-- hand they were in. The batch's net comes from the console's cache (batches are not desk state).
CREATE FUNCTION desk.match_by_hand(in_account text, in_batch jsonb, in_line_ids bigint[], in_note text,
                                   in_console text) RETURNS jsonb
LANGUAGE plpgsql SECURITY DEFINER SET search_path = desk, pg_catalog AS $fn$
DECLARE
  acc desk.bank_accounts;
  b_date date := (in_batch->>'date')::date;
  settled bigint := (in_batch->>'settled')::bigint;
  credited bigint;
  n integer;
  bad record;
  replaced bigint[];
  match_id bigint;
  seq bigint;
BEGIN
  PERFORM require('operator', 'match statements');
  acc := recon_account(in_account);
  -- Matches on one account queue: the second of two at once sees the first's, and replaces it or is refused.
  PERFORM 1 FROM desk.bank_accounts WHERE id = acc.id FOR UPDATE;
  IF length(trim(coalesce(in_note, ''))) = 0 THEN
    RAISE EXCEPTION 'A match by hand needs a note saying why.' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF cardinality(in_line_ids) = 0 THEN
    RAISE EXCEPTION 'Choose at least one credit to match the batch to.' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  PERFORM refuse_closed_batch(b_date);
  SELECT i.id, l.account_id, l.amount INTO bad FROM unnest(in_line_ids) AS i(id)
    LEFT JOIN desk.bank_lines l ON l.id = i.id WHERE l.account_id IS DISTINCT FROM acc.id OR l.amount <= 0 LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'Statement line % %.', bad.id,
      CASE WHEN bad.account_id IS DISTINCT FROM acc.id THEN format('is not in account "%s"', acc.name)
           ELSE 'is a debit, not a credit' END
      USING ERRCODE = 'P0001';
  END IF;
  SELECT coalesce(array_agg(DISTINCT m.id ORDER BY m.id), '{}') INTO replaced FROM desk.recon_matches m
   WHERE m.id IN (SELECT ml.match_id FROM desk.recon_match_lines ml WHERE ml.line_id = ANY (in_line_ids))
      OR (m.batch_date, m.pg, m.utr, m.settlement_date)
         = (b_date, in_batch->>'pg', in_batch->>'utr', in_batch->>'settlementDate');
  DELETE FROM desk.recon_matches WHERE id = ANY (replaced);
  INSERT INTO desk.recon_matches (account_id, batch_date, pg, utr, settlement_date, note)
    VALUES (acc.id, b_date, in_batch->>'pg', in_batch->>'utr', in_batch->>'settlementDate', trim(in_note))
    RETURNING id INTO match_id;
  INSERT INTO desk.recon_match_lines (match_id, line_id) SELECT DISTINCT match_id, i FROM unnest(in_line_ids) AS i;
  SELECT sum(l.amount), count(*) INTO credited, n FROM desk.bank_lines l WHERE l.id = ANY (in_line_ids);
  seq := journal_write(in_console, 'action', 'recon.match_by_hand', 'done',
    format('Matched batch %s by hand to %s credit%s in "%s" (difference %s): %s', batch_words(in_batch), n,
           CASE WHEN n = 1 THEN '' ELSE 's' END, acc.name, ((credited - settled) / 100.0)::numeric(20, 2),
           trim(in_note)),
    jsonb_build_object('account', acc.name, 'matchId', match_id,
      'batch', jsonb_build_object('date', b_date, 'pg', in_batch->>'pg', 'utr', in_batch->>'utr',
                                  'settlementDate', in_batch->>'settlementDate'),
      'lineIds', to_jsonb(in_line_ids), 'credited', credited, 'settled', settled, 'difference', credited - settled,
      'replacedMatches', to_jsonb(replaced), 'note', trim(in_note)));
  RETURN jsonb_build_object('matchId', match_id, 'journalSeq', seq);
END $fn$;

-- Takes a match apart: one made by hand (in_match_id) or one a console's matcher made (its batch and credits).
-- The pairs are kept apart for every console's matcher from then on.
CREATE FUNCTION desk.unmatch(in_account text, in_match_id bigint, in_batch jsonb, in_line_ids bigint[],
                             in_how text, in_note text, in_console text) RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = desk, pg_catalog AS $fn$
DECLARE
  acc desk.bank_accounts;
  m desk.recon_matches;
  b jsonb := in_batch;
  ids bigint[] := in_line_ids;
  how text := in_how;
  credited bigint;
BEGIN
  PERFORM require('operator', 'unmatch statements');
  acc := recon_account(in_account);
  PERFORM 1 FROM desk.bank_accounts WHERE id = acc.id FOR UPDATE;
  IF length(trim(coalesce(in_note, ''))) = 0 THEN
    RAISE EXCEPTION 'Unmatching needs a note saying why.' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF in_match_id IS NOT NULL THEN
    SELECT * INTO m FROM desk.recon_matches WHERE id = in_match_id AND account_id = acc.id FOR UPDATE;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'No match % in account "%": someone may have unmatched it already.', in_match_id, acc.name
        USING ERRCODE = 'P0001';
    END IF;
    b := jsonb_build_object('date', m.batch_date, 'pg', m.pg, 'utr', m.utr, 'settlementDate', m.settlement_date);
    SELECT coalesce(array_agg(line_id ORDER BY line_id), '{}') INTO ids FROM desk.recon_match_lines
     WHERE match_id = m.id;
    how := 'manual';
  ELSIF EXISTS (SELECT 1 FROM unnest(ids) AS i(id) LEFT JOIN desk.bank_lines l ON l.id = i.id
                 WHERE l.account_id IS DISTINCT FROM acc.id)
     OR EXISTS (SELECT 1 FROM desk.recon_match_lines WHERE line_id = ANY (ids)) THEN
    RAISE EXCEPTION 'These credits are not an automatic match in account "%" any more: read the report again.', acc.name
      USING ERRCODE = 'P0001';
  END IF;
  PERFORM refuse_closed_batch((b->>'date')::date);
  INSERT INTO desk.recon_apart (batch_key, line_id, note)
    SELECT concat_ws('|', b->>'date', b->>'pg', b->>'utr', b->>'settlementDate'), i, trim(in_note) FROM unnest(ids) AS i
  ON CONFLICT (batch_key, line_id) DO UPDATE SET note = excluded.note, kept_at = now(), kept_by = session_user;
  IF in_match_id IS NOT NULL THEN
    DELETE FROM desk.recon_matches WHERE id = in_match_id;
  END IF;
  SELECT coalesce(sum(amount), 0) INTO credited FROM desk.bank_lines WHERE id = ANY (ids);
  RETURN journal_write(in_console, 'action', 'recon.unmatch', 'done',
    format('Unmatched batch %s from %s credit%s in "%s" (was %s): %s', batch_words(b), cardinality(ids),
           CASE WHEN cardinality(ids) = 1 THEN '' ELSE 's' END, acc.name, how, trim(in_note)),
    jsonb_strip_nulls(jsonb_build_object('account', acc.name, 'matchId', in_match_id, 'how', how,
      'batch', jsonb_build_object('date', b->>'date', 'pg', b->>'pg', 'utr', b->>'utr',
                                  'settlementDate', b->>'settlementDate'),
      'lineIds', to_jsonb(ids), 'credited', credited, 'note', trim(in_note))));
END $fn$;

-- The match settings for everyone: which credits may pay a batch and when a missing one is overdue decide what
-- the whole desk sees, so they take an approver. Unchanged settings write nothing and answer null.
CREATE FUNCTION desk.set_match_settings(in_value jsonb, in_console text) RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = desk, pg_catalog AS $fn$
DECLARE before jsonb;
BEGIN
  PERFORM require('approver', 'change the match settings');
  IF jsonb_typeof(in_value->'windowDays') IS DISTINCT FROM 'number' OR (in_value->>'windowDays') !~ '^\\d+$'
     OR (in_value->>'windowDays')::integer > 10
     OR jsonb_typeof(in_value->'overdueDays') IS DISTINCT FROM 'number' OR (in_value->>'overdueDays') !~ '^\\d+$'
     OR (in_value->>'overdueDays')::integer > 30
     OR jsonb_typeof(in_value->'triageThreshold') IS DISTINCT FROM 'number'
     OR (in_value->>'triageThreshold')::numeric NOT BETWEEN 0 AND 1
     OR (SELECT count(*) FROM jsonb_object_keys(in_value)) <> 3 THEN
    RAISE EXCEPTION 'Match settings are windowDays (0–10 days), overdueDays (0–30 days) and triageThreshold (0–1).'
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  SELECT value INTO before FROM desk.recon_settings WHERE key = 'matching' FOR UPDATE;
  IF before = in_value THEN
    RETURN NULL;
  END IF;
  INSERT INTO desk.recon_settings (key, value) VALUES ('matching', in_value)
  ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = now(), updated_by = session_user;
  RETURN journal_write(in_console, 'reconciliation', 'recon.settings_changed', 'done',
    format('Match settings: credits up to %s days after a batch, overdue after T+%s, triage tags at %s%%.',
           in_value->>'windowDays', in_value->>'overdueDays', round((in_value->>'triageThreshold')::numeric * 100)),
    jsonb_build_object('before', before, 'after', in_value));
END $fn$;

REVOKE ALL ON FUNCTION desk.import_statement(text, jsonb, jsonb, jsonb, text),
  desk.match_by_hand(text, jsonb, bigint[], text, text),
  desk.unmatch(text, bigint, jsonb, bigint[], text, text, text),
  desk.set_match_settings(jsonb, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION desk.import_statement(text, jsonb, jsonb, jsonb, text),
  desk.match_by_hand(text, jsonb, bigint[], text, text),
  desk.unmatch(text, bigint, jsonb, bigint[], text, text, text) TO operator;
GRANT EXECUTE ON FUNCTION desk.set_match_settings(jsonb, text) TO approver;

CREATE TRIGGER bank_accounts_announce AFTER INSERT OR UPDATE OR DELETE ON desk.bank_accounts
  FOR EACH STATEMENT EXECUTE FUNCTION desk.announce();
CREATE TRIGGER bank_lines_announce AFTER INSERT OR UPDATE OR DELETE ON desk.bank_lines
  FOR EACH STATEMENT EXECUTE FUNCTION desk.announce();
CREATE TRIGGER recon_matches_announce AFTER INSERT OR UPDATE OR DELETE ON desk.recon_matches
  FOR EACH STATEMENT EXECUTE FUNCTION desk.announce();
CREATE TRIGGER recon_apart_announce AFTER INSERT OR UPDATE OR DELETE ON desk.recon_apart
  FOR EACH STATEMENT EXECUTE FUNCTION desk.announce();
CREATE TRIGGER recon_settings_announce AFTER INSERT OR UPDATE OR DELETE ON desk.recon_settings
  FOR EACH STATEMENT EXECUTE FUNCTION desk.announce();
`;
