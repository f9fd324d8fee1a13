/**
 * Matching settlement batches to bank statement credits, and the state every batch and every credit ends in.
 *
 * Automatic matching, in this order, each step only among what the steps before left free:
 *   1. by UTR: the credits whose UTR is a batch's UTR pay that batch (several such credits: a split paid under one
 *      UTR); their sum less the batch is the difference.
 *   2. by exact amount: a credit (with no UTR, or one no batch has: a batch the API still shows as UTR-pending) of
 *      exactly a batch's net, dated within the window after the batch's date; a credit that names the batch's
 *      gateway first, then the nearest date, then the earliest batch.
 *   3. split credits: two or three credits with no batch, within the window, that sum exactly to a batch.
 * A credit is in at most one match and a batch in at most one (the caller's manual matches are taken out before);
 * pairs the desk has taken apart (`apart`) are never put together again by steps 2 and 3.
 *
 * States: matched (difference 0), amount differs (with the difference), matched by hand, batch without a credit
 * (overdue once past its date + T+n), credit without a batch.
 */
import { z } from 'zod';
import { addDays } from './time';

/**
 * Where a real deployment may differ, kept per profile: how long a credit may take to arrive, when a missing one is
 * overdue, and how sure the triage of an exception must be of its cause before the cause becomes the exception's tag.
 */
export const reconSettings = z
  .object({
    /** A credit may be dated from the batch's date to this many days after it (amount and split matching). */
    windowDays: z.number().int().min(0).max(10),
    /** A batch with no credit is overdue this many days after its date (T+n). */
    overdueDays: z.number().int().min(0).max(30),
    /** Probability (0–1) the likely cause must reach to tag the exception; below it nothing is tagged. */
    triageThreshold: z.number().min(0).max(1),
  })
  .strict();
export type ReconSettings = z.infer<typeof reconSettings>;
/**
 * A change to the settings: the keys given, each a valid value. A key present as `undefined` (structured clone
 * keeps it) is refused here rather than erasing the setting it names.
 */
export const reconSettingsChange = z
  .object({
    windowDays: reconSettings.shape.windowDays.exactOptional(),
    overdueDays: reconSettings.shape.overdueDays.exactOptional(),
    triageThreshold: reconSettings.shape.triageThreshold.exactOptional(),
  })
  .strict();
export const DEFAULT_RECON_SETTINGS: ReconSettings = { windowDays: 2, overdueDays: 1, triageThreshold: 0.5 };

export interface BatchKey {
  date: string;
  pg: string;
  /** "" while the gateway has not given the batch's UTR ("UTR pending"). */
  utr: string;
  settlementDate: string;
}

export function batchKeyText(b: BatchKey): string {
  return `${b.date}|${b.pg}|${b.utr}|${b.settlementDate}`;
}

export interface MatchBatch extends BatchKey {
  /** Net settled, paise. */
  settled: number;
}

export interface MatchCredit {
  id: number;
  date: string;
  amount: number;
  utr: string | null;
  /** The gateways whose name the narration carries (codes). */
  pgHint: string | null;
}

export type MatchHow = 'utr' | 'amount' | 'split';

export interface ProposedMatch {
  batch: BatchKey;
  how: MatchHow;
  lineIds: number[];
}

const SPLIT_MAX_CANDIDATES = 40;

