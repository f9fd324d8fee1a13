/**
 * A desk account's reconciliation as this console sees it: the desk's lines, matches by hand and apart pairs, the
 * batches (this console's, or the desk's published copy on a console that holds no API secret), and the automatic
 * matches worked out here on every read. Automatic matches are not desk state: they follow from what is (the
 * batches, the lines and decisions everyone shares), so each console makes them again rather than writing them for
 * others. An automatic match's id is minus its first credit's id (a credit is in one match at most), the same on
 * every read while the match stands.
 */
import { batchKeyText, type ProposedMatch } from '../../shared/bank-matching';
import { addDays } from '../../shared/time';
import type { Cache } from '../cache/database';
import type { StoredMatch } from '../cache/reconciliation';
import type { Desk } from '../desk/desk';
import {
  ReconInputError,
  proposeMatches,
  rebindFilledUtrs,
  scopeBatches,
  type MatchedLine,
  type ReconView,
} from './reconcile';

/** The widest window a setting allows (shared/bank-matching.ts): how far before and after a period lines are read. */
const MAX_WINDOW_DAYS = 10;

/** What a desk report says of each statement's completeness proof. */
export const DESK_PROOF_NOT_KEPT = 'Its completeness proof was shown when it was imported; the desk does not keep it.';

/** Where a view's batches come from: the cache's rollup, or the desk's published totals (service.ts decides). */
export type BatchesFrom = 'cache' | 'desk';

/** The batches and gateways a view reads. */
type BatchSource = Pick<ReconView, 'batches' | 'gateways'>;

const cacheBatches = (cache: Cache): BatchSource => ({
  batches: (from, to) => cache.reconciliation.batches(from, to),
  gateways: () => cache.reconciliation.gateways(),
});

/**
 * The desk's published batches of the dates a report can read (the matcher reads synchronously): the period with
 * the widest window either side, and the dates of the matches made by hand.
 */
async function deskBatches(desk: Desk, from: string, to: string, dates: readonly string[]): Promise<BatchSource> {
  const [rows, gateways] = await Promise.all([
    desk.reconciliation.batches(from, to, [...new Set(dates)]),
    desk.reconciliation.gateways(),
  ]);
  return {
    batches: (lo, hi) => rows.filter((b) => b.date >= lo && b.date <= hi),
    gateways: () => gateways,
  };
}

export interface DeskReconView {
  view: ReconView;
  /** The automatic matches made on this read, by their (negative) id. */
  auto: Map<number, ProposedMatch>;
}

export async function deskReconView(
  desk: Desk,
  cache: Cache,
  input: { account: string; from: string; to: string },
  at: string,
  batchesFrom: BatchesFrom,
): Promise<DeskReconView> {
  const account = await desk.reconciliation.account(input.account);
  if (!account) {
    const known = (await desk.reconciliation.accounts()).map((a) => a.name);
    throw new ReconInputError(
      `No bank account "${input.account}" on the desk: import a statement into it first${known.length ? ` (accounts: ${known.join(', ')})` : ''}.`,
    );
  }
  const wideFrom = addDays(input.from, -MAX_WINDOW_DAYS);
  const wideTo = addDays(input.to, MAX_WINDOW_DAYS);
  const snap = await desk.reconciliation.snapshot(account.id, wideFrom, wideTo);
  const source =
    batchesFrom === 'desk'
      ? await deskBatches(
          desk,
          wideFrom,
          wideTo,
          snap.matches.map((m) => m.date),
        )
      : cacheBatches(cache);
  // Copies: rebinding a match onto its batch's filled UTR is this read's, not a write to the desk.
  const manual: StoredMatch[] = snap.matches.map((m) => ({
    id: m.id,
    date: m.date,
    pg: m.pg,
    utr: m.utr,
    settlementDate: m.settlementDate,
    how: m.how,
    // The desk keeps a difference's reason in the match's note (service.ts), not apart.
    reason: null,
    note: m.note,
    matchedAt: m.matchedAt,
  }));
  const auto = new Map<number, ProposedMatch>();
  const automatic: StoredMatch[] = [];
  const matchLines = new Map<number, MatchedLine[]>(snap.matches.map((m) => [m.id, m.lines]));
  const byBatch = new Map(snap.matchedBatches.map((m) => [batchKeyText(m), { id: m.id }]));
  const autoOfLine = new Map<number, number>();
  const lineById = new Map(snap.lines.map((l) => [l.id, l]));

  const view: ReconView = {
    account,
    settings: snap.settings,
    batches: source.batches,
    credits: (from, to) =>
      snap.lines
        .filter((l) => l.amount > 0 && l.date >= from && l.date <= to)
        .map((l) => (l.matchId === null && autoOfLine.has(l.id) ? { ...l, matchId: autoOfLine.get(l.id)! } : l)),
    matches: () => [...manual, ...automatic],
    linesOfMatch: (id) => matchLines.get(id) ?? [],
    matchOfBatch: (key) => byBatch.get(batchKeyText(key)) ?? null,
    rebindMatch(id, utr) {
      const m = manual.find((x) => x.id === id)!;
      byBatch.delete(batchKeyText(m));
      m.utr = utr;
      byBatch.set(batchKeyText(m), { id });
    },
    apart: () => snap.apart,
    gateways: source.gateways,
    // The desk keeps no statement's completeness proof: the import showed it, and the report says it was not kept.
    statements: (from, to) =>
      snap.statements
        .filter((st) => st.from <= to && st.to >= from)
        .map((st) => ({ ...st, holds: null, sentence: DESK_PROOF_NOT_KEPT })),
  };

  // The period's batches and those of the window before it, whose credits may fall in the period (as a local
  // match of an earlier period holds them).
  const from = addDays(input.from, -snap.settings.windowDays);
  const batches = scopeBatches(view, from, input.to);
  rebindFilledUtrs(view, batches);
  for (const p of proposeMatches(view, batches, from, input.to)) {
    const id = -Math.min(...p.lineIds);
    auto.set(id, p);
    for (const l of p.lineIds) autoOfLine.set(l, id);
    matchLines.set(
      id,
      p.lineIds.map((l) => {
        const line = lineById.get(l)!;
        return { id: line.id, date: line.date, amount: line.amount };
      }),
    );
    byBatch.set(batchKeyText(p.batch), { id });
    automatic.push({ ...p.batch, id, how: p.how, note: null, reason: null, matchedAt: at });
  }
  return { view, auto };
}
