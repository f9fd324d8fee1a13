/**
 * Handlers of the `exceptions.*` and `desk.*` channels: the active profile's exception queue and bulk actions
 * (its cache alone, or its desk), and which of the two it is.
 */
import type { DeskRegistry } from '../desk/registry';
import type { ProfileStore } from '../profiles/profile-store';
import type { ExceptionQueue } from '../treasury/exception-queue';
import type { IpcHandlers } from './router';

export function createExceptionHandlers(
  queue: ExceptionQueue,
  desks: DeskRegistry,
  profiles: ProfileStore,
  localPerson: string,
): Pick<IpcHandlers, 'exceptions.queue' | 'exceptions.bulk' | 'desk.status'> {
  const active = () => profiles.active().id;
  return {
    'exceptions.queue': ({ filter, offset, limit }) => queue.queue(active(), filter, { offset, limit }),
    'exceptions.bulk': (request) => queue.bulk(active(), request),
    'desk.status': () => desks.state(active(), localPerson),
  };
}
