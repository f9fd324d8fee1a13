/**
 * Bank reconciliation for one person or a desk, one code path: the IPC handlers and the CLI call this, and it
 * works on the profile's cache alone (local mode) or, for a profile joined to a desk, on the desk's accounts,
 * statement lines, matches by hand and match settings with this console's batches (desk-view.ts), or the desk's
 * published batch totals where this console's profile holds no API secret and so cannot sync. In both modes
 * every import, match, unmatch and settings change is journaled, naming the person, and a match or unmatch on a
 * batch of a closed period is refused with when it was closed (and, on a desk, by whom).
 */
import { batchKeyText, type BatchKey, type ProposedMatch, type ReconSettings } from '../../shared/bank-matching';
import type { ColumnMapping } from '../../shared/bank-statement';
import { sumMinor } from '../../shared/money';
import { epochMsToIstDate } from '../../shared/time';
import type { Cache } from '../cache/database';
import { withLineKeys } from '../cache/reconciliation';
import type { Desk } from '../desk/desk';
import { DeskError } from '../desk/errors';
import type { DeskRegistry } from '../desk/registry';
import type { Journal } from '../journal/journal';
import { closedPeriodWords } from '../journal/period-close';
import type { Journals } from '../journal/registry';
import { planTally, type TallyPlan } from '../export/tally';
import type { BatchRow } from '../cache/reconciliation';
import { deskReconView, type BatchesFrom } from './desk-view';
import {
  ReconInputError,
  handMatchOf,
  importResult,
  importStatement,
  matchByHand,
  matchPeriod,
  previewWith,
  proofData,
  readStatement,
  type ReadStatement,
  reasonForDifference,
  report,
  reportOf,
  saveMatchSettings,
  unmatch,
} from './reconcile';

export interface ReconciliationDeps {
  cacheFor(profileId: string): Cache;
  journals: Journals;
  desks: DeskRegistry;
  /** Whether the profile's API secret is on this console: without it, it cannot sync. */
  holdsSecret(profileId: string): Promise<boolean>;
  now: () => Date;
}

/**
 * Refused where a read needs a batch's records (its drill-down, its GST split): a console without the secret has
 * the desk's batch totals only. Crosses IPC as this code with the message (ipc/router.ts).
 */
export class RecordsNotHeldError extends Error {
  override name = 'RecordsNotHeldError';
  readonly code = 'RECORDS_NOT_HELD';
}

type Period = { account: string; from: string; to: string };
type StatementInput = {
  fileName: string;
  bytes: Buffer;
  accountName: string;
  mapping?: ColumnMapping;
  /** A PDF's password, for this read only: kept nowhere. */
  password?: string;
};

/**
 * A desk match's reason for its difference: the desk's credits against this console's batch. A line that is not a
 * credit of the account is the desk's to refuse, by its number (desk.match_by_hand).
 */
async function deskReason(
  desk: Desk,
  input: { account: string; lineIds: number[]; reason?: string },
  settled: number,
): Promise<string | null> {
  const credits = await desk.reconciliation.credits(input.account, input.lineIds);
  if (credits.size !== new Set(input.lineIds).size) return null;
  return reasonForDifference(sumMinor(credits.values()) - settled, input.reason);
}

/**
 * The desk's statement tables (desk migration 7) have no place for a statement's completeness proof: the importing
 * console journals it, and its outbox mirrors the entry to the desk's journal (docs/design/desk.md).
 */
function journalDeskProof(journal: Journal, input: StatementInput, read: ReadStatement, deskJournalSeq: number): void {
  journal.append({
    kind: 'reconciliation',
    event: 'statement.proof',
    outcome: 'done',
    summary: `${input.fileName} into ${input.accountName} on the desk: ${read.proof.sentence}`,
    data: {
      account: input.accountName,
      fileName: input.fileName,
      sha256: read.digest,
      kind: read.kind,
      deskJournalSeq,
      proof: proofData(read.proof),
    },
  });
}

