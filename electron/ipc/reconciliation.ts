/** Handlers of the `recon.*` channels: the active profile's batches, bank statements and their reconciliation. */
import { epochMsToIstDate } from '../../shared/time';
import type { Cache } from '../cache/database';
import { reconciliationName } from '../export/jobs';
import { bytesOfContent } from '../import/sheet-reader';
import { writeReconciliation } from '../export/reconciliation-sheets';
import { journalReconExport } from '../journal/exports';
import type { Journals } from '../journal/registry';
import type { ProfileStore } from '../profiles/profile-store';
import {
  importStatement,
  matchByHand,
  matchPeriod,
  previewStatement,
  report,
  saveMatchSettings,
  unmatch,
} from '../reconciliation/reconcile';
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
  | 'recon.export';

export function createReconHandlers(
  cacheFor: (profileId: string) => Cache,
  profiles: ProfileStore,
  deps: { chooseFile(name: string): Promise<string | null>; now: () => Date; journals: Journals },
): Pick<IpcHandlers, Handled> {
  const cache = () => cacheFor(profiles.active().id);
  const journal = () => deps.journals.for(profiles.active().id).journal;
  const today = () => epochMsToIstDate(deps.now().getTime());
  return {
    'recon.batches': ({ from, to, pg }) => ({ batches: cache().reconciliation.batches(from, to, pg ?? null) }),
    'recon.batchRecords': ({ batch, offset, limit }) => ({
      records: cache().reconciliation.batchRecords(batch, offset, limit),
    }),
    'recon.accounts': () => {
      const repo = cache().reconciliation;
      return {
        accounts: repo.accounts().map((a) => ({ id: a.id, name: a.name, mapping: a.mapping })),
        settings: repo.settings(),
      };
    },
    'recon.previewStatement': ({ fileName, content, account, password }) =>
      previewStatement(cache(), {
        fileName,
        bytes: bytesOfContent(fileName, content),
        accountName: account,
        ...(password === undefined ? {} : { password }),
      }),
    'recon.importStatement': ({ fileName, content, account, mapping, password }) =>
      importStatement(cache(), journal(), {
        fileName,
        bytes: bytesOfContent(fileName, content),
        accountName: account,
        ...(mapping ? { mapping } : {}),
        ...(password === undefined ? {} : { password }),
      }),
    'recon.match': (input) => matchPeriod(cache(), { ...input, today: today() }),
    'recon.report': (input) => report(cache(), { ...input, today: today() }),
    'recon.matchByHand': (input) => ({ matchId: matchByHand(cache(), journal(), input) }),
    'recon.unmatch': (input) => {
      unmatch(cache(), journal(), input);
      return { unmatched: true as const };
    },
    'recon.saveSettings': (changed) =>
      saveMatchSettings(cache(), journal(), { ...cache().reconciliation.settings(), ...changed }),
    async 'recon.export'(input) {
      const r = report(cache(), { ...input, today: today() });
      const name = reconciliationName(profiles.active().name, r.account.name, input.from, input.to);
      const file = await deps.chooseFile(name);
      if (file) {
        await writeReconciliation(file, deps.now(), r);
        await journalReconExport(journal(), file, r);
      }
      return { file };
    },
  };
}