export function autoMatch(
  batches: readonly MatchBatch[],
  credits: readonly MatchCredit[],
  settings: ReconSettings,
  apart: ReadonlySet<string> = new Set(),
): ProposedMatch[] {
  const out: ProposedMatch[] = [];
  const batchUtrs = new Set(batches.map((b) => b.utr).filter((u) => u !== ''));
  /** A credit whose UTR a batch has belongs to that batch or to none: never paired by amount with another. */
  const utrElsewhere = (c: MatchCredit) => c.utr !== null && batchUtrs.has(c.utr);
  const freeCredits = new Map(credits.map((c) => [c.id, c]));
  const freeBatches = new Map(batches.map((b) => [batchKeyText(b), b]));
  const isApart = (b: BatchKey, creditId: number) => apart.has(`${batchKeyText(b)}#${creditId}`);
  const take = (b: MatchBatch, how: MatchHow, ids: number[]) => {
    freeBatches.delete(batchKeyText(b));
    for (const id of ids) freeCredits.delete(id);
    out.push({ batch: { date: b.date, pg: b.pg, utr: b.utr, settlementDate: b.settlementDate }, how, lineIds: ids });
  };

  // 1. UTR: a UTR names one transfer, so the pair holds whatever the amounts say (the difference is the finding).
  const byUtr = new Map<string, number[]>();
  for (const c of credits) if (c.utr) byUtr.set(c.utr, [...(byUtr.get(c.utr) ?? []), c.id]);
  for (const b of batches) {
    if (b.utr === '') continue;
    const ids = (byUtr.get(b.utr) ?? []).filter((id) => freeCredits.has(id) && !isApart(b, id));
    if (ids.length > 0) take(b, 'utr', ids);
  }

  // Steps 2 and 3 look only at the credits a batch could take (its amount; its window), never at every credit for
  // every batch: a busy account's statement holds tens of thousands of credits that pay no batch.
  const lastDay = new Map<string, string>();
  const windowEnd = (b: MatchBatch) => {
    let end = lastDay.get(b.date);
    if (end === undefined) lastDay.set(b.date, (end = addDays(b.date, settings.windowDays)));
    return end;
  };
  const dayOf = new Map(credits.map((c) => [c.id, Date.parse(c.date) / 86_400_000]));
  const rank = (b: MatchBatch, c: MatchCredit) =>
    (c.pgHint === null || c.pgHint === b.pg ? 0 : 1000) + dayOf.get(c.id)! - Date.parse(b.date) / 86_400_000;
  const nameOk = (b: MatchBatch, c: MatchCredit) => c.pgHint === null || c.pgHint === b.pg;
  /** Free for amount and split matching: in no match yet, and not paying another batch by its UTR. */
  const offered = (c: MatchCredit) => freeCredits.has(c.id) && !utrElsewhere(c);
  const byAmount = new Map<number, MatchCredit[]>();
  for (const c of credits) {
    const same = byAmount.get(c.amount);
    if (same) same.push(c);
    else byAmount.set(c.amount, [c]);
  }
  const byDate = [...credits].sort((x, y) => (x.date < y.date ? -1 : x.date > y.date ? 1 : 0));
  /** The credits dated within the batch's window, from a binary search of the credits in date order. */
  function inWindowOf(b: MatchBatch): MatchCredit[] {
    let lo = 0;
    let hi = byDate.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (byDate[mid]!.date < b.date) lo = mid + 1;
      else hi = mid;
    }
    const end = windowEnd(b);
    const out: MatchCredit[] = [];
    for (let i = lo; i < byDate.length && byDate[i]!.date <= end; i++) out.push(byDate[i]!);
    return out;
  }
  /** The lesser by rank, then id: a total order, so the choice never depends on the order credits are looked at. */
  const before = (b: MatchBatch, x: MatchCredit, y: MatchCredit) => rank(b, x) - rank(b, y) || x.id - y.id;

  // 2. Exact amount within the window, batches in date order so an earlier batch takes the earlier credit.
  const ordered = [...freeBatches.values()].sort((a, b) => (batchKeyText(a) < batchKeyText(b) ? -1 : 1));
  for (const b of ordered) {
    let best: MatchCredit | null = null;
    for (const c of byAmount.get(b.settled) ?? []) {
      if (!offered(c) || c.date < b.date || c.date > windowEnd(b) || !nameOk(b, c) || isApart(b, c.id)) continue;
      if (best === null || before(b, c, best) < 0) best = c;
    }
    if (best) take(b, 'amount', [best.id]);
  }

  // 3. Split credits: pairs by a hash of amounts, then triples among a bounded number of candidates.
  for (const b of ordered) {
    if (!freeBatches.has(batchKeyText(b)) || b.settled <= 0) continue;
    const candidates = inWindowOf(b)
      .filter((c) => offered(c) && c.amount < b.settled && nameOk(b, c) && !isApart(b, c.id))
      .sort((x, y) => before(b, x, y))
      .slice(0, SPLIT_MAX_CANDIDATES);
    const found = splitOf(b.settled, candidates);
    if (found) take(b, 'split', found);
  }
  return out;
}

/** Ids of two or three credits that sum exactly to `target`, preferring pairs; null when none. */
function splitOf(target: number, candidates: readonly MatchCredit[]): number[] | null {
  const seen = new Map<number, MatchCredit>();
  for (const c of candidates) {
    const other = seen.get(target - c.amount);
    if (other) return [other.id, c.id].sort((a, b) => a - b);
    if (!seen.has(c.amount)) seen.set(c.amount, c);
  }
  for (let i = 0; i < candidates.length; i++)
    for (let j = i + 1; j < candidates.length; j++) {
      const rest = target - candidates[i]!.amount - candidates[j]!.amount;
      if (rest <= 0) continue;
      for (let k = j + 1; k < candidates.length; k++)
        if (candidates[k]!.amount === rest)
          return [candidates[i]!.id, candidates[j]!.id, candidates[k]!.id].sort((a, b) => a - b);
    }
  return null;
}