/** Where a profile's batches come from, and the reads that follow from it: one switch for the whole service. */
function batchSources(deps: ReconciliationDeps) {
  /**
   * The one switch of where batches come from. A profile on a desk whose API secret is not on this console cannot
   * sync, so its cache has no batches: it reads the totals the syncing consoles published to the desk. Everyone
   * else reads their own cache's, rolled up from the records they synced.
   */
  async function batchesFromOf(profileId: string): Promise<BatchesFrom> {
    return deps.desks.joined(profileId) && !(await deps.holdsSecret(profileId)) ? 'desk' : 'cache';
  }

  /** The profile's desk (null in local mode) and where its batches come from. */
  async function sourceOf(profileId: string): Promise<{ desk: Desk | null; batchesFrom: BatchesFrom }> {
    const desk = await deps.desks.for(profileId);
    return { desk, batchesFrom: desk ? await batchesFromOf(profileId) : 'cache' };
  }

  /** A batch's records are on the consoles that sync; this one says so rather than showing none. */
  function refuseRecords(batchesFrom: BatchesFrom, what: string): void {
    if (batchesFrom === 'desk') {
      throw new RecordsNotHeldError(
        `This console holds no API secret, so it has the desk's batch totals, not their records: ${what} on a console that syncs.`,
      );
    }
  }

  /**
   * The batches dated from..to (of one gateway or all), from where `batchesFromOf` says: a console that syncs reads
   * its cache without asking the desk, so its batches stay readable while the desk is down.
   */
  async function batchesOf(profileId: string, from: string, to: string, pg: string | null = null): Promise<BatchRow[]> {
    if ((await batchesFromOf(profileId)) === 'cache')
      return deps.cacheFor(profileId).reconciliation.batches(from, to, pg);
    return (await deps.desks.for(profileId))!.reconciliation.batches(from, to, [], pg);
  }

  return { batchesFromOf, sourceOf, refuseRecords, batchesOf };
}

