/**
 * `settlements changes`, `settlements manifest` and `settlements exceptions …`: what syncs changed, how complete
 * each date's paging was, and the exception workflow with its triage. Read from the local cache (offline),
 * except the triage, which asks the classification service. `--json` gives amounts in integer paise.
 */
import { SETTLEMENT_MONEY_FIELDS } from '../../../shared/reconciliation';
import { describeIssues } from '../../../shared/api/operations';
import { formatMoney } from '../../../shared/money';
import {
  EXCEPTION_ACTIONS,
  changesFilter,
  type ChangesFilter,
  type ExceptionAction,
  type ExceptionDetail,
  type FieldChange,
} from '../../../shared/settlement-changes';
import { ExceptionWorkflowError } from '../../cache/settlement-exceptions';
import { triageDate } from '../../treasury/exception-triage';
import type { Command, Values } from '../command';
import { EXIT, InputError, UsageError, result, table } from '../io';
import { cancelOnInterrupt, openProfileCache, parseRange, range } from './settlements';

export function describeFieldChange(f: FieldChange): string {
  const show = (v: string | number | null) =>
    v === null || v === ''
      ? '(none)'
      : SETTLEMENT_MONEY_FIELDS.has(f.field) && typeof v === 'number'
        ? formatMoney(v)
        : String(v);
  return `${f.field}: ${show(f.old)} → ${show(f.new)}`;
}

/** The Changes view's selection from the flags (`settlements changes` and `export changes`). */
export const CHANGES_FLAGS =
  '--from YYYY-MM-DD --to YYYY-MM-DD [--pg CODE] [--run ID] [--kind new|changed|vanished|returned]';
export const changesOptions = { ...range, run: { type: 'string' }, kind: { type: 'string' } } as const;
export function parseChangesFilter(values: Values): ChangesFilter {
  const { from, to, pg } = parseRange(values);
  const runId = typeof values.run === 'string' ? Number(values.run) : undefined;
  const parsed = changesFilter.safeParse({
    from,
    to,
    ...(pg ? { pg } : {}),
    ...(runId === undefined ? {} : { runId }),
    ...(values.kind === undefined ? {} : { kind: values.kind }),
  });
  if (!parsed.success) {
    throw new InputError(
      describeIssues(parsed.error)
        .replace(/^runId:/, '--run:')
        .replace(/^kind:/, '--kind:'),
    );
  }
  return parsed.data;
}

const changes: Command = {
  words: ['settlements', 'changes'],
  usage: `settlements changes ${CHANGES_FLAGS}   (from the local cache)`,
  options: changesOptions,
  async run({ ctx, values, io }) {
    const query = parseChangesFilter(values);
    const cache = openProfileCache(ctx, io);
    const all = [...cache.changes.all(query)];
    const summary = cache.changes.summary(query);
    result(io, { ...summary, changes: all }, () => {
      const rows = all.map((c) => [
        c.date,
        String(c.runId),
        c.kind,
        c.pg,
        c.pgTransactionId,
        c.settlementDate,
        c.fields.map(describeFieldChange).join('; '),
      ]);
      const k = summary.byKind;
      return [
        `${all.length} changes: ${k.new} new, ${k.changed} changed, ${k.vanished} vanished, ${k.returned} returned.`,
        table(['DATE', 'RUN', 'KIND', 'GATEWAY', 'TRANSACTION', 'SETTLED AT', 'WHAT CHANGED'], rows),
      ].join('\n');
    });
  },
};

const manifest: Command = {
  words: ['settlements', 'manifest'],
  usage:
    'settlements manifest --from YYYY-MM-DD --to YYYY-MM-DD [--pg CODE]   (each date’s completeness, from the local cache)',
  options: range,
  async run({ ctx, values, io }) {
    const { from, to, pg } = parseRange(values);
    const dates = openProfileCache(ctx, io).manifests.completeness({ from, to, pg });
    result(io, { from, to, pg: pg ?? null, dates }, () => {
      const rows = dates.flatMap((d) =>
        d.gateways.length === 0
          ? [[d.date, d.state, '', '', '', '', '', '', '', '']]
          : d.gateways.map((g) => [
              d.date,
              d.state,
              g.pg,
              String(g.pages),
              String(g.records),
              formatMoney(g.settled),
              String(g.passes),
              String(g.shifts),
              g.stable ? 'yes' : 'NO',
              g.digest,
            ]),
      );
      const unstable = dates.filter((d) => d.state === 'unstable').length;
      const unknown = dates.filter((d) => d.state === 'unknown').length;
      return [
        table(
          ['DATE', 'STATE', 'GATEWAY', 'PAGES', 'RECORDS', 'SETTLED', 'PASSES', 'SHIFTS', 'STABLE', 'DIGEST'],
          rows,
          ['left', 'left', 'left', 'right', 'right', 'right', 'right', 'right', 'left', 'left'],
        ),
        `${dates.length - unstable - unknown} of ${dates.length} synced dates complete` +
          (unstable ? `; ${unstable} not stable (the service changed while it was paged: sync them again)` : '') +
          (unknown ? `; ${unknown} synced before manifests were kept` : '') +
          '.',
      ].join('\n');
    });
  },
};

