/** Handlers of the `beneficiaries.*` channels, for the active profile. */
import type { ProfileStore } from '../profiles/profile-store';
import type { BeneficiaryService } from '../treasury/beneficiaries';
import type { IpcHandlers } from './router';

export function createBeneficiaryHandlers(
  service: BeneficiaryService,
  profiles: ProfileStore,
): Pick<
  IpcHandlers,
  | 'beneficiaries.list'
  | 'beneficiaries.create'
  | 'beneficiaries.fetch'
  | 'beneficiaries.matches'
  | 'beneficiaries.verifyVpa'
> {
  const active = () => profiles.active().id;
  return {
    'beneficiaries.list': (query) => service.list(active(), query),
    'beneficiaries.create': ({ requestKey, beneficiary }) => service.create(active(), requestKey, beneficiary),
    'beneficiaries.fetch': ({ id }) => service.fetch(active(), id),
    'beneficiaries.matches': (match) => service.matches(active(), match),
    'beneficiaries.verifyVpa': ({ vpa }) => service.verifyVpa(active(), vpa),
  };
}
