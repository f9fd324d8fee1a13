/**
 * The console's core, with no Electron in it: profiles, credentials, connectivity, events and the IPC router.
 * Electron's main process and the browser test harness both build it here and register the same router, so
 * what the tests drive is what the app runs.
 */
import type { Connectivity } from '../shared/ipc/app';
import { sleep } from './api/retry';
import type { Transport } from './api/transport';
import type { Cache } from './cache/database';
import { createCacheRegistry } from './cache/registry';
import { createConnectivity } from './connectivity';
import { createExportJobs, type ExportTargets } from './export/jobs';
import type { Logger, Redactor } from './log';
import { createAccountHandlers } from './ipc/accounts';
import { createAppHandlers } from './ipc/app';
import { createBeneficiaryHandlers } from './ipc/beneficiaries';
import { createCacheHandlers } from './ipc/cache';
import { createCredentialHandlers } from './ipc/credentials';
import { createEventBus } from './ipc/events';
import { createExceptionHandlers } from './ipc/exceptions';
import { createApprovalHandlers } from './ipc/approvals';
import { createApprovals } from './approvals/approvals';
import { notifyNewProposals } from './approvals/notifications';
import { createDeskRegistry } from './desk/registry';
import { createExceptionQueue } from './treasury/exception-queue';
import { createReconciliation } from './reconciliation/service';
import { createJournalHandlers } from './ipc/journal';
import { createMerchantToolHandlers } from './ipc/merchant-tools';
import { credentialEntry, profileEntry } from './journal/profile-events';
import { createPeriodService } from './journal/period-service';
import { createJournalMirror } from './journal/desk-mirror';
import { createJournals, osUserName, type Journals } from './journal/registry';
import type { JournalInput } from './journal/journal';
import { createExportHandlers } from './ipc/exports';
import { createNoticeHandlers } from './ipc/notices';
import { createOrderHandlers } from './ipc/orders';
import { createPayoutHandlers } from './ipc/payouts';
import { createProfileHandlers } from './ipc/profiles';
import { createViewHandlers } from './ipc/views';
import { createTodayHandlers } from './ipc/today';
import { createToday } from './today/today';
import { createReconHandlers } from './ipc/reconciliation';
import { createSettlementHandlers } from './ipc/settlements';
import { createSubscriptionHandlers } from './ipc/subscriptions';
import { createSyncHandlers } from './ipc/sync';
import { createIpcRouter } from './ipc/router';
import { createOrderService } from './merchant/orders';
import { createSubscriptionService } from './merchant/subscriptions';
import { createCredentials } from './profiles/credentials';
import { createProfileStore } from './profiles/profile-store';
import { createSyncJobs } from './sync/jobs';
import { createAccountService } from './treasury/accounts';
import { createBeneficiaryService } from './treasury/beneficiaries';
import { createBeneficiaryImportService } from './treasury/beneficiary-import';
import { createPayoutCheckService, type PayoutCheckLimits } from './treasury/payout-checks';
import { createPayoutWatch } from './treasury/payout-watch';
import { notifyWatchNews, type OsNotifications } from './treasury/watch-notifications';
import { createPayoutService } from './treasury/payouts';
import { createClassificationService } from './merchant/classification';
import { createPaymentToolService } from './merchant/payment-tools';
import { createPlanService } from './merchant/plans';
import { createWebhookService } from './merchant/webhooks';
import { createNotices } from './notices';
import { ensurePrivateDir } from './private-files';
import type { SecretStore } from './vault/secret-store';

