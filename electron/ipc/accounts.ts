/** Handlers of the `accounts.*` channels, for the active profile. */
import type { ProfileStore } from '../profiles/profile-store';
import type { AccountService } from '../treasury/accounts';
import type { IpcHandlers } from './router';

export function createAccountHandlers(
  service: AccountService,
  profiles: ProfileStore,
): Pick<
  IpcHandlers,
  | 'accounts.overview'
  | 'accounts.refresh'
  | 'accounts.checkBalance'
  | 'accounts.history'
  | 'accounts.headroom'
  | 'accounts.setHeadroomThreshold'
> {
  const active = () => profiles.active().id;
  return {
    'accounts.overview': () => service.overview(active()),
    'accounts.refresh': ({ pg }) => service.refresh(active(), pg),
    'accounts.checkBalance': (filter) => service.checkBalance(active(), filter),
    'accounts.history': (query) => service.history(active(), query),
    'accounts.headroom': () => service.headroom(active()),
    'accounts.setHeadroomThreshold': ({ pg, threshold }) => service.setHeadroomThreshold(active(), pg, threshold),
  };
}
