/**
 * The names of every IPC channel and event, and nothing else.
 *
 * The sandboxed preload imports these lists to build `window.api`; they must stay free of zod and of any other
 * runtime import so the preload bundle holds only `electron` and these arrays. The schemas live in `contract.ts`,
 * which checks at compile time that it covers exactly these names.
 *
 * A channel is named `domain.method` (one dot) and is called as `window.api.<domain>.<method>(input)`. An event is
 * one word, subscribed to as `window.api.on.<event>(listener)`, which returns the function that unsubscribes.
 */
export const IPC_CHANNELS = [
  'app.info',
  'app.connectivity',
  'profiles.list',
  'profiles.create',
  'profiles.update',
  'profiles.remove',
  'profiles.activate',
  'credentials.status',
  'credentials.set',
  'credentials.delete',
  'credentials.test',
  'sync.start',
  'sync.cancel',
  'settlements.query',
  'settlements.totals',
  'settlements.aggregate',
  'settlements.facets',
  'settlements.changes',
  'settlements.changesSummary',
  'settlements.completeness',
  'settlements.exception',
  'settlements.exceptionAction',
  'settlements.triage',
  'beneficiaries.list',
  'beneficiaries.create',
  'beneficiaries.fetch',
  'beneficiaries.matches',
  'beneficiaries.verifyVpa',
  'beneficiaries.changes',
  'beneficiaries.importPreview',
  'beneficiaries.importRun',
  'beneficiaries.importCancel',
  'beneficiaries.importTemplate',
  'beneficiaries.importResults',
  'payouts.lookup',
  'payouts.history',
  'payouts.recent',
  'payouts.check',
  'payouts.checkRun',
  'payouts.settings',
  'payouts.saveSettings',
  'payouts.watch',
  'payouts.watchNow',
  'accounts.overview',
  'accounts.refresh',
  'accounts.checkBalance',
  'accounts.history',
  'accounts.headroom',
  'accounts.setHeadroomThreshold',
  'cache.list',
  'cache.status',
  'cache.clear',
  'exports.start',
  'exports.cancel',
  'exports.reveal',
  'notices.list',
  'notices.reveal',
  'notices.dismiss',
  'journal.list',
  'journal.verify',
  'journal.unresolved',
  'journal.checkStatus',
  'journal.periods',
  'journal.closePeriod',
  'journal.reopenPeriod',
  'journal.acknowledgePeriod',
  'journal.periodDiff',
] as const satisfies readonly `${string}.${string}`[];

export type IpcChannel = (typeof IPC_CHANNELS)[number];

export const IPC_EVENTS = [
  'connectivity',
  'syncProgress',
  'syncFinished',
  'exportProgress',
  'exportFinished',
  'fileMovedAside',
  'payoutCheckProgress',
  'payoutWatch',
  'importProgress',
] as const;
export type IpcEvent = (typeof IPC_EVENTS)[number];

/** Event messages travel on their own Electron channels, apart from the invoke channels. */
export const eventChannel = (event: IpcEvent) => `event:${event}`;
