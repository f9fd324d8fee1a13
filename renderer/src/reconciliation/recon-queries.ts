/** Reads and actions of the Reconciliation screen: bank accounts, the report of a period, batches and their records. */
import type { BatchKey } from '../../../shared/bank-matching';
import { useIpcMutation, useIpcQuery } from '../query/ipc-query';

export const useReconAccounts = () => useIpcQuery('recon.accounts');

export const useReconReport = (account: string | null, from: string, to: string) =>
  useIpcQuery('recon.report', { account: account ?? '', from, to }, { enabled: account !== null && from <= to });

/** The key alone: main's schema refuses anything else in it. */
export const keyOf = ({ date, pg, utr, settlementDate }: BatchKey): BatchKey => ({ date, pg, utr, settlementDate });

export const useBatchRecords = (batch: BatchKey | null) =>
  useIpcQuery('recon.batchRecords', batch ? { batch: keyOf(batch), offset: 0, limit: 200 } : undefined, {
    enabled: batch !== null,
  });

const CHANGES = ['recon.'] as const;
export const usePreviewStatement = () => useIpcMutation('recon.previewStatement');
export const useImportStatement = () => useIpcMutation('recon.importStatement', { invalidates: CHANGES });
export const useMatch = () => useIpcMutation('recon.match', { invalidates: CHANGES });
export const useMatchByHand = () => useIpcMutation('recon.matchByHand', { invalidates: CHANGES });
export const useUnmatch = () => useIpcMutation('recon.unmatch', { invalidates: CHANGES });
export const useSaveReconSettings = () => useIpcMutation('recon.saveSettings', { invalidates: CHANGES });
export const useExportRecon = () => useIpcMutation('recon.export');
export const useExportTally = () => useIpcMutation('recon.exportTally');
export const useSaveTallyLedgers = () => useIpcMutation('recon.saveTallyLedgers', { invalidates: CHANGES });
