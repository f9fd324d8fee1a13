/**
 * Test hooks, outside the interface's namespace (the packaged app never exposes them):
 *   GET    /__sandbox/fixtures               ids and states of the seeded (and created) resources
 *   GET    /__sandbox/faults                 the faults still armed
 *   POST   /__sandbox/faults                 arm a fault (faults.ts)
 *   DELETE /__sandbox/faults                 disarm all
 *   POST   /__sandbox/settlements/fill-utrs   {date}: the UTR-pending batches of a date get their UTR; answers which.
 *   POST   /__sandbox/statement              {from, to, discrepancies?: {missing, short, split, orphan}}: the bank
 *                                            statement of those dates (bank-statement.ts) as CSV text, its lines,
 *                                            and the truth (which batch got which discrepancy).
 *   POST   /__sandbox/settlements/mutate     {date, count, remove?, restore?}: change `count` records of a
 *                                            date (new UTR, late UTR, or a dispute), make `remove` others
 *                                            vanish (default ceil(count / 2)) and list `restore` removed
 *                                            ones again (records added), deterministically, so a re-sync
 *                                            (or a sync paging the date) sees it; answers which.
 * No authentication: the hooks only exist on the loopback sandbox.
 */
import { z } from 'zod';
import { describeIssues } from '../../shared/api/operations';
import { calendarDate } from '../../shared/api/common';
import { buildStatement, statementCsv } from './data/bank-statement';
import type { SettlementSource } from './data/settlements';
import { faultSpec, type FaultQueue } from './faults';
import { CODE, fail, invalid, type Reply } from './handlers/reply';
import type { Fixtures } from './state';

export const HOOK_PREFIX = '/__sandbox/';

export interface HookDeps {
  faults: FaultQueue;
  settlements: SettlementSource;
  fixtures(): Fixtures;
  settlementDates(): readonly string[];
}

const fillSpec = z.object({ date: calendarDate }).strict();

const count = z.number().int().nonnegative().max(50);
const statementSpec = z
  .object({
    from: calendarDate,
    to: calendarDate,
    discrepancies: z.object({ missing: count, short: count, split: count, orphan: count }).strict().optional(),
  })
  .strict();

const mutateSpec = z
  .object({
    date: calendarDate,
    count: z.number().int().nonnegative().max(100_000),
    remove: z.number().int().nonnegative().max(100_000).optional(),
    restore: z.number().int().nonnegative().max(100_000).optional(),
  })
  .strict();

export function handleHook(method: string, pathname: string, body: unknown, deps: HookDeps): Reply {
  const route = `${method} ${pathname.replace(/\/$/, '')}`;
  switch (route) {
    case 'GET /__sandbox/fixtures':
      return { http: 200, body: deps.fixtures() };
    case 'GET /__sandbox/faults':
      return { http: 200, body: { status: true, faults: deps.faults.list() } };
    case 'POST /__sandbox/faults': {
      const spec = faultSpec.safeParse(body);
      if (!spec.success) return invalid(describeIssues(spec.error));
      deps.faults.add(spec.data);
      return { http: 200, body: { status: true, faults: deps.faults.list() } };
    }
    case 'DELETE /__sandbox/faults':
      deps.faults.clear();
      return { http: 200, body: { status: true, faults: [] } };
    case 'POST /__sandbox/settlements/mutate': {
      const spec = mutateSpec.safeParse(body);
      if (!spec.success) return invalid(describeIssues(spec.error));
      const { date, count, remove = Math.ceil(count / 2), restore = 0 } = spec.data;
      if (!deps.settlementDates().includes(date))
        return invalid(`date: ${date} is outside the sandbox's 90 settlement days`);
      return { http: 200, body: { status: true, ...deps.settlements.mutate(date, count, remove, restore) } };
    }
    case 'POST /__sandbox/settlements/fill-utrs': {
      const spec = fillSpec.safeParse(body);
      if (!spec.success) return invalid(describeIssues(spec.error));
      if (!deps.settlementDates().includes(spec.data.date))
        return invalid(`date: ${spec.data.date} is outside the sandbox's 90 settlement days`);
      return { http: 200, body: { status: true, filled: deps.settlements.fillPendingUtrs(spec.data.date) } };
    }
    case 'POST /__sandbox/statement': {
      const spec = statementSpec.safeParse(body);
      if (!spec.success) return invalid(describeIssues(spec.error));
      const { from, to, discrepancies } = spec.data;
      const dates = deps.settlementDates();
      if (from > to || !dates.includes(from) || !dates.includes(to))
        return invalid(`from, to: give a range within the sandbox's 90 settlement days, from before to`);
      const statement = buildStatement(deps.settlements, from, to, discrepancies);
      return { http: 200, body: { status: true, ...statement, csv: statementCsv(statement) } };
    }
    default:
      return fail(CODE.notFound, `No sandbox hook ${route}`, 404);
  }
}
