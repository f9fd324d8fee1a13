/** Schemas of the `today.*` channels: the Today screen's summary from the cache (and the desk), and "Refresh all". */
import { z } from 'zod';
import { refreshDays, refreshState, todaySummary } from '../today';
import type { DomainSchemas } from './contract';

export const todayChannels = {
  /** Every panel, each dated by its source; no request to the service. */
  'today.summary': { input: z.object({}).strict(), output: todaySummary },
  /**
   * Starts "Refresh all" (balances, a sync of the last N days, a watch round) and answers at once; its progress and
   * end arrive as `todayRefresh` events. A refresh already running is answered, not doubled.
   */
  'today.refresh': { input: z.object({}).strict(), output: refreshState },
  'today.cancelRefresh': {
    input: z.object({ jobId: z.string().min(1).max(64) }).strict(),
    output: z.object({ cancelled: z.boolean() }),
  },
  /** How many days "Refresh all" syncs. */
  'today.setRefreshDays': { input: z.object({ days: refreshDays }).strict(), output: z.object({ days: refreshDays }) },
} satisfies DomainSchemas<'today'>;