export const BATCH_STATES = ['matched', 'differs', 'manual', 'overdue', 'awaiting', 'net_debit'] as const;
export type BatchState = (typeof BATCH_STATES)[number];
export const CREDIT_STATES = ['matched', 'differs', 'manual', 'unmatched'] as const;
export type CreditState = (typeof CREDIT_STATES)[number];

export const BATCH_STATE_LABELS: Readonly<Record<BatchState, string>> = {
  matched: 'Matched',
  differs: 'Amount differs',
  manual: 'Matched by hand',
  overdue: 'Batch without a credit (overdue)',
  awaiting: 'Batch without a credit (not yet due)',
  net_debit: 'Net debit: no credit due',
};
export const CREDIT_STATE_LABELS: Readonly<Record<CreditState, string>> = {
  matched: 'Matched',
  differs: 'Amount differs',
  manual: 'Matched by hand',
  unmatched: 'Credit without a batch',
};

/**
 * A batch with no credit, by its net, date, T+n and today (IST). A batch whose refunds and chargebacks take all of
 * its sales back nets to zero or less: the gateway pays nothing for it (it recovers the debit from a later batch), so
 * no credit is due and its absence is no finding.
 */
export function unmatchedBatchState(
  batch: { date: string; settled: number },
  today: string,
  settings: ReconSettings,
): BatchState {
  if (batch.settled <= 0) return 'net_debit';
  return today > addDays(batch.date, settings.overdueDays) ? 'overdue' : 'awaiting';
}

/**
 * Days a matched batch's last credit came after T+n (the day it became overdue); null when it came in time or is
 * not matched. The match stands (the credit pays the batch); the lateness is the finding.
 */
export function lateDays(batchDate: string, creditDates: readonly string[], settings: ReconSettings): number | null {
  if (creditDates.length === 0) return null;
  const last = creditDates.reduce((a, b) => (a > b ? a : b));
  const due = addDays(batchDate, settings.overdueDays);
  const days = Math.round((Date.parse(`${last}T00:00:00Z`) - Date.parse(`${due}T00:00:00Z`)) / 86_400_000);
  return days > 0 ? days : null;
}

/** A state as the report says it: "Matched, 2 days late" for a match whose credit came after T+n. */
export function stateLabel(label: string, late: number | null): string {
  return late === null ? label : `${label}, ${late} day${late === 1 ? '' : 's'} late`;
}

/** The state of a matched batch (and of its credits). */
export function matchedState(how: MatchHow | 'manual', difference: number): 'matched' | 'differs' | 'manual' {
  return how === 'manual' ? 'manual' : difference === 0 ? 'matched' : 'differs';
}

/** A batch as the Reconciliation view and `recon report` show it. */
export interface ReconBatch extends BatchKey {
  records: number;
  settled: number;
  exceptions: number;
  state: BatchState;
  how: MatchHow | 'manual' | null;
  matchId: number | null;
  /** Credited less the batch, paise; null without a credit. */
  difference: number | null;
  lineIds: number[];
  note: string | null;
  /** Why a match by hand was made with a difference; null otherwise. */
  reason: string | null;
  /** Days its credit came after T+n; null when in time or unmatched (`lateDays`). */
  lateDays: number | null;
}

/** A statement credit as the view shows it. */
export interface ReconCredit {
  id: number;
  date: string;
  /** The bank's value date, when its statement gives one. */
  valueDate: string | null;
  narration: string;
  reference: string | null;
  amount: number;
  utr: string | null;
  rail: string | null;
  state: CreditState;
  matchId: number | null;
  batch: BatchKey | null;
  /** Days after its batch's T+n this credit's match was completed; null when in time or unmatched. */
  lateDays: number | null;
}

export interface StateTotal {
  state: string;
  label: string;
  count: number;
  /** Paise: batches' net settled, or credits' amounts. */
  amount: number;
  /** Sum of the differences (credited less batch) in this state, paise. */
  difference: number;
}

/** A statement imported into the account with lines in the period, and its completeness proof. */
export interface ReconStatement {
  fileName: string;
  layout: string;
  importedAt: string;
  from: string;
  to: string;
  /** Opening + credits − debits = closing held (true), did not (false), or could not be checked (null). */
  holds: boolean | null;
  sentence: string;
}

export interface ReconReport {
  account: { id: number; name: string };
  from: string;
  to: string;
  today: string;
  settings: ReconSettings;
  batchTotals: StateTotal[];
  creditTotals: StateTotal[];
  batches: ReconBatch[];
  credits: ReconCredit[];
  /** Batches matched with a credit after T+n: how many, and their net settled (paise). */
  late: { count: number; amount: number };
  statements: ReconStatement[];
}
