/**
 * The desk: a PostgreSQL database a team of 2–50 shares for what they decide together — the exception workflow,
 * period close and one journal — while each console keeps its own settlement cache. These are its settings, roles
 * and the exception queue's shapes, for main, the CLI and the renderer alike.
 */
import { z } from 'zod';
import { RULES, type RuleId } from './reconciliation';

/** The desk's groups, least to most; each includes what the one before it may do. */
export const DESK_ROLES = ['viewer', 'operator', 'approver', 'admin'] as const;
export type DeskRole = (typeof DESK_ROLES)[number];

export const ROLE_ABILITIES: Readonly<Record<DeskRole, string>> = {
  viewer: 'reads the queue, the closes and the journal; exports and syncs',
  operator: 'also acknowledges, assigns, notes, resolves and reopens exceptions, one at a time or in bulk',
  approver: 'also closes and reopens periods',
  admin: 'also adds and removes people',
};

/** A PostgreSQL login: what `CREATE ROLE` takes unquoted, so a name reads the same in psql and in the console. */
export const deskLogin = z
  .string()
  .trim()
  .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'must be 1–63 lower-case letters, digits or _, starting with a letter or _');

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|::1)$/;

/**
 * How a profile reaches its desk. TLS is verify-full against the CA file the desk's administrator hands out (the
 * server's name must match its certificate); only a server on this machine may be reached without TLS.
 */
export const deskConnection = z
  .object({
    host: z.string().trim().min(1, 'must not be empty').max(253),
    port: z.number().int().min(1).max(65535).default(5432),
    database: z.string().trim().min(1, 'must not be empty').max(63),
    user: deskLogin,
    tls: z.enum(['verify-full', 'none']).default('verify-full'),
    caFile: z.string().min(1).max(4096).optional(),
  })
  .superRefine((c, ctx) => {
    if (c.tls === 'verify-full' && !c.caFile)
      ctx.addIssue({ code: 'custom', path: ['caFile'], message: 'is needed to verify the desk server (verify-full)' });
    if (c.tls === 'none' && !LOOPBACK.test(c.host))
      ctx.addIssue({
        code: 'custom',
        path: ['tls'],
        message: 'may be "none" only for a server on this machine; a desk on the network needs verify-full',
      });
  });
export type DeskConnection = z.output<typeof deskConnection>;

export const EXCEPTION_STATES = ['open', 'acknowledged', 'resolved'] as const;
export type QueueState = (typeof EXCEPTION_STATES)[number];

export const BULK_ACTIONS = ['acknowledge', 'assign', 'resolve', 'reopen'] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];

/** The queue's filters: every one optional; `state` "unresolved" is open and acknowledged together. */
export const queueFilter = z
  .object({
    state: z.enum(['open', 'acknowledged', 'resolved', 'unresolved']).optional(),
    /** A person (a desk login; in local mode whatever name was typed), or "me". */
    assignedTo: z.string().trim().min(1).max(120).optional(),
    unassigned: z.boolean().optional(),
    rule: z.enum(Object.keys(RULES) as [RuleId, ...RuleId[]]).optional(),
    pg: z
      .string()
      .regex(/^[a-z0-9_]{1,40}$/)
      .optional(),
    from: z.iso.date().optional(),
    to: z.iso.date().optional(),
  })
  .strict();
export type QueueFilter = z.output<typeof queueFilter>;

/** A record's natural key: the same settlement on every console, whatever its local row id. */
export const exceptionKey = z.object({
  date: z.iso.date(),
  pg: z.string().min(1).max(40),
  pgTransactionId: z.string().min(1).max(200),
  settlementDate: z.string().min(1).max(40),
});
export type ExceptionKey = z.output<typeof exceptionKey>;

const paise = z.number().int();
const stamp = z.string().max(40);

export const queueRow = exceptionKey.extend({
  rules: z.array(z.string()),
  orderId: z.string().nullable(),
  utr: z.string().nullable(),
  /** What the rules put at stake, in paise: the larger of the record's amount and its settled amount. */
  amountAtRisk: paise,
  state: z.enum(EXCEPTION_STATES),
  assignee: z.string().nullable(),
  note: z.string().nullable(),
  /** Bumped by every action: an action names the version it saw, and a newer one means someone got there first. */
  version: z.number().int().nonnegative(),
  updatedBy: z.string().nullable(),
  updatedAt: stamp.nullable(),
  firstSeenAt: stamp,
});
export type QueueRow = z.output<typeof queueRow>;

export const queueGroup = z.object({
  rule: z.string(),
  pg: z.string(),
  date: z.string(),
  state: z.enum(EXCEPTION_STATES),
  count: z.number().int().nonnegative(),
  amountAtRisk: paise,
  oldestSeenAt: stamp,
  owners: z.array(z.string()),
});
export type QueueGroup = z.output<typeof queueGroup>;

export const queuePage = z.object({
  rows: z.array(queueRow),
  /** Every row the filter matches, not only this page. */
  total: z.number().int().nonnegative(),
  amountAtRisk: paise,
  groups: z.array(queueGroup),
});
export type QueuePage = z.output<typeof queuePage>;

export const bulkRequest = z.object({
  action: z.enum(BULK_ACTIONS),
  filter: queueFilter,
  /** The rows a person ticked; absent for "the whole filtered set". */
  keys: z.array(exceptionKey.strict()).min(1).max(200_000).optional(),
  /** The note for every row; the login for assign. */
  text: z.string().trim().min(1, 'must not be empty').max(2000),
});
export type BulkRequest = z.output<typeof bulkRequest>;

export const bulkResult = z.object({
  action: z.enum(BULK_ACTIONS),
  count: z.number().int().positive(),
  /** SHA-256 of the sorted natural keys acted on: the journal entry holds it, not the ids one by one. */
  digest: z.string().regex(/^[0-9a-f]{64}$/),
  journalSeq: z.number().int().positive(),
});
export type BulkResult = z.output<typeof bulkResult>;

/** What the status bar and Settings say of the active profile's desk. */
export const deskState = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('local'), person: z.string() }),
  z.object({
    mode: z.literal('desk'),
    host: z.string(),
    database: z.string(),
    person: z.string(),
    reachable: z.boolean(),
    role: z.enum(DESK_ROLES).nullable(),
    writable: z.boolean(),
    /** Why the desk cannot be reached, or why this console may only read it. */
    reason: z.string().nullable(),
    /** This console's journal entries not yet in the desk's journal (they wait while the desk is away). */
    journalWaiting: z.number().int().nonnegative(),
  }),
]);
export type DeskState = z.output<typeof deskState>;

/** How many of this console's journal entries wait for the desk's journal, for the desk line and `desk status`. */
export const journalWaitingSentence = (n: number) =>
  `${n.toLocaleString('en-IN')} journal ${n === 1 ? 'entry waits' : 'entries wait'} for the desk.`;

export const DESK_TOPICS = [
  'exceptions',
  'periods',
  'people',
  'journal',
  'reconciliation',
  'proposals',
  'approval_policy',
  'connection',
] as const;
export const deskEvent = z.object({ profileId: z.string(), topic: z.enum(DESK_TOPICS) });
