/** Handlers of the `journal.*` channels: the active profile's audit journal and closed periods. */
import type { PeriodService } from '../journal/period-service';
import type { Journals } from '../journal/registry';
import type { ProfileStore } from '../profiles/profile-store';
import type { BeneficiaryService } from '../treasury/beneficiaries';
import type { IpcHandlers } from './router';

type JournalChannels = Extract<keyof IpcHandlers, `journal.${string}`>;

export function createJournalHandlers(deps: {
  journals: Journals;
  profiles: ProfileStore;
  beneficiaries: BeneficiaryService;
  periods: PeriodService;
}): Pick<IpcHandlers, JournalChannels> {
  const active = () => deps.journals.for(deps.profiles.active().id);
  return {
    'journal.list': (filter) => {
      const { journal } = active();
      return { entries: journal.list(filter), head: journal.head() };
    },
    'journal.verify': () => active().journal.verify(),
    'journal.lastVerification': () => active().journal.lastVerification(),
    'journal.unresolved': () => active().journal.unresolved(),
    'journal.checkStatus': ({ attemptSeq, beneficiaryId }) =>
      deps.beneficiaries.checkStatus(deps.profiles.active().id, attemptSeq, beneficiaryId),
    'journal.periods': (range) => active().periods.list(range),
    'journal.closePeriod': (range) => deps.periods.close(deps.profiles.active().id, range),
    'journal.reopenPeriod': async ({ id, reason }) => {
      await deps.periods.reopen(deps.profiles.active().id, id, reason);
      return { reopened: true as const };
    },
    'journal.acknowledgePeriod': ({ id }) => active().periods.acknowledge(id),
    'journal.periodDiff': ({ id }) => active().periods.diff(id),
  };
}
