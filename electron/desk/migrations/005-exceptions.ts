/**
 * The desk's exception queue. A console that syncs a date publishes that date's records that break a rule, with
 * their fields, so the queue holds every exception the desk knows, including dates this console never synced;
 * their workflow state (open, acknowledged, resolved; assignee; note) lives only here. Every action goes through
 * `act_on_exceptions`: one transaction for one record or ten thousand, refused whole when any record cannot take
 * it (a closed period, a state that does not allow it, a version someone else already moved), and one journal entry
 * holding the count, the filter and a digest of the keys.
 */
export default `
CREATE TABLE desk.exceptions (
  date date NOT NULL,
  pg text NOT NULL,
  pg_transaction_id text NOT NULL,
  settlement_date text NOT NULL,
  rules text[] NOT NULL,
  record jsonb NOT NULL,
  order_id text,
  utr text,
  amount_at_risk bigint NOT NULL,
  state text NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'acknowledged', 'resolved')),
  assignee text,
  note text,
  version integer NOT NULL DEFAULT 0,
  updated_by text,
  updated_at timestamptz,
  first_seen_at timestamptz NOT NULL DEFAULT now(),
  first_seen_by text NOT NULL DEFAULT session_user,
  PRIMARY KEY (date, pg, pg_transaction_id, settlement_date)
);
CREATE INDEX exceptions_by_state ON desk.exceptions (state, date, pg, pg_transaction_id, settlement_date);
CREATE INDEX exceptions_by_assignee ON desk.exceptions (assignee, state) WHERE assignee IS NOT NULL;

CREATE TABLE desk.exception_events (
  id bigserial PRIMARY KEY,
  date date NOT NULL,
  pg text NOT NULL,
  pg_transaction_id text NOT NULL,
  settlement_date text NOT NULL,
  at timestamptz NOT NULL DEFAULT now(),
  person text NOT NULL DEFAULT session_user,
  action text NOT NULL,
  text text,
  journal_seq bigint NOT NULL
);
CREATE INDEX exception_events_by_key ON desk.exception_events (date, pg, pg_transaction_id, settlement_date);
GRANT SELECT ON desk.exceptions, desk.exception_events TO viewer;

CREATE FUNCTION desk.keys_of(keys jsonb)
RETURNS TABLE (date date, pg text, pg_transaction_id text, settlement_date text, version integer)
LANGUAGE sql IMMUTABLE AS $fn$
  SELECT k.date, k.pg, k."pgTransactionId", k."settlementDate", k.version
  FROM jsonb_to_recordset(keys) AS k(date date, pg text, "pgTransactionId" text, "settlementDate" text, version integer)
$fn$;

-- A date's records that break a rule, as one console saw them. With whole_date (a sync's whole date), the date's
-- other rows no longer break any; without it (one record going up with its action), nothing else changes.
CREATE FUNCTION desk.publish_exceptions(of_date date, records jsonb, whole_date boolean) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = desk, pg_catalog AS $fn$
DECLARE n integer;
BEGIN
  PERFORM require('viewer', 'publish a sync''s exceptions');
  INSERT INTO desk.exceptions AS e (date, pg, pg_transaction_id, settlement_date, rules, record, order_id, utr,
                                    amount_at_risk)
  SELECT of_date, r.pg, r."pgTransactionId", r."settlementDate", r.rules, r.record, r."orderId", r.utr, r."amountAtRisk"
    FROM jsonb_to_recordset(records) AS r(pg text, "pgTransactionId" text, "settlementDate" text, rules text[],
                                          record jsonb, "orderId" text, utr text, "amountAtRisk" bigint)
  ON CONFLICT (date, pg, pg_transaction_id, settlement_date) DO UPDATE SET
    rules = excluded.rules, record = excluded.record, order_id = excluded.order_id, utr = excluded.utr,
    amount_at_risk = excluded.amount_at_risk
  WHERE (e.rules, e.record, e.order_id, e.utr, e.amount_at_risk)
        IS DISTINCT FROM (excluded.rules, excluded.record, excluded.order_id, excluded.utr, excluded.amount_at_risk);
  GET DIAGNOSTICS n = ROW_COUNT;
  IF NOT whole_date THEN
    RETURN n;
  END IF;
  -- The records once, as a table: a NOT EXISTS over jsonb_to_recordset would parse them again for every row.
  WITH r AS MATERIALIZED (
    SELECT x.pg, x."pgTransactionId" AS id, x."settlementDate" AS settled
      FROM jsonb_to_recordset(records) AS x(pg text, "pgTransactionId" text, "settlementDate" text)
  )
  UPDATE desk.exceptions e SET rules = '{}'
   WHERE e.date = of_date AND cardinality(e.rules) > 0
     AND NOT EXISTS (SELECT 1 FROM r WHERE r.pg = e.pg AND r.id = e.pg_transaction_id AND r.settled = e.settlement_date);
  RETURN n;
END $fn$;

CREATE FUNCTION desk.act_on_exceptions(in_keys jsonb, in_action text, in_text text, in_selection jsonb,
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
    RAISE EXCEPTION 'The period % to % is closed (closed by % on %); an approver must reopen it first.',
      to_char(closed.range_from, 'DD/MM/YYYY'), to_char(closed.range_to, 'DD/MM/YYYY'), closed.closed_by,
      to_char(closed.closed_at AT TIME ZONE 'Asia/Kolkata', 'DD/MM/YYYY HH24:MI')
      USING ERRCODE = 'P0001', DETAIL = 'PERIOD_CLOSED';
  END IF;

  SELECT e.updated_by, e.updated_at, e.state, count(*) OVER () AS n INTO moved
    FROM desk.exceptions e JOIN keys_of(in_keys) k USING (date, pg, pg_transaction_id, settlement_date)
   WHERE k.version IS NOT NULL AND e.version <> k.version ORDER BY e.updated_at DESC LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION '% changed % of these exceptions first (now %, at %); look again before acting.',
      coalesce(moved.updated_by, 'someone'), moved.n, moved.state,
      to_char(moved.updated_at AT TIME ZONE 'Asia/Kolkata', 'DD/MM/YYYY HH24:MI:SS')
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

REVOKE ALL ON FUNCTION desk.publish_exceptions(date, jsonb, boolean),
  desk.act_on_exceptions(jsonb, text, text, jsonb, text, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION desk.publish_exceptions(date, jsonb, boolean) TO viewer;
GRANT EXECUTE ON FUNCTION desk.act_on_exceptions(jsonb, text, text, jsonb, text, text) TO operator;
`;
