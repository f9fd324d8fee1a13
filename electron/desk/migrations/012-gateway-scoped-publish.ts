/**
 * A sync of some gateways of a date publishes those gateways only. Until this, `publish_batches` and a whole date's
 * `publish_exceptions` replaced the date whole, so a console that had synced one gateway of a date (`sync
 * settlements --pg`) and never the others removed the other gateways' batches from the desk and cleared their
 * exceptions. Both take the gateways the console holds whole for the date (`in_gateways`, NULL for every gateway,
 * which is what a console of an earlier version means by calling them with three arguments) and touch those only. A
 * batch or record of another gateway in the same call is refused: it would be published from a partial copy.
 * The batches also keep their refunds and chargebacks (signed paise; the Batches view splits a batch's amount into
 * sales, refunds and chargebacks as the cache does): null on the rows already published, which no console can work
 * out on the server, until their date is published again.
 * The functions are dropped and made again with the new argument, so their grants are given again below; written
 * to apply again over itself (`IF EXISTS`, `OR REPLACE`), as a desk put back to an earlier version in a test is.
 */
export default `
ALTER TABLE desk.settlement_batches ADD COLUMN IF NOT EXISTS refunds bigint, ADD COLUMN IF NOT EXISTS chargebacks bigint;
DROP FUNCTION IF EXISTS desk.publish_batches(date, jsonb, text);
CREATE OR REPLACE FUNCTION desk.publish_batches(of_date date, in_batches jsonb, in_console text, in_gateways text[] DEFAULT NULL)
RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = desk, pg_catalog AS $fn$
DECLARE
  before jsonb;
  after jsonb;
  n integer;
  net_before bigint;
  net_after bigint;
  outside text;
BEGIN
  PERFORM require('operator', 'publish settlement batches');
  IF of_date IS NULL OR jsonb_typeof(in_batches) IS DISTINCT FROM 'array' THEN
    RAISE EXCEPTION 'Publishing batches takes a date and an array of batches.' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  SELECT b.pg INTO outside FROM jsonb_to_recordset(in_batches) AS b(pg text)
   WHERE in_gateways IS NOT NULL AND NOT (b.pg = ANY (in_gateways)) LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'A batch of % was sent with the batches of % only.', outside, array_to_string(in_gateways, ', ')
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  -- Two consoles publishing one date queue here, so the later one's figures are the date's.
  PERFORM pg_advisory_xact_lock(hashtext('desk.publish_batches'), (of_date - date '2000-01-01'));
  SELECT coalesce(jsonb_agg(jsonb_build_array(pg, utr, settlement_date, records, amount, fees, taxes, subvention,
                                              settled, exceptions, refunds, chargebacks)
                            ORDER BY pg, utr, settlement_date), '[]')
    INTO before FROM desk.settlement_batches
   WHERE date = of_date AND (in_gateways IS NULL OR pg = ANY (in_gateways));
  SELECT coalesce(jsonb_agg(jsonb_build_array(b.pg, b.utr, b."settlementDate", b.records, b.amount, b.fees, b.taxes,
                                              b.subvention, b.settled, b.exceptions, b.refunds, b.chargebacks)
                            ORDER BY b.pg, b.utr, b."settlementDate"), '[]')
    INTO after
    FROM jsonb_to_recordset(in_batches) AS b(pg text, utr text, "settlementDate" text, records integer, amount bigint,
                                            fees bigint, taxes bigint, subvention bigint, settled bigint,
                                            exceptions integer, refunds bigint, chargebacks bigint);
  IF before = after THEN
    RETURN 0;
  END IF;
  DELETE FROM desk.settlement_batches WHERE date = of_date AND (in_gateways IS NULL OR pg = ANY (in_gateways));
  INSERT INTO desk.settlement_batches (date, pg, utr, settlement_date, records, amount, fees, taxes, subvention,
                                       settled, exceptions, refunds, chargebacks, published_from)
  SELECT of_date, b.pg, b.utr, b."settlementDate", b.records, b.amount, b.fees, b.taxes, b.subvention, b.settled,
         b.exceptions, b.refunds, b.chargebacks, in_console
    FROM jsonb_to_recordset(in_batches) AS b(pg text, utr text, "settlementDate" text, records integer, amount bigint,
                                            fees bigint, taxes bigint, subvention bigint, settled bigint,
                                            exceptions integer, refunds bigint, chargebacks bigint);
  GET DIAGNOSTICS n = ROW_COUNT;
  -- Each batch's net is its ninth element (index 8), as built above.
  SELECT coalesce(sum((x->>8)::bigint), 0) INTO net_before FROM jsonb_array_elements(before) x;
  SELECT coalesce(sum((x->>8)::bigint), 0) INTO net_after FROM jsonb_array_elements(after) x;
  PERFORM journal_write(in_console, 'reconciliation', 'batches.published', 'done',
    format('Published the settlement batches of %s%s: %s batch%s, net %s (the desk held %s, net %s).',
           to_char(of_date, 'DD/MM/YYYY'),
           CASE WHEN in_gateways IS NULL THEN '' ELSE ' for ' || array_to_string(in_gateways, ', ') END,
           n, CASE WHEN n = 1 THEN '' ELSE 'es' END, rupees(net_after), jsonb_array_length(before), rupees(net_before)),
    jsonb_build_object('date', of_date, 'gateways', to_jsonb(in_gateways), 'batches', n,
      'before', jsonb_array_length(before), 'settled', net_after, 'settledBefore', net_before));
  RETURN n;
END $fn$;
REVOKE ALL ON FUNCTION desk.publish_batches(date, jsonb, text, text[]) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION desk.publish_batches(date, jsonb, text, text[]) TO operator;

-- A date's records that break a rule, as one console saw them. With whole_date (a sync's whole date), the other
-- rows of the date (of in_gateways only, when given) no longer break any; without it (one record going up with its
-- action), nothing else changes.
DROP FUNCTION IF EXISTS desk.publish_exceptions(date, jsonb, boolean);
CREATE OR REPLACE FUNCTION desk.publish_exceptions(of_date date, records jsonb, whole_date boolean,
                                        in_gateways text[] DEFAULT NULL) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = desk, pg_catalog AS $fn$
DECLARE n integer; outside text;
BEGIN
  PERFORM require('viewer', 'publish a sync''s exceptions');
  SELECT r.pg INTO outside FROM jsonb_to_recordset(records) AS r(pg text)
   WHERE in_gateways IS NOT NULL AND NOT (r.pg = ANY (in_gateways)) LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'A record of % was sent with the exceptions of % only.', outside, array_to_string(in_gateways, ', ')
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
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
   WHERE e.date = of_date AND cardinality(e.rules) > 0 AND (in_gateways IS NULL OR e.pg = ANY (in_gateways))
     AND NOT EXISTS (SELECT 1 FROM r WHERE r.pg = e.pg AND r.id = e.pg_transaction_id AND r.settled = e.settlement_date);
  RETURN n;
END $fn$;
REVOKE ALL ON FUNCTION desk.publish_exceptions(date, jsonb, boolean, text[]) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION desk.publish_exceptions(date, jsonb, boolean, text[]) TO viewer;
`;
