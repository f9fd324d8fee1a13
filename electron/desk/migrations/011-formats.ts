/**
 * The desk's sentences in the console's formats (issue 30 #15), as shared/format.ts and shared/money.ts write them:
 * dates dd/mm/yyyy (one day as one date), times "12/06/2026, 2:03:22 pm IST" (always India Standard Time, stated,
 * whatever the zone of the server or the console), amounts "₹2,606.21" with Indian grouping. The functions that
 * wrote ISO dates, bare decimals or an unlabelled 24-hour time are replaced whole, with their grants kept
 * (CREATE OR REPLACE keeps them): the closed-period refusals and closes of 004, 005 and 007, the batch words and
 * the match by hand's difference of 007. Their entries already in the journal stay as written (it is hash-chained).
 */
export default `
-- A date range as the console words it (shared/format.ts formatDateRange).
CREATE FUNCTION desk.date_range_text(range_from date, range_to date) RETURNS text
LANGUAGE sql STABLE AS $fn$
  SELECT CASE WHEN range_from = range_to THEN to_char(range_from, 'DD/MM/YYYY')
              ELSE to_char(range_from, 'DD/MM/YYYY') || ' to ' || to_char(range_to, 'DD/MM/YYYY') END
$fn$;

-- An IST wall-clock time as the console words it (formatIstWallClock): the zone is outside to_char, whose
-- pattern letters would read "IST" as fields.
CREATE FUNCTION desk.ist_wall_text(wall timestamp) RETURNS text
LANGUAGE sql STABLE AS $fn$
  SELECT to_char(wall, 'DD/MM/YYYY, FMHH12:MI:SS am') || ' IST'
$fn$;

-- An instant in IST, as the console words it (formatIstInstant).
CREATE FUNCTION desk.ist_text(at timestamptz) RETURNS text
LANGUAGE sql STABLE AS $fn$
  SELECT desk.ist_wall_text(at AT TIME ZONE 'Asia/Kolkata')
$fn$;

-- Paise as rupees the way formatMoney writes them: ₹12,34,567.89, -₹2,606.21 (lakh and crore grouping: the last
-- three digits, then twos).
CREATE FUNCTION desk.rupees(paise bigint) RETURNS text
LANGUAGE sql IMMUTABLE AS $fn$
  SELECT CASE WHEN paise < 0 THEN '-' ELSE '' END || '₹'
         || regexp_replace((abs(paise) / 100)::text, '(\\d)(?=(\\d\\d)*\\d{3}$)', '\\1,', 'g')
         || '.' || lpad((abs(paise) % 100)::text, 2, '0')
$fn$;

CREATE OR REPLACE FUNCTION desk.close_period(range_from date, range_to date, console text) RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = desk, pg_catalog AS $fn$
DECLARE overlapping record; seq bigint;
BEGIN
  PERFORM require('approver', 'close a period');
  IF range_from > range_to THEN
    RAISE EXCEPTION 'A period starts on or before its last day.' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  LOCK TABLE desk.periods IN SHARE ROW EXCLUSIVE MODE;
  SELECT * INTO overlapping FROM desk.periods p
   WHERE p.reopened_at IS NULL AND p.range_from <= close_period.range_to AND p.range_to >= close_period.range_from;
  IF FOUND THEN
    RAISE EXCEPTION '% overlaps the closed period % (closed by % on %).', date_range_text(range_from, range_to),
      date_range_text(overlapping.range_from, overlapping.range_to), overlapping.closed_by,
      ist_text(overlapping.closed_at) USING ERRCODE = 'P0001', DETAIL = 'PERIOD_OVERLAP';
  END IF;
  seq := journal_write(console, 'period', 'period.closed', 'done',
    format('Closed %s for the desk.', date_range_text(range_from, range_to)),
    jsonb_build_object('from', range_from, 'to', range_to));
  INSERT INTO desk.periods (range_from, range_to, close_seq) VALUES (range_from, range_to, seq);
  RETURN seq;
END $fn$;

CREATE OR REPLACE FUNCTION desk.reopen_period(period_id integer, reason text, console text) RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = desk, pg_catalog AS $fn$
DECLARE p record;
BEGIN
  PERFORM require('approver', 'reopen a period');
  IF length(trim(coalesce(reason, ''))) = 0 THEN
    RAISE EXCEPTION 'Reopening a period needs a reason.' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  SELECT * INTO p FROM desk.periods WHERE id = period_id AND reopened_at IS NULL FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'Period % is not closed.', period_id USING ERRCODE = 'no_data_found';
  END IF;
  UPDATE desk.periods SET reopened_at = now(), reopened_by = session_user, reopen_reason = reason WHERE id = period_id;
  RETURN journal_write(console, 'period', 'period.reopened', 'done',
    format('Reopened %s: %s', date_range_text(p.range_from, p.range_to), reason),
    jsonb_build_object('from', p.range_from, 'to', p.range_to, 'reason', reason, 'closedBy', p.closed_by), p.close_seq);
END $fn$;

CREATE OR REPLACE FUNCTION desk.refuse_closed_batch(batch_date date) RETURNS void
LANGUAGE plpgsql STABLE SET search_path = desk, pg_catalog AS $fn$
DECLARE closed record;
BEGIN
  SELECT * INTO closed FROM desk.periods p
   WHERE p.reopened_at IS NULL AND batch_date BETWEEN p.range_from AND p.range_to LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'The period % is closed (closed by % on %); an approver must reopen it before its batches are matched or unmatched.',
      date_range_text(closed.range_from, closed.range_to), closed.closed_by, ist_text(closed.closed_at)
      USING ERRCODE = 'P0001', DETAIL = 'PERIOD_CLOSED';
  END IF;
END $fn$;

-- A batch as one line of the journal, as the console words it (reconcile.ts batchWords).
CREATE OR REPLACE FUNCTION desk.batch_words(b jsonb) RETURNS text
LANGUAGE sql STABLE AS $fn$
  SELECT format('%s %s settled %s (%s)', b->>'pg', CASE WHEN b->>'utr' = '' THEN 'UTR pending' ELSE b->>'utr' END,
                CASE WHEN b->>'settlementDate' ~ '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$'
                     THEN desk.ist_wall_text((b->>'settlementDate')::timestamp)
                     ELSE (b->>'settlementDate') || ' IST' END,
                to_char((b->>'date')::date, 'DD/MM/YYYY'))
$fn$;

CREATE OR REPLACE FUNCTION desk.act_on_exceptions(in_keys jsonb, in_action text, in_text text, in_selection jsonb,
                                       in_console text, in_request_id text) RETURNS jsonb
LANGUAGE plpgsql SECURITY DEFINER SET search_path = desk, pg_catalog AS $fn$
DECLARE
  wanted integer;
  found_count integer;
  closed record;
  moved record;
  refused record;
  n integer;
  digest text;
  seq bigint;
  single boolean;
  one_key record;
  next_state text := CASE in_action WHEN 'acknowledge' THEN 'acknowledged' WHEN 'resolve' THEN 'resolved'
                                 WHEN 'reopen' THEN 'open' END;
  allowed text[] := CASE in_action WHEN 'acknowledge' THEN ARRAY['open'] WHEN 'resolve' THEN ARRAY['open', 'acknowledged']
                                WHEN 'reopen' THEN ARRAY['acknowledged', 'resolved']
                                ELSE ARRAY['open', 'acknowledged', 'resolved'] END;
  verb text := CASE in_action WHEN 'acknowledge' THEN 'Acknowledged' WHEN 'resolve' THEN 'Resolved'
                           WHEN 'reopen' THEN 'Reopened' WHEN 'assign' THEN 'Assigned' ELSE 'Noted' END;
BEGIN
  PERFORM require('operator', 'act on exceptions');
  IF in_action NOT IN ('acknowledge', 'assign', 'note', 'resolve', 'reopen') THEN
    RAISE EXCEPTION 'Unknown exception action %.', in_action USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF length(trim(coalesce(in_text, ''))) = 0 AND in_action IN ('assign', 'note') THEN
    RAISE EXCEPTION 'A % needs its text.', in_action USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF in_action = 'assign' AND NOT EXISTS (SELECT 1 FROM desk.people p WHERE p.login = in_text AND p.removed_at IS NULL) THEN
    RAISE EXCEPTION '% is not a person on this desk.', in_text USING ERRCODE = 'P0001', DETAIL = 'EXCEPTION_REFUSED';
  END IF;
  wanted := jsonb_array_length(in_keys);
  IF wanted = 0 THEN
    RAISE EXCEPTION 'No exceptions were chosen.' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  single := wanted = 1 AND in_selection IS NULL;

  -- Lock in key order, so two bulk actions over overlapping sets queue instead of deadlocking.
  PERFORM 1 FROM desk.exceptions e JOIN keys_of(in_keys) k USING (date, pg, pg_transaction_id, settlement_date)
    ORDER BY e.date, e.pg, e.pg_transaction_id, e.settlement_date FOR UPDATE OF e;
  GET DIAGNOSTICS found_count = ROW_COUNT;
  IF found_count < wanted THEN
    RAISE EXCEPTION '% of the % exceptions chosen are not on the desk.', wanted - found_count, wanted
      USING ERRCODE = 'P0001', DETAIL = 'EXCEPTION_REFUSED';
  END IF;

  SELECT p.*, count(*) OVER () AS records INTO closed
    FROM desk.periods p JOIN keys_of(in_keys) k ON k.date BETWEEN p.range_from AND p.range_to
   WHERE p.reopened_at IS NULL LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'The period % is closed (closed by % on %); an approver must reopen it first.',
      date_range_text(closed.range_from, closed.range_to), closed.closed_by, ist_text(closed.closed_at)
      USING ERRCODE = 'P0001', DETAIL = 'PERIOD_CLOSED';
  END IF;

  SELECT e.updated_by, e.updated_at, e.state, count(*) OVER () AS n INTO moved
    FROM desk.exceptions e JOIN keys_of(in_keys) k USING (date, pg, pg_transaction_id, settlement_date)
   WHERE k.version IS NOT NULL AND e.version <> k.version ORDER BY e.updated_at DESC LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION '% changed % of these exceptions first (now %, at %); look again before acting.',
      coalesce(moved.updated_by, 'someone'), moved.n, moved.state,
      ist_text(moved.updated_at)
      USING ERRCODE = 'P0001', DETAIL = 'DESK_CONFLICT';
  END IF;

  SELECT e.state, count(*) OVER () AS n INTO refused
    FROM desk.exceptions e JOIN keys_of(in_keys) k USING (date, pg, pg_transaction_id, settlement_date)
   WHERE NOT e.state = ANY (allowed) LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'Cannot % % of these exceptions: they are %.', in_action, refused.n, refused.state
      USING ERRCODE = 'P0001', DETAIL = 'EXCEPTION_REFUSED';
  END IF;

  UPDATE desk.exceptions e SET
      state = coalesce(next_state, e.state),
      assignee = CASE WHEN in_action = 'assign' THEN in_text ELSE e.assignee END,
      note = CASE WHEN in_action <> 'assign' AND in_text IS NOT NULL THEN in_text ELSE e.note END,
      version = e.version + 1, updated_by = session_user, updated_at = now()
    FROM keys_of(in_keys) k
   WHERE (e.date, e.pg, e.pg_transaction_id, e.settlement_date) = (k.date, k.pg, k.pg_transaction_id, k.settlement_date);
  GET DIAGNOSTICS n = ROW_COUNT;

  SELECT encode(sha256(convert_to(string_agg(k.date || chr(1) || k.pg || chr(1) || k.pg_transaction_id || chr(1)
                || k.settlement_date, chr(10) ORDER BY k.date, k.pg COLLATE "C", k.pg_transaction_id COLLATE "C",
                k.settlement_date COLLATE "C"), 'UTF8')), 'hex')
    INTO digest FROM keys_of(in_keys) k;
  SELECT * INTO one_key FROM keys_of(in_keys) LIMIT 1;
  seq := journal_write(in_console, 'exception', CASE WHEN single THEN 'exception.' || in_action ELSE 'exception.bulk' END,
    'done',
    CASE WHEN single THEN format('%s the exception on %s %s (%s)%s', verb, one_key.pg, one_key.pg_transaction_id,
                                 to_char(one_key.date, 'DD/MM/YYYY'), coalesce(': ' || in_text, '.'))
         ELSE format('%s %s exceptions%s', verb, n, coalesce(': ' || in_text, '.')) END,
    jsonb_strip_nulls(jsonb_build_object('action', in_action, 'count', n, 'text', in_text, 'filter', in_selection,
      'digest', digest, 'requestId', in_request_id,
      'key', CASE WHEN single THEN jsonb_build_object('date', one_key.date, 'pg', one_key.pg,
               'pgTransactionId', one_key.pg_transaction_id, 'settlementDate', one_key.settlement_date) END)));
  INSERT INTO desk.exception_events (date, pg, pg_transaction_id, settlement_date, action, text, journal_seq)
    SELECT k.date, k.pg, k.pg_transaction_id, k.settlement_date, in_action, in_text, seq FROM keys_of(in_keys) k;
  RETURN jsonb_build_object('count', n, 'digest', digest, 'journalSeq', seq);
END $fn$;

CREATE OR REPLACE FUNCTION desk.match_by_hand(in_account text, in_batch jsonb, in_line_ids bigint[], in_note text,
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
           CASE WHEN n = 1 THEN '' ELSE 's' END, acc.name, rupees(credited - settled),
           trim(in_note)),
    jsonb_build_object('account', acc.name, 'matchId', match_id,
      'batch', jsonb_build_object('date', b_date, 'pg', in_batch->>'pg', 'utr', in_batch->>'utr',
                                  'settlementDate', in_batch->>'settlementDate'),
      'lineIds', to_jsonb(in_line_ids), 'credited', credited, 'settled', settled, 'difference', credited - settled,
      'replacedMatches', to_jsonb(replaced), 'note', trim(in_note)));
  RETURN jsonb_build_object('matchId', match_id, 'journalSeq', seq);
END $fn$;
`;
