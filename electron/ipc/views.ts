/** Handlers of the `views.*` channels: the active profile's saved views, kept in the settings file. */
import type { ProfileStore } from '../profiles/profile-store';
import type { IpcHandlers } from './router';

export function createViewHandlers(
  profiles: ProfileStore,
): Pick<IpcHandlers, 'views.list' | 'views.save' | 'views.remove' | 'views.setDefault'> {
  const active = () => profiles.active().id;
  return {
    'views.list': ({ table }) => profiles.views(active(), table),
    'views.save': ({ table, view }) => profiles.saveView(active(), table, view),
    'views.remove': ({ table, name }) => profiles.removeView(active(), table, name),
    'views.setDefault': ({ table, name }) => profiles.setDefaultView(active(), table, name),
  };
}
