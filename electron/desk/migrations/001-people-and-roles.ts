/**
 * The desk's groups, its list of people, and the one check every function makes: does the session's login belong
 * to a group. Groups nest (admin ⊃ approver ⊃ operator ⊃ viewer), so a grant to `viewer` reaches everyone and
 * `pg_has_role` answers "at least this role". A role that already exists (a second desk on the same server) is kept.
 */
export default `
DO $$
DECLARE g text;
BEGIN
  FOREACH g IN ARRAY ARRAY['viewer', 'operator', 'approver', 'admin'] LOOP
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = g) THEN
      EXECUTE format('CREATE ROLE %I NOLOGIN', g);
    END IF;
  END LOOP;
END $$;
GRANT viewer TO operator;
GRANT operator TO approver;
GRANT approver TO admin;
GRANT USAGE ON SCHEMA desk TO viewer;

CREATE TABLE desk.people (
  login text PRIMARY KEY,
  role text NOT NULL CHECK (role IN ('viewer', 'operator', 'approver', 'admin')),
  added_at timestamptz NOT NULL DEFAULT now(),
  added_by text NOT NULL DEFAULT session_user,
  removed_at timestamptz,
  removed_by text
);
GRANT SELECT ON desk.people TO viewer;

-- Raises insufficient_privilege with a sentence unless the session's login is at least this role.
CREATE FUNCTION desk.require(needed text, what text) RETURNS void
LANGUAGE plpgsql STABLE SET search_path = desk, pg_catalog AS $fn$
BEGIN
  IF NOT pg_has_role(session_user, needed, 'USAGE') THEN
    RAISE EXCEPTION 'Your desk role may not %: it takes the % role.', what, needed
      USING ERRCODE = 'insufficient_privilege';
  END IF;
END $fn$;
REVOKE ALL ON FUNCTION desk.require(text, text) FROM PUBLIC;
`;
