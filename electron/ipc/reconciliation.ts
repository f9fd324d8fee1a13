/**
 * Handlers of the `recon.*` channels: the active profile's batches (its cache's, or its desk's copy where the
 * profile's API secret is not on this console), bank statements and their reconciliation (its cache's or its
 * desk's, reconciliation/service.ts).
 */
import type { Cache } from '../cache/database';
import { reconciliationName, tallyName, type ExportJobs } from '../export/jobs';
import { tallyXml, writeTally } from '../export/tally';
import { bytesOfContent } from '../import/sheet-reader';
import { writeReconciliation } from '../export/reconciliation-sheets';
import { journalReconExport, journalTallyExport } from '../journal/exports';
import type { Journals } from '../journal/registry';
import type { ProfileStore } from '../profiles/profile-store';
import type { Reconciliation } from '../reconciliation/service';
import type { IpcHandlers } from './router';

type Handled =
  | 'recon.batches'
  | 'recon.batchRecords'
  | 'recon.accounts'
  | 'recon.previewStatement'
  | 'recon.importStatement'
  | 'recon.match'
  | 'recon.report'
  | 'recon.matchByHand'
  | 'recon.unmatch'
  | 'recon.saveSettings'
  | 'recon.export'
  | 'recon.saveTallyLedgers'
  | 'recon.exportTally';

export function createReconHandlers(
  cacheFor: (profileId: string) => Cache,
  profiles: ProfileStore,
  deps: {
    reconciliation: Reconciliation;
    saveFile: ExportJobs['saveFile'];
    context: ExportJobs['context'];
    now: () => Date;
    journals: Journals;
  },
): Pick<IpcHandlers, Handled> {
  const cache = () => cacheFor(profiles.active().id);
  const id = () => profiles.active().id;
  const recon = deps.reconciliation;
  return {
    'recon.batches': async ({ from, to, pg }) => ({ batches: await recon.batches(id(), from, to, pg ?? null) }),
    'recon.batchRecords': async ({ batch, offset, limit }) => ({
      records: await recon.batchRecords(id(), batch, offset, limit),
    }),
    'recon.accounts': async () => ({
      ...(await recon.accounts(id())),
      tallyLedgers: cache().reconciliation.tallyLedgers(),
    }),
    'recon.previewStatement': ({ fileName, content, account, password }) =>
      recon.preview(id(), {
        fileName,
        bytes: bytesOfContent(fileName, content),
        accountName: account,
        ...(password === undefined ? {} : { password }),
      }),
    'recon.importStatement': ({ fileName, content, account, mapping, password }) =>
      recon.importStatement(id(), {
        fileName,
        bytes: bytesOfContent(fileName, content),
        accountName: account,
        ...(mapping ? { mapping } : {}),
        ...(password === undefined ? {} : { password }),
      }),
    'recon.match': (input) => recon.match(id(), input),
    'recon.report': (input) => recon.report(id(), input),
    'recon.matchByHand': async (input) => ({ matchId: await recon.matchByHand(id(), input) }),
    'recon.unmatch': async (input) => {
      await recon.unmatch(id(), input);
      return { unmatched: true as const };
    },
    'recon.saveSettings': (changed) => recon.saveSettings(id(), changed),
    async 'recon.export'({ format = 'xlsx', csv, ...period }) {
      const r = await recon.report(id(), period);
      const profileId = id();
      const name = reconciliationName(profiles.active().name, r.account.name, period.from, period.to, format);
      let files: string[] = [];
      const saved = await deps.saveFile(name, async (file) => {
        const context = deps.context(profileId);
        files = await writeReconciliation(file, deps.now(), r, { format, context, ids: csv?.ids });
        await journalReconExport(deps.journals.for(profileId).journal, files, r, format);
      });
      return { ...saved, files };
    },
    'recon.saveTallyLedgers': (ledgers) => cache().reconciliation.putTallyLedgers(ledgers),
    async 'recon.exportTally'(input) {
      const ledgers = cache().reconciliation.tallyLedgers();
      const plan = await recon.tallyPlan(id(), input, ledgers.rounding !== undefined);
      // Refused before the dialog opens: a ledger without a name is the person's to fix in Settings first.
      tallyXml(plan, ledgers);
      const result = { vouchers: plan.vouchers.length, leftOut: plan.leftOut };
      const profileId = id();
      const saved = await deps.saveFile(
        tallyName(profiles.active().name, input.account, input.from, input.to),
        async (file) => {
          await writeTally(file, plan, ledgers);
          await journalTallyExport(deps.journals.for(profileId).journal, file, input, plan);
        },
      );
      return { ...saved, ...result };
    },
  };
}
