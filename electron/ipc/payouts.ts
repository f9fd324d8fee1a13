/** Handlers of the `payouts.*` channels, for the active profile. */
import type { ProfileStore } from '../profiles/profile-store';
import type { PayoutService } from '../treasury/payouts';
import type { IpcHandlers } from './router';

export function createPayoutHandlers(
  service: PayoutService,
  profiles: ProfileStore,
): Pick<IpcHandlers, 'payouts.lookup' | 'payouts.history' | 'payouts.recent'> {
  const active = () => profiles.active().id;
  return {
    'payouts.lookup': ({ payoutId, mode }) => service.lookup(active(), payoutId, mode),
    'payouts.history': ({ payoutId }) => service.history(active(), payoutId),
    'payouts.recent': ({ limit }) => service.recent(active(), limit),
  };
}
