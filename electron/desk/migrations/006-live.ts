/**
 * Live consoles: every statement that changes shared state announces its table on the `desk` channel once (not
 * once per row: a bulk resolve of 10,000 is one notice), and each console listening re-reads what it shows.
 */
export default `
CREATE FUNCTION desk.announce() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM pg_notify('desk', TG_TABLE_NAME);
  RETURN NULL;
END $fn$;
CREATE TRIGGER exceptions_announce AFTER INSERT OR UPDATE OR DELETE ON desk.exceptions
  FOR EACH STATEMENT EXECUTE FUNCTION desk.announce();
CREATE TRIGGER periods_announce AFTER INSERT OR UPDATE OR DELETE ON desk.periods
  FOR EACH STATEMENT EXECUTE FUNCTION desk.announce();
CREATE TRIGGER people_announce AFTER INSERT OR UPDATE OR DELETE ON desk.people
  FOR EACH STATEMENT EXECUTE FUNCTION desk.announce();
CREATE TRIGGER journal_announce AFTER INSERT ON desk.journal
  FOR EACH STATEMENT EXECUTE FUNCTION desk.announce();
`;
