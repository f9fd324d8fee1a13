/**
 * The Today screen: one panel per question a treasury desk asks each morning, every figure taken from the module that
 * owns it (electron/today/today.ts calls them; it never works a figure out another way), each panel dated by its
 * source's age. Amounts are integer paise. A panel whose source failed keeps its place with the sentence why
 * (`error`), and the others still show.
 */
import { z } from 'zod';
import { gatewayHeadroom, headroomReport } from './headroom';

const paise = z.number().int();
const count = z.number().int().nonnegative();
const calendarDate = z.iso.date();

/** A panel: its figures (null when its source has none yet, or failed), how old they are, and why it failed. */
const panel = <T extends z.ZodType>(data: T) =>
  z.object({
    data: data.nullable(),
    /** ISO UTC time of the source's figures; null when the source keeps no time (or has none). */
    asOf: z.string().nullable(),
    /** Why the source could not be read (the desk away, a damaged file): the other panels still show. */
    error: z.string().nullable(),
  });

const countAmount = z.object({ count, amount: paise });

export const payablePanel = z.object({
  gateways: z.array(gatewayHeadroom),
  total: headroomReport.shape.total,
  unreported: z.array(z.string()),
  /** The gateways whose payable now, after pending payouts, is below their threshold. */
  low: z.array(z.string()),
});

export const notArrivedAccount = z.object({
  account: z.string(),
  /** Batches without a credit past their due day (Reconciliation's "overdue"). */
  overdue: countAmount,
  /** Credits whose amount differs from their batch's, with the sum of the differences. */
  differs: countAmount.extend({ difference: paise }),
  /** Credits without a batch. */
  unmatched: countAmount,
  /** The last statement day of the period; null when no statement covers it. */
  lastStatementDate: calendarDate.nullable(),
  /** Days since the last statement day (or the period's whole length and more, with none); null when recent. */
  noStatementDays: z.number().int().nullable(),
});
export type NotArrivedAccount = z.output<typeof notArrivedAccount>;

export const notArrivedPanel = z.object({
  /** Reconciliation's own default period: the seven days before today. */
  from: calendarDate,
  to: calendarDate,
  accounts: z.array(notArrivedAccount),
  total: z.object({ overdue: countAmount, differs: countAmount.extend({ difference: paise }), unmatched: countAmount }),
});

export const exceptionsPanel = z.object({
  open: countAmount,
  byRule: z.array(z.object({ rule: z.string(), count, amount: paise })),
  /** Unresolved exceptions assigned to this person. */
  assignedToMe: countAmount,
  /** The oldest open exception's settlement date and its age in days; null with none open. */
  oldestDate: calendarDate.nullable(),
  oldestDays: z.number().int().nullable(),
});

/** The exception queue's own figures for the panel (treasury/exception-queue.ts `summary`). */
export const queueSummary = exceptionsPanel.omit({ oldestDays: true });
export type QueueSummary = z.output<typeof queueSummary>;

export const approvalsPanel = z.object({
  waiting: count,
  mine: count,
  expiringToday: count,
  unknown: count,
});

export const watchPanel = z.object({
  watching: count,
  overdue: count,
  lastCheckedAt: z.string().nullable(),
  paused: z.string().nullable(),
});

export const lastVerification = z.object({
  at: z.string(),
  ok: z.boolean(),
  entries: count,
  problem: z.string().nullable(),
});
export type LastVerification = z.output<typeof lastVerification>;

export const freshnessPanel = z.object({
  /**
   * When the period's settlements were last synced: the stalest of its synced dates, so a date synced a week ago is
   * not hidden behind this morning's sync of another (the Settlements screen's "Synced" for the same dates). Null when
   * none of them was.
   */
  settlementsSyncedAt: z.string().nullable(),
  /** The recent dates the completeness and the changes are of: Reconciliation's period, the seven days before today. */
  from: calendarDate,
  to: calendarDate,
  /**
   * The recent dates (Reconciliation's period) not known complete: the last sync saw the list move (`unstable`), was
   * made before completeness was kept (`unknown`), or there was none (`never`).
   */
  incomplete: z.array(z.object({ date: calendarDate, state: z.enum(['unstable', 'unknown', 'never']) })),
  /** Records new, changed, gone or back in those dates since they were first synced. */
  changes: z.object({ new: count, changed: count, vanished: count, returned: count }),
  balancesAt: z.string().nullable(),
  journalVerify: lastVerification.nullable(),
  periods: z.object({
    closed: count,
    /** Closed periods a sync changed after their close, not yet re-closed or acknowledged. */
    changed: z.array(z.object({ id: z.number().int(), from: calendarDate, to: calendarDate })),
  }),
});

/** One part of "Refresh all", and how it went. */
export const REFRESH_PARTS = ['balances', 'sync', 'watch'] as const;
export type RefreshPart = (typeof REFRESH_PARTS)[number];
export const refreshPartState = z.object({
  part: z.enum(REFRESH_PARTS),
  state: z.enum(['waiting', 'running', 'done', 'failed', 'cancelled']),
  /** Why it failed, as the source said it. */
  error: z.string().nullable(),
});
export const refreshState = z.object({
  jobId: z.string(),
  profileId: z.string(),
  running: z.boolean(),
  /** The synced dates. */
  from: calendarDate,
  to: calendarDate,
  parts: z.array(refreshPartState),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type RefreshState = z.output<typeof refreshState>;

export const todaySummary = z.object({
  profileId: z.string(),
  /** IST date the summary is of. */
  today: calendarDate,
  mode: z.enum(['local', 'desk']),
  /** The profile has never synced settlements: the first-run card is the screen's first panel. */
  firstRun: z.boolean(),
  /** Days "Refresh all" syncs (a setting). */
  refreshDays: z.number().int().min(1).max(31),
  payable: panel(payablePanel),
  notArrived: panel(notArrivedPanel),
  exceptions: panel(exceptionsPanel),
  /** Desk mode only: null data in local mode, with no error. */
  approvals: panel(approvalsPanel),
  watch: panel(watchPanel),
  freshness: panel(freshnessPanel),
  /** The last "Refresh all" of this profile in this app (running or finished), or null. */
  refresh: refreshState.nullable(),
});
export type TodaySummary = z.output<typeof todaySummary>;

export const DEFAULT_REFRESH_DAYS = 3;
export const refreshDays = z.number().int().min(1).max(31);

/** The figures `today --fail-on` may name, each a count. */
export const FAIL_ON = ['overdue', 'differs', 'approvals'] as const;
export type FailOn = (typeof FAIL_ON)[number];

/**
 * What each `--fail-on` name counts: `overdue` the payouts pending past their expected time and the batches without a
 * credit past their due day, `differs` the credits whose amount differs from their batch's, `approvals` the proposals
 * waiting for this person. A panel that could not be read counts as nothing here; the command says so.
 */
export function failOnCounts(s: TodaySummary): Record<FailOn, number> {
  return {
    overdue: (s.watch.data?.overdue ?? 0) + (s.notArrived.data?.total.overdue.count ?? 0),
    differs: s.notArrived.data?.total.differs.count ?? 0,
    approvals: s.approvals.data?.waiting ?? 0,
  };
}
