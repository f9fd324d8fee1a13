/** `sync settlements` and `settlements summary`: fill the cache from the API, and read it back offline. */
import { describeIssues } from '../../../shared/api/operations';
import { formatMoney } from '../../../shared/money';
import { futureDatesProblem, syncRequest, type SyncProgress, type SyncSummary } from '../../../shared/sync';
import { epochMsToIstDate } from '../../../shared/time';
import { journalSync } from '../../journal/syncs';
import { syncSettlements, writeKeysAfter } from '../../sync/settlement-sync';
import type { Command, Values } from '../command';
import type { Context } from '../context';
import { EXIT, UsageError, pagesAtOnce, progressLine, result, table, type Io } from '../io';

/** The profile's cache; if its file was unreadable and moved aside just now, the user hears where it went. */
export function openProfileCache(ctx: Context, io: Io) {
  const cache = ctx.core.cacheFor(ctx.profile.id);
  if (cache.recovered) io.err(`payout-console: ${cache.recovered.message}`);
  return cache;
}

export const range = { from: { type: 'string' }, to: { type: 'string' }, pg: { type: 'string' } } as const;

export function parseRange(values: Values) {
  const parsed = syncRequest.safeParse({
    from: values.from,
    to: values.to,
    ...(typeof values.pg === 'string' ? { pg: values.pg } : {}),
  });
  if (!parsed.success)
    throw new UsageError(
      describeIssues(parsed.error)
        .replace(/^from:/, '--from:')
        .replace(/^to:/, '--to:'),
    );
  return parsed.data;
}

function describeProgress(p: SyncProgress): string {
  const eta = p.etaSeconds === null ? '' : `, about ${Math.ceil(p.etaSeconds)} s left`;
  return `${p.currentDate ?? '…'}  ${p.datesDone}/${p.dates} dates, ${p.pages} pages, ${p.records.toLocaleString('en-IN')} records, ${Math.round(p.ratePerSec).toLocaleString('en-IN')}/s${eta}`;
}

function describeSummary(s: SyncSummary): string {
  const rows = s.dates.map((d) => [
    d.date,
    d.status,
    String(d.pages),
    String(d.records),
    String(d.updated),
    String(d.vanished),
    d.error ?? '',
  ]);
  const head = `Sync ${s.status} for ${s.from} to ${s.to}${s.pg ? ` (${s.pg})` : ''}${s.resumed ? ', resumed' : ''}: ${s.records.toLocaleString('en-IN')} records in ${(s.ms / 1000).toFixed(1)} s, ${s.concurrency} ${s.concurrency === 1 ? 'page' : 'pages'} at once.`;
  return [
    head,
    table(['DATE', 'STATUS', 'PAGES', 'RECORDS', 'UPDATED', 'VANISHED', 'ERROR'], rows, [
      'left',
      'left',
      'right',
      'right',
      'right',
      'right',
      'left',
    ]),
    ...(s.empty.length > 0
      ? [`The service returned no settlements for ${s.empty.length} of ${s.dates.length} dates: ${s.empty.join(', ')}.`]
      : []),
    ...s.failures.map(
      (f) => `${f.count} ${f.count === 1 ? 'date' : 'dates'} failed (${f.dates.join(', ')}): ${f.error}`,
    ),
  ].join('\n');
}

/** Ctrl-C cancels the sync cleanly: the pages stored so far stay, and the next sync resumes after them. */
export function cancelOnInterrupt(
  io: Io,
  what = 'the pages already stored are kept; run the same sync again to resume',
): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const onSignal = () => {
    io.err(`cancelling: ${what}`);
    controller.abort();
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  return {
    signal: controller.signal,
    dispose() {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}

const sync: Command = {
  words: ['sync', 'settlements'],
  usage: 'sync settlements --from YYYY-MM-DD --to YYYY-MM-DD [--pg CODE] [--concurrency N]',
  options: { ...range, concurrency: { type: 'string' } },
  async run({ ctx, values, io }) {
    const request = parseRange(values);
    const concurrency = pagesAtOnce('concurrency', values.concurrency) ?? ctx.profile.syncConcurrency;
    const future = futureDatesProblem(request, epochMsToIstDate(ctx.now()));
    if (future) throw new UsageError(future);
    const api = ctx.core.credentials.api(ctx.profile.id);
    const line = progressLine(io);
    const interrupt = cancelOnInterrupt(io);
    const journal = ctx.core.journals.for(ctx.profile.id);
    try {
      let summary: SyncSummary;
      const cache = openProfileCache(ctx, io);
      try {
        summary = await syncSettlements({
          api,
          cache,
          ...request,
          concurrency,
          signal: interrupt.signal,
          onProgress: (p) => line.update(describeProgress(p)),
        });
      } catch (e) {
        journalSync(journal, request, { error: e instanceof Error ? e.message : String(e) });
        throw e;
      }
      line.done();
      const changed = journalSync(journal, request, { summary });
      result(io, { ...summary, changedPeriods: changed }, () =>
        [
          describeSummary(summary),
          ...changed.map(
            (p) =>
              `Closed period ${p.from} to ${p.to} changed after close: ${p.added} added, ${p.vanished} vanished, ${p.modified} changed.`,
          ),
        ].join('\n'),
      );
      // After the answer is out, as the app does (an interrupt stops it; the next sync writes the rest).
      await writeKeysAfter(cache, 'main', interrupt.signal);
      // A partial or cancelled sync stored what it could, but the range is not done.
      if (summary.status !== 'completed') return EXIT.refused;
    } finally {
      interrupt.dispose();
      api.close();
    }
  },
};

const summary: Command = {
  words: ['settlements', 'summary'],
  usage: 'settlements summary --from YYYY-MM-DD --to YYYY-MM-DD [--pg CODE]   (from the local cache; works offline)',
  options: range,
  async run({ ctx, values, io }) {
    const { from, to, pg } = parseRange(values);
    const agg = openProfileCache(ctx, io).settlements.aggregate({ from, to, pg });
    result(io, agg, () => {
      const money = (v: number) => formatMoney(v);
      const rows = agg.byDate.map((d) => [
        d.date,
        d.pg,
        d.paymentMode,
        String(d.count),
        money(d.amount),
        money(d.fees),
        money(d.taxes),
        money(d.settled),
      ]);
      const t = agg.total;
      rows.push(['TOTAL', '', '', String(t.count), money(t.amount), money(t.fees), money(t.taxes), money(t.settled)]);
      return [
        table(['DATE', 'GATEWAY', 'MODE', 'COUNT', 'AMOUNT', 'FEES', 'TAXES', 'SETTLED'], rows, [
          'left',
          'left',
          'left',
          'right',
          'right',
          'right',
          'right',
          'right',
        ]),
        `As of ${agg.asOf ?? 'never synced'}.`,
      ].join('\n');
    });
  },
};

export const settlementCommands = [sync, summary];