export interface CoreOptions {
  appVersion: string;
  /** The app's data folder: settings, the caches, logs and (by default) exports live here. */
  dataDir: string;
  vault: SecretStore;
  /** The embedded sandbox the built-in profile points at, with its own secret; null for none. */
  sandbox: { url: string; key: string; secret: string } | null;
  log: Logger;
  /** Learns every secret the core handles, so the log's redaction step knows it. */
  redactor: Redactor;
  transport?: Transport;
  /** better-sqlite3's Electron build, where the core runs inside Electron (electron/native-binding.ts). */
  sqliteNativeBinding?: string;
  /** Where exports go and how a finished one is shown: Electron's save dialog and file manager in the app. */
  exportTargets?: Partial<ExportTargets>;
  /**
   * The clock (epoch ms): stamps in settings, the caches and connectivity, export names and times. The app uses
   * the real one; tests pass a fixed one, since the sandbox's data is anchored to the same "today".
   */
  now?: () => number;
  /** The OS account name written into journal entries; the real one by default. */
  osUser?: string;
  /** This console's name in the desk's journal; the machine's by default. */
  consoleName?: string;
  /** Bulk payout checks' lookups in flight and the pace of advance checks (treasury/payout-checks.ts). */
  payoutCheckLimits?: Partial<PayoutCheckLimits>;
  /** Run the payout watch list on its timer (the app does; the CLI, which exits after its command, does not). */
  payoutWatch?: boolean;
  /** The OS's notifications (Electron's in the app): the watch list's news and new proposals to approve. */
  osNotifications?: OsNotifications;
}

