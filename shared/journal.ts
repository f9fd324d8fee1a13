/**
 * The audit journal as every layer sees it: an append-only, hash-chained log per profile, kept in the profile's
 * cache, and period close. Entries are written by the main process only (electron/journal/); the UI and the CLI
 * read, verify and filter them.
 *
 * An entry's hash is SHA-256 over the previous entry's hash and the entry's canonical form (electron/journal/
 * canonical.ts), so an edited field, a deleted, inserted or reordered entry breaks the chain where it happened;
 * the head (last sequence number and hash) is also kept in the settings, so a truncated tail is caught too.
 * Nothing secret is ever written to an entry.
 */
import { z } from 'zod';
import { calendarDate } from './api/common';

/** What an entry records. */
export const JOURNAL_KINDS = [
  'action',
  'export',
  'sync',
  'profile',
  'credential',
  'cache',
  'period',
  'exception',
  'reconciliation',
  'approval',
] as const;
export type JournalKind = (typeof JOURNAL_KINDS)[number];

/**
 * How it ended. An action at the service is written as `attempted` before the call and followed by an entry that
 * refers to it with `succeeded`, `refused` (the service said no, or the request certainly did nothing) or `unknown`;
 * an attempt with nothing after it (a crash in between) reads as outcome unknown too. `done` is for local events.
 */
export const JOURNAL_OUTCOMES = [
  'attempted',
  'succeeded',
  'refused',
  'unknown',
  'done',
  'completed',
  'partial',
  'cancelled',
  'failed',
] as const;
export type JournalOutcome = (typeof JOURNAL_OUTCOMES)[number];

/** The hash before the first entry. */
export const GENESIS_HASH = '0'.repeat(64);

const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, 'must be a SHA-256 in lowercase hex');

/** A JSON value as entries hold it: no undefined, no functions, money as integer paise. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export const journalEntry = z.object({
  seq: z.number().int().positive(),
  /** ISO UTC. */
  at: z.string(),
  /** The same instant in IST, `YYYY-MM-DD HH:MM:SS`, for display. */
  atIst: z.string(),
  kind: z.enum(JOURNAL_KINDS),
  /** What happened, dotted: `beneficiary.create`, `export.settlements`, `secret.set`, `period.close`, … */
  event: z.string(),
  outcome: z.enum(JOURNAL_OUTCOMES),
  /** The attempt an outcome or a status check belongs to. */
  refersTo: z.number().int().positive().nullable(),
  /** The service's request id, where it gave one. */
  requestId: z.string().nullable(),
  /** One line for people. */
  summary: z.string(),
  /** Inputs, returned ids, counts, totals in paise, digests: never a secret. */
  data: z.record(z.string(), z.unknown()),
  appVersion: z.string(),
  osUser: z.string(),
  prevHash: sha256Hex,
  hash: sha256Hex,
});
export type JournalEntry = z.output<typeof journalEntry>;

/** An attempt that has no outcome, or whose outcome was `unknown`, and no status check that settled it. */
export const unresolvedAction = z.object({
  attempt: journalEntry,
  /** The entry that said `unknown`, when there was one; null when nothing followed the attempt (a crash). */
  outcome: journalEntry.nullable(),
});

export const journalFilter = z
  .object({
    kind: z.enum(JOURNAL_KINDS).optional(),
    outcome: z.enum(JOURNAL_OUTCOMES).optional(),
    /** IST calendar dates, inclusive. */
    from: calendarDate.optional(),
    to: calendarDate.optional(),
    /** Case-insensitive, in the event, summary and data. */
    text: z.string().trim().max(200).optional(),
    /** Keyset paging, newest first: entries with a smaller sequence number than this. */
    before: z.number().int().positive().optional(),
    limit: z.number().int().min(1).max(1000).default(200),
  })
  .strict()
  .refine((f) => f.from === undefined || f.to === undefined || f.from <= f.to, {
    message: 'must not be before from',
    path: ['to'],
  });
export type JournalFilter = z.input<typeof journalFilter>;

