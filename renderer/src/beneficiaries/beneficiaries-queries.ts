/**
 * The cached beneficiaries of the active profile, page by page for one search, and the actions that bring one in
 * from the service (create, fetch by id): each invalidates the list, which then shows it from the cache.
 */
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { ask, ipcKey, useActiveProfileId, useIpcMutation, useIpcQuery, type IpcFailure } from '../query/ipc-query';
import type { IpcOutput } from '../../../shared/ipc/contract';
import { IFSC } from '../../../shared/api/common';
import { normaliseBeneficiaryText } from '../../../shared/beneficiaries';

const PAGE_SIZE = 100;

type Page = IpcOutput<'beneficiaries.list'>;

export function useBeneficiaryList(search: string, changed = false) {
  const profileId = useActiveProfileId();
  const text = search.trim();
  return useInfiniteQuery<Page, IpcFailure, { pages: Page[] }, readonly unknown[], string | null>({
    queryKey: ipcKey(profileId, 'beneficiaries.list', { search: text, changed }),
    queryFn: ({ pageParam }) =>
      ask('beneficiaries.list', {
        ...(text ? { search: text } : {}),
        ...(changed ? { changed } : {}),
        ...(pageParam === null ? {} : { after: pageParam }),
        limit: PAGE_SIZE,
      }),
    initialPageParam: null,
    getNextPageParam: (last) => last.nextCursor,
    enabled: profileId !== null,
    // A new search keeps the current rows on screen until its first page is in.
    placeholderData: keepPreviousData,
  });
}

/** Create and fetch both write the beneficiary into the cache. */
export const useBeneficiaryCreate = () => useIpcMutation('beneficiaries.create', { invalidates: ['beneficiaries.'] });
export const useBeneficiaryFetch = () => useIpcMutation('beneficiaries.fetch', { invalidates: ['beneficiaries.'] });
export const useVpaVerification = () => useIpcMutation('beneficiaries.verifyVpa');

/**
 * The typed IFSC's bank, or why it may be wrong, from Razorpay's IFSC list in main (offline; the renderer never
 * loads the list). Asked once the text has an IFSC's shape; a shape the form refuses is the form's to say.
 */
export function useIfscLookup(typed: string) {
  const ifsc = normaliseBeneficiaryText('ifsc', typed);
  return {
    ifsc,
    query: useIpcQuery('beneficiaries.ifsc', { ifsc }, { enabled: IFSC.test(ifsc), staleTime: Infinity }),
  };
}

/** The bank-detail changes the cache saw for one beneficiary, newest first. */
export const useBankDetailChanges = (id: string) => useIpcQuery('beneficiaries.changes', { id });

export const useImportPreview = () => useIpcMutation('beneficiaries.importPreview');
export const useImportRun = () => useIpcMutation('beneficiaries.importRun', { invalidates: ['beneficiaries.'] });
export const useImportCancel = () => useIpcMutation('beneficiaries.importCancel');
export const useImportTemplate = () => useIpcMutation('beneficiaries.importTemplate');
export const useImportResults = () => useIpcMutation('beneficiaries.importResults');
