/**
 * Closing and reopening a period, for one person or a desk. Alone, a close is the cache's snapshot
 * (period-close.ts). On a desk it is also the desk's: closed there first (the desk enforces the approver role and
 * refuses an overlap), so it binds every console — exception actions on its records are refused with who closed it
 * and when — and reopening it there needs an approver and a reason, journaled by the desk. The local snapshot still
 * flags a sync that changes closed data, as before. The local entries of a close or reopen the desk journaled
 * itself are not mirrored to it (desk-mirror.ts): the desk's journal holds each action once.
 */
import type { ClosedPeriod } from '../../shared/journal';
import type { DeskRegistry } from '../desk/registry';
import { DeskError } from '../desk/errors';
import type { Journals } from './registry';

export function createPeriodService(deps: { journals: Journals; desks: DeskRegistry }) {
  return {
    async close(profileId: string, range: { from: string; to: string }): Promise<ClosedPeriod> {
      const desk = await deps.desks.for(profileId);
      if (desk) await desk.periods.close(range.from, range.to);
      return deps.journals.for(profileId).periods.close(range, desk !== null);
    },

    async reopen(profileId: string, id: number, reason?: string): Promise<void> {
      const periods = deps.journals.for(profileId).periods;
      const desk = await deps.desks.for(profileId);
      if (desk) {
        if (!reason?.trim()) throw new DeskError('BAD_INPUT', 'Reopening a period of the desk needs a reason.');
        const local = periods.list().find((p) => p.id === id);
        const open =
          local && (await desk.periods.list()).find((p) => !p.reopenedAt && p.from === local.from && p.to === local.to);
        if (open) await desk.periods.reopen(open.id, reason);
        periods.reopen(id, reason.trim(), Boolean(open));
        return;
      }
      periods.reopen(id, reason?.trim() || undefined);
    },
  };
}
export type PeriodService = ReturnType<typeof createPeriodService>;
