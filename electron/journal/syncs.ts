/**
 * Sync runs in the journal: the range and gateway asked for, how it ended, and records stored, changed and
 * vanished. Then every closed period the range overlaps is compared with its snapshot (period-close.ts), so a
 * sync that changed a closed period turns it "changed after close" at once. (Settlement syncs have no manifest
 * digest: the API sends none; the period snapshots hold the digests.)
 */
import { formatCount, formatDateRange } from '../../shared/format';
import type { ClosedPeriod } from '../../shared/journal';
import type { SyncRequest, SyncSummary } from '../../shared/sync';
import type { ProfileJournal } from './registry';

export function journalSync(
  { journal, periods }: ProfileJournal,
  request: SyncRequest,
  ended: { summary: SyncSummary } | { error: string },
): ClosedPeriod[] {
  const range = `${formatDateRange(request.from, request.to)}${request.pg ? ` (${request.pg})` : ''}`;
  if ('error' in ended) {
    journal.append({
      kind: 'sync',
      event: 'sync.settlements',
      outcome: 'failed',
      summary: `Settlement sync ${range} failed: ${ended.error}`,
      data: { from: request.from, to: request.to, pg: request.pg ?? null, error: ended.error },
    });
    return [];
  }
  const s = ended.summary;
  journal.append({
    kind: 'sync',
    event: 'sync.settlements',
    outcome: s.status,
    summary:
      `Settlement sync ${range} ${s.status}: ${formatCount(s.records)} records stored, ` +
      `${formatCount(s.updated)} changed, ${formatCount(s.vanished)} vanished.`,
    data: {
      runId: s.runId,
      resumed: s.resumed,
      from: s.from,
      to: s.to,
      pg: s.pg,
      records: s.records,
      pages: s.pages,
      updated: s.updated,
      vanished: s.vanished,
      failedDates: s.dates.filter((d) => d.status === 'failed').map((d) => ({ date: d.date, error: d.error ?? null })),
    },
  });
  return periods.checkAfterSync({ from: request.from, to: request.to });
}
