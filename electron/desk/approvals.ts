/**
 * The desk's approvals, from a console: the policy, proposals and every step on them, each one call of a definer
 * function (migrations/009-approvals.ts) whose refusals come back as DeskErrors with the database's own sentence.
 */
import type pg from 'pg';
import {
  approvalPolicy,
  DEFAULT_POLICY,
  type ApprovalCounts,
  type ApprovalPolicy,
  type ApprovalScope,
  type Proposal,
} from '../../shared/approvals';
import { callForSeq, deskErrorOf } from './errors';

interface ProposalRow {
  id: string;
  action: Proposal['action'];
  request: Record<string, unknown>;
  amount: number | null;
  currency: string | null;
  summary: string;
  context: Record<string, unknown>;
  maker: string;
  maker_console: string;
  made_at: Date;
  expires_at: Date;
  needed: number;
  state: Proposal['state'];
  decided_by: string | null;
  decided_at: Date | null;
  reason: string | null;
  sender: string | null;
  send_context: Record<string, unknown> | null;
  outcome_summary: string | null;
  outcome_at: Date | null;
  approvals: { person: string; at: string }[];
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

const toProposal = (r: ProposalRow): Proposal => ({
  id: r.id,
  action: r.action,
  request: r.request,
  amount: r.amount,
  currency: r.currency,
  summary: r.summary,
  context: r.context,
  maker: r.maker,
  makerConsole: r.maker_console,
  madeAt: r.made_at.toISOString(),
  expiresAt: r.expires_at.toISOString(),
  needed: r.needed,
  approvals: r.approvals.map((a) => ({ person: a.person, at: new Date(a.at).toISOString() })),
  state: r.state,
  decidedBy: r.decided_by,
  decidedAt: iso(r.decided_at),
  reason: r.reason,
  sender: r.sender,
  outcomeSummary: r.outcome_summary,
  outcomeAt: iso(r.outcome_at),
  sendContext: r.send_context,
});

const SELECT = `SELECT p.*, coalesce((SELECT json_agg(json_build_object('person', a.approver, 'at', a.at) ORDER BY a.at)
                  FROM desk.proposal_approvals a WHERE a.proposal_id = p.id), '[]') AS approvals
                  FROM desk.proposals p`;

/** Each scope as a WHERE clause over the person `$1`. */
const SCOPES: Readonly<Record<ApprovalScope, string>> = {
  // Only for those who may approve: an operator is never counted or told of proposals they cannot act on.
  waiting: `p.state = 'pending' AND p.maker <> $1::text AND pg_has_role(session_user, 'approver', 'USAGE')
            AND NOT EXISTS (SELECT 1 FROM desk.proposal_approvals a WHERE a.proposal_id = p.id AND a.approver = $1::text)`,
  mine: `p.maker = $1::text AND p.state IN ('pending', 'sending', 'unknown')`,
  open: `$1::text IS NOT NULL AND p.state IN ('pending', 'sending', 'unknown')`,
  all: `$1::text IS NOT NULL`,
};

export interface SendPermit {
  /** `sending`: this approval was the last and this console sends; `pending`: more approvals are needed. */
  state: 'sending' | 'pending' | 'expired';
  send: boolean;
  approvals?: number;
  needed?: number;
}

export function createDeskApprovals(pool: pg.Pool, person: string, consoleName: string) {
  const query = async <R extends pg.QueryResultRow>(sql: string, params: unknown[]) => {
    try {
      return (await pool.query<R>(sql, params)).rows;
    } catch (e) {
      throw deskErrorOf(e);
    }
  };
  const one = async (id: string): Promise<Proposal | null> => {
    const rows = await query<ProposalRow>(`${SELECT} WHERE p.id = $1`, [id]);
    return rows[0] ? toProposal(rows[0]) : null;
  };

  return {
    async policy(): Promise<{ policy: ApprovalPolicy; version: number }> {
      const rows = await query<{ policy: unknown; version: number }>(
        'SELECT policy, version FROM desk.approval_policy',
        [],
      );
      if (!rows[0]) return { policy: DEFAULT_POLICY, version: 0 };
      // A policy a newer console wrote with fields this one does not know is read with the safe default for them.
      const parsed = approvalPolicy.safeParse(rows[0].policy);
      return { policy: parsed.success ? parsed.data : DEFAULT_POLICY, version: rows[0].version };
    },
    setPolicy: (policy: ApprovalPolicy) =>
      callForSeq(pool, 'SELECT desk.set_approval_policy($1, $2) AS seq', [JSON.stringify(policy), consoleName]),

    /** How many approvers the desk's policy asks for: the database decides, so every console applies one rule. */
    async needed(action: string, amount: number | null): Promise<number> {
      const rows = await query<{ n: number }>('SELECT desk.approvers_needed($1, $2) AS n', [action, amount]);
      return rows[0]!.n;
    },

    async propose(p: {
      action: string;
      request: Record<string, unknown>;
      amount: number | null;
      currency: string | null;
      summary: string;
      context: Record<string, unknown>;
    }): Promise<Proposal> {
      const rows = await query<{ r: { id: string } }>('SELECT desk.propose($1, $2, $3, $4, $5, $6, $7) AS r', [
        p.action,
        JSON.stringify(p.request),
        p.amount,
        p.currency,
        p.summary,
        JSON.stringify(p.context),
        consoleName,
      ]);
      return (await one(rows[0]!.r.id))!;
    },

    get: one,

    /** Proposals in a scope for this person, newest first; pending ones past their time are expired first. */
    async list(scope: ApprovalScope, limit = 200): Promise<Proposal[]> {
      await query('SELECT desk.expire_proposals($1)', [consoleName]);
      const rows = await query<ProposalRow>(`${SELECT} WHERE ${SCOPES[scope]} ORDER BY p.made_at DESC LIMIT $2`, [
        person,
        limit,
      ]);
      return rows.map(toProposal);
    },

    async counts(): Promise<ApprovalCounts> {
      const rows = await query<ApprovalCounts>(
        `SELECT count(*) FILTER (WHERE ${SCOPES.waiting})::int AS waiting,
                count(*) FILTER (WHERE p.maker = $1::text AND p.state = 'pending')::int AS mine,
                count(*) FILTER (WHERE p.state = 'pending' AND p.expires_at <= now() + interval '24 hours')::int
                  AS "expiringToday",
                count(*) FILTER (WHERE p.state = 'unknown')::int AS unknown
           FROM desk.proposals p WHERE (p.state = 'pending' AND p.expires_at > now()) OR p.state = 'unknown'`,
        [person],
      );
      return rows[0]!;
    },

    async approve(id: string, sendContext: Record<string, unknown>): Promise<SendPermit> {
      const rows = await query<{ r: SendPermit }>('SELECT desk.approve_proposal($1, $2, $3) AS r', [
        id,
        JSON.stringify(sendContext),
        consoleName,
      ]);
      return rows[0]!.r;
    },
    reject: (id: string, reason: string) =>
      callForSeq(pool, 'SELECT desk.reject_proposal($1, $2, $3) AS seq', [id, reason, consoleName]),
    withdraw: (id: string) => callForSeq(pool, 'SELECT desk.withdraw_proposal($1, $2) AS seq', [id, consoleName]),
    recordOutcome: (id: string, outcome: 'succeeded' | 'failed' | 'unknown', summary: string, detail: object) =>
      callForSeq(pool, 'SELECT desk.record_outcome($1, $2, $3, $4, $5) AS seq', [
        id,
        outcome,
        summary,
        JSON.stringify(detail),
        consoleName,
      ]),
  };
}
export type DeskApprovals = ReturnType<typeof createDeskApprovals>;
