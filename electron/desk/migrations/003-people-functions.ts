/**
 * Adding and removing people. The console sends a SCRAM verifier, never the password itself (electron/desk/
 * people.ts makes it as psql's \password does), so no server log can hold it. A removed person's login stays (the
 * journal names it) but can no longer sign in; the last admin cannot be removed.
 */
export default `
CREATE FUNCTION desk.add_person(login text, role text, verifier text, console text) RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = desk, pg_catalog AS $fn$
DECLARE existing record;
BEGIN
  PERFORM require('admin', 'add people');
  IF login !~ '^[a-z_][a-z0-9_]{0,62}$' THEN
    RAISE EXCEPTION 'A login is 1–63 lower-case letters, digits or _, starting with a letter or _.'
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF role NOT IN ('viewer', 'operator', 'approver', 'admin') THEN
    RAISE EXCEPTION 'The role must be viewer, operator, approver or admin.' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF verifier !~ '^SCRAM-SHA-256\\$' THEN
    RAISE EXCEPTION 'The password must come as a SCRAM-SHA-256 verifier.' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  SELECT * INTO existing FROM desk.people p WHERE p.login = add_person.login;
  IF FOUND AND existing.removed_at IS NULL THEN
    RAISE EXCEPTION '% is already on the desk as %.', login, existing.role USING ERRCODE = 'unique_violation';
  END IF;
  IF NOT FOUND AND EXISTS (SELECT 1 FROM pg_roles WHERE rolname = login) THEN
    RAISE EXCEPTION 'The server already has a role named %; choose another login.', login
      USING ERRCODE = 'duplicate_object';
  END IF;
  IF FOUND THEN
    EXECUTE format('ALTER ROLE %I LOGIN PASSWORD %L', login, verifier);
    EXECUTE format('REVOKE %I FROM %I', existing.role, login);
    UPDATE desk.people p SET role = add_person.role, added_at = now(), added_by = session_user,
      removed_at = NULL, removed_by = NULL WHERE p.login = add_person.login;
  ELSE
    EXECUTE format('CREATE ROLE %I LOGIN PASSWORD %L', login, verifier);
    INSERT INTO desk.people (login, role) VALUES (login, role);
  END IF;
  EXECUTE format('GRANT %I TO %I', role, login);
  RETURN journal_write(console, 'desk', 'desk.person_added', 'done', format('%s joined the desk as %s.', login, role),
    jsonb_build_object('login', login, 'role', role));
END $fn$;

CREATE FUNCTION desk.remove_person(login text, console text) RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = desk, pg_catalog AS $fn$
DECLARE existing record;
BEGIN
  PERFORM require('admin', 'remove people');
  SELECT * INTO existing FROM desk.people p WHERE p.login = remove_person.login AND p.removed_at IS NULL FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION '% is not on the desk.', login USING ERRCODE = 'no_data_found';
  END IF;
  IF existing.role = 'admin'
     AND NOT EXISTS (SELECT 1 FROM desk.people p WHERE p.role = 'admin' AND p.removed_at IS NULL AND p.login <> existing.login) THEN
    RAISE EXCEPTION '% is the desk''s last admin; add another admin first.', login USING ERRCODE = 'check_violation';
  END IF;
  EXECUTE format('ALTER ROLE %I NOLOGIN', login);
  EXECUTE format('REVOKE %I FROM %I', existing.role, login);
  UPDATE desk.people p SET removed_at = now(), removed_by = session_user WHERE p.login = remove_person.login;
  RETURN journal_write(console, 'desk', 'desk.person_removed', 'done', format('%s left the desk.', login),
    jsonb_build_object('login', login, 'role', existing.role));
END $fn$;

REVOKE ALL ON FUNCTION desk.add_person(text, text, text, text), desk.remove_person(text, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION desk.add_person(text, text, text, text), desk.remove_person(text, text) TO admin;
`;