export function createReconciliation(deps: ReconciliationDeps) {
  const { batchesFromOf, sourceOf, refuseRecords, batchesOf } = batchSources(deps);
  const today = () => epochMsToIstDate(deps.now().getTime());
  /** The automatic matches each desk report showed, by profile and account: what an unmatch of one refers to. */
  const shown = new Map<string, Map<number, ProposedMatch>>();
  const shownKey = (profileId: string, account: string) => `${profileId}\u0001${account}`;

  /** A batch in a period closed on this console's cache: refused like an exception action (exception-queue.ts). */
  function refuseLocallyClosed(profileId: string) {
    return (batch: BatchKey) => {
      const [p] = deps.journals.for(profileId).periods.list({ from: batch.date, to: batch.date });
      if (p) {
        throw new DeskError(
          'PERIOD_CLOSED',
          `${closedPeriodWords(p)}; reopen it before its batches are matched or unmatched.`,
        );
      }
    };
  }

  async function deskReport(profileId: string, desk: Desk, batchesFrom: BatchesFrom, q: Period) {
    const { view, auto } = await deskReconView(
      desk,
      deps.cacheFor(profileId),
      q,
      deps.now().toISOString(),
      batchesFrom,
    );
    shown.set(shownKey(profileId, q.account), auto);
    return reportOf(view, { ...q, today: today() });
  }

  async function periodReport(profileId: string, q: Period) {
    const { desk, batchesFrom } = await sourceOf(profileId);
    return desk
      ? deskReport(profileId, desk, batchesFrom, q)
      : report(deps.cacheFor(profileId), { ...q, today: today() });
  }

  return {
    /** The batches of a period for the Reconciliation screen and the CLI: the cache's, or the desk's copy. */
    batches: batchesOf,

    /** A page of one batch's records, from the cache; refused plainly where this console has totals only. */
    async batchRecords(profileId: string, batch: BatchKey, offset: number, limit: number) {
      refuseRecords(await batchesFromOf(profileId), "open a batch's records");
      return deps.cacheFor(profileId).reconciliation.batchRecords(batch, offset, limit);
    },

    async accounts(profileId: string) {
      const desk = await deps.desks.for(profileId);
      const repo = deps.cacheFor(profileId).reconciliation;
      const [accounts, settings] = desk
        ? await Promise.all([desk.reconciliation.accounts(), desk.reconciliation.settings()])
        : [repo.accounts(), repo.settings()];
      return { accounts: accounts.map((a) => ({ id: a.id, name: a.name, mapping: a.mapping })), settings };
    },

    async settings(profileId: string): Promise<ReconSettings> {
      const desk = await deps.desks.for(profileId);
      return desk ? desk.reconciliation.settings() : deps.cacheFor(profileId).reconciliation.settings();
    },

    /** Only one bank account so far: it is the one meant when none is named. */
    async defaultAccount(profileId: string, given: string | undefined): Promise<string> {
      if (given !== undefined) return given;
      const { accounts } = await this.accounts(profileId);
      if (accounts.length === 1) return accounts[0]!.name;
      throw new ReconInputError(
        accounts.length === 0
          ? 'No bank account yet: import a statement first (recon statement import FILE --account NAME).'
          : `Name the bank account (--account): ${accounts.map((a) => a.name).join(', ')}.`,
      );
    },

    async preview(
      profileId: string,
      input: { fileName: string; bytes: Buffer; accountName: string; password?: string },
    ) {
      const desk = await deps.desks.for(profileId);
      const saved = desk
        ? ((await desk.reconciliation.account(input.accountName))?.mapping ?? null)
        : (deps.cacheFor(profileId).reconciliation.account(input.accountName)?.mapping ?? null);
      return previewWith(saved, input);
    },

    async importStatement(profileId: string, input: StatementInput) {
      const desk = await deps.desks.for(profileId);
      const cache = deps.cacheFor(profileId);
      if (!desk) return importStatement(cache, deps.journals.for(profileId).journal, input);
      const existing = await desk.reconciliation.account(input.accountName);
      const read = await readStatement(input, input.mapping ?? existing?.mapping ?? null);
      const stored = await desk.reconciliation.importStatement(
        input.accountName,
        read.mapping,
        { fileName: input.fileName, digest: read.digest, layout: read.layout, bad: read.bad.length },
        withLineKeys(read.lines),
      );
      journalDeskProof(deps.journals.for(profileId).journal, input, read, stored.journalSeq);
      return importResult(input.fileName, { id: stored.accountId, name: input.accountName }, read, stored);
    },

    /** Local mode: the period's automatic matches made again and stored. On a desk they are made on every read. */
    async match(profileId: string, q: Period) {
      const { desk, batchesFrom } = await sourceOf(profileId);
      return desk
        ? deskReport(profileId, desk, batchesFrom, q)
        : matchPeriod(deps.cacheFor(profileId), { ...q, today: today() });
    },

    report: periodReport,

    /**
     * The period's Tally vouchers for the account's credits: its report (the desk's matches on a desk) over this
     * console's batch figures and GST components (export/tally.ts); `rounding`: a rounding-off ledger is named.
     */
    async tallyPlan(profileId: string, q: Period, rounding = false): Promise<TallyPlan> {
      // A voucher debits each GST component, summed from the batch's records.
      refuseRecords(await batchesFromOf(profileId), 'export for Tally');
      const r = await periodReport(profileId, q);
      const repo = deps.cacheFor(profileId).reconciliation;
      const figures = new Map(repo.batches(q.from, q.to).map((b) => [batchKeyText(b), b]));
      return planTally(r, figures, repo.gstOfBatches(q.from, q.to), rounding);
    },

    async matchByHand(
      profileId: string,
      input: { account: string; batch: BatchKey; lineIds: number[]; note: string; reason?: string },
    ) {
      const { desk, batchesFrom } = await sourceOf(profileId);
      const cache = deps.cacheFor(profileId);
      if (!desk) {
        return matchByHand(cache, deps.journals.for(profileId).journal, input, refuseLocallyClosed(profileId));
      }
      const d = input.batch.date;
      const { batch, note } = handMatchOf(
        await batchesOf(profileId, d, d),
        input,
        batchesFrom === 'desk' ? 'on the desk' : 'in the cache',
      );
      const key = { date: batch.date, pg: batch.pg, utr: batch.utr, settlementDate: batch.settlementDate };
      const reason = await deskReason(desk, input, batch.settled);
      // The desk's match keeps one text: a difference's reason goes with the note, so every console reads it.
      const said = reason ? `${note} (why the difference: ${reason})` : note;
      return desk.reconciliation.matchByHand(input.account, { ...key, settled: batch.settled }, input.lineIds, said);
    },

    /** A match by hand, or (on a desk) an automatic match the last report showed, by its negative id. */
    async unmatch(profileId: string, input: { account: string; matchId: number; note: string }): Promise<void> {
      const desk = await deps.desks.for(profileId);
      if (!desk) {
        unmatch(deps.cacheFor(profileId), deps.journals.for(profileId).journal, input, refuseLocallyClosed(profileId));
        return;
      }
      if (input.matchId > 0) {
        await desk.reconciliation.unmatch(input.account, { id: input.matchId }, input.note);
        return;
      }
      const auto = shown.get(shownKey(profileId, input.account))?.get(input.matchId);
      if (!auto) {
        throw new ReconInputError(
          `No match ${input.matchId} in account "${input.account}" on this console's last report: read it again.`,
        );
      }
      await desk.reconciliation.unmatch(input.account, auto, input.note);
    },

    async saveSettings(profileId: string, changed: Partial<ReconSettings>): Promise<ReconSettings> {
      const desk = await deps.desks.for(profileId);
      if (!desk) {
        const cache = deps.cacheFor(profileId);
        return saveMatchSettings(cache, deps.journals.for(profileId).journal, {
          ...cache.reconciliation.settings(),
          ...changed,
        });
      }
      const next = { ...(await desk.reconciliation.settings()), ...changed };
      await desk.reconciliation.saveSettings(next);
      return next;
    },
  };
}
export type Reconciliation = ReturnType<typeof createReconciliation>;
