/**
 * Four eyes on money. The desk's approval policy (one row; none means every action needs one approver for a day),
 * the proposals (each the exact request a console will send, frozen, with its maker) and their approvals. Every
 * step is a definer function that checks the session's login, so the rules hold against raw SQL:
 *
 * - the maker can never approve their own proposal, and nobody approves twice;
 * - an expired proposal cannot be approved (the approve that finds it expired records the expiry instead);
 * - the last approval moves the proposal to `sending` under a row lock and names the approver as its sender: of two
 *   approvers approving at once, exactly one is told to send;
 * - only the sender records what the service answered; an answer that was lost is `unknown` until anyone's check
 *   status settles it.
 *
 * Each step writes one journal entry of kind `approval` naming its person.
 */
export default `
CREATE TABLE desk.approval_policy (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  policy jsonb NOT NULL,
  version integer NOT NULL,
  updated_by text NOT NULL DEFAULT session_user,
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE desk.proposals (
  id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
  action text NOT NULL,
  request jsonb NOT NULL,
  amount bigint,
  currency text,
  summary text NOT NULL,
  context jsonb NOT NULL,
  maker text NOT NULL DEFAULT session_user,
  maker_console text NOT NULL,
  made_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  needed smallint NOT NULL CHECK (needed IN (1, 2)),
  state text NOT NULL DEFAULT 'pending'
    CHECK (state IN ('pending', 'sending', 'succeeded', 'failed', 'unknown', 'rejected', 'withdrawn', 'expired')),
  decided_by text,
  decided_at timestamptz,
  reason text,
  sender text,
  sender_console text,
  send_context jsonb,
  outcome_summary text,
  outcome jsonb,
  outcome_at timestamptz
);
CREATE INDEX proposals_open ON desk.proposals (state, expires_at) WHERE state IN ('pending', 'sending', 'unknown');

CREATE TABLE desk.proposal_approvals (
  proposal_id text NOT NULL REFERENCES desk.proposals,
  approver text NOT NULL DEFAULT session_user,
  at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (proposal_id, approver)
);
GRANT SELECT ON desk.approval_policy, desk.proposals, desk.proposal_approvals TO viewer;

-- The rule of one action: the policy's, or the safe default when none is set.
CREATE FUNCTION desk.approval_rule(in_action text) RETURNS jsonb
LANGUAGE sql STABLE SET search_path = desk, pg_catalog AS $fn$
  SELECT coalesce((SELECT p.policy -> 'rules' -> in_action FROM desk.approval_policy p),
                  '{"needsApproval": true, "aboveMinor": 0, "secondApproverAboveMinor": null, "expiresHours": 24}')
$fn$;

-- How many approvers an action of this amount needs (shared/approvals.ts approversNeeded says the same).
CREATE FUNCTION desk.approvers_needed(in_action text, in_amount bigint) RETURNS integer
LANGUAGE plpgsql STABLE SET search_path = desk, pg_catalog AS $fn$
DECLARE r jsonb := approval_rule(in_action);
BEGIN
  IF NOT (r ->> 'needsApproval')::boolean THEN RETURN 0; END IF;
  IF in_amount IS NOT NULL AND (r ->> 'aboveMinor')::bigint > 0 AND in_amount <= (r ->> 'aboveMinor')::bigint THEN
    RETURN 0;
  END IF;
  IF in_amount IS NOT NULL AND jsonb_typeof(r -> 'secondApproverAboveMinor') = 'number'
     AND in_amount > (r ->> 'secondApproverAboveMinor')::bigint THEN
    RETURN 2;
  END IF;
  RETURN 1;
END $fn$;

CREATE FUNCTION desk.set_approval_policy(in_policy jsonb, in_console text) RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = desk, pg_catalog AS $fn$
DECLARE next_version integer;
BEGIN
  PERFORM require('admin', 'set the approval policy');
  IF jsonb_typeof(in_policy -> 'rules') <> 'object' THEN
    RAISE EXCEPTION 'An approval policy holds a rule for each action.' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  SELECT coalesce(max(version), 0) + 1 INTO next_version FROM desk.approval_policy;
  INSERT INTO desk.approval_policy (id, policy, version) VALUES (true, in_policy, next_version)
    ON CONFLICT (id) DO UPDATE SET policy = excluded.policy, version = excluded.version,
      updated_by = session_user, updated_at = now();
  RETURN journal_write(in_console, 'approval', 'approval.policy', 'done',
    format('Set the approval policy (version %s).', next_version),
    jsonb_build_object('version', next_version, 'policy', in_policy));
END $fn$;

CREATE FUNCTION desk.propose(in_action text, in_request jsonb, in_amount bigint, in_currency text, in_summary text,
                             in_context jsonb, in_console text) RETURNS jsonb
LANGUAGE plpgsql SECURITY DEFINER SET search_path = desk, pg_catalog AS $fn$
DECLARE
  n integer := approvers_needed(in_action, in_amount);
  new_id text;
  seq bigint;
BEGIN
  PERFORM require('operator', 'propose an action');
  IF n = 0 THEN
    RAISE EXCEPTION 'The policy does not ask for approval of this action; send it directly.'
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  INSERT INTO desk.proposals (action, request, amount, currency, summary, context, maker_console, expires_at, needed)
    VALUES (in_action, in_request, in_amount, in_currency, in_summary, coalesce(in_context, '{}'), in_console,
            now() + make_interval(hours => (approval_rule(in_action) ->> 'expiresHours')::integer), n)
    RETURNING id INTO new_id;
  seq := journal_write(in_console, 'approval', 'approval.propose', 'done',
    format('Proposed for approval: %s', in_summary),
    jsonb_build_object('proposalId', new_id, 'action', in_action, 'amount', in_amount, 'currency', in_currency,
                       'needed', n, 'request', in_request));
  RETURN jsonb_build_object('id', new_id, 'journalSeq', seq);
END $fn$;

-- Locks a proposal and refuses, with who and when, any step its state no longer allows.
CREATE FUNCTION desk.open_proposal(in_id text, in_step text) RETURNS desk.proposals
LANGUAGE plpgsql SET search_path = desk, pg_catalog AS $fn$
DECLARE p desk.proposals;
BEGIN
  SELECT * INTO p FROM desk.proposals WHERE id = in_id FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'No proposal % is on the desk.', in_id USING ERRCODE = 'no_data_found';
  END IF;
  IF p.state <> 'pending' THEN
    RAISE EXCEPTION 'Cannot % this proposal: it is already % (by % at %).', in_step, p.state,
      coalesce(p.decided_by, p.sender, p.maker),
      to_char(coalesce(p.decided_at, p.outcome_at, p.made_at) AT TIME ZONE 'Asia/Kolkata', 'DD/MM/YYYY HH24:MI:SS')
      USING ERRCODE = 'P0001', DETAIL = 'DESK_CONFLICT';
  END IF;
  RETURN p;
END $fn$;

CREATE FUNCTION desk.expire_proposals(in_console text) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = desk, pg_catalog AS $fn$
DECLARE p record; n integer := 0;
BEGIN
  PERFORM require('viewer', 'expire proposals');
  FOR p IN SELECT * FROM desk.proposals WHERE state = 'pending' AND expires_at <= now() ORDER BY made_at FOR UPDATE
  LOOP
    UPDATE desk.proposals SET state = 'expired', decided_at = now() WHERE id = p.id;
    PERFORM journal_write(in_console, 'approval', 'approval.expire', 'done',
      format('Expired unapproved: %s', p.summary), jsonb_build_object('proposalId', p.id, 'maker', p.maker));
    n := n + 1;
  END LOOP;
  RETURN n;
END $fn$;

CREATE FUNCTION desk.approve_proposal(in_id text, in_send_context jsonb, in_console text) RETURNS jsonb
LANGUAGE plpgsql SECURITY DEFINER SET search_path = desk, pg_catalog AS $fn$
DECLARE
  p desk.proposals;
  approved integer;
  last boolean;
  seq bigint;
BEGIN
  PERFORM require('approver', 'approve a proposal');
  p := open_proposal(in_id, 'approve');
  IF p.expires_at <= now() THEN
    -- Kept, not raised: the expiry is recorded and the caller told why nothing was approved.
    PERFORM expire_proposals(in_console);
    RETURN jsonb_build_object('state', 'expired', 'send', false);
  END IF;
  IF p.maker = session_user THEN
    RAISE EXCEPTION 'You proposed this yourself: another person must approve it.'
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF EXISTS (SELECT 1 FROM desk.proposal_approvals a WHERE a.proposal_id = in_id AND a.approver = session_user) THEN
    RAISE EXCEPTION 'You have approved this proposal already: it needs another approver.'
      USING ERRCODE = 'P0001', DETAIL = 'DESK_CONFLICT';
  END IF;
  INSERT INTO desk.proposal_approvals (proposal_id) VALUES (in_id);
  SELECT count(*) INTO approved FROM desk.proposal_approvals a WHERE a.proposal_id = in_id;
  last := approved >= p.needed;
  IF last THEN
    UPDATE desk.proposals SET state = 'sending', decided_by = session_user, decided_at = now(), sender = session_user,
      sender_console = in_console, send_context = in_send_context WHERE id = in_id;
  END IF;
  seq := journal_write(in_console, 'approval', 'approval.approve', 'done',
    format('Approved (%s of %s)%s: %s', approved, p.needed, CASE WHEN last THEN ', sending now' ELSE '' END, p.summary),
    jsonb_build_object('proposalId', in_id, 'approvals', approved, 'needed', p.needed, 'maker', p.maker,
                       'sendContext', in_send_context));
  RETURN jsonb_build_object('state', CASE WHEN last THEN 'sending' ELSE 'pending' END, 'send', last,
                            'approvals', approved, 'needed', p.needed, 'journalSeq', seq);
END $fn$;

CREATE FUNCTION desk.reject_proposal(in_id text, in_reason text, in_console text) RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = desk, pg_catalog AS $fn$
DECLARE p desk.proposals;
BEGIN
  PERFORM require('approver', 'reject a proposal');
  IF length(trim(coalesce(in_reason, ''))) < 3 THEN
    RAISE EXCEPTION 'A rejection needs its reason.' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  p := open_proposal(in_id, 'reject');
  IF p.maker = session_user THEN
    RAISE EXCEPTION 'You proposed this yourself: withdraw it instead.' USING ERRCODE = 'insufficient_privilege';
  END IF;
  UPDATE desk.proposals SET state = 'rejected', decided_by = session_user, decided_at = now(), reason = in_reason
   WHERE id = in_id;
  RETURN journal_write(in_console, 'approval', 'approval.reject', 'done',
    format('Rejected: %s Reason: %s', p.summary, in_reason),
    jsonb_build_object('proposalId', in_id, 'maker', p.maker, 'reason', in_reason));
END $fn$;

CREATE FUNCTION desk.withdraw_proposal(in_id text, in_console text) RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = desk, pg_catalog AS $fn$
DECLARE p desk.proposals;
BEGIN
  PERFORM require('operator', 'withdraw a proposal');
  p := open_proposal(in_id, 'withdraw');
  IF p.maker <> session_user THEN
    RAISE EXCEPTION 'Only % , who proposed it, can withdraw it; an approver rejects it instead.', p.maker
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  UPDATE desk.proposals SET state = 'withdrawn', decided_by = session_user, decided_at = now() WHERE id = in_id;
  RETURN journal_write(in_console, 'approval', 'approval.withdraw', 'done', format('Withdrawn: %s', p.summary),
    jsonb_build_object('proposalId', in_id));
END $fn$;

-- What the service answered. The sender records its own send; an unknown one is settled by anyone's check.
CREATE FUNCTION desk.record_outcome(in_id text, in_outcome text, in_summary text, in_detail jsonb, in_console text)
RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = desk, pg_catalog AS $fn$
DECLARE p desk.proposals;
BEGIN
  PERFORM require('operator', 'record what the service answered');
  IF in_outcome NOT IN ('succeeded', 'failed', 'unknown') THEN
    RAISE EXCEPTION 'An outcome is succeeded, failed or unknown.' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  SELECT * INTO p FROM desk.proposals WHERE id = in_id FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'No proposal % is on the desk.', in_id USING ERRCODE = 'no_data_found';
  END IF;
  IF p.state NOT IN ('sending', 'unknown') THEN
    RAISE EXCEPTION 'This proposal''s outcome is already recorded: %.', p.state
      USING ERRCODE = 'P0001', DETAIL = 'DESK_CONFLICT';
  END IF;
  IF p.state = 'sending' AND p.sender <> session_user THEN
    RAISE EXCEPTION 'Only %, who approved and sent it, records its answer; check status once it says unknown.',
      p.sender USING ERRCODE = 'insufficient_privilege';
  END IF;
  UPDATE desk.proposals SET state = in_outcome, outcome_summary = in_summary, outcome = in_detail, outcome_at = now()
   WHERE id = in_id;
  RETURN journal_write(in_console, 'approval', 'approval.outcome', in_outcome, in_summary,
    jsonb_build_object('proposalId', in_id, 'detail', in_detail));
END $fn$;

CREATE TRIGGER proposals_announce AFTER INSERT OR UPDATE ON desk.proposals
  FOR EACH STATEMENT EXECUTE FUNCTION desk.announce();
CREATE TRIGGER approval_policy_announce AFTER INSERT OR UPDATE ON desk.approval_policy
  FOR EACH STATEMENT EXECUTE FUNCTION desk.announce();

REVOKE ALL ON FUNCTION desk.approval_rule(text), desk.approvers_needed(text, bigint),
  desk.set_approval_policy(jsonb, text), desk.propose(text, jsonb, bigint, text, text, jsonb, text),
  desk.open_proposal(text, text), desk.expire_proposals(text), desk.approve_proposal(text, jsonb, text),
  desk.reject_proposal(text, text, text), desk.withdraw_proposal(text, text),
  desk.record_outcome(text, text, text, jsonb, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION desk.approval_rule(text), desk.approvers_needed(text, bigint),
  desk.expire_proposals(text) TO viewer;
GRANT EXECUTE ON FUNCTION desk.propose(text, jsonb, bigint, text, text, jsonb, text),
  desk.withdraw_proposal(text, text), desk.record_outcome(text, text, text, jsonb, text) TO operator;
GRANT EXECUTE ON FUNCTION desk.approve_proposal(text, jsonb, text), desk.reject_proposal(text, text, text) TO approver;
GRANT EXECUTE ON FUNCTION desk.set_approval_policy(jsonb, text) TO admin;
`;
