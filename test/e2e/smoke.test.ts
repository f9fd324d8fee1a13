/**
 * The renderer in Chromium through the harness: it loads cleanly under its own CSP, sees exactly the contract's
 * `window.api`, and reaches every channel and event of the real core; the harness answers nobody else.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { META_CONTENT_SECURITY_POLICY } from '../../electron/security';
import { DEFAULT_POLICY } from '../../shared/approvals';
import { IPC_CHANNELS, IPC_EVENTS } from '../../shared/ipc/channels';
import { addDays } from '../../shared/time';
import { rawRequest } from './http';
import { e2eSystemReady, startApp, type RunningApp } from './support';
import { TEST_TODAY } from '../support/clock';

const todayIst = TEST_TODAY;

const ready = await e2eSystemReady();

/** `{ app: ['connectivity', 'info'], …, on: ['connectivity'] }`, from the contract's name lists. */
function contractShape(): Record<string, string[]> {
  const shape: Record<string, string[]> = { on: [...IPC_EVENTS].sort() };
  for (const channel of IPC_CHANNELS) {
    const [domain = '', method = ''] = channel.split('.');
    (shape[domain] ??= []).push(method);
  }
  for (const methods of Object.values(shape)) methods.sort();
  return shape;
}

describe.runIf(ready)('the renderer in Chromium through the harness', () => {
  let app: RunningApp;
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('loads the app, shows the active profile and logs no console error', async () => {
    const { page, sandbox } = app;
    await page.getByRole('heading', { name: 'Welcome to Payout Console' }).waitFor();
    const statusBar = page.getByRole('contentinfo');
    await statusBar.getByText(sandbox.url).waitFor();
    expect(await statusBar.textContent()).toMatch(/Sandbox.*Not contacted yet.*v\d+\.\d+\.\d+/);
    expect(app.consoleErrors).toEqual([]);
  });

  it('keeps the meta tag as the only policy, and the policy stops inline script, eval and other origins', async () => {
    const { page, harness, sandbox } = app;
    const response = await rawRequest(harness.origin, new URL(harness.url).pathname + new URL(harness.url).search);
    expect(response.status).toBe(200);
    expect(response.headers['content-security-policy']).toBeUndefined();
    expect(await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content')).toBe(
      META_CONTENT_SECURITY_POLICY,
    );

    const probe = await page.evaluate(async (foreignUrl) => {
      const violations: string[] = [];
      document.addEventListener('securitypolicyviolation', (e) =>
        violations.push(`${e.effectiveDirective} ${e.blockedURI}`),
      );
      const script = document.createElement('script');
      script.textContent = 'document.documentElement.dataset.inlineRan = "yes"';
      document.body.append(script);
      // Code evaluated by the test itself may eval; code the page runs later (a timer) is held to the policy.
      const evalResult = await new Promise<string>((resolve) =>
        setTimeout(() => {
          try {
            resolve(String(new Function('return "ran"')()));
          } catch (e) {
            resolve((e as Error).name);
          }
        }),
      );
      const fetchResult = await fetch(foreignUrl).then(
        () => 'fetched',
        (e: Error) => e.name,
      );
      // Violation reports are queued as tasks; let them arrive.
      await new Promise((resolve) => setTimeout(resolve, 50));
      return { inlineRan: document.documentElement.dataset.inlineRan ?? 'no', evalResult, fetchResult, violations };
    }, `${sandbox.url}/__sandbox/faults`);

    expect(probe).toEqual({
      inlineRan: 'no',
      evalResult: 'EvalError',
      fetchResult: 'TypeError',
      violations: expect.arrayContaining([
        'script-src-elem inline',
        'script-src eval',
        `connect-src ${sandbox.url}/__sandbox/faults`,
      ]),
    });
    expect(app.consoleErrors.join('\n')).toMatch(/inline script violates the following Content Security Policy/);
  });

  it('exposes exactly the contract on a frozen, read-only window.api, and nothing of Node', async () => {
    const seen = await app.page.evaluate(() => {
      const api = window.api as unknown as Record<string, Record<string, unknown>>;
      const shape = Object.fromEntries(
        Object.entries(api).map(([domain, methods]) => [domain, Object.keys(methods).sort()]),
      );
      const descriptor = Object.getOwnPropertyDescriptor(window, 'api');
      return {
        shape,
        allFunctions: Object.values(api).every((methods) =>
          Object.values(methods).every((m) => typeof m === 'function'),
        ),
        frozen: Object.isFrozen(api) && Object.values(api).every((methods) => Object.isFrozen(methods)),
        writable: descriptor?.writable,
        configurable: descriptor?.configurable,
        replaced: Reflect.set(window, 'api', {}) || window.api !== (api as unknown),
        nodeGlobals: ['require', 'process', 'Buffer', 'module', 'ipcRenderer', 'electron'].filter(
          (name) => name in window,
        ),
      };
    });
    expect(seen).toEqual({
      shape: contractShape(),
      allFunctions: true,
      frozen: true,
      writable: false,
      configurable: false,
      replaced: false,
      nodeGlobals: [],
    });
  });

  it('reaches every channel of the real core from the page, and its events come back', async () => {
    const { page, harness, sandbox, merchant, core } = app;
    const before = harness.calls.length;
    const fixtures = sandbox.fixtures();
    const active = fixtures.subscriptions.find((s) => s.status === 'active')!;
    const outcome = await page.evaluate(
      async ({ url, key, secret, from, to, orderId, authorizedId, subscriptionId, receipt, policy }) => {
        const api = window.api;
        const events: unknown[] = [];
        const stop = api.on.connectivity((state) => events.push(state));
        const unwrap = async <T>(call: Promise<{ ok: true; value: T } | { ok: false; error: { code: string } }>) => {
          const result = await call;
          if (!result.ok) throw new Error(result.error.code);
          return result.value;
        };
        // Local mode: no action becomes a proposal.
        const sent = <T>(v: T) => v as Exclude<T, { pendingApproval: unknown }>;
        const fields = { name: 'Via bridge', environment: 'custom' as const, baseUrl: url, aiUrl: `${url}/ai`, key };
        await unwrap(api.app.info());
        await unwrap(api.app.connectivity());
        await unwrap(api.profiles.list());
        const created = await unwrap(api.profiles.create(fields));
        await unwrap(api.profiles.update({ id: created.id, fields: { ...fields, name: 'Via bridge (renamed)' } }));
        await unwrap(api.profiles.activate({ id: created.id }));
        const stored = await unwrap(api.credentials.set({ profileId: created.id, secret }));
        const status = await unwrap(api.credentials.status({ profileId: created.id }));
        const test = await unwrap(api.credentials.test({ profileId: created.id }));
        const finished = new Promise<unknown>((resolve) => {
          const off = api.on.syncFinished((event) => {
            off();
            resolve(event);
          });
        });
        const { jobId } = await unwrap(api.sync.start({ from, to }));
        const synced = await finished;
        const cancelled = await unwrap(api.sync.cancel({ jobId }));
        // The treasury screens' channels on the synced profile.
        const range = { from, to };
        const page = await unwrap(api.settlements.query({ ...range, limit: 5 }));
        const totals = await unwrap(api.settlements.totals(range));
        await unwrap(api.settlements.aggregate(range));
        await unwrap(api.settlements.facets(range));
        // What the sync changed, how complete each date is, and one record's exception workflow and triage.
        await unwrap(api.settlements.changes({ ...range, kind: 'changed', limit: 5 }));
        await unwrap(api.settlements.changesSummary(range));
        await unwrap(api.settlements.completeness(range));
        const broken = await unwrap(api.settlements.query({ ...range, exceptionsOnly: true, limit: 1 }));
        const recordId = broken.rows[0]!.id;
        await unwrap(api.settlements.exception({ recordId }));
        await unwrap(api.settlements.exceptionAction({ recordId, action: 'note', text: 'smoke' }));
        await unwrap(api.exceptions.queue({ filter: { state: 'open' }, offset: 0, limit: 50 }));
        await unwrap(api.exceptions.bulk({ action: 'acknowledge', filter: { state: 'open' }, text: 'smoke' }));
        await unwrap(api.desk.status({}));
        await unwrap(api.settlements.triage({ date: to, threshold: 0.5 }));
        const batches = await unwrap(api.recon.batches(range));
        const firstBatch = batches.batches[0];
        if (firstBatch) {
          const { date, pg, utr, settlementDate } = firstBatch;
          await unwrap(api.recon.batchRecords({ batch: { date, pg, utr, settlementDate }, offset: 0, limit: 5 }));
        }
        const bank = 'Smoke bank';
        await unwrap(
          api.recon.importStatement({
            fileName: 'statement.csv',
            content: btoa(
              `Date,Narration,Deposit Amt.\n${from.slice(8)}/${from.slice(5, 7)}/${from.slice(2, 4)},NEFT CR-X-123456789012,10.00\n`,
            ),
            account: bank,
          }),
        );
        await unwrap(api.recon.accounts());
        await unwrap(
          api.recon.previewStatement({
            fileName: 'statement.csv',
            content: btoa('Date,Narration,Amount\n'),
            account: bank,
          }),
        );
        await unwrap(api.recon.match({ account: bank, ...range }));
        await unwrap(api.recon.report({ account: bank, ...range }));
        await unwrap(api.recon.saveSettings({ windowDays: 2, overdueDays: 1 }));
        await unwrap(api.recon.export({ account: bank, ...range }));
        await unwrap(api.recon.saveTallyLedgers({ bank: 'Smoke bank', receivable: 'Smoke receivable', fees: 'Fees' }));
        // Refused or written, it is answered: a period with GST or subvention needs those ledgers named too.
        await api.recon.exportTally({ account: bank, ...range });
        const noBatch = { date: from, pg: 'payu', utr: 'none', settlementDate: `${from} 00:00:00` };
        const byHand = await api.recon.matchByHand({ account: bank, batch: noBatch, lineIds: [1], note: 'smoke' });
        const apart = await api.recon.unmatch({ account: bank, matchId: 999_999, note: 'smoke' });
        if (byHand.ok || apart.ok) throw new Error('recon.matchByHand / recon.unmatch accepted what does not exist');
        const accounts = await unwrap(api.accounts.refresh({}));
        await unwrap(api.accounts.overview());
        await unwrap(api.accounts.checkBalance({}));
        await unwrap(api.accounts.history({}));
        const added = sent(
          await unwrap(
            api.beneficiaries.create({
              requestKey: crypto.randomUUID(),
              beneficiary: { name: 'Bridge Vendor', vpa: 'bridge.vendor@okaxis' },
            }),
          ),
        );
        await unwrap(api.beneficiaries.fetch({ id: added.beneficiary.beneficiary_id }));
        await unwrap(api.beneficiaries.list({}));
        await unwrap(api.beneficiaries.matches({ vpa: 'bridge.vendor@okaxis' }));
        await unwrap(api.beneficiaries.verifyVpa({ vpa: 'bridge.vendor@okaxis' }));
        await unwrap(api.beneficiaries.ifsc({ ifsc: 'HDFC0000001' }));
        await unwrap(api.payouts.lookup({ payoutId: 'po_unknown', mode: 'normal' }));
        await unwrap(api.payouts.history({ payoutId: 'po_unknown' }));
        await unwrap(api.payouts.recent({}));
        const checkRun = await unwrap(api.payouts.check({ ids: ['po_unknown'], mode: 'normal' }));
        await unwrap(api.payouts.checkRun({ runId: checkRun.id }));
        const payoutSettings = await unwrap(api.payouts.settings({}));
        await unwrap(api.payouts.saveSettings(payoutSettings));
        await unwrap(api.payouts.watch({}));
        await unwrap(api.payouts.watchNow({}));
        const progress: unknown[] = [];
        const offProgress = api.on.exportProgress((p) => progress.push(p));
        const exported = new Promise<unknown>((resolve) => {
          const off = api.on.exportFinished((event) => {
            off();
            resolve(event);
          });
        });
        const exportJob = await unwrap(api.exports.start({ kind: 'settlements', format: 'xlsx', filter: range }));
        const exportEnd = await exported;
        offProgress();
        await unwrap(api.exports.reveal({ jobId: exportJob.jobId! }));
        await unwrap(api.exports.cancel({ jobId: exportJob.jobId! }));
        // The journal's channels on what the calls above wrote.
        const actions = await unwrap(api.journal.list({ kind: 'action' }));
        const attempt = actions.entries.find((e) => e.outcome === 'attempted')!;
        await unwrap(
          api.journal.checkStatus({ attemptSeq: attempt.seq, beneficiaryId: added.beneficiary.beneficiary_id }),
        );
        await unwrap(api.journal.unresolved());
        const verified = await unwrap(api.journal.verify());
        await unwrap(api.journal.lastVerification());
        const closed = await unwrap(api.journal.closePeriod(range));
        await unwrap(api.journal.periods(range));
        await unwrap(api.journal.periodDiff({ id: closed.id }));
        // Refused (nothing changed since the close), which still reaches the core and answers.
        const acknowledged = await api.journal.acknowledgePeriod({ id: closed.id });
        await unwrap(api.journal.reopenPeriod({ id: closed.id }));
        // The Merchant screens' channels: an order refunded and captured, a subscription charged and cancelled.
        await unwrap(api.orders.fetch({ id: orderId }));
        await unwrap(api.orders.cached({ id: orderId }));
        await unwrap(api.orders.recent());
        await unwrap(api.orders.refund({ requestKey: crypto.randomUUID(), orderId, amount: 100 }));
        await unwrap(api.orders.capture({ requestKey: crypto.randomUUID(), orderId: authorizedId }));
        const orderEntries = await unwrap(api.orders.actions({ id: orderId }));
        const refundSeq = orderEntries.find((e) => e.outcome === 'attempted')!.seq;
        const orderCheck = await unwrap(api.orders.checkStatus({ attemptSeq: refundSeq }));
        await unwrap(api.subscriptions.fetch({ id: receipt, by: 'receipt' }));
        await unwrap(api.subscriptions.cached({ id: subscriptionId }));
        await unwrap(api.subscriptions.recent());
        await unwrap(
          api.subscriptions.charge({
            requestKey: crypto.randomUUID(),
            id: subscriptionId,
            amount: 100,
            currency: 'INR',
          }),
        );
        await unwrap(api.subscriptions.cancel({ requestKey: crypto.randomUUID(), id: subscriptionId }));
        const subscriptionEntries = await unwrap(api.subscriptions.actions({ id: subscriptionId }));
        const cancelSeq = subscriptionEntries.find(
          (e) => e.event === 'subscription.cancel' && e.outcome === 'attempted',
        )!.seq;
        const subscriptionCheck = await unwrap(api.subscriptions.checkStatus({ attemptSeq: cancelSeq }));
        // The charge answered, so there is nothing for the desk to record: refused, still reaching the core.
        const recorded = await api.subscriptions.recordCharge({ attemptSeq: cancelSeq, charged: false });
        // Payable now, and the import's channels on a one-row file.
        await unwrap(api.accounts.headroom());
        await unwrap(api.accounts.setHeadroomThreshold({ pg: 'payu', threshold: 100 }));
        await unwrap(api.beneficiaries.changes({ id: added.beneficiary.beneficiary_id }));
        const sheet = {
          fileName: 'bridge.csv',
          content: btoa('Name,UPI address\r\nBridge Import,bridge.import@okaxis\r\n'),
        };
        await unwrap(api.beneficiaries.importPreview(sheet));
        const imported = await unwrap(api.beneficiaries.importRun(sheet));
        if ('pendingApproval' in imported) throw new Error('An import with no desk is sent, not proposed.');
        await unwrap(api.beneficiaries.importCancel());
        await unwrap(api.beneficiaries.importTemplate());
        await unwrap(api.beneficiaries.importResults({ report: imported }));
        // The Merchant tools' channels: a listing, a refused process (no such order), a plan made and checked,
        // webhooks listed and changed, a classification.
        await unwrap(api.tools.methods({ amount: '100' }));
        const processRefused = await api.tools.process({
          requestKey: 'bridge-process-1',
          order: { order_id: 'ord_bridge_missing', method: 'nb', code: 'HDFC' },
        });
        await unwrap(api.tools.currency({ from: 'USD', to: 'INR' }));
        const plan = sent(
          await unwrap(
            api.plans.create({
              requestKey: 'bridge-plan-1',
              plan: {
                title: 'Bridge',
                amount: '1',
                frequency: 30,
                cycle: 1,
                currency: 'INR',
                mer_reference_id: 'BRIDGE-1',
              },
            }),
          ),
        );
        await unwrap(api.plans.fetch({ id: plan.planId }));
        await unwrap(api.plans.checkCreate({ attemptSeq: plan.attemptSeq }));
        const hooks = await unwrap(api.webhooks.list({}));
        await unwrap(
          api.webhooks.update({ requestKey: 'bridge-hook-1', change: { id: hooks.endpoints[0]!.id, active: true } }),
        );
        await unwrap(
          api.classification.classify({ state: 'bridge', questions: { q: { type: 'noul', instructions: 'Is it?' } } }),
        );
        await unwrap(api.cache.list());
        const cacheStatus = await unwrap(api.cache.status());
        const integrity = await unwrap(api.cache.integrity());
        await unwrap(api.cache.clear({ profileId: 'sandbox' }));
        // Nothing was moved aside in this run: an empty list, and an unknown id neither shown nor dismissed.
        const notices = await unwrap(api.notices.list());
        const noticeRevealed = await unwrap(api.notices.reveal({ id: 'no-such-notice' }));
        const noticeDismissed = await unwrap(api.notices.dismiss({ id: 'no-such-notice' }));
        // Saved views of a table, kept in the settings file.
        const view = { name: 'Smoke', state: { filters: { pg: null }, sort: null, hidden: [] } };
        await unwrap(api.views.save({ table: 'settlements', view }));
        await unwrap(api.views.setDefault({ table: 'settlements', name: 'Smoke' }));
        const views = await unwrap(api.views.list({ table: 'settlements' }));
        await unwrap(api.views.remove({ table: 'settlements', name: 'Smoke' }));
        const deleted = await unwrap(api.credentials.delete({ profileId: created.id }));
        await unwrap(api.profiles.remove({ id: created.id }));
        const info = await unwrap(api.app.info());
        const invalid = await api.profiles.create({ ...fields, baseUrl: 'ftp://example.in' });
        // Connectivity events are pushed after the requests that cause them; give the stream a moment.
        for (let i = 0; i < 50 && events.length < 3; i++) await new Promise((r) => setTimeout(r, 20));
        stop();
        // Approvals need a desk: in local mode the policy says so, the counts are none, and each step is refused.
        const approvalSteps = [
          api.approvals.setPolicy({ policy }),
          api.approvals.list({ scope: 'waiting' }),
          api.approvals.review({ id: 'none' }),
          api.approvals.approve({ id: 'none' }),
          api.approvals.reject({ id: 'none', reason: 'not on a desk' }),
          api.approvals.withdraw({ id: 'none' }),
          api.approvals.checkStatus({ id: 'none' }),
          api.approvals.settle({ id: 'none', succeeded: false, note: 'not on a desk' }),
        ];
        const approvals = {
          policy: await unwrap(api.approvals.policy({})),
          counts: await unwrap(api.approvals.counts({})),
          steps: (await Promise.all(approvalSteps)).map((r) => (r.ok ? 'done' : r.error.code)),
        };
        // Today: its summary, its setting, and a "Refresh all" started and stopped.
        const refresh = await unwrap(api.today.refresh({}));
        const today = {
          cancelled: await unwrap(api.today.cancelRefresh({ jobId: refresh.jobId })),
          days: await unwrap(api.today.setRefreshDays({ days: 2 })),
          summary: await unwrap(api.today.summary({})),
        };
        return {
          stored,
          status,
          test,
          synced,
          cancelled,
          deleted,
          activeAfter: info.profile.id,
          verified: verified.ok,
          acknowledged,
          invalid,
          events,
          rows: page.rows.length,
          totals,
          gateways: accounts.accounts.length + accounts.gatewayErrors.length,
          exportEnd,
          exportProgress: progress.length,
          cacheStatus,
          integrity,
          notices: { notices, noticeRevealed, noticeDismissed },
          merchantChecks: [orderCheck.check.outcome, subscriptionCheck.check.outcome],
          recorded,
          processRefused,
          views,
          approvals,
          today,
        };
      },
      {
        url: sandbox.url,
        key: merchant.key,
        secret: merchant.secret,
        from: addDays(todayIst, -2),
        to: addDays(todayIst, -1),
        orderId: fixtures.orders.find((o) => o.status === 'success')!.id,
        authorizedId: fixtures.orders.find((o) => o.status === 'authorized')!.id,
        subscriptionId: active.id,
        receipt: active.receipt,
        policy: DEFAULT_POLICY,
      },
    );

    expect(new Set(harness.calls.slice(before))).toEqual(new Set(IPC_CHANNELS));
    expect(outcome).toMatchObject({
      approvals: { policy: { mode: 'local' }, counts: null, steps: Array(8).fill('DESK_REFUSED') },
      today: { cancelled: { cancelled: true }, days: { days: 2 }, summary: { mode: 'local', refreshDays: 2 } },
      views: { views: [{ name: 'Smoke' }], defaultName: 'Smoke' },
      stored: { hasSecret: true, keychainAvailable: true },
      synced: { summary: { status: 'completed', dates: [{ status: 'completed' }, { status: 'completed' }] } },
      cancelled: { cancelled: false },
      status: { hasSecret: true },
      test: { ok: true, gateways: sandbox.fixtures().gateways },
      deleted: { deleted: true },
      activeAfter: 'sandbox',
      notices: { notices: [], noticeRevealed: { revealed: false }, noticeDismissed: { dismissed: false } },
      verified: true,
      acknowledged: { ok: false, error: { code: 'PERIOD_NOT_CHANGED' } },
      processRefused: { ok: false, error: { code: 'API_API' } },
      invalid: { ok: false, error: { code: 'INVALID_INPUT', details: [expect.objectContaining({ path: 'baseUrl' })] } },
      // Connectivity is each profile's: the new profile starts not contacted, goes online with its first answer,
      // and removing it brings back the built-in profile, which this test never contacted.
      events: [
        { state: 'unknown', since: null },
        expect.objectContaining({ state: 'online' }),
        { state: 'unknown', since: null },
      ],
      rows: 5,
      totals: { count: 600 },
      exportEnd: { kind: 'settlements', format: 'xlsx', status: 'completed', rows: 600 },
      cacheStatus: { settlementsSyncedAt: expect.any(String), balancesAt: expect.any(String) },
      // The two dates synced above, as the sync wrote them.
      integrity: { dates: 2, mismatches: [], affectedDates: [] },
      // Both actions answered, so each check finds what they did.
      merchantChecks: ['succeeded', 'succeeded'],
      recorded: { ok: false, error: { code: 'STATUS_CHECK_INVALID' } },
    });
    expect(outcome.gateways).toBeGreaterThan(0);
    expect(outcome.exportProgress).toBeGreaterThan(0);
    expect(core.profiles.list().map((p) => p.id)).toEqual(['sandbox']);
  });

  it('answers only its own host, and only with the run token', async () => {
    const { harness } = app;
    const ipc = (headers: Record<string, string>) =>
      rawRequest(harness.origin, '/__harness/ipc', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ channel: 'app.info' }),
      });
    const good = { 'x-harness-token': harness.token };

    expect((await ipc(good)).status).toBe(200);
    expect((await ipc({})).status).toBe(403);
    expect((await ipc({ 'x-harness-token': harness.token.slice(1) })).status).toBe(403);
    expect((await ipc({ ...good, origin: 'http://evil.example' })).status).toBe(403);
    expect((await ipc({ ...good, host: `evil.example:${new URL(harness.origin).port}` })).status).toBe(403);
    for (const path of ['/index.html', '/', '/__harness/bridge.js', '/__harness/events', '/index.html?token=nope']) {
      expect((await rawRequest(harness.origin, path)).status, path).toBe(403);
    }
  });

  it('serves only files inside the build, with their content types', async () => {
    const { harness, page } = app;
    const assets = await page.evaluate(() =>
      [
        ...document.querySelectorAll<HTMLScriptElement | HTMLLinkElement>('script[type=module], link[rel=stylesheet]'),
      ].map((el) => new URL(el instanceof HTMLScriptElement ? el.src : el.href).pathname),
    );
    const types = await Promise.all(
      assets.map(async (path) => (await rawRequest(harness.origin, path)).headers['content-type']),
    );
    expect(types.sort()).toEqual(['text/css; charset=utf-8', 'text/javascript; charset=utf-8']);

    for (const path of [
      '/../package.json',
      '/assets/../../package.json',
      '/%2e%2e/package.json',
      '/assets/%2e%2e%2f%2e%2e%2fpackage.json',
      '/..%5c..%5cpackage.json',
      '/assets/%00.js',
      '/__harness/../../package.json',
      '/index.html/',
      '/nope.js',
    ]) {
      expect((await rawRequest(harness.origin, path)).status, path).toBe(404);
    }
  });
});
