/**
 * The desk's copy of each synced date's settlement batches: their totals, not their records. A console whose
 * profile holds no API secret cannot sync, so without this it would have no batches to reconcile the desk's
 * statements against; with it, it matches against the totals an operator's sync published (records would be the
 * whole cache again, and each field the service gave, on a server every person reads). A date's batches are
 * replaced whole by `publish_batches`, so a re-sync that changed a date repairs the copy rather than adding to it;
 * an unchanged date writes nothing. Figures are exact paise as bigint.
 */
export default `
CREATE TABLE desk.settlement_batches (
  date date NOT NULL,
  pg text NOT NULL,
  utr text NOT NULL,
  settlement_date text NOT NULL,
  records integer NOT NULL CHECK (records >= 0),
  amount bigint NOT NULL,
  fees bigint NOT NULL,
  taxes bigint NOT NULL,
  subvention bigint NOT NULL,
  settled bigint NOT NULL,
  exceptions integer NOT NULL CHECK (exceptions >= 0),
  published_at timestamptz NOT NULL DEFAULT now(),
  published_by text NOT NULL DEFAULT session_user,
  published_from text NOT NULL,
  PRIMARY KEY (date, pg, utr, settlement_date)
);
GRANT SELECT ON desk.settlement_batches TO viewer;

-- One date's batches as one console's sync rolled them up, replacing what the desk held for the date. Batches
-- decide every console's matches, so publishing them takes an operator (a viewer's sync publishes its exceptions
-- only). One journal entry when the date's figures changed, none when they did not.
CREATE FUNCTION desk.publish_batches(of_date date, in_batches jsonb, in_console text) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = desk, pg_catalog AS $fn$
DECLARE
  before jsonb;
  after jsonb;
  n integer;
  net_before bigint;
  net_after bigint;
BEGIN
  PERFORM require('operator', 'publish settlement batches');
  IF of_date IS NULL OR jsonb_typeof(in_batches) IS DISTINCT FROM 'array' THEN
    RAISE EXCEPTION 'Publishing batches takes a date and an array of batches.' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  -- Two consoles publishing one date queue here, so the later one's figures are the date's.
  PERFORM pg_advisory_xact_lock(hashtext('desk.publish_batches'), (of_date - date '2000-01-01'));
  SELECT coalesce(jsonb_agg(jsonb_build_array(pg, utr, settlement_date, records, amount, fees, taxes, subvention,
                                              settled, exceptions) ORDER BY pg, utr, settlement_date), '[]')
    INTO before FROM desk.settlement_batches WHERE date = of_date;
  SELECT coalesce(jsonb_agg(jsonb_build_array(b.pg, b.utr, b."settlementDate", b.records, b.amount, b.fees, b.taxes,
                                              b.subvention, b.settled, b.exceptions)
                            ORDER BY b.pg, b.utr, b."settlementDate"), '[]')
    INTO after
    FROM jsonb_to_recordset(in_batches) AS b(pg text, utr text, "settlementDate" text, records integer, amount bigint,
                                            fees bigint, taxes bigint, subvention bigint, settled bigint,
                                            exceptions integer);
  IF before = after THEN
    RETURN 0;
  END IF;
  DELETE FROM desk.settlement_batches WHERE date = of_date;
  INSERT INTO desk.settlement_batches (date, pg, utr, settlement_date, records, amount, fees, taxes, subvention,
                                       settled, exceptions, published_from)
  SELECT of_date, b.pg, b.utr, b."settlementDate", b.records, b.amount, b.fees, b.taxes, b.subvention, b.settled,
         b.exceptions, in_console
    FROM jsonb_to_recordset(in_batches) AS b(pg text, utr text, "settlementDate" text, records integer, amount bigint,
                                            fees bigint, taxes bigint, subvention bigint, settled bigint,
                                            exceptions integer);
  GET DIAGNOSTICS n = ROW_COUNT;
  -- Each batch's net is its ninth element (index 8), as built above.
  SELECT coalesce(sum((x->>8)::bigint), 0) INTO net_before FROM jsonb_array_elements(before) x;
  SELECT coalesce(sum((x->>8)::bigint), 0) INTO net_after FROM jsonb_array_elements(after) x;
  PERFORM journal_write(in_console, 'reconciliation', 'batches.published', 'done',
    format('Published the settlement batches of %s: %s batch%s, net %s (the desk held %s, net %s).',
           to_char(of_date, 'DD/MM/YYYY'), n, CASE WHEN n = 1 THEN '' ELSE 'es' END,
           (net_after / 100.0)::numeric(20, 2), jsonb_array_length(before), (net_before / 100.0)::numeric(20, 2)),
    jsonb_build_object('date', of_date, 'batches', n, 'before', jsonb_array_length(before),
      'settled', net_after, 'settledBefore', net_before));
  RETURN n;
END $fn$;

REVOKE ALL ON FUNCTION desk.publish_batches(date, jsonb, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION desk.publish_batches(date, jsonb, text) TO operator;

CREATE TRIGGER settlement_batches_announce AFTER INSERT OR UPDATE OR DELETE ON desk.settlement_batches
  FOR EACH STATEMENT EXECUTE FUNCTION desk.announce();
`;
