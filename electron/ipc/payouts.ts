/** Handlers of the `payouts.*` channels, for the active profile. */
import type { ProfileStore } from '../profiles/profile-store';
import type { Cache } from '../cache/database';
import type { PayoutCheckService } from '../treasury/payout-checks';
import type { PayoutWatch } from '../treasury/payout-watch';
import type { PayoutService } from '../treasury/payouts';
import type { IpcHandlers } from './router';

export function createPayoutHandlers(
  service: PayoutService,
  checks: PayoutCheckService,
  watch: PayoutWatch,
  cacheFor: (profileId: string) => Cache,
  profiles: ProfileStore,
): Pick<
  IpcHandlers,
  | 'payouts.lookup'
  | 'payouts.history'
  | 'payouts.recent'
  | 'payouts.check'
  | 'payouts.checkRun'
  | 'payouts.settings'
  | 'payouts.saveSettings'
  | 'payouts.watch'
  | 'payouts.watchNow'
> {
  const active = () => profiles.active().id;
  return {
    'payouts.lookup': ({ payoutId, mode }) => service.lookup(active(), payoutId, mode),
    'payouts.history': ({ payoutId }) => service.history(active(), payoutId),
    'payouts.recent': ({ limit }) => service.recent(active(), limit),
    'payouts.check': (request) => checks.check(active(), request),
    'payouts.checkRun': ({ runId }) => (runId === undefined ? checks.latest(active()) : checks.get(active(), runId)),
    'payouts.settings': () => cacheFor(active()).payoutSettings.get(),
    'payouts.saveSettings': (settings) => cacheFor(active()).payoutSettings.put(settings),
    'payouts.watch': () => watch.state(active()),
    'payouts.watchNow': () => watch.tick(active()),
  };
}
