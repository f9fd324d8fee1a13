/**
 * The queue's planner statistics made again as soon as a publish has changed a large part of it. The server's
 * autovacuum analyzes a table within about a minute of such a change; until then the queue's reads were planned on
 * the sizes known before (none at all on a new desk): right after a sync published 30,000 exceptions, a queue read
 * sorted every one of them to group them, 69 ms against 27 once analyzed (docs/performance/desk-queue-aggregate.md).
 * A console calls it after each publish with the rows that publish wrote; it analyzes when they are more than a tenth
 * of the rows the statistics know of, autovacuum's own rule applied at once, and only for the columns the queue filters
 * and groups by (3-38 ms at 1,000-12,000 rows, where the whole table's took 8-55). It runs as the desk's owner, the
 * only role that may analyze the table, and only for those who may publish.
 */
export default `
CREATE OR REPLACE FUNCTION desk.refresh_queue_statistics(changed integer)
RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = desk, pg_catalog AS $fn$
DECLARE
  known real;
BEGIN
  PERFORM require('viewer', 'publish a sync''s exceptions');
  SELECT reltuples INTO known FROM pg_class WHERE oid = 'desk.exceptions'::regclass;
  -- reltuples is -1 for a table never analyzed.
  IF changed IS NULL OR changed <= 50 + 0.1 * greatest(known, 0) THEN
    RETURN false;
  END IF;
  ANALYZE desk.exceptions (state, rules, date, pg, assignee);
  RETURN true;
END $fn$;
REVOKE ALL ON FUNCTION desk.refresh_queue_statistics(integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION desk.refresh_queue_statistics(integer) TO viewer;
`;
