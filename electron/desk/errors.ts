/**
 * What the desk says when it refuses, as one error the IPC router and the CLI both understand. The database's own
 * sentences (raised by the desk's functions) pass through as they are; its codes become ours.
 */
import { DatabaseError, type Pool } from 'pg';

export type DeskErrorCode =
  | 'DESK_UNREACHABLE'
  | 'DESK_UNTRUSTED'
  | 'DESK_ROLE'
  | 'DESK_CONFLICT'
  | 'DESK_SCHEMA_NEWER'
  | 'DESK_NOT_INITIALISED'
  | 'DESK_OUTCOME_UNKNOWN'
  | 'DESK_REFUSED'
  | 'PERIOD_CLOSED'
  | 'EXCEPTION_REFUSED'
  | 'BAD_INPUT';

export class DeskError extends Error {
  override name = 'DeskError';
  constructor(
    readonly code: DeskErrorCode,
    message: string,
    /** For an outcome not known: the request whose journal entry, or its absence, will say. */
    readonly requestId?: string,
  ) {
    super(message);
  }
}

/** Node's socket errors and the server going away mid-statement: the desk could not be reached. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EPIPE']);
const SERVER_GONE = /^(57P01|57P02|57P03|08\d\d\d)$/;
const DETAIL_CODES = new Set<DeskErrorCode>(['DESK_CONFLICT', 'PERIOD_CLOSED', 'EXCEPTION_REFUSED']);

/** What each granted function does and the role it takes, for PostgreSQL's own "permission denied for function". */
const FUNCTION_NEEDS: Readonly<Record<string, [string, string]>> = {
  act_on_exceptions: ['act on exceptions', 'operator'],
  close_period: ['close a period', 'approver'],
  reopen_period: ['reopen a period', 'approver'],
  add_person: ['add people', 'admin'],
  remove_person: ['remove people', 'admin'],
  publish_exceptions: ['publish exceptions', 'viewer'],
  journal_append: ['write to the journal', 'viewer'],
  import_statement: ['import statements', 'operator'],
  match_by_hand: ['match statements', 'operator'],
  unmatch: ['unmatch statements', 'operator'],
  set_match_settings: ['change the match settings', 'approver'],
  set_approval_policy: ['set the approval policy', 'admin'],
  propose: ['propose an action', 'operator'],
  withdraw_proposal: ['withdraw a proposal', 'operator'],
  record_outcome: ['record what the service answered', 'operator'],
  approve_proposal: ['approve a proposal', 'approver'],
  reject_proposal: ['reject a proposal', 'approver'],
};

function roleRefusal(message: string): string {
  const fn = /permission denied for function (\w+)/.exec(message)?.[1];
  const needs = fn ? FUNCTION_NEEDS[fn] : undefined;
  if (needs) return `Your desk role may not ${needs[0]}: it takes the ${needs[1]} role.`;
  return /^permission denied/.test(message) ? `Your desk role does not allow this (${message}).` : message;
}

export function isUnreachable(e: unknown): boolean {
  if (e instanceof DatabaseError) return SERVER_GONE.test(e.code ?? '');
  if (!(e instanceof Error)) return false;
  const code = (e as NodeJS.ErrnoException).code;
  return (
    (code !== undefined && UNREACHABLE.has(code)) ||
    /Connection terminated|connection ended|Client has encountered a connection error/i.test(e.message)
  );
}

/** The desk's refusal as a DeskError; anything else (a bug) is returned as it is. */
/** Node's TLS verdicts on a server certificate: the desk is not the server the CA file vouches for. */
const UNTRUSTED =
  /^(ERR_TLS_CERT_ALTNAME_INVALID|UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED_CERT_IN_CHAIN|DEPTH_ZERO_SELF_SIGNED_CERT|CERT_HAS_EXPIRED|CERT_NOT_YET_VALID|UNABLE_TO_GET_ISSUER_CERT(_LOCALLY)?)$/;

export function deskErrorOf(e: unknown): unknown {
  if (e instanceof DeskError) return e;
  const code = e instanceof Error ? (e as NodeJS.ErrnoException).code : undefined;
  if (code && UNTRUSTED.test(code)) {
    return new DeskError(
      'DESK_UNTRUSTED',
      `The desk server's certificate is not trusted (${code}): check the CA file and that the host is the name on the certificate.`,
    );
  }
  if (e instanceof Error && /does not support SSL/i.test(e.message)) {
    return new DeskError('DESK_UNTRUSTED', 'The desk server does not offer TLS; a desk on the network needs it.');
  }
  if (isUnreachable(e)) {
    return new DeskError('DESK_UNREACHABLE', 'The desk database cannot be reached; team actions wait until it can.');
  }
  if (!(e instanceof DatabaseError)) return e;
  const detail = e.detail as DeskErrorCode | undefined;
  if (e.code === 'P0001' && detail && DETAIL_CODES.has(detail)) return new DeskError(detail, e.message);
  switch (e.code) {
    case '42501':
      return new DeskError('DESK_ROLE', roleRefusal(e.message));
    case '28P01':
    case '28000':
      return new DeskError('DESK_ROLE', 'The desk refused this login: check the person and the password.');
    case '3F000':
    case '42P01':
    case '42883':
      return new DeskError('DESK_NOT_INITIALISED', 'This database holds no desk yet: an admin runs `desk init` first.');
    case '22023':
    case '22P02':
    case '22007':
    case '22008':
      return new DeskError('BAD_INPUT', e.message);
    case 'P0001':
    case '23505':
    case '42710':
    case 'P0002':
    case '23514':
      return new DeskError('DESK_REFUSED', e.message);
    default:
      return e;
  }
}

/** Calls one of the desk's functions that answers the journal entry it wrote (`... AS seq`); refusals as DeskError. */
export async function callForSeq(pool: Pool, sql: string, params: unknown[]): Promise<number> {
  try {
    const { rows } = await pool.query<{ seq: number }>(sql, params);
    return rows[0]!.seq;
  } catch (e) {
    throw deskErrorOf(e);
  }
}
