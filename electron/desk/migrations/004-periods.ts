/**
 * Period close for the desk: a range of settlement dates an approver closed binds every console — exception
 * actions on its records are refused with who closed it and when — until an approver reopens it with a reason.
 * Closing and reopening are journaled in the same transaction.
 */
export default `
CREATE TABLE desk.periods (
  id serial PRIMARY KEY,
  range_from date NOT NULL,
  range_to date NOT NULL CHECK (range_from <= range_to),
  closed_at timestamptz NOT NULL DEFAULT now(),
  closed_by text NOT NULL DEFAULT session_user,
  close_seq bigint NOT NULL,
  reopened_at timestamptz,
  reopened_by text,
  reopen_reason text
);
GRANT SELECT ON desk.periods TO viewer;

CREATE FUNCTION desk.close_period(range_from date, range_to date, console text) RETURNS bigint
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
    RAISE EXCEPTION '% to % overlaps the closed period % to % (closed by % on %).', range_from, range_to,
      overlapping.range_from, overlapping.range_to, overlapping.closed_by,
      to_char(overlapping.closed_at AT TIME ZONE 'Asia/Kolkata', 'DD/MM/YYYY HH24:MI') USING ERRCODE = 'P0001',
      DETAIL = 'PERIOD_OVERLAP';
  END IF;
  seq := journal_write(console, 'period', 'period.closed', 'done',
    format('Closed %s to %s for the desk.', to_char(range_from, 'DD/MM/YYYY'), to_char(range_to, 'DD/MM/YYYY')),
    jsonb_build_object('from', range_from, 'to', range_to));
  INSERT INTO desk.periods (range_from, range_to, close_seq) VALUES (range_from, range_to, seq);
  RETURN seq;
END $fn$;

CREATE FUNCTION desk.reopen_period(period_id integer, reason text, console text) RETURNS bigint
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
    format('Reopened %s to %s: %s', to_char(p.range_from, 'DD/MM/YYYY'), to_char(p.range_to, 'DD/MM/YYYY'), reason),
    jsonb_build_object('from', p.range_from, 'to', p.range_to, 'reason', reason, 'closedBy', p.closed_by), p.close_seq);
END $fn$;

REVOKE ALL ON FUNCTION desk.close_period(date, date, text), desk.reopen_period(integer, text, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION desk.close_period(date, date, text), desk.reopen_period(integer, text, text) TO approver;
`;