export const JOURNAL_PROBLEMS = [
  /** A field of the entry was changed: its hash does not match its content. */
  'edited',
  /** The entry does not point at the hash of the entry before it: one was deleted, inserted or moved. */
  'broken_link',
  /** A sequence number is missing or out of order. */
  'sequence_gap',
  /** The newest entries are gone: the head kept in the settings is not the journal's last entry. */
  'truncated',
  /** The settings hold no head though the journal has entries, or the head names an entry that differs. */
  'head_mismatch',
] as const;

export const verifyResult = z.object({
  ok: z.boolean(),
  entries: z.number().int().nonnegative(),
  /** The last entry's hash; the genesis hash for an empty journal. */
  headHash: sha256Hex,
  /** The first entry that does not hold, and why, when `ok` is false. */
  problem: z
    .object({
      seq: z.number().int().nonnegative(),
      kind: z.enum(JOURNAL_PROBLEMS),
      message: z.string(),
    })
    .nullable(),
  ms: z.number().nonnegative(),
});
export type VerifyResult = z.output<typeof verifyResult>;

/** What `verify-file` learnt about a file. */
export const fileVerdict = z.object({
  file: z.string(),
  sha256: sha256Hex,
  /** `unchanged`: an export wrote exactly this file; `changed`: an export wrote a file of this name, since changed; `unknown`: no export of this profile wrote it. */
  verdict: z.enum(['unchanged', 'changed', 'unknown']),
  export: journalEntry.nullable(),
});
export type FileVerdict = z.output<typeof fileVerdict>;

// ---- Period close ----

/** Counts and totals of one settlement date and gateway, in paise; vanished records are not counted. */
export const periodTotals = z.object({
  date: calendarDate,
  pg: z.string(),
  count: z.number().int().nonnegative(),
  amount: z.number().int(),
  settled: z.number().int(),
});
export type PeriodTotals = z.output<typeof periodTotals>;

export const closeRange = z
  .object({ from: calendarDate, to: calendarDate })
  .strict()
  .refine((r) => r.from <= r.to, { message: 'must not be before from', path: ['to'] });

export const CLOSE_STATES = ['closed', 'changed'] as const;

export const closedPeriod = z.object({
  id: z.number().int().positive(),
  from: calendarDate,
  to: calendarDate,
  /** ISO UTC, and IST for display. */
  closedAt: z.string(),
  closedAtIst: z.string(),
  /** The journal entry of the close (or of the last re-close). */
  closeSeq: z.number().int().positive(),
  /** SHA-256 over every current record's canonical form in the range, at close. */
  digest: sha256Hex,
  records: z.number().int().nonnegative(),
  /** `changed` once a sync stored anything different in the range since the close, until re-closed or acknowledged. */
  state: z.enum(CLOSE_STATES),
  /** When the change was noticed (ISO UTC), and how many records differ. */
  changedAt: z.string().nullable(),
  added: z.number().int().nonnegative(),
  vanished: z.number().int().nonnegative(),
  modified: z.number().int().nonnegative(),
});
export type ClosedPeriod = z.output<typeof closedPeriod>;

const recordRef = z.object({
  date: calendarDate,
  pg: z.string(),
  pgTransactionId: z.string(),
  settlementDate: z.string(),
});

/** What differs between a closed period's snapshot and the cache now. */
export const periodDiff = z.object({
  period: closedPeriod,
  added: z.array(recordRef),
  vanished: z.array(recordRef),
  modified: z.array(recordRef),
  /** Per date and gateway, before (at close) and after (now). */
  totals: z.array(
    z.object({
      date: calendarDate,
      pg: z.string(),
      before: periodTotals.pick({ count: true, amount: true, settled: true }),
      after: periodTotals.pick({ count: true, amount: true, settled: true }),
    }),
  ),
  /** True when the lists were cut at `limit` records each; the counts in `period` are complete. */
  truncated: z.boolean(),
});
export type PeriodDiff = z.output<typeof periodDiff>;
