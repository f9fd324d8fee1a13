/** Handlers of the `payouts.*` channels, for the active profile. */
import type { ProfileStore } from '../profiles/profile-store';
import type { PayoutCheckService } from '../treasury/payout-checks';
import type { PayoutService } from '../treasury/payouts';
import type { IpcHandlers } from './router';

export function createPayoutHandlers(
  service: PayoutService,
  checks: PayoutCheckService,
  profiles: ProfileStore,
): Pick<
  IpcHandlers,
  'payouts.lookup' | 'payouts.history' | 'payouts.recent' | 'payouts.check' | 'payouts.checkRun'
> {
  const active = () => profiles.active().id;
  return {
    'payouts.lookup': ({ payoutId, mode }) => service.lookup(active(), payoutId, mode),
    'payouts.history': ({ payoutId }) => service.history(active(), payoutId),
    'payouts.recent': ({ limit }) => service.recent(active(), limit),
    'payouts.check': (request) => checks.check(active(), request),
    'payouts.checkRun': ({ runId }) =>
      runId === undefined ? checks.latest(active()) : checks.get(active(), runId),
  };
}