function recordId(text: string | undefined): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n <= 0)
    throw new InputError(`record id: expected a positive whole number, got "${text ?? ''}"`);
  return n;
}

const actions: Command[] = EXCEPTION_ACTIONS.map((action: ExceptionAction) => ({
  words: ['settlements', 'exceptions', action],
  usage: `settlements exceptions ${action} RECORD_ID${action === 'note' || action === 'assign' ? ' --text TEXT' : ' [--text NOTE]'}`,
  options: { text: { type: 'string' } },
  positionals: { min: 1, max: 1, names: 'RECORD_ID' },
  async run({ ctx, values, positionals, io }) {
    const cache = openProfileCache(ctx, io);
    const text = typeof values.text === 'string' ? values.text : undefined;
    const request = { recordId: recordId(positionals[0]), action, ...(text === undefined ? {} : { text }) };
    let detail;
    try {
      detail = cache.exceptions.act(request as Parameters<typeof cache.exceptions.act>[0]);
    } catch (e) {
      if (e instanceof ExceptionWorkflowError) throw new InputError(e.message);
      if (e instanceof Error && e.name === 'ZodError') {
        throw new InputError(describeIssues(e as Parameters<typeof describeIssues>[0]).replace(/^text:/, '--text:'));
      }
      throw e;
    }
    result(io, detail, () => describeState(detail));
  },
}));

function describeState(state: ExceptionDetail): string {
  return [
    `State: ${state.state}${state.assignee ? `, assigned to ${state.assignee}` : ''}${state.tag ? `, tagged ${state.tag}` : ''}.`,
    ...(state.note ? [`Note: ${state.note}`] : []),
    ...state.events.map((e) => `  ${e.at}  ${e.action}${e.text ? `: ${e.text}` : ''}`),
  ].join('\n');
}

const show: Command = {
  words: ['settlements', 'exceptions', 'show'],
  usage: 'settlements exceptions show RECORD_ID',
  positionals: { min: 1, max: 1, names: 'RECORD_ID' },
  async run({ ctx, positionals, io }) {
    const cache = openProfileCache(ctx, io);
    let detail;
    try {
      detail = cache.exceptions.detail(recordId(positionals[0]));
    } catch (e) {
      throw e instanceof ExceptionWorkflowError ? new InputError(e.message) : e;
    }
    result(io, detail, () => describeState(detail));
  },
};

const triage: Command = {
  words: ['settlements', 'exceptions', 'triage'],
  usage:
    'settlements exceptions triage --date YYYY-MM-DD [--pg CODE] [--threshold P] [--again]   (asks the classification service; without --threshold, the one set by recon settings)',
  options: {
    date: { type: 'string' },
    pg: { type: 'string' },
    threshold: { type: 'string' },
    again: { type: 'boolean' },
  },
  async run({ ctx, values, io }) {
    if (typeof values.date !== 'string') throw new UsageError('--date is required');
    const threshold = typeof values.threshold === 'string' ? Number(values.threshold) : undefined;
    if (threshold !== undefined && !(threshold >= 0 && threshold <= 1)) {
      throw new InputError(`--threshold: expected a probability from 0 to 1, got "${String(values.threshold)}"`);
    }
    const cache = openProfileCache(ctx, io);
    const api = ctx.core.credentials.api(ctx.profile.id);
    const interrupt = cancelOnInterrupt(io, 'the answers already stored are kept');
    try {
      const summary = await triageDate({
        api,
        cache,
        request: {
          date: values.date,
          ...(typeof values.pg === 'string' ? { pg: values.pg } : {}),
          ...(threshold === undefined ? {} : { threshold }),
          again: values.again === true,
        },
        signal: interrupt.signal,
      });
      result(io, summary, () =>
        [
          `${summary.date}: ${summary.exceptions} exceptions, ${summary.triaged} triaged (${summary.tagged} tagged), ${summary.skipped} skipped${summary.model ? `; model ${summary.model}` : ''}.`,
          ...summary.failed.map((f) => `  not triaged: record ${f.recordId} (${f.pgTransactionId}): ${f.reason}`),
        ].join('\n'),
      );
      return summary.failed.length > 0 ? EXIT.refused : EXIT.done;
    } finally {
      interrupt.dispose();
      api.close();
    }
  },
};

export const settlementReviewCommands: Command[] = [changes, manifest, show, ...actions, triage];