export function createCore(options: CoreOptions) {
  // Settings, caches, logs and exports are the user's alone: the folder is 0700 whoever created it first.
  ensurePrivateDir(options.dataDir);
  const now = options.now ?? Date.now;
  const nowDate = () => new Date(now());
  const events = createEventBus();
  const requests = options.log.child('api');
  // Profile and credential events are journaled after they happened; one that cannot be (a cache that will not
  // open) is logged rather than undoing what the user did.
  const journalEvent = (profileId: string, input: JournalInput) => {
    try {
      journals.for(profileId).journal.append(input);
    } catch (e) {
      options.log.warn('event not journaled', { profileId, event: input.event, error: e });
    }
  };
  const profiles = createProfileStore({
    dataDir: options.dataDir,
    sandbox: options.sandbox,
    now: nowDate,
    onEvent: (e) => journalEvent(e.profile.id, profileEntry(e)),
  });
  const connectivity = createConnectivity(
    (state) => events.emit('connectivity', state),
    nowDate,
    () => profiles.active().id,
  );
  const credentials = createCredentials({
    profiles,
    vault: options.vault,
    sandboxSecret: options.sandbox?.secret ?? null,
    transport: options.transport,
    now,
    onSecret: (secret) => options.redactor.add(secret),
    onEvent: (e) => journalEvent(e.profileId, credentialEntry(e)),
    onRequest: (event, profileId) => {
      connectivity.record(event, profileId);
      requests[event.outcome === 'ok' ? 'info' : 'warn']('request', { profileId, ...event });
    },
  });
  const notices = createNotices({
    events,
    log: options.log,
    reveal: options.exportTargets?.reveal,
    now: nowDate,
  });
  const settingsRecovery = profiles.recovered();
  if (settingsRecovery) notices.movedAside('settings', settingsRecovery.movedTo, settingsRecovery.message);
  const caches = createCacheRegistry({
    dataDir: options.dataDir,
    log: options.log,
    nativeBinding: options.sqliteNativeBinding,
    now: nowDate,
    onRecovered: (_profileId, recovered) => notices.movedAside('cache', recovered.movedTo, recovered.message),
  });
  const cacheFor = (profileId: string): Cache => caches.cacheFor(profiles.get(profileId).id);
  const osUser = options.osUser ?? osUserName();
  const journals: Journals = createJournals({
    cacheFor: caches.cacheFor,
    heads: profiles,
    appVersion: options.appVersion,
    osUser,
    now: nowDate,
    nativeBinding: options.sqliteNativeBinding,
    onDesk: (profileId) => profiles.desk(profileId) !== null,
    onQueued: (profileId) => void journalMirror.push(profileId),
  });
  const desks = createDeskRegistry({
    settings: profiles,
    vault: options.vault,
    log: options.log.child('desk'),
    consoleName: options.consoleName,
    onChange: (profileId, topic) => {
      if (topic === 'exceptions' || topic === 'connection') exceptionQueue.deskChanged(profileId);
      events.emit('desk', { profileId, topic });
    },
    onLive: (profileId) => {
      void journalMirror.push(profileId);
      // Called once the desk answers, by when `exceptionQueue` (made below) exists.
      exceptionQueue.publishPending(profileId).catch((e: unknown) => {
        options.log.warn('pending exceptions not published to the desk', { profileId, error: e });
      });
    },
    journalWaiting: (profileId) => journalMirror.waiting(profileId),
  });
  const journalMirror = createJournalMirror({ journals, desks, log: options.log.child('journal-mirror') });
  const exceptionQueue = createExceptionQueue({
    cacheFor,
    journals,
    desks,
    osUser,
    now: nowDate,
    log: options.log.child('exceptions'),
  });
  const periods = createPeriodService({ journals, desks });
  /**
   * Whether this console can call the service for a profile. A desk may keep the API secret on approvers' consoles
   * only; a keychain that cannot be read is not counted as holding none, so its own error reaches the person.
   */
  const holdsSecret = async (profileId: string) => {
    const s = await credentials.status(profileId);
    return s.hasSecret || !s.keychainAvailable;
  };
  const reconciliation = createReconciliation({
    cacheFor,
    journals,
    desks,
    holdsSecret,
    now: nowDate,
  });
  const services = { credentials, cacheFor, journals };
  const payouts = createPayoutService(services);
  const beneficiaries = createBeneficiaryService(services);
  const treasury = {
    beneficiaries,
    beneficiaryImport: createBeneficiaryImportService({
      ...services,
      beneficiaries,
      // Called at run time, by when `approvals` (made below, from the services) exists.
      propose: (profileId, request) => approvals.proposeImport(profileId, request),
    }),
    payouts,
    payoutChecks: createPayoutCheckService({
      payouts,
      cacheFor,
      isOffline: (profileId) => connectivity.of(profileId).state === 'offline',
      events,
      now,
      sleep: (ms) => sleep(ms),
      limits: options.payoutCheckLimits,
    }),
    accounts: createAccountService(services),
  };
  const merchant = {
    orders: createOrderService(services),
    subscriptions: createSubscriptionService(services),
    tools: createPaymentToolService(services),
    plans: createPlanService(services),
    webhooks: createWebhookService(services),
    classification: createClassificationService(services),
  };
  const approvals = createApprovals({
    desks,
    journals,
    services: { ...merchant, beneficiaries, beneficiaryImport: treasury.beneficiaryImport },
    log: options.log.child('approvals'),
    holdsSecret,
  });
  const payoutWatch = createPayoutWatch({
    checks: treasury.payoutChecks,
    cacheFor,
    activeProfileId: () => profiles.active().id,
    isOffline: (profileId) => connectivity.of(profileId).state === 'offline',
    events,
    now,
    log: options.log.child('watch'),
  });
  if (options.payoutWatch) payoutWatch.start();
  if (options.osNotifications) {
    notifyWatchNews(events, options.osNotifications);
    notifyNewProposals({
      events,
      os: options.osNotifications,
      counts: (profileId) => approvals.counts(profileId),
      activeProfileId: () => profiles.active().id,
      log: options.log.child('approvals'),
    });
  }
  // Advance checks queued while the service was unreachable run as soon as it answers again.
  events.subscribe((event, payload) => {
    if (event !== 'connectivity' || (payload as Connectivity).state !== 'online') return;
    const profileId = profiles.active().id;
    treasury.payoutChecks.runQueued(profileId).catch((e: unknown) => {
      options.log.warn('queued payout checks did not run', { profileId, error: e });
    });
  });

  const syncJobs = createSyncJobs({
    credentials,
    cacheFor,
    concurrencyOf: (profileId) => profiles.get(profileId).syncConcurrency,
    journals,
    events,
    log: options.log.child('sync'),
    now,
    afterSync: (profileId, summary) => {
      // The synced dates' exception figures worked out now, so Today does not read their rows on its next open.
      cacheFor(profileId).exceptionFigures.refresh();
      return exceptionQueue.publishSynced(profileId, summary);
    },
  });
  const exportJobs = createExportJobs({
    dataDir: options.dataDir,
    profiles,
    cacheFor,
    journals,
    events,
    log: options.log.child('export'),
    targets: options.exportTargets,
    nativeBinding: options.sqliteNativeBinding,
    appVersion: options.appVersion,
    now,
  });
  const today = createToday({
    cacheFor,
    hasCache: (profileId) => caches.sizeOf(profiles.get(profileId).id) > 0,
    accounts: treasury.accounts,
    reconciliation,
    exceptionQueue,
    approvals,
    payoutWatch,
    journals,
    desks,
    syncJobs,
    events,
    now,
  });
  const busyReason = (profileId: string): string | null =>
    syncJobs.isRunning(profileId)
      ? 'a settlement sync is running'
      : exportJobs.isRunning(profileId)
        ? 'an export is being written'
        : null;
  const router = createIpcRouter({
    ...createAppHandlers({ appVersion: options.appVersion, profiles, connectivity }),
    ...createProfileHandlers(profiles, credentials, connectivity),
    ...createCredentialHandlers(credentials),
    ...createSyncHandlers(syncJobs, profiles),
    ...createSettlementHandlers(cacheFor, profiles, (id) => credentials.api(id), exceptionQueue),
    ...createReconHandlers(cacheFor, profiles, {
      reconciliation,
      saveFile: exportJobs.saveFile,
      context: exportJobs.context,
      now: nowDate,
      journals,
    }),
    ...createBeneficiaryHandlers(treasury.beneficiaries, approvals, profiles, {
      service: treasury.beneficiaryImport,
      events,
      saveFile: exportJobs.saveFile,
      now: nowDate,
    }),
    ...createPayoutHandlers(treasury.payouts, treasury.payoutChecks, payoutWatch, cacheFor, profiles),
    ...createAccountHandlers(treasury.accounts, profiles),
    ...createCacheHandlers({ caches, profiles, journals, dataDir: options.dataDir, busyReason }),
    ...createExportHandlers(exportJobs, profiles),
    ...createNoticeHandlers(notices),
    ...createJournalHandlers({ journals, profiles, beneficiaries: treasury.beneficiaries, periods }),
    ...createOrderHandlers(merchant.orders, approvals, profiles),
    ...createSubscriptionHandlers(merchant.subscriptions, approvals, profiles),
    ...createMerchantToolHandlers(merchant, approvals, profiles),
    ...createApprovalHandlers(approvals, profiles),
    ...createViewHandlers(profiles),
    ...createExceptionHandlers(exceptionQueue, desks, profiles, osUser),
    ...createTodayHandlers(today, profiles),
  });
  return {
    events,
    connectivity,
    profiles,
    credentials,
    router,
    log: options.log,
    cacheFor,
    /** Each profile's audit journal and closed periods: the CLI journals its syncs and exports here too. */
    journals,
    /** Beneficiaries, payout lookups and balances through the API, recorded in the cache: the CLI uses them too. */
    treasury,
    /**
     * Orders, subscriptions, payment tools, plans, webhooks and classification through the API (lookups cached,
     * actions journaled and sent once): the CLI uses them too.
     */
    merchant,
    /**
     * Every money action's one path (sent at once, or proposed for approval on a desk whose policy asks), and the
     * proposals' steps: the CLI uses it too.
     */
    approvals,
    /** The person in local mode: the OS account's name. */
    osUser,
    /** Each profile's desk (none in local mode): the CLI's `desk` commands use it. */
    desks,
    /** Closing and reopening periods, which on a desk bind everyone: the CLI uses it too. */
    periods,
    /** Each profile's journal entries on their way to its desk's journal: the CLI waits for them before it exits. */
    journalMirror,
    /** The exception queue and its bulk actions, on the cache or the desk: the CLI uses it too. */
    exceptionQueue,
    /** Bank reconciliation, on the cache or the desk: the CLI uses it too. */
    reconciliation,
    /** The payout watch list's rounds (started on its timer when `payoutWatch` is set). */
    payoutWatch,
    /** The Today screen's summary and "Refresh all": the CLI's `today` prints the same summary. */
    today,
    exports: exportJobs,
    /**
     * Closes the SQLite files at once; resolves when running exports have stopped and removed their partial files, and
     * the caches' read workers have stopped.
     */
    close(): Promise<void> {
      payoutWatch.stop();
      syncJobs.cancelAll();
      const exportsStopped = exportJobs.cancelAll();
      const cachesClosed = caches.closeAll();
      return Promise.all([exportsStopped, desks.closeAll(), cachesClosed]).then(() => undefined);
    },
  };
}
export type Core = ReturnType<typeof createCore>;
